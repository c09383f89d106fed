import Foundation
import PhotoCurate

/// Manifest + the photos' own words + the user's notes → the exhibit's facts.
///
/// ```swift
/// let plan = ExhibitBuilder(maxWorks: 20).build(manifest, metadata: { PhotoMetadata.read($0) }, user: UserFacts())
/// plan.exhibit.works[0].technique   // "Camera: Canon EOS 40D. Exposure: 1/250 s at f/8, ISO 100."
/// ```
/// Input: `Manifest` (picks, facts, moments, reasons, people), `PhotoMetadata` per
/// pick, `UserFacts`. Output: `ExhibitPlan` (the `Exhibit` and which photo is
/// which work). Pure: no files are written here, so it is tested on values.
/// Every sentence is a fact from one of those three sources; a field with no
/// fact stays empty.
public struct ExhibitBuilder: Sendable {
    public var maxWorks: Int
    /// 0: one editorial per moment; 1: one per day.
    public var editorialsByDay: Bool
    public var pauseSeconds: Double
    public var wordsPerMinute: Double

    public init(maxWorks: Int = 20, editorialsByDay: Bool = false, pauseSeconds: Double = 2, wordsPerMinute: Double = 170) {
        self.maxWorks = maxWorks
        self.editorialsByDay = editorialsByDay
        self.pauseSeconds = pauseSeconds
        self.wordsPerMinute = wordsPerMinute
    }

    public struct Plan: Sendable {
        public var exhibit: Exhibit
        /// work id → the photo it shows, and the quarter turn that shows it upright.
        public var sources: [String: (path: String, rotation: Int?)]
        /// editorial id → its cover's work id.
        public var covers: [String: String]
        public var packets: [ContextPacket]
        /// Photos works.yml has notes for that are not in the exhibit (not picked, or past
        /// `maxWorks`), each with the pick of its visual group when there is one: the stage says so,
        /// since a note that silently goes unused looks like a lost fact.
        public var unusedNotes: [(file: String, pickedInstead: String?)] = []
    }

    public func build(_ m: Manifest, metadata: (String) -> PhotoMetadata, user: UserFacts) -> Plan {
        let byPath = Dictionary(m.photos.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        // The manifest gives moments' start and end as the camera's local times, which is what a visitor reads.
        let moments = Dictionary(m.moments.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Picks in time order (a tour follows the trip); untimed ones after, by rank.
        let picks = m.picks.prefix(maxWorks).compactMap { p in byPath[p.path].map { (p, $0) } }
        let ordered = picks.sorted { a, b in
            let ta = a.1.facts.flatMap { $0.timeTrusted ? $0.captureTime : nil }, tb = b.1.facts.flatMap { $0.timeTrusted ? $0.captureTime : nil }
            switch (ta, tb) {
            case let (x?, y?): return x != y ? x < y : a.0.rank < b.0.rank
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.0.rank < b.0.rank
            }
        }
        let width = max(2, String(ordered.count).count)
        var works: [Work] = [], sources: [String: (String, Int?)] = [:], metas: [String: PhotoMetadata] = [:]
        var photoOf: [String: Manifest.Photo] = [:], usedNotes = Set<String>()
        for (k, (pick, photo)) in ordered.enumerated() {
            let id = "work-" + String(repeating: "0", count: max(0, width - String(k + 1).count)) + String(k + 1)
            let meta = metadata(photo.path)
            metas[id] = meta
            photoOf[id] = photo
            let noteKey = [photo.relativePath, (photo.path as NSString).lastPathComponent].first { user.works[$0] != nil }
            let note = noteKey.flatMap { user.works[$0] }
            if let noteKey { usedNotes.insert(noteKey) }
            works.append(work(id: id, photo: photo, pick: pick, meta: meta, note: note, moment: photo.moment.flatMap { moments[$0] }, manifest: m))
            sources[id] = (photo.path, pick.suggestedRotation ?? photo.suggestedRotation)
        }

        var artist = user.artist ?? Artist(name: "", mission: "", bio: "", themes: [])
        if artist.name.isEmpty {
            // The creator the photos name most (EXIF Artist, XMP dc:creator, IPTC By-line).
            let counts = Dictionary(grouping: metas.values.compactMap(\.creator), by: { $0 }).mapValues(\.count)
            artist.name = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.first?.key ?? ""
        }

        let (editorials, covers) = groupEditorials(works: works, photoOf: photoOf, user: user, moments: moments)
        let narration = works.map { w in Narration(workId: w.id, text: Self.narration(for: w), audio: nil, seconds: nil) }
        let exhibit = Exhibit(artist: artist, works: works, editorials: editorials, narration: narration,
                              pauseSeconds: pauseSeconds, wordsPerMinute: wordsPerMinute)
        let editorialOf = Dictionary(editorials.flatMap { e in e.works.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        let packets = works.map { ContextPacket(work: $0, editorial: editorialOf[$0.id], artist: artist) }
        var plan = Plan(exhibit: exhibit, sources: sources, covers: covers, packets: packets)
        let pickOfCluster = Dictionary(ordered.compactMap { p in p.1.cluster.map { ($0, p.1.relativePath) } }, uniquingKeysWith: { a, _ in a })
        for file in user.works.keys.sorted() where !usedNotes.contains(file) {
            let photo = m.photos.first { $0.relativePath == file || ($0.path as NSString).lastPathComponent == file }
            plan.unusedNotes.append((file, photo?.cluster.flatMap { pickOfCluster[$0] }))
        }
        return plan
    }

    func work(id: String, photo: Manifest.Photo, pick: Manifest.Pick, meta: PhotoMetadata, note: UserFacts.WorkNote?,
              moment: Manifest.MomentEntry?, manifest: Manifest) -> Work {
        let f = photo.facts
        let when = f.flatMap { $0.timeTrusted ? $0.captureTime : nil }
        let title = note?.title ?? meta.title ?? ""
        let name = title.isEmpty ? id : "\"\(title)\""

        var summary: [String] = []
        if let s = note?.summary { summary.append(Self.sentence(s)) } else if let d = meta.description { summary.append(Self.sentence(d)) }
        if let when, let date = Self.dateText(when) {
            summary.append("\(name) was taken on \(date)\(Self.placeText(meta: meta, facts: f).map { ", \($0)" } ?? "").")
        } else if let place = Self.placeText(meta: meta, facts: f) {
            summary.append("\(name) was taken \(place).")
        }

        var story: [String] = []
        if let s = note?.story { story.append(Self.sentence(s)) }
        if let mo = moment, let start = mo.start, let day = Self.dayText(start), mo.photos > 1 {
            let s = Self.clock(start), e = mo.end.flatMap(Self.clock)
            if let s, let e, s != e {
                story.append("It comes from a moment of \(mo.photos) photos taken between \(s) and \(e) on \(day).")
            } else {
                story.append("It comes from a moment of \(mo.photos) photos taken on \(Self.dateText(start) ?? day).")
            }
        }
        let why = pick.reasons.filter { !$0.hasPrefix("rank ") }
        if !why.isEmpty { story.append("It was picked by photocurate for these reasons: \(why.joined(separator: "; ")).") }
        if let people = photo.people, !people.isEmpty {
            story.append("\(people.count == 1 ? "One person" : "\(people.count) people") recognised across the trip appear\(people.count == 1 ? "s" : "") in it: \(people.joined(separator: ", ")).")
        }

        var technique: [String] = []
        if let t = note?.technique { technique.append(Self.sentence(t)) }
        if let f {
            let camera = [f.make, f.model].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // "Canon Canon EOS 40D" reads badly: the model often repeats the make.
            let cameraText = camera.count == 2 && camera[1].lowercased().hasPrefix(camera[0].lowercased().split(separator: " ").first.map(String.init) ?? "~") ? camera[1] : camera.joined(separator: " ")
            if !cameraText.isEmpty { technique.append("The camera was a \(cameraText).") }
            if let lens = f.lens?.trimmingCharacters(in: .whitespaces), !lens.isEmpty { technique.append("The lens was \(lens).") }
            var exposure: [String] = []
            if let t = f.exposureTime, t > 0 { exposure.append(t >= 1 ? "\(Self.num(t)) s" : "1/\(Int((1 / t).rounded())) s") }
            if let n = f.fNumber, n > 0 { exposure.append("f/\(Self.num(n))") }
            if let iso = f.iso { exposure.append("ISO \(iso)") }
            if !exposure.isEmpty { technique.append("The exposure was \(exposure.joined(separator: ", ")).") }
            if let fl = f.focalLength, fl > 0 { technique.append("The focal length was \(Self.num(fl)) mm.") }
        }

        var tags = (note?.tags ?? []) + meta.keywords + meta.place
        if let type = photo.score?.type {
            switch type {
            case .portrait: tags.append("portrait")
            case .multipleFaces: tags.append("group portrait")
            default: break
            }
        }
        let medium = f.map { "Photograph (\(Self.formatName($0.format)), \($0.pixelWidth) × \($0.pixelHeight) px)" } ?? "Photograph"
        return Work(id: id, title: title, year: when.map { String($0.prefix(4)) } ?? "", medium: medium,
                    summary: summary.joined(separator: " "), story: story.joined(separator: " "),
                    technique: technique.joined(separator: " "), tags: PhotoMetadata.unique(tags),
                    imageName: id + ".jpg", quote: note?.quote)
    }

    func groupEditorials(works: [Work], photoOf: [String: Manifest.Photo], user: UserFacts,
                         moments: [Int: Manifest.MomentEntry]) -> ([Editorial], [String: String]) {
        var groups: [(key: String, title: String, theme: String, summary: String, works: [String])] = []
        var placed = Set<String>()
        for g in user.editorials {
            let ids = works.filter { w in
                guard let p = photoOf[w.id] else { return false }
                return g.photos.contains(p.relativePath) || g.photos.contains((p.path as NSString).lastPathComponent)
            }.map(\.id).filter { !placed.contains($0) }
            guard !ids.isEmpty else { continue }
            placed.formUnion(ids)
            groups.append((g.id, g.title, g.theme, g.summary, ids))
        }
        // The rest: one per moment (or day), in exhibit order.
        var order: [String] = [], byKey: [String: [String]] = [:], info: [String: (String, String)] = [:]
        for w in works where !placed.contains(w.id) {
            let p = photoOf[w.id]
            let when = p?.facts.flatMap { $0.timeTrusted ? $0.captureTime : nil }
            let mo = p?.moment.flatMap { moments[$0] }
            let key: String
            if let when, editorialsByDay || mo?.start == nil {
                key = String(when.prefix(10))
                info[key] = (Self.dayText(when) ?? key, "")
            } else if let mo, let start = mo.start {
                key = String(start.prefix(16)).replacingOccurrences(of: "T", with: "-").replacingOccurrences(of: ":", with: "")
                let end = mo.end.flatMap(Self.clock)
                let title = "\(Self.dayText(start) ?? ""), \(Self.clock(start) ?? "")\(end.map { $0 == Self.clock(start) ? "" : "–\($0)" } ?? "")"
                let place = mo.latitude.flatMap { la in mo.longitude.map { Self.coordinates(la, $0) } }
                let inExhibit = works.filter { photoOf[$0.id]?.moment == mo.id }.count
                info[key] = (title, "\(mo.photos) photo\(mo.photos == 1 ? "" : "s") were taken in this moment\(place.map { " near \($0)" } ?? ""); \(inExhibit) \(inExhibit == 1 ? "is" : "are") in the exhibit.")
            } else {
                key = "undated"
                info[key] = ("Undated", "Photos without a trusted capture time.")
            }
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(w.id)
        }
        for k in order { groups.append((k, info[k]!.0, "", info[k]!.1, byKey[k]!)) }
        var editorials: [Editorial] = [], covers: [String: String] = [:], used = Set<String>()
        for g in groups {
            var id = Self.kebab(g.key)
            if used.contains(id) { var n = 2; while used.contains("\(id)-\(n)") { n += 1 }; id = "\(id)-\(n)" }
            used.insert(id)
            editorials.append(Editorial(id: id, title: g.title, theme: g.theme, summary: g.summary, cover: "\(id)/cover.jpg", works: g.works))
            covers[id] = g.works[0]
        }
        return (editorials, covers)
    }

    /// 2–3 sentences, every one taken from the work's packet: what it is, when and where, then how or why.
    public static func narration(for w: Work) -> String {
        var parts: [String] = []
        let summary = ContextPacket.split(w.summary), story = ContextPacket.split(w.story), technique = ContextPacket.split(w.technique)
        if !w.title.isEmpty { parts.append("\(w.title).") }
        parts += summary.prefix(2)
        if parts.count < 3, let s = story.first { parts.append(s) }
        if parts.count < 3, let q = w.quote { parts.append("\"\(q)\"") }
        if parts.count < 3, let t = technique.first { parts.append(t) }
        if parts.count < 2, let t = technique.dropFirst().first { parts.append(t) }
        if parts.isEmpty { parts.append("\(w.id).") }
        return parts.prefix(3).joined(separator: " ")
    }

    static func sentence(_ s: String) -> String {
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty || ".!?\"”".contains(t.last!) ? t : t + "."
    }

    static func kebab(_ s: String) -> String {
        let lowered = s.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        let parts = lowered.split(separator: "-").filter { !$0.isEmpty }
        let ascii = parts.map { $0.unicodeScalars.filter { $0.isASCII }.map(String.init).joined() }.filter { !$0.isEmpty }
        return ascii.isEmpty ? "editorial" : ascii.joined(separator: "-")
    }

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// "1 June 2024": the camera's own date, as recorded (no time-zone conversion).
    static func dayText(_ iso: String) -> String? {
        let c = Array(iso)
        guard c.count >= 10, let y = Int(String(c[0..<4])), let mo = Int(String(c[5..<7])), let d = Int(String(c[8..<10])), (1...12).contains(mo) else { return nil }
        return "\(d) \(months[mo - 1]) \(y)"
    }

    static func clock(_ iso: String) -> String? {
        let c = Array(iso)
        guard c.count >= 16, c[10] == "T" else { return nil }
        return String(c[11..<16])
    }

    static func dateText(_ iso: String) -> String? {
        guard let d = dayText(iso) else { return nil }
        return clock(iso).map { "\(d) at \($0)" } ?? d
    }

    static func placeText(meta: PhotoMetadata, facts: PhotoFacts?) -> String? {
        if !meta.place.isEmpty { return "in \(meta.place.joined(separator: ", "))" }
        if let la = facts?.latitude, let lo = facts?.longitude { return "at \(coordinates(la, lo))" }
        return nil
    }

    static func coordinates(_ la: Double, _ lo: Double) -> String {
        String(format: "%.3f° %@, %.3f° %@", abs(la), la >= 0 ? "N" : "S", abs(lo), lo >= 0 ? "E" : "W")
    }

    static func num(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
    }

    static func formatName(_ loader: String) -> String {
        switch loader {
        case "jpegload", "jpegload_source": return "JPEG"
        case "heifload": return "HEIF"
        case "pngload": return "PNG"
        case "tiffload": return "TIFF"
        case "webpload": return "WebP"
        default: return loader.replacingOccurrences(of: "load", with: "").uppercased()
        }
    }
}
