import Foundation
import Logging
import PhotoCurate
import PhotoCurateModels

/// Faces on the analysis image: boxes, 5 landmarks and confidence, from CenterFace.
///
/// Input: `AnalysisImage` (768 px long edge, upright). Output: `FaceResult`.
///
/// ```swift
/// FacesFeature.register(sessions: ModelSessions(threads: 1))   // once, from the CLI
/// let r = FaceAnalyzer().analyze(image)
/// r.faces.first?.box          // [0.41, 0.22, 0.08, 0.11]: x, y, w, h as fractions of the frame
/// ```
/// At 768 px a face of 2 % of the frame width is 15 px, about the smallest CenterFace
/// finds (its outputs are at 1/4 of the input). The model runs once per process
/// (`ModelSessions`); when it is not installed the result says so and the cache key
/// changes once it is, so those photos are analysed then.
public struct FaceAnalyzer: Analyzer {
    public static let id = "faces"
    /// 1: CenterFace detection: boxes, landmarks, confidence.
    /// 2: a half-size first pass decides whether the full size runs.
    /// 3: … and when every face it finds is large, its own result stands.
    public static let version = 3
    public static let model = "centerface"
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("threshold", 0.5, in: 0.05...0.99, "heatmap confidence a face needs"),
        ParameterSpec("overlap", 0.3, in: 0.05...0.9, "boxes overlapping more than this (IoU) are one face"),
        ParameterSpec("minSize", 12, in: 4...200, "smallest face side kept, in analysis-image pixels"),
        ParameterSpec("firstPass", 1, in: 0...1, integer: true, "look at half size first and run the full size only where that finds a face (a quarter of the cost on photos without people; faces under about 4 % of the frame width are then missed where no larger face is)"),
        ParameterSpec("firstPassThreshold", 0.3, in: 0.05...0.99, "confidence at half size that sends a photo to the full-size pass"),
        ParameterSpec("fullSizeBelow", 32, in: 0...400, "the full size runs only when a face found at half size is smaller than this (px at half size); larger faces are measured well enough there"),
    ]
    public let parameters: Parameters
    public init(parameters: Parameters) { self.parameters = parameters }

    public var fingerprint: String {
        guard let sessions = FacesFeature.sessions, let entry = try? sessions.store.entry(Self.model),
              sessions.store.installedPath(Self.model) != nil else { return "\(Self.model):none" }
        return "\(Self.model):\(entry.installed.sha256)"
    }

    public func analyze(_ image: AnalysisImage) -> FaceResult {
        guard let sessions = FacesFeature.sessions else { return FaceResult(faces: [], note: "not analysed: faces are not set up in this program") }
        let session: OnnxSession
        do { session = try sessions.session(for: Self.model) } catch {
            FacesFeature.reportOnce("faces: not analysed — \(error)")
            return FaceResult(faces: [], note: "not analysed: \(error)")
        }
        do {
            // A photo smaller than the analysis size is already small: its half would lose its faces.
            if parameters.int("firstPass") == 1 && max(image.width, image.height) >= 768 {
                let half = Self.halfSize(image)
                let maps = try Self.run(session, half)
                let cheap = decoder(threshold: parameters["firstPassThreshold"], minSize: 4).faces(maps, width: half.width, height: half.height)
                if cheap.isEmpty { return FaceResult(faces: [], note: nil) }
                // Faces this large are found and placed as well at half size: the full size would only cost.
                let small = Double(parameters["fullSizeBelow"])
                if cheap.allSatisfy({ min($0.box[2] * Double(half.width), $0.box[3] * Double(half.height)) >= small }) {
                    let faces = decoder(threshold: parameters["threshold"], minSize: parameters["minSize"] / 2).faces(maps, width: half.width, height: half.height)
                    return FaceResult(faces: faces, note: nil)
                }
            }
            let faces = decoder(threshold: parameters["threshold"], minSize: parameters["minSize"])
                .faces(try Self.run(session, image), width: image.width, height: image.height)
            return FaceResult(faces: faces, note: nil)
        } catch {
            return FaceResult(faces: [], note: "not analysed: \(error)")
        }
    }

    func decoder(threshold: Double, minSize: Double) -> CenterFaceDecoder {
        CenterFaceDecoder(threshold: Float(threshold), overlap: Float(parameters["overlap"]), minSize: Float(minSize))
    }

    /// CenterFace on one image: RGB 0–255, NCHW, sides padded (black) to multiples of 32.
    static func run(_ session: OnnxSession, _ image: AnalysisImage) throws -> [Tensor] {
        let w = image.width, h = image.height
        let pw = (w + 31) / 32 * 32, ph = (h + 31) / 32 * 32
        var input = [Float](repeating: 0, count: 3 * pw * ph)
        image.rgb.withUnsafeBufferPointer { rgb in
            input.withUnsafeMutableBufferPointer { t in
                for y in 0..<h {
                    for x in 0..<w {
                        let i = 3 * (y * w + x), o = y * pw + x
                        t[o] = Float(rgb[i]); t[pw * ph + o] = Float(rgb[i + 1]); t[2 * pw * ph + o] = Float(rgb[i + 2])
                    }
                }
            }
        }
        return try session.run([Tensor(shape: [1, 3, ph, pw], data: input)])
    }

    /// The image at half size, each pixel the mean of a 2×2 block.
    static func halfSize(_ image: AnalysisImage) -> AnalysisImage {
        let w = image.width / 2, h = image.height / 2, W = image.width
        var out = [UInt8](repeating: 0, count: max(1, w * h * 3))
        image.rgb.withUnsafeBufferPointer { p in
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<3 {
                        let a = Int(p[3 * ((2 * y) * W + 2 * x) + c]) + Int(p[3 * ((2 * y) * W + 2 * x + 1) + c])
                        let b = Int(p[3 * ((2 * y + 1) * W + 2 * x) + c]) + Int(p[3 * ((2 * y + 1) * W + 2 * x + 1) + c])
                        out[3 * (y * w + x) + c] = UInt8((a + b + 2) / 4)
                    }
                }
            }
        }
        return AnalysisImage(width: max(1, w), height: max(1, h), rgb: out)
    }
}

/// `FaceAnalyzer`'s output.
public struct FaceResult: Codable, Sendable, Equatable {
    public var faces: [Face]
    /// Why there are no faces to trust (the model is missing), or nil.
    public var note: String?
}

/// One face, in fractions of the upright frame.
public struct Face: Codable, Sendable, Equatable {
    /// x, y, width, height.
    public var box: [Double]
    public var confidence: Double
    /// Eyes (right, left from the viewer's side as CenterFace orders them), nose, mouth corners: x, y pairs.
    public var landmarks: [Double]
}
