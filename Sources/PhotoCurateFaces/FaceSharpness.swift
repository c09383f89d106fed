import Foundation
import PhotoCurate

/// How much fine detail a face holds: the Laplacian's energy over the gradient's in
/// the middle of the face box (eyes to mouth), on the analysis image's luma.
///
/// ```swift
/// FaceSharpness.measure(face.box, in: image)   // 0.42; a blurred copy of the frame reads less
/// ```
/// The ratio does not move with the face's contrast or lighting, only with how
/// steep its edges are, so frames of one burst compare directly. It does move with
/// the face's size in pixels: compare faces of about the same size.
enum FaceSharpness {
    static func measure(_ box: [Double], in image: AnalysisImage) -> Double? {
        let W = image.width, H = image.height
        let x0 = max(1, Int((box[0] + 0.2 * box[2]) * Double(W))), x1 = min(W - 1, Int((box[0] + 0.8 * box[2]) * Double(W)))
        let y0 = max(1, Int((box[1] + 0.2 * box[3]) * Double(H))), y1 = min(H - 1, Int((box[1] + 0.8 * box[3]) * Double(H)))
        guard x1 - x0 >= 6, y1 - y0 >= 6 else { return nil }
        var lap = 0.0, grad = 0.0
        image.luma.withUnsafeBufferPointer { l in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = y * W + x
                    let c = Double(l[i])
                    let gx = Double(l[i + 1] - l[i - 1]) / 2, gy = Double(l[i + W] - l[i - W]) / 2
                    let lp = Double(l[i + 1] + l[i - 1] + l[i + W] + l[i - W]) - 4 * c
                    lap += lp * lp; grad += gx * gx + gy * gy
                }
            }
        }
        guard grad > 1 else { return nil }
        return (sqrt(lap / grad) * 1e4).rounded() / 1e4
    }
}
