import Foundation
import PhotoCurate
import PhotoCurateModels

/// Turns CenterFace's four maps into faces: peaks of the heatmap above a threshold,
/// box sizes from the scale map, sub-cell offsets, landmarks relative to the box,
/// then non-maximum suppression.
///
/// ```swift
/// let faces = CenterFaceDecoder(threshold: 0.5, overlap: 0.3, minSize: 12).faces(outputs, width: 768, height: 576)
/// ```
/// The maps are at 1/4 of the input: cell (r, c) stands for pixel (4c + 2, 4r + 2).
struct CenterFaceDecoder {
    var threshold: Float
    var overlap: Float
    var minSize: Float

    /// One face the maps give: box (x0, y0, x1, y1) and landmarks in input pixels.
    struct Candidate: Equatable {
        var box: [Float]
        var score: Float
        var marks: [Float]

        /// The same face moved by (dx, dy) and scaled by `by` about the origin.
        func placed(dx: Float = 0, dy: Float = 0, by k: Float = 1) -> Candidate {
            Candidate(box: box.enumerated().map { $0.element * k + ($0.offset % 2 == 0 ? dx : dy) }, score: score,
                      marks: marks.enumerated().map { $0.element * k + ($0.offset % 2 == 0 ? dx : dy) })
        }
    }

    func faces(_ out: [Tensor], width: Int, height: Int) -> [Face] {
        Self.normalized(suppressed(candidates(out, width: width, height: height)), width: width, height: height)
    }

    /// The strongest face response anywhere in the maps (0 when they are not CenterFace's),
    /// whatever its size or place: a face lying on its side still stirs it a little.
    static func strongest(_ out: [Tensor]) -> Float {
        guard out.count == 4, out[0].shape.count == 4 else { return 0 }
        return out[0].data.max() ?? 0
    }

    /// The strongest face response over a region (x0, y0, x1, y1) given in pixels of an image
    /// `scale` times the maps' input; `nil` without a heat map. The heat map is a quarter of the
    /// input on each side.
    static func strongest(_ out: [Tensor], over region: [Int], scale: Int) -> Float? {
        guard let h = out.first, h.shape.count == 4 else { return nil }
        let rows = h.shape[2], cols = h.shape[3], k = 4 * scale
        let x0 = max(0, region[0] / k), y0 = max(0, region[1] / k)
        let x1 = min(cols, (region[2] + k - 1) / k), y1 = min(rows, (region[3] + k - 1) / k)
        guard x0 < x1, y0 < y1 else { return 0 }
        var m: Float = 0
        for r in y0..<y1 { for c in x0..<x1 { m = max(m, h.data[r * cols + c]) } }
        return m
    }

    /// Every peak over the threshold as a face in pixels of a `width` × `height` input, before suppression.
    func candidates(_ out: [Tensor], width: Int, height: Int) -> [Candidate] {
        guard out.count == 4, out[0].shape.count == 4 else { return [] }
        let rows = out[0].shape[2], cols = out[0].shape[3], plane = rows * cols
        let heat = out[0].data, scale = out[1].data, offset = out[2].data, marks = out[3].data
        guard scale.count >= 2 * plane, offset.count >= 2 * plane, marks.count >= 10 * plane else { return [] }
        var found: [Candidate] = []
        for r in 0..<rows {
            for c in 0..<cols where heat[r * cols + c] > threshold {
                let i = r * cols + c
                let sh = exp(scale[i]) * 4, sw = exp(scale[plane + i]) * 4
                let oy = offset[i], ox = offset[plane + i]
                let x0 = max(0, (Float(c) + ox + 0.5) * 4 - sw / 2), y0 = max(0, (Float(r) + oy + 0.5) * 4 - sh / 2)
                let x1 = min(Float(width), x0 + sw), y1 = min(Float(height), y0 + sh)
                guard x1 - x0 >= minSize, y1 - y0 >= minSize else { continue }
                var lm: [Float] = []
                for j in 0..<5 {
                    lm.append(marks[(2 * j + 1) * plane + i] * sw + x0)
                    lm.append(marks[(2 * j) * plane + i] * sh + y0)
                }
                found.append(Candidate(box: [x0, y0, x1, y1], score: heat[i], marks: lm))
            }
        }
        return found
    }

    /// Best first; a face overlapping a better one more than `overlap` is that face.
    func suppressed(_ found: [Candidate]) -> [Candidate] {
        var kept: [Candidate] = []
        for f in Self.ranked(found) where !kept.contains(where: { Self.iou($0.box, f.box) > overlap }) { kept.append(f) }
        return kept
    }

    /// Best first; ties by position, so the order never depends on anything else.
    static func ranked(_ found: [Candidate]) -> [Candidate] {
        found.sorted { $0.score != $1.score ? $0.score > $1.score : ($0.box[1], $0.box[0]) < ($1.box[1], $1.box[0]) }
    }

    /// Faces with boxes and landmarks as fractions of a `width` × `height` frame.
    static func normalized(_ kept: [Candidate], width: Int, height: Int) -> [Face] {
        let W = Double(width), H = Double(height)
        func r(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }
        return kept.map { f in
            Face(box: [r(Double(f.box[0]) / W), r(Double(f.box[1]) / H), r(Double(f.box[2] - f.box[0]) / W), r(Double(f.box[3] - f.box[1]) / H)],
                 confidence: r(Double(f.score)),
                 landmarks: f.marks.enumerated().map { r(Double($0.element) / ($0.offset % 2 == 0 ? W : H)) })
        }
    }

    static func iou(_ a: [Float], _ b: [Float]) -> Float {
        let ix = max(0, min(a[2], b[2]) - max(a[0], b[0])), iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
        let inter = ix * iy, union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
        return union > 0 ? inter / union : 0
    }
}
