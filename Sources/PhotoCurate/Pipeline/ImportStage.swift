import Foundation

/// A photo with its facts, and its pixels when some analysis still needs them.
public struct ImportedPhoto: Sendable {
    public var identified: IdentifiedPhoto
    public var outcome: ImportOutcome
    public var image: AnalysisImage?
    /// Whether the facts were read in this run (so they must be stored).
    public var fresh: Bool
    /// Decodes the pixels after all, for a cached result that turns out unreadable
    /// (written by another build); `nil` when the file has no usable pixels.
    public var decodeLater: (@Sendable () throws -> AnalysisImage)?
}

/// What import concluded about a file; cached, so a corrupt file is not re-read every run.
public enum ImportOutcome: Codable, Sendable {
    case facts(PhotoFacts)
    case failed(ErrorInfo)
}

/// Import stage: `IdentifiedPhoto` → `ImportedPhoto`. Reads EXIF and decodes once,
/// and only what the cache lacks.
public struct ImportStage: PerPhotoStage {
    public static let id = "import"
    public let importer: PhotoImporter
    public let key: ResultKey
    /// Keys of the pixel analyzers: if any is missing, the photo is decoded.
    public let pixelKeys: [ResultKey]
    public init(importer: PhotoImporter, pixelKeys: [ResultKey]) {
        self.importer = importer
        self.pixelKeys = pixelKeys
        self.key = ResultKey(analyzer: PhotoImporter.id, version: PhotoImporter.version, parametersHash: Self.upstreamHash(importer.decoder))
    }

    /// Hash of the decode parameters: analyzers' keys include it, since their input depends on it.
    public static func upstreamHash(_ d: Decoder) -> String {
        var h = StableHash()
        h.combine("longEdge=\(d.longEdge);maxPixels=\(d.maxPixels)")
        // Without liborc the resampled pixels are a few levels apart: results made with it
        // (before import v1's keys said so) are not reused.
        if !Vips.simd { h.combine("nosimd") }
        return h.hex
    }

    public func process(_ photo: IdentifiedPhoto) async throws -> ImportedPhoto {
        let needPixels = pixelKeys.contains { photo.cached[$0] == nil }
        let importer = self.importer, file = photo.file
        let later: @Sendable () throws -> AnalysisImage = { try importer.image(for: file) }
        if let data = photo.cached[key], let outcome = try? JSONDecoder().decode(ImportOutcome.self, from: data) {
            if case .failed(let e) = outcome {
                return ImportedPhoto(identified: photo, outcome: .failed(e.at(file.path)), image: nil, fresh: false)
            }
            guard needPixels else { return ImportedPhoto(identified: photo, outcome: outcome, image: nil, fresh: false, decodeLater: later) }
            // Facts are known; only an analyzer changed: decode the pixels alone.
            do {
                let image = try importer.image(for: photo.file)
                return ImportedPhoto(identified: photo, outcome: outcome, image: image, fresh: false)
            } catch let e as PhotoError {
                return ImportedPhoto(identified: photo, outcome: .failed(ErrorInfo(e)), image: nil, fresh: true)
            }
        }
        do {
            let (facts, image) = try importer.load(photo.file, decode: needPixels)
            return ImportedPhoto(identified: photo, outcome: .facts(facts), image: image, fresh: true, decodeLater: image == nil ? later : nil)
        } catch let e as PhotoError {
            return ImportedPhoto(identified: photo, outcome: .failed(ErrorInfo(e)), image: nil, fresh: true)
        }
    }
}
