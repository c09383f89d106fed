import Foundation

/// What import learns about one photo: capture time, place, camera and size.
///
/// Everything here comes from EXIF (through libexif) or, for the time only,
/// from the file's mtime, which is then flagged `timeTrusted == false`.
public struct PhotoFacts: Codable, Sendable, Equatable {
    /// Capture time as written by the camera, ISO 8601 ("2021-04-11T15:47:53.054-05:00");
    /// without an offset when the camera recorded none.
    public var captureTime: String?
    /// Seconds since 1970. With an offset, a true instant; without one, the
    /// camera's wall clock read as UTC (consistent within one camera, which is what clustering needs).
    public var captureEpoch: Double?
    /// "exif" (DateTimeOriginal), "exif-digitized", "exif-datetime" or "mtime".
    public var timeSource: String
    public var timeTrusted: Bool
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    /// EXIF Orientation 1–8 as stored (1 when absent).
    public var orientation: Int
    public var make: String?
    public var model: String?
    public var lens: String?
    public var exposureTime: Double?
    public var fNumber: Double?
    public var iso: Int?
    public var focalLength: Double?
    /// Stored pixel size (before orientation is applied).
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The libvips loader that reads the file ("jpegload", "heifload", ...).
    public var format: String
    /// Set when the pixels decode only with errors (corrupt data): the photo is
    /// analysed and reported, but never picked.
    public var damaged: String?
    /// Non-fatal metadata problems (broken EXIF), kept for the manifest.
    public var warnings: [String]

    public init(timeSource: String = "mtime", timeTrusted: Bool = false, orientation: Int = 1,
                pixelWidth: Int = 0, pixelHeight: Int = 0, format: String = "", warnings: [String] = []) {
        self.timeSource = timeSource
        self.timeTrusted = timeTrusted
        self.orientation = orientation
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.format = format
        self.warnings = warnings
    }

    public var hasGPS: Bool { latitude != nil && longitude != nil }

    /// Width over height as shown (orientation 5–8 swap them); nil when the size is unknown.
    public var displayAspect: Double? {
        guard pixelWidth > 0, pixelHeight > 0 else { return nil }
        let w = Double(pixelWidth), h = Double(pixelHeight)
        return (5...8).contains(orientation) ? h / w : w / h
    }
}
