import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Writes XMP sidecars beside the originals, only when asked (`--xmp`).
///
/// ```swift
/// try XMPSidecarWriter().write(manifest)   // photo.jpg → photo.jpg.xmp
/// ```
/// Ratings: picks 5 (the first fifth) or 4; the best of a group not picked 3;
/// other photos 2 or 1 by their quality relative to their group; −1 (reject) for
/// a burst member under half its group's best. An existing sidecar is parsed and
/// merged: our rating, label and keywords replace only their own fields.
public struct XMPSidecarWriter {
    public var adobeNames: Bool
    public init(adobeNames: Bool = false) { self.adobeNames = adobeNames }

    static let nsX = "adobe:ns:meta/", nsRDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let nsXMP = "http://ns.adobe.com/xap/1.0/", nsDC = "http://purl.org/dc/elements/1.1/"
    static let nsTIFF = "http://ns.adobe.com/tiff/1.0/"

    public func sidecarPath(for photo: String) -> String {
        adobeNames ? (photo as NSString).deletingPathExtension + ".xmp" : photo + ".xmp"
    }

    public struct Tags: Equatable {
        public var rating: Int
        public var label: String?
        public var keywords: [String]
        /// EXIF/TIFF orientation (6: turn 90° clockwise, 3: 180°, 8: 270°) for a photo stored on its side.
        public var orientation: Int?
        public init(rating: Int, label: String?, keywords: [String], orientation: Int? = nil) {
            self.rating = rating
            self.label = label
            self.keywords = keywords
            self.orientation = orientation
        }
    }

    public static func tags(for p: Manifest.Photo, picks: Int) -> Tags? {
        guard var t = ratingTags(for: p, picks: picks) else { return nil }
        t.orientation = p.suggestedRotation.flatMap { [90: 6, 180: 3, 270: 8][$0] }
        return t
    }

    static func ratingTags(for p: Manifest.Photo, picks: Int) -> Tags? {
        guard let score = p.score else { return nil }
        var keywords = ["photocurate"]
        if let c = p.cluster { keywords.append("photocurate/group/\(c)") }
        if let m = p.moment { keywords.append("photocurate/moment/\(m)") }
        if let rank = p.rank {
            keywords.append("photocurate/pick")
            return Tags(rating: rank <= max(1, picks / 5) ? 5 : 4, label: "Green", keywords: keywords)
        }
        if score.relative >= 0.999 { return Tags(rating: 3, label: nil, keywords: keywords) }
        if score.relative < 0.5 { return Tags(rating: -1, label: "Red", keywords: keywords + ["photocurate/reject"]) }
        return Tags(rating: score.relative >= 0.8 ? 2 : 1, label: nil, keywords: keywords)
    }

    /// Writes every sidecar it can; one that cannot be written (a read-only folder, a full
    /// disk) is returned as a problem naming the sidecar and the reason, and the rest go on.
    @discardableResult
    public func write(_ m: Manifest) -> [ErrorInfo] {
        var problems: [ErrorInfo] = []
        for p in m.photos {
            guard let tags = Self.tags(for: p, picks: m.picks.count) else { continue }
            let path = sidecarPath(for: p.path)
            let existing = RawPath.read(path)
            do { try AtomicFile.write(try render(tags, merging: existing), to: path) } catch {
                let reason = (error as? PhotoError).map { e -> String in
                    if case .io(_, let r) = e { return r }
                    return e.description
                } ?? AtomicFile.reason(error)
                problems.append(ErrorInfo(path: path, kind: "sidecar", message: "\(path): XMP sidecar \(reason)"))
            }
        }
        return problems
    }

    /// An existing sidecar as a parser takes it: an XML declaration that is not at the very
    /// start (as photocurate 0.1 wrote them, after the packet instruction) is dropped, so the
    /// user's own fields in it are kept, not lost to a parse error.
    static func repaired(_ data: Data) -> Data {
        guard var text = String(data: data, encoding: .utf8) else { return data }
        if let r = text.range(of: #"<\?xml[^?]*\?>"#, options: .regularExpression), r.lowerBound != text.startIndex {
            text.removeSubrange(r)
        }
        return Data(text.utf8)
    }

    public func render(_ tags: Tags, merging existing: Data?) throws -> Data {
        let doc: XMLDocument
        if let existing, let parsed = try? XMLDocument(data: Self.repaired(existing), options: []), parsed.rootElement() != nil {
            doc = parsed
        } else {
            doc = try XMLDocument(xmlString: """
                <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="photocurate \(Manifest.toolVersion)">
                 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                  <rdf:Description rdf:about=""/>
                 </rdf:RDF>
                </x:xmpmeta>
                """, options: [])
        }
        guard let desc = try doc.nodes(forXPath: "//*[local-name()='Description']").first as? XMLElement else {
            throw PhotoError.badMetadata(path: "sidecar", reason: "existing XMP has no rdf:Description")
        }
        func ensureNamespace(_ prefix: String, _ uri: String) {
            if desc.namespace(forPrefix: prefix) == nil && doc.rootElement()?.namespace(forPrefix: prefix) == nil {
                desc.addNamespace(XMLNode.namespace(withName: prefix, stringValue: uri) as! XMLNode)
            }
        }
        ensureNamespace("xmp", Self.nsXMP)
        ensureNamespace("dc", Self.nsDC)
        ensureNamespace("rdf", Self.nsRDF)
        if let o = tags.orientation {
            ensureNamespace("tiff", Self.nsTIFF)
            desc.removeAttribute(forName: "tiff:Orientation")
            for child in desc.elements(forName: "tiff:Orientation") { child.detach() }
            desc.addAttribute(XMLNode.attribute(withName: "tiff:Orientation", stringValue: String(o)) as! XMLNode)
        }
        // Replace our fields, whether stored as attributes or as elements.
        for name in ["xmp:Rating", "xmp:Label"] {
            desc.removeAttribute(forName: name)
            for child in desc.elements(forName: name) { child.detach() }
        }
        desc.addAttribute(XMLNode.attribute(withName: "xmp:Rating", stringValue: String(tags.rating)) as! XMLNode)
        if let label = tags.label { desc.addAttribute(XMLNode.attribute(withName: "xmp:Label", stringValue: label) as! XMLNode) }
        // Keywords: keep the user's, replace ours.
        var kept: [String] = []
        for subject in desc.elements(forName: "dc:subject") {
            for li in (try? subject.nodes(forXPath: ".//*[local-name()='li']")) ?? [] {
                if let s = li.stringValue, !s.hasPrefix("photocurate") { kept.append(s) }
            }
            subject.detach()
        }
        let subject = XMLElement(name: "dc:subject")
        let bag = XMLElement(name: "rdf:Bag")
        for k in kept + tags.keywords { bag.addChild(XMLElement(name: "rdf:li", stringValue: k)) }
        subject.addChild(bag)
        desc.addChild(subject)
        // The packet wrapper, then the xmpmeta element alone: an XML declaration is allowed only at the
        // very start of a document, and exiv2 (digiKam, darktable, gThumb, Shotwell) refuses one after the
        // `<?xpacket?>` instruction.
        guard let root = doc.rootElement() else { throw PhotoError.badMetadata(path: "sidecar", reason: "no root element") }
        let text = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + root.xmlString(options: [.nodePrettyPrint]) + "\n<?xpacket end=\"w\"?>\n"
        return Data(text.utf8)
    }
}
