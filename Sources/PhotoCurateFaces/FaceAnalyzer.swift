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
    public static let version = 1
    public static let model = "centerface"
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("threshold", 0.5, in: 0.05...0.99, "heatmap confidence a face needs"),
        ParameterSpec("overlap", 0.3, in: 0.05...0.9, "boxes overlapping more than this (IoU) are one face"),
        ParameterSpec("minSize", 12, in: 4...200, "smallest face side kept, in analysis-image pixels"),
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
        let w = image.width, h = image.height
        // CenterFace wants sides that are multiples of 32; the padding is black.
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
        let outputs: [Tensor]
        do { outputs = try session.run([Tensor(shape: [1, 3, ph, pw], data: input)]) } catch {
            return FaceResult(faces: [], note: "not analysed: \(error)")
        }
        let faces = CenterFaceDecoder(threshold: Float(parameters["threshold"]), overlap: Float(parameters["overlap"]),
                                      minSize: Float(parameters["minSize"])).faces(outputs, width: w, height: h)
        return FaceResult(faces: faces, note: nil)
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
