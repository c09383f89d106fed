import Foundation
import PhotoCurate

/// Each face of a result as a JPEG crop with what was read drawn on it: the box
/// (green), the detector's five points (red) and the mesh's eye, mouth and nose
/// points (yellow). For checking a verdict by eye: `photocurate inspect --faces-out`.
///
/// ```swift
/// let files = try FaceCrops.write(result, image: image, name: "IMG_0042", to: "faces/")
/// // ["faces/IMG_0042-face1.jpg", …]
/// ```
/// Crops are cut from the upright analysis image (turned first when the photo is
/// stored on its side), 1.6× the box, and enlarged to at least 256 px.
public enum FaceCrops {
    public static func write(_ result: FaceResult, image: AnalysisImage, name: String, to dir: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let img = result.suggestedRotation.map { FaceAnalyzer.rotated(image, clockwise: $0) } ?? image
        let W = Double(img.width), H = Double(img.height)
        var files: [String] = []
        for (k, f) in result.faces.enumerated() {
            let side = 1.6 * max(f.box[2] * W, f.box[3] * H)
            let cx = (f.box[0] + f.box[2] / 2) * W, cy = (f.box[1] + f.box[3] / 2) * H
            let x0 = max(0, Int(cx - side / 2)), y0 = max(0, Int(cy - side / 2))
            let x1 = min(img.width, Int(cx + side / 2)), y1 = min(img.height, Int(cy + side / 2))
            guard x1 - x0 >= 2, y1 - y0 >= 2 else { continue }
            let zoom = max(1, Int((256 / Double(max(x1 - x0, y1 - y0))).rounded(.up)))
            let cw = (x1 - x0) * zoom, ch = (y1 - y0) * zoom
            var px = [UInt8](repeating: 0, count: cw * ch * 3)
            for y in 0..<ch {
                for x in 0..<cw {
                    let s = 3 * ((y0 + y / zoom) * img.width + x0 + x / zoom), d = 3 * (y * cw + x)
                    px[d] = img.rgb[s]; px[d + 1] = img.rgb[s + 1]; px[d + 2] = img.rgb[s + 2]
                }
            }
            // Frame fractions → crop pixels.
            func at(_ fx: Double, _ fy: Double) -> (Int, Int) { (Int((fx * W - Double(x0)) * Double(zoom)), Int((fy * H - Double(y0)) * Double(zoom))) }
            func dot(_ p: (Int, Int), _ c: [UInt8], r: Int) {
                for y in (p.1 - r)...(p.1 + r) where y >= 0 && y < ch {
                    for x in (p.0 - r)...(p.0 + r) where x >= 0 && x < cw {
                        let o = 3 * (y * cw + x)
                        px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2]
                    }
                }
            }
            let (bx0, by0) = at(f.box[0], f.box[1]), (bx1, by1) = at(f.box[0] + f.box[2], f.box[1] + f.box[3])
            let green: [UInt8] = [0, 255, 0]
            for x in stride(from: bx0, through: bx1, by: 1) { dot((x, by0), green, r: 0); dot((x, by1), green, r: 0) }
            for y in stride(from: by0, through: by1, by: 1) { dot((bx0, y), green, r: 0); dot((bx1, y), green, r: 0) }
            for j in stride(from: 0, to: f.landmarks.count - 1, by: 2) { dot(at(f.landmarks[j], f.landmarks[j + 1]), [255, 0, 0], r: 2) }
            if let pts = f.mesh?.points {
                for j in stride(from: 0, to: pts.count - 1, by: 2) { dot(at(pts[j], pts[j + 1]), [255, 230, 0], r: 1) }
            }
            let path = dir + "/\(name)-face\(k + 1).jpg"
            let jpeg = try VImage.from(pixels: px, width: cw, height: ch, bands: 3).jpeg(quality: 90)
            try AtomicFile.write(Data(jpeg), to: path)
            files.append(path)
        }
        return files
    }
}
