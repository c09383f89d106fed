import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PhotoCurate

/// The words a photographer stored in a photo: title, description, keywords,
/// creator and place, from XMP (embedded or a sidecar), IPTC-IIM and EXIF.
///
/// ```swift
/// let m = PhotoMetadata.read("/trip/IMG_1001.jpg")
/// m.title   // "Harbour at dusk" (XMP dc:title, IPTC 2:05 or EXIF XPTitle)
/// ```
/// Only reads the file's header segments (and `photo.jpg.xmp` / `photo.xmp`
/// beside it); the photo is never changed. Camera firmware defaults such as
/// "OLYMPUS DIGITAL CAMERA" are not descriptions, and photocurate's own sidecar
/// keywords are not the photographer's.
public struct PhotoMetadata: Sendable, Equatable {
    public var title: String?
    public var description: String?
    public var keywords: [String] = []
    public var creator: String?
    public var copyright: String?
    /// City, state and country (XMP photoshop:/Iptc4xmpCore:, IPTC 2:90/95/101), most specific first.
    public var place: [String] = []

    public static func read(_ path: String) -> PhotoMetadata {
        var m = PhotoMetadata()
        if let bytes = headerBytes(path) { m.readJPEG(bytes) }
        // A sidecar speaks last: it is where editors put what the user typed.
        for sidecar in [path + ".xmp", (path as NSString).deletingPathExtension + ".xmp"] {
            if let data = RawPath.read(sidecar), let s = String(data: data, encoding: .utf8) { m.readXMP(s) }
        }
        m.keywords = Self.unique(m.keywords.filter { !$0.hasPrefix("photocurate") })
        return m
    }

    /// The first 512 KiB: every metadata segment of a JPEG sits before the image data.
    static func headerBytes(_ path: String) -> [UInt8]? {
        guard let fh = RawPath.reading(path) else { return nil }
        defer { try? fh.close() }
        return (try? fh.read(upToCount: 512 * 1024)).map { [UInt8]($0) }
    }

    static let firmwareDescriptions: Set<String> = ["OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KONICA MINOLTA DIGITAL CAMERA",
                                                    "MINOLTA DIGITAL CAMERA", "SAMSUNG", "DCIM", "DEFAULT", "EASTMAN KODAK COMPANY", "<KENOX S630  / SAMSUNG S630>"]

    static func clean(_ s: String?) -> String? {
        guard let s else { return nil }
        let t = s.replacingOccurrences(of: "\0", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty || firmwareDescriptions.contains(t.uppercased()) || t.allSatisfy({ $0 == "?" }) { return nil }
        return t
    }

    static func unique(_ list: [String]) -> [String] {
        var seen = Set<String>(), out: [String] = []
        for k in list.compactMap(clean) where seen.insert(k.lowercased()).inserted { out.append(k) }
        return out
    }

    mutating func readJPEG(_ b: [UInt8]) {
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return }
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA || marker == 0xD9 { break }  // image data: no metadata after this
            let len = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard len >= 2, i + 2 + len <= b.count else { break }
            let body = Array(b[(i + 4)..<(i + 2 + len)])
            if marker == 0xE1 {
                if body.starts(with: Array("Exif\0\0".utf8)) { readExif(Array(body.dropFirst(6))) }
                let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
                if body.starts(with: xmpHeader), let s = String(bytes: body.dropFirst(xmpHeader.count), encoding: .utf8) { readXMP(s) }
            } else if marker == 0xED, body.starts(with: Array("Photoshop 3.0\0".utf8)) {
                readPhotoshop(Array(body.dropFirst(14)))
            }
            i += 2 + len
        }
    }

    /// IFD0 of the EXIF block: ImageDescription, Artist, Copyright and Windows' XP fields.
    mutating func readExif(_ t: [UInt8]) {
        guard t.count >= 8 else { return }
        let le = t[0] == 0x49
        func u16(_ o: Int) -> Int? { o + 2 <= t.count ? (le ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])) : nil }
        func u32(_ o: Int) -> Int? {
            guard o + 4 <= t.count else { return nil }
            let v = (0..<4).map { Int(t[o + $0]) }
            return le ? v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24 : v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3]
        }
        guard let ifd = u32(4), let n = u16(ifd), n < 1000 else { return }
        for k in 0..<n {
            let e = ifd + 2 + 12 * k
            guard let tag = u16(e), let type = u16(e + 2), let count = u32(e + 4), count < 65_536 else { continue }
            let size = count * (type == 2 || type == 1 || type == 7 ? 1 : type == 3 ? 2 : 4)
            let start = size <= 4 ? e + 8 : (u32(e + 8) ?? t.count)
            guard start >= 0, start + size <= t.count else { continue }
            let raw = Array(t[start..<(start + size)])
            let ascii = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            // XP* fields are UTF-16LE whatever the byte order.
            let utf16: String = {
                var units: [UInt16] = []
                var j = 0
                while j + 1 < raw.count { let u = UInt16(raw[j]) | UInt16(raw[j + 1]) << 8; if u == 0 { break }; units.append(u); j += 2 }
                return String(decoding: units, as: UTF16.self)
            }()
            switch tag {
            case 0x010E: if description == nil { description = Self.clean(ascii) }
            case 0x013B: if creator == nil { creator = Self.clean(ascii) }
            case 0x8298: if copyright == nil { copyright = Self.clean(ascii) }
            case 0x9C9B: if title == nil { title = Self.clean(utf16) }
            case 0x9C9C: if description == nil { description = Self.clean(utf16) }
            case 0x9C9E: keywords += utf16.split(separator: ";").map(String.init)
            case 0x9C9D: if creator == nil { creator = Self.clean(utf16) }
            default: break
            }
        }
    }

    /// Photoshop image resources: resource 0x0404 holds IPTC-IIM records.
    mutating func readPhotoshop(_ b: [UInt8]) {
        var i = 0
        while i + 12 <= b.count, b[i..<(i + 4)].elementsEqual(Array("8BIM".utf8)) {
            let id = Int(b[i + 4]) << 8 | Int(b[i + 5])
            let nameLen = Int(b[i + 6])
            var j = i + 6 + 1 + nameLen
            if (1 + nameLen) % 2 == 1 { j += 1 }
            guard j + 4 <= b.count else { return }
            let size = Int(b[j]) << 24 | Int(b[j + 1]) << 16 | Int(b[j + 2]) << 8 | Int(b[j + 3])
            j += 4
            guard size >= 0, j + size <= b.count else { return }
            if id == 0x0404 { readIPTC(Array(b[j..<(j + size)])) }
            i = j + size + (size % 2)
        }
    }

    mutating func readIPTC(_ b: [UInt8]) {
        var i = 0
        var cityStateCountry: [Int: String] = [:]
        while i + 5 <= b.count, b[i] == 0x1C {
            let record = b[i + 1], dataset = b[i + 2]
            let len = Int(b[i + 3]) << 8 | Int(b[i + 4])
            i += 5
            guard len < 0x8000, i + len <= b.count else { return }
            // IIM is often Latin-1; UTF-8 when it decodes as such.
            let raw = Array(b[i..<(i + len)])
            let s = String(bytes: raw, encoding: .utf8) ?? String(bytes: raw, encoding: .isoLatin1) ?? ""
            if record == 2 {
                switch dataset {
                case 5: if title == nil { title = Self.clean(s) }
                case 120: if description == nil { description = Self.clean(s) }
                case 25: keywords.append(s)
                case 80: if creator == nil { creator = Self.clean(s) }
                case 116: if copyright == nil { copyright = Self.clean(s) }
                case 90, 95, 101: cityStateCountry[Int(dataset)] = Self.clean(s)
                default: break
                }
            }
            i += len
        }
        if place.isEmpty { place = [90, 95, 101].compactMap { cityStateCountry[$0] } }
    }

    /// XMP: dc:title, dc:description, dc:subject, dc:creator, dc:rights, photoshop:City/State/Country.
    /// Later packets (a sidecar) override what an earlier one said.
    mutating func readXMP(_ s: String) {
        guard let start = s.range(of: "<x:xmpmeta") ?? s.range(of: "<rdf:RDF"),
              let endTag = s.range(of: "</x:xmpmeta>") ?? s.range(of: "</rdf:RDF>"), start.lowerBound < endTag.upperBound else { return }
        let xml = String(s[start.lowerBound..<endTag.upperBound])
        guard let doc = try? XMLDocument(xmlString: xml, options: []) else { return }
        func values(_ name: String) -> [String] {
            // Both element and attribute forms.
            let nodes = (try? doc.nodes(forXPath: "//*[local-name()='\(name)']")) ?? []
            var out: [String] = []
            for n in nodes {
                let lis = (try? n.nodes(forXPath: ".//*[local-name()='li']")) ?? []
                if lis.isEmpty { out += [n.stringValue ?? ""] } else { out += lis.compactMap(\.stringValue) }
            }
            let attrs = (try? doc.nodes(forXPath: "//@*[local-name()='\(name)']")) ?? []
            return (out + attrs.compactMap(\.stringValue)).compactMap(Self.clean)
        }
        if let t = values("title").first { title = t }
        if let d = values("description").first { description = d }
        if let c = values("creator").first { creator = c }
        if let r = values("rights").first { copyright = r }
        keywords += values("subject")
        let p = ["City", "State", "Country"].compactMap { values($0).first }
        if !p.isEmpty { place = p } else if let loc = values("Location").first { place = [loc] }
    }
}
