import Foundation

/// Import stage, per photo: EXIF facts and the decoded analysis image.
///
/// Input: `PhotoFile`. Output: `PhotoFacts` (+ `AnalysisImage` when asked).
///
/// ```swift
/// let importer = PhotoImporter(decoder: Decoder())
/// let facts = try importer.facts(for: file)
/// ```
public struct PhotoImporter: Sendable {
    public static let id = "import"
    /// Bump when the facts read from a file change for the same bytes.
    public static let version = 1

    public var decoder: Decoder
    /// Where per-stage time goes (exif, decode); optional.
    public var clock: StageClock?

    public init(decoder: Decoder = Decoder(), clock: StageClock? = nil) {
        self.decoder = decoder
        self.clock = clock
    }

    func timed<T>(_ stage: String, _ body: () throws -> T) rethrows -> T {
        guard let clock else { return try body() }
        return try clock.measure(stage, body)
    }

    /// Reads the facts; when `decode` is true also the analysis image, from the same header.
    public func load(_ file: PhotoFile, decode: Bool) throws -> (PhotoFacts, AnalysisImage?) {
        try checkReadable(file)
        let (header, loader) = try timed("exif") { try decoder.openHeader(file.path) }
        var facts = PhotoFacts(pixelWidth: header.width, pixelHeight: header.height, format: loader)
        var blob = header.blob("exif-data")
        if blob == nil, loader == "tiffload" {
            // A TIFF file is itself a TIFF structure: its IFD0 carries Make/Model/Orientation.
            blob = Self.head(of: file.path, bytes: 1 << 20)
        }
        if let blob {
            apply(timed("exif") { ExifReader.read(blob) }, to: &facts)
        }
        if let o = header.int("orientation"), (1...8).contains(o), facts.orientation == 1, o != 1 {
            facts.orientation = o
        }
        if facts.captureEpoch == nil {
            facts.captureEpoch = Double(file.mtimeNs) / 1e9
            facts.captureTime = CaptureTime.iso(epoch: facts.captureEpoch!)
            facts.timeSource = "mtime"
            facts.timeTrusted = false
        }
        guard decode else { return (facts, nil) }
        let (image, damage) = try timed("decode") { try decoder.decode(file.path, header: header, loader: loader) }
        if let damage {
            facts.damaged = damage
            facts.warnings.append("damaged image data: \(damage)")
        }
        return (facts, image)
    }

    public func facts(for file: PhotoFile) throws -> PhotoFacts { try load(file, decode: false).0 }

    /// Only the analysis image, for a photo whose facts are already known.
    public func image(for file: PhotoFile) throws -> AnalysisImage {
        try timed("decode") { try decoder.decode(file.path) }
    }

    private func checkReadable(_ file: PhotoFile) throws {
        if file.size == 0 { throw PhotoError.empty(path: file.path) }
        if RawPath.with(file.path, { access($0, R_OK) }) != 0 {
            throw PhotoError.unreadable(path: file.path, reason: String(cString: strerror(errno)))
        }
    }

    func apply(_ exif: ExifReader.Fields, to facts: inout PhotoFacts) {
        facts.warnings += exif.warnings
        let candidates: [(String?, String?, String?, String)] = [
            (exif.dateTimeOriginal, exif.offsetTimeOriginal ?? exif.offsetTime, exif.subSecTimeOriginal, "exif"),
            (exif.dateTimeDigitized, exif.offsetTime, nil, "exif-digitized"),
            (exif.dateTime, exif.offsetTime, nil, "exif-datetime"),
        ]
        for (raw, offset, subsec, source) in candidates {
            guard let raw else { continue }
            if let t = CaptureTime.parse(raw, offset: offset, subSeconds: subsec) {
                facts.captureTime = t.iso
                facts.captureEpoch = t.epoch
                facts.timeSource = source
                facts.timeTrusted = true
                break
            } else {
                facts.warnings.append("unparseable capture time \"\(raw)\"")
            }
        }
        facts.latitude = exif.latitude
        facts.longitude = exif.longitude
        facts.altitude = exif.altitude
        facts.orientation = exif.orientation ?? 1
        facts.make = exif.make
        facts.model = exif.model
        facts.lens = exif.lens
        facts.exposureTime = exif.exposureTime
        facts.fNumber = exif.fNumber
        facts.iso = exif.iso
        facts.focalLength = exif.focalLength
    }

    static func head(of path: String, bytes: Int) -> [UInt8]? {
        guard let fh = RawPath.reading(path) else { return nil }
        defer { try? fh.close() }
        return (try? fh.read(upToCount: bytes)).map { Array($0) }
    }
}
