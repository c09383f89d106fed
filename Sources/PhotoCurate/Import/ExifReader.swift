import CExif
import Foundation

/// Reads the EXIF fields the engine uses from a raw EXIF blob, with libexif.
///
/// ```swift
/// let exif = ExifReader.read(blob)      // blob: "Exif\0\0" + TIFF, as libvips exposes it
/// exif.dateTimeOriginal                 // "2021:04:11 15:47:53"
/// ```
/// Every value is checked for format and component count before it is read,
/// so malformed EXIF yields missing fields and warnings, never a crash.
public struct ExifReader {
    public struct Fields: Sendable, Equatable {
        public var dateTimeOriginal: String?
        public var dateTimeDigitized: String?
        public var dateTime: String?
        public var offsetTimeOriginal: String?
        public var offsetTime: String?
        public var subSecTimeOriginal: String?
        public var latitude: Double?
        public var longitude: Double?
        public var altitude: Double?
        public var orientation: Int?
        public var make: String?
        public var model: String?
        public var lens: String?
        public var exposureTime: Double?
        public var fNumber: Double?
        public var iso: Int?
        public var focalLength: Double?
        public var pixelWidth: Int?
        public var pixelHeight: Int?
        public var warnings: [String] = []
    }

    /// Parses an EXIF blob. Accepts "Exif\0\0"+TIFF, bare TIFF ("II*\0"/"MM\0*"), or a JPEG stream.
    public static func read(_ blob: [UInt8]) -> Fields {
        var fields = Fields()
        guard blob.count >= 8 else {
            fields.warnings.append("EXIF block too short (\(blob.count) bytes)")
            return fields
        }
        var bytes = blob
        let tiffLE: [UInt8] = [0x49, 0x49, 0x2A, 0x00], tiffBE: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        if Array(bytes.prefix(4)) == tiffLE || Array(bytes.prefix(4)) == tiffBE {
            bytes = Array("Exif".utf8) + [0, 0] + bytes
        }
        guard let data = exif_data_new() else { return fields }
        defer { exif_data_unref(data) }
        // FOLLOW_SPECIFICATION would invent "mandatory" tags with default values;
        // we want only what the camera wrote.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        bytes.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }

        let order = exif_data_get_byte_order(data)
        func entry(_ ifd: ExifIfd, _ tag: UInt32) -> UnsafeMutablePointer<ExifEntry>? {
            guard let content = withUnsafeMutablePointer(to: &data.pointee.ifd, { p in
                p.withMemoryRebound(to: UnsafeMutablePointer<ExifContent>?.self, capacity: Int(EXIF_IFD_COUNT.rawValue)) { $0[Int(ifd.rawValue)] }
            }) else { return nil }
            return exif_content_get_entry(content, ExifTag(rawValue: tag))
        }
        func string(_ ifd: ExifIfd, _ tag: UInt32) -> String? {
            guard let e = entry(ifd, tag), let d = e.pointee.data, e.pointee.size > 0 else { return nil }
            let fmt = e.pointee.format
            guard fmt == EXIF_FORMAT_ASCII || fmt == EXIF_FORMAT_UNDEFINED || fmt == EXIF_FORMAT_BYTE else { return nil }
            let raw = Array(UnsafeBufferPointer(start: d, count: Int(e.pointee.size)))
            let upToNul = raw.prefix { $0 != 0 }
            let s = String(decoding: upToNul, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
            return s.isEmpty ? nil : s
        }
        func rationals(_ ifd: ExifIfd, _ tag: UInt32) -> [Double]? {
            guard let e = entry(ifd, tag), let d = e.pointee.data else { return nil }
            let n = Int(e.pointee.components)
            guard n > 0, Int(e.pointee.size) >= n * 8 else { return nil }
            var out: [Double] = []
            for i in 0..<n {
                switch e.pointee.format {
                case EXIF_FORMAT_RATIONAL:
                    let r = exif_get_rational(d + i * 8, order)
                    guard r.denominator != 0 else { return nil }
                    out.append(Double(r.numerator) / Double(r.denominator))
                case EXIF_FORMAT_SRATIONAL:
                    let r = exif_get_srational(d + i * 8, order)
                    guard r.denominator != 0 else { return nil }
                    out.append(Double(r.numerator) / Double(r.denominator))
                default: return nil
                }
            }
            return out
        }
        func integer(_ ifd: ExifIfd, _ tag: UInt32) -> Int? {
            guard let e = entry(ifd, tag), let d = e.pointee.data, e.pointee.components >= 1 else { return nil }
            let size = Int(e.pointee.size)
            switch e.pointee.format {
            case EXIF_FORMAT_SHORT where size >= 2: return Int(exif_get_short(d, order))
            case EXIF_FORMAT_SSHORT where size >= 2: return Int(exif_get_sshort(d, order))
            case EXIF_FORMAT_LONG where size >= 4: return Int(exif_get_long(d, order))
            case EXIF_FORMAT_SLONG where size >= 4: return Int(exif_get_slong(d, order))
            case EXIF_FORMAT_BYTE where size >= 1: return Int(d[0])
            default: return nil
            }
        }

        let ifd0 = EXIF_IFD_0, exif = EXIF_IFD_EXIF, gps = EXIF_IFD_GPS
        fields.make = string(ifd0, 0x010F)
        fields.model = string(ifd0, 0x0110)
        fields.dateTime = string(ifd0, 0x0132)
        if let o = integer(ifd0, 0x0112) {
            if (1...8).contains(o) { fields.orientation = o } else { fields.warnings.append("Orientation \(o) is outside 1–8; ignored") }
        }
        fields.dateTimeOriginal = string(exif, 0x9003)
        fields.dateTimeDigitized = string(exif, 0x9004)
        fields.offsetTime = string(exif, 0x9010)
        fields.offsetTimeOriginal = string(exif, 0x9011)
        fields.subSecTimeOriginal = string(exif, 0x9291)
        fields.lens = string(exif, 0xA434)
        fields.exposureTime = rationals(exif, 0x829A)?.first
        fields.fNumber = rationals(exif, 0x829D)?.first
        fields.iso = integer(exif, 0x8827)
        fields.focalLength = rationals(exif, 0x920A)?.first
        fields.pixelWidth = integer(exif, 0xA002)
        fields.pixelHeight = integer(exif, 0xA003)

        if let lat = rationals(gps, 0x0002), let lon = rationals(gps, 0x0004), lat.count >= 1, lon.count >= 1 {
            func degrees(_ v: [Double]) -> Double { v[0] + (v.count > 1 ? v[1] / 60 : 0) + (v.count > 2 ? v[2] / 3600 : 0) }
            var la = degrees(lat), lo = degrees(lon)
            if string(gps, 0x0001)?.uppercased().hasPrefix("S") == true { la = -la }
            if string(gps, 0x0003)?.uppercased().hasPrefix("W") == true { lo = -lo }
            // (0,0) is what many cameras write when they have no fix.
            if abs(la) <= 90, abs(lo) <= 180, !(la == 0 && lo == 0) {
                fields.latitude = la
                fields.longitude = lo
            } else if !(la == 0 && lo == 0) {
                fields.warnings.append("GPS position \(la), \(lo) is out of range; ignored")
            }
        }
        if let alt = rationals(gps, 0x0006)?.first {
            fields.altitude = integer(gps, 0x0005) == 1 ? -alt : alt
        }
        let entries = withUnsafeMutablePointer(to: &data.pointee.ifd) { p in
            p.withMemoryRebound(to: UnsafeMutablePointer<ExifContent>?.self, capacity: Int(EXIF_IFD_COUNT.rawValue)) { ifds in
                (0..<Int(EXIF_IFD_COUNT.rawValue)).reduce(0) { $0 + Int(ifds[$1]?.pointee.count ?? 0) }
            }
        }
        if entries == 0 { fields.warnings.append("EXIF block could not be parsed (\(blob.count) bytes)") }
        return fields
    }
}
