import Foundation

/// Writes an EXIF block (little-endian TIFF) with the fields the engine reads,
/// and splices it into a JPEG as an APP1 segment. Our own writer, so that the
/// reader (libexif) is checked against something it did not produce.
///
/// ```swift
/// var exif = ExifWriter.Fields()
/// exif.dateTimeOriginal = "2024:06:01 14:02:07"; exif.orientation = 6
/// let jpeg = ExifWriter.insert(exif, into: plainJPEG)
/// ```
public enum ExifWriter {
    public struct Fields: Sendable, Equatable {
        public var make: String?
        public var model: String?
        public var orientation: Int?
        public var dateTimeOriginal: String?
        public var offsetTimeOriginal: String?
        public var subSecTimeOriginal: String?
        public var latitude: Double?
        public var longitude: Double?
        public var altitude: Double?
        public init() {}
    }

    private enum Value {
        case ascii(String), short(UInt16), long(UInt32), rationals([(UInt32, UInt32)]), bytes([UInt8])
        var type: UInt16 {
            switch self { case .ascii: return 2; case .short: return 3; case .long: return 4; case .rationals: return 5; case .bytes: return 1 }
        }
        var count: UInt32 {
            switch self {
            case .ascii(let s): return UInt32(s.utf8.count + 1)
            case .short, .long: return 1
            case .rationals(let r): return UInt32(r.count)
            case .bytes(let b): return UInt32(b.count)
            }
        }
        var payload: [UInt8] {
            switch self {
            case .ascii(let s): return Array(s.utf8) + [0]
            case .short(let v): return le16(v)
            case .long(let v): return le32(v)
            case .rationals(let r): return r.flatMap { le32($0.0) + le32($0.1) }
            case .bytes(let b): return b
            }
        }
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }

    static func dms(_ deg: Double) -> [(UInt32, UInt32)] {
        let a = abs(deg)
        let d = floor(a), mFull = (a - d) * 60, m = floor(mFull), s = (mFull - m) * 60
        return [(UInt32(d), 1), (UInt32(m), 1), (UInt32((s * 10000).rounded()), 10000)]
    }

    /// "Exif\0\0" + TIFF.
    public static func block(_ f: Fields) -> [UInt8] {
        var ifd0: [(UInt16, Value)] = []
        if let s = f.make { ifd0.append((0x010F, .ascii(s))) }
        if let s = f.model { ifd0.append((0x0110, .ascii(s))) }
        if let o = f.orientation { ifd0.append((0x0112, .short(UInt16(o)))) }
        var exif: [(UInt16, Value)] = []
        if let s = f.dateTimeOriginal { exif.append((0x9003, .ascii(s))) }
        if let s = f.offsetTimeOriginal { exif.append((0x9011, .ascii(s))) }
        if let s = f.subSecTimeOriginal { exif.append((0x9291, .ascii(s))) }
        var gps: [(UInt16, Value)] = []
        if let la = f.latitude, let lo = f.longitude {
            gps.append((0x0000, .bytes([2, 3, 0, 0])))
            gps.append((0x0001, .ascii(la < 0 ? "S" : "N")))
            gps.append((0x0002, .rationals(dms(la))))
            gps.append((0x0003, .ascii(lo < 0 ? "W" : "E")))
            gps.append((0x0004, .rationals(dms(lo))))
            if let alt = f.altitude {
                gps.append((0x0005, .bytes([alt < 0 ? 1 : 0])))
                gps.append((0x0006, .rationals([(UInt32((abs(alt) * 100).rounded()), 100)])))
            }
        }
        // Layout: header(8) | IFD0 | ExifIFD | GPSIFD | data area.
        let ifd0Count = ifd0.count + (exif.isEmpty ? 0 : 1) + (gps.isEmpty ? 0 : 1)
        func ifdSize(_ n: Int) -> Int { 2 + 12 * n + 4 }
        let ifd0Off = 8
        let exifOff = ifd0Off + ifdSize(ifd0Count)
        let gpsOff = exifOff + (exif.isEmpty ? 0 : ifdSize(exif.count))
        var dataOff = gpsOff + (gps.isEmpty ? 0 : ifdSize(gps.count))
        var data: [UInt8] = []
        func encode(_ entries: [(UInt16, Value)]) -> [UInt8] {
            var out = le16(UInt16(entries.count))
            for (tag, v) in entries.sorted(by: { $0.0 < $1.0 }) {
                out += le16(tag) + le16(v.type) + le32(v.count)
                let p = v.payload
                if p.count <= 4 {
                    out += p + [UInt8](repeating: 0, count: 4 - p.count)
                } else {
                    out += le32(UInt32(dataOff + data.count))
                    data += p
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            return out + le32(0)
        }
        var ifd0All = ifd0
        if !exif.isEmpty { ifd0All.append((0x8769, .long(UInt32(exifOff)))) }
        if !gps.isEmpty { ifd0All.append((0x8825, .long(UInt32(gpsOff)))) }
        // Entries whose payload exceeds 4 bytes go to the data area in IFD order.
        dataOff = gpsOff + (gps.isEmpty ? 0 : ifdSize(gps.count))
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(UInt32(ifd0Off))
        tiff += encode(ifd0All)
        if !exif.isEmpty { tiff += encode(exif) }
        if !gps.isEmpty { tiff += encode(gps) }
        tiff += data
        return Array("Exif".utf8) + [0, 0] + tiff
    }

    /// Inserts an APP1 EXIF segment right after the JPEG's SOI marker.
    public static func insert(_ f: Fields, into jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg.count > 2 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG")
        let b = block(f)
        let len = UInt16(b.count + 2)
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(len >> 8), UInt8(len & 0xFF)] + b + jpeg[2...]
    }
}
