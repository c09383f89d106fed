import Foundation

/// Everything the per-photo stages produce for one file: the output of the
/// analyse stage and the input of clustering.
public struct PhotoRecord: Codable, Sendable {
    public var file: PhotoFile
    public var contentHash: String?
    public var facts: PhotoFacts?
    public var quality: TechnicalQualityScore?
    public var featurePrint: FeaturePrint?
    public var spectrum: PowerSpectrum?
    /// The photo at 100 % (JPEG only).
    public var detail: NativeDetail?
    /// Results of the analyzers the record has no field for, as stored (JSON), by
    /// analyzer id: how later stages read an analyzer added since.
    public var results: [String: Data] = [:]
    public var error: ErrorInfo?
    /// Analyzer ids computed in this run (empty when everything came from the cache).
    public var computed: [String]

    /// An analyzer's result, typed; nil when it did not run on this photo.
    public func result<A: Analyzer>(_ type: A.Type) -> A.Output? {
        results[A.id].flatMap { try? JSONDecoder().decode(A.Output.self, from: $0) }
    }

    /// The faces, when a face analyzer ran and could run its models (`FaceResult` under
    /// the id "faces"); `nil` otherwise, which selection treats as "not analysed".
    public var faces: [Face]? { faceResult?.faces }

    /// Degrees clockwise that show the photo upright, when face analysis found it stored on its side.
    public var suggestedRotation: Int? { faceResult?.suggestedRotation }

    var faceResult: FaceResult? {
        guard let data = results["faces"], let r = try? JSONDecoder().decode(FaceResult.self, from: data),
              !(r.note ?? "").hasPrefix("not analysed") else { return nil }
        return r
    }

    public var usable: Bool { error == nil && facts != nil && quality != nil && featurePrint != nil && spectrum != nil }
}

/// A photo-level error as it appears in the manifest.
public struct ErrorInfo: Codable, Sendable, Equatable {
    public var path: String
    public var kind: String
    public var message: String

    public init(_ e: PhotoError) {
        path = e.path
        kind = e.kind
        message = e.description
    }

    public init(path: String, kind: String, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    /// The same error, told of the file at `path`.
    ///
    /// ```swift
    /// ErrorInfo(.empty(path: "/a/x.jpg")).at("/b/y.jpg").message   // "/b/y.jpg: is empty (0 bytes)"
    /// ```
    /// Outcomes are cached by content, and files with the same bytes (two empty files, a copy
    /// in another folder) share one: without this, a run over `/b` named the files of `/a`.
    public func at(_ path: String) -> ErrorInfo {
        guard path != self.path, !self.path.isEmpty else { return self }
        return ErrorInfo(path: path, kind: kind, message: message.replacingOccurrences(of: self.path, with: path))
    }
}
