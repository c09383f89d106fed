import Foundation
import PhotoCurate
import PhotoCurateModels

/// MediaPipe's 468-point face mesh on one detected face, and what follows from its
/// points: how open each eye is, how wide and lifted the mouth is, yaw and roll.
///
/// Input: the analysis image and a CenterFace detection. Output: `FaceMesh.Reading`.
///
/// ```swift
/// let r = try FaceMesh.read(face, in: image, session: sessions.session(for: "face-landmarks"))
/// r.eyeOpenness   // [0.31, 0.29]: lid gap / eye width, right then left eye
/// ```
/// The crop is square, 1.5× the detected box, turned so the eyes are level (as
/// MediaPipe's own graph does), and sampled bilinearly to 192×192. Ratios are taken
/// in the crop, where the face is level and scaled evenly, so they need no
/// correction for roll or size.
enum FaceMesh {
    static let side = 192

    struct Reading {
        /// Face presence from the mesh model's own head, 0–1.
        var presence: Double
        /// Lid gap over eye width, right eye then left (the subject's).
        var eyeOpenness: [Double]
        /// Mouth width over the distance between the outer eye corners.
        var mouthWidth: Double
        /// Mouth corners above the middle of the lips, over the same distance (> 0 when raised).
        var cornerLift: Double
        /// Inner lip gap over mouth width.
        var mouthOpen: Double
        /// Degrees: yaw > 0 turned to the viewer's right; roll > 0 clockwise in the upright frame.
        var yaw: Double
        var roll: Double
        /// Points in fractions of the analysis image (eye corners, lids, mouth corners, nose).
        var points: [Double]
        /// The iris model's reading of each eye (right, left) when it is installed: nil
        /// for an eye not read (the far eye of a turned face, or one too narrow).
        var eyes: [EyeReading?]
    }

    // Mesh indices (MediaPipe's canonical face model).
    static let rightEye = (outer: 33, inner: 133, upper: [160, 159, 158], lower: [144, 145, 153])
    static let leftEye = (outer: 263, inner: 362, upper: [387, 386, 385], lower: [373, 374, 380])
    static let mouth = (right: 61, left: 291, upper: 13, lower: 14)
    static let nose = 1, cheekRight = 234, cheekLeft = 454
    /// What `points` keeps: eye corners and mid-lids, mouth corners and lips, nose tip.
    static let kept = [33, 133, 159, 145, 263, 362, 386, 374, 61, 291, 13, 14, 1]

    /// Which eyes the iris model reads.
    struct EyeRule { var oneEyeYaw: Double; var minWidth: Double }

    static func read(_ face: Face, in image: AnalysisImage, session: OnnxSession, iris: OnnxSession?, eyeRule: EyeRule) throws -> Reading {
        let W = Double(image.width), H = Double(image.height)
        let bx = face.box[0] * W, by = face.box[1] * H, bw = face.box[2] * W, bh = face.box[3] * H
        let lm = face.landmarks
        // Level the eyes: the angle from the first eye to the second, in pixels.
        let angle = lm.count >= 4 ? atan2((lm[3] - lm[1]) * H, (lm[2] - lm[0]) * W) : 0
        let cx = bx + bw / 2, cy = by + bh / 2, s = 1.5 * max(bw, bh)
        let crop = Crop(cx: cx, cy: cy, side: s, angle: angle)
        let input = crop.sample(image, size: side)
        let out = try session.run([Tensor(shape: [1, 3, side, side], data: input)])
        guard out.count == 2, out[0].data.count == 1404, let logit = out[1].data.first else {
            throw ModelError.io(path: "face-landmarks", reason: "unexpected outputs \(out.map(\.shape))")
        }
        let m = out[0].data
        func p(_ i: Int) -> (x: Double, y: Double) { (Double(m[3 * i]), Double(m[3 * i + 1])) }
        func d(_ a: Int, _ b: Int) -> Double { hypot(p(a).x - p(b).x, p(a).y - p(b).y) }
        func openness(_ e: (outer: Int, inner: Int, upper: [Int], lower: [Int])) -> Double {
            let gap = zip(e.upper, e.lower).map { d($0, $1) }.reduce(0, +) / Double(e.upper.count)
            return gap / max(1e-6, d(e.outer, e.inner))
        }
        let eyeSpan = max(1e-6, d(rightEye.outer, leftEye.outer))
        let mouthW = d(mouth.right, mouth.left)
        let lipMid = (p(mouth.upper).y + p(mouth.lower).y) / 2
        let cornerY = (p(mouth.right).y + p(mouth.left).y) / 2
        // The cheeks' depth difference across the face's width (the mesh's z is in crop pixels too).
        func z(_ i: Int) -> Double { Double(m[3 * i + 2]) }
        let yaw = atan2(z(cheekLeft) - z(cheekRight), p(cheekLeft).x - p(cheekRight).x) * 180 / .pi
        // Roll in the upright frame: the crop's own angle plus what is left inside it.
        let inner = atan2(p(leftEye.outer).y - p(rightEye.outer).y, p(leftEye.outer).x - p(rightEye.outer).x)
        let roll = (angle + inner) * 180 / .pi
        var points: [Double] = []
        for i in kept {
            let (x, y) = crop.toImage(p(i).x, p(i).y, size: side)
            points += [round4(x / W), round4(y / H)]
        }
        var eyes: [EyeReading?] = []
        if let iris {
            let corners = [rightEye, leftEye].map { e in
                (crop.toImage(p(e.outer).x, p(e.outer).y, size: side), crop.toImage(p(e.inner).x, p(e.inner).y, size: side))
            }
            let widths = corners.map { hypot($0.1.0 - $0.0.0, $0.1.1 - $0.0.1) }
            // A turned face is judged by its nearer (wider) eye only, and an eye too narrow to read is not read.
            let turned = abs(yaw) > eyeRule.oneEyeYaw
            for (k, mirror) in [(0, false), (1, true)] {
                let far = turned && widths[k] < widths[1 - k]
                eyes.append(far || widths[k] < eyeRule.minWidth ? nil
                            : try EyeReading.read(corners: corners[k].0, corners[k].1, mirror: mirror, in: image, session: iris))
            }
        }
        return Reading(presence: 1 / (1 + exp(-Double(logit))),
                       eyeOpenness: [openness(rightEye), openness(leftEye)],
                       mouthWidth: mouthW / eyeSpan, cornerLift: (lipMid - cornerY) / eyeSpan,
                       mouthOpen: d(mouth.upper, mouth.lower) / max(1e-6, mouthW),
                       yaw: yaw, roll: roll, points: points, eyes: eyes)
    }

    static func round4(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }

    /// A square region of the image, turned by `angle` (radians) about its centre.
    struct Crop {
        var cx: Double, cy: Double, side: Double, angle: Double
        /// Sample left–right mirrored.
        var mirror = false

        /// Crop pixel (u, v) of a `size`×`size` sampling → image pixel.
        func toImage(_ u: Double, _ v: Double, size: Int) -> (Double, Double) {
            toImage(u, v, size: size, cos: cos(angle), sin: sin(angle))
        }

        /// `toImage` with the turn's cosine and sine given (a sampling loop takes them once).
        func toImage(_ u: Double, _ v: Double, size: Int, cos c: Double, sin s: Double) -> (Double, Double) {
            let dx = (u / Double(size) - 0.5) * side, dy = (v / Double(size) - 0.5) * side
            return (cx + dx * c - dy * s, cy + dx * s + dy * c)
        }

        /// Planar RGB, 0–1, bilinear; outside the image is black (as MediaPipe pads).
        func sample(_ image: AnalysisImage, size: Int) -> [Float] {
            var out = [Float](repeating: 0, count: 3 * size * size)
            let w = image.width, h = image.height, plane = size * size
            let c = cos(angle), s = sin(angle)
            image.rgb.withUnsafeBufferPointer { rgb in
                out.withUnsafeMutableBufferPointer { o in
                    for v in 0..<size {
                        for u in 0..<size {
                            let (x, y) = toImage(mirror ? Double(size - u) - 0.5 : Double(u) + 0.5, Double(v) + 0.5, size: size, cos: c, sin: s)
                            let fx = x - 0.5, fy = y - 0.5
                            let x0 = Int(floor(fx)), y0 = Int(floor(fy))
                            let ax = Float(fx - Double(x0)), ay = Float(fy - Double(y0))
                            // The four neighbours' offsets, or -1 outside the image.
                            let inX0 = x0 >= 0 && x0 < w, inX1 = x0 + 1 >= 0 && x0 + 1 < w
                            let inY0 = y0 >= 0 && y0 < h, inY1 = y0 + 1 >= 0 && y0 + 1 < h
                            let i00 = inX0 && inY0 ? 3 * (y0 * w + x0) : -1, i10 = inX1 && inY0 ? 3 * (y0 * w + x0 + 1) : -1
                            let i01 = inX0 && inY1 ? 3 * ((y0 + 1) * w + x0) : -1, i11 = inX1 && inY1 ? 3 * ((y0 + 1) * w + x0 + 1) : -1
                            for ch in 0..<3 {
                                let p00: Float = i00 < 0 ? 0 : Float(rgb[i00 + ch]), p10: Float = i10 < 0 ? 0 : Float(rgb[i10 + ch])
                                let p01: Float = i01 < 0 ? 0 : Float(rgb[i01 + ch]), p11: Float = i11 < 0 ? 0 : Float(rgb[i11 + ch])
                                let top = p00 * (1 - ax) + p10 * ax
                                let bottom = p01 * (1 - ax) + p11 * ax
                                o[ch * plane + v * size + u] = (top * (1 - ay) + bottom * ay) / 255
                            }
                        }
                    }
                }
            }
            return out
        }
    }
}

extension FaceMesh {
    /// MediaPipe's iris model on one eye: how far the lids are apart, against the eye's
    /// width and against the iris's diameter. A lid gap under half the iris is a closed
    /// or closing eye whatever the eye's shape; the mesh alone never closes an eye fully.
    struct EyeReading {
        /// Lid gap / eye width.
        var aspect: Double
        /// Lid gap / iris diameter.
        var iris: Double
        /// Eye width in analysis-image pixels (how much there was to read).
        var width: Double

        static let side = 64

        /// The crop is 2.3× the corner distance, level; the model reads a left eye, so
        /// the subject's left eye is mirrored (checked on faces-dev: unmirrored, eyes
        /// looking down read as open).
        static func read(corners a: (Double, Double), _ b: (Double, Double), mirror: Bool,
                         in image: AnalysisImage, session: OnnxSession) throws -> EyeReading {
            var (a, b) = (a, b)
            if b.0 < a.0 { swap(&a, &b) }
            let d = hypot(b.0 - a.0, b.1 - a.1)
            let crop = Crop(cx: (a.0 + b.0) / 2, cy: (a.1 + b.1) / 2, side: 2.3 * d, angle: atan2(b.1 - a.1, b.0 - a.0), mirror: mirror)
            let out = try session.run([Tensor(shape: [1, 3, side, side], data: crop.sample(image, size: side))])
            guard out.count == 2, out[0].data.count == 213, out[1].data.count == 15 else {
                throw ModelError.io(path: "iris-landmarks", reason: "unexpected outputs \(out.map(\.shape))")
            }
            let e = out[0].data, i = out[1].data
            func dist(_ v: [Float], _ p: Int, _ q: Int) -> Double { hypot(Double(v[3 * p] - v[3 * q]), Double(v[3 * p + 1] - v[3 * q + 1])) }
            // Contour 0 and 8 are the corners; 9–15 the upper lid over 1–7 the lower.
            let gap = [(11, 3), (12, 4), (13, 5)].map { dist(e, $0, $1) }.reduce(0, +) / 3
            let width = max(1e-6, dist(e, 0, 8))
            let irisDiameter = max(1e-6, (dist(i, 1, 3) + dist(i, 2, 4)) / 2)
            return EyeReading(aspect: gap / width, iris: gap / irisDiameter, width: d)
        }
    }

    /// How far the mouth corners rise above the middle of the lips, over the eye span.
    /// On faces-dev it alone split smiles (0.042–0.106) from the rest (−0.027–0.025,
    /// one small face 0.059); mouth width did not (smiles 0.52–0.70, others 0.52–0.63).
    static func smileScore(_ r: Reading) -> Double { r.cornerLift }
}
