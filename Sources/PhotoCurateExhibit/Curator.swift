import Foundation
import GRDB

/// The curator: answers questions about an exhibit only from its context packets.
///
/// ```swift
/// let curator = try Curator(exhibit: Exhibit.load(folder: "out/exhibit"))
/// curator.ask("What camera was used for Harbour at dusk?").answer
/// // "The camera was a Canon EOS 40D. (work-03, \"Harbour at dusk\")"
/// curator.ask("What is it worth?").answer   // "I don't know: the exhibit's context does not say."
/// ```
/// Retrieval, not generation: the packets' sentences are indexed with SQLite
/// FTS5 (BM25, Porter stemming), each with the words that ask for its field
/// ("when", "camera", "why" …). An answer is a sentence of the packets, quoted
/// whole and named by its work. It is given only when the sentence carries
/// what the question asks for (a field word, if the question has one) and what
/// it is about (most of its other words); a question with words that no packet
/// knows, or that asks for an opinion, gets "I don't know".
public final class Curator: @unchecked Sendable {
    public static let unknown = "I don't know: the exhibit's context does not say."

    public struct Answer: Codable, Sendable, Equatable {
        public var answer: String
        /// false for "I don't know".
        public var known: Bool
        /// The supporting sentences, each with the work it belongs to (nil: the exhibit's own facts).
        public var sources: [Source]
        public struct Source: Codable, Sendable, Equatable {
            public var workId: String?
            public var field: String
            public var sentence: String
        }
    }

    let exhibit: Exhibit
    let db: DatabaseQueue
    let rows: [ContextPacket.Sentence]
    let titles: [String: String]

    public init(exhibit: Exhibit) throws {
        self.exhibit = exhibit
        var rows = ContextPacket.sentences(of: exhibit.artist)
        for e in exhibit.editorials {
            if !e.theme.isEmpty { rows.append(.init(workId: nil, field: "editorial", text: "The theme of the editorial \"\(e.title)\" is \(e.theme).")) }
            for s in ContextPacket.split(e.summary) { rows.append(.init(workId: nil, field: "editorial", text: "\(e.title): \(s)")) }
        }
        let editorialOf = Dictionary(exhibit.editorials.flatMap { e in e.works.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        for w in exhibit.works {
            rows += ContextPacket.sentences(of: w)
            // The packet's [Editorial: …] header, as a sentence of its own.
            if let e = editorialOf[w.id] {
                rows.append(.init(workId: w.id, field: "editorialOf", text: "\(w.title.isEmpty ? w.id : "\"\(w.title)\"") is in the editorial \"\(e.title)\"."))
            }
        }
        self.rows = rows
        titles = Dictionary(exhibit.works.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        db = try DatabaseQueue()
        try db.write { d in
            try d.execute(sql: "CREATE VIRTUAL TABLE idx USING fts5(text, hints, name, tokenize = 'porter unicode61 remove_diacritics 2')")
            for (k, r) in rows.enumerated() {
                var name = ""
                if let wid = r.workId {
                    let number = wid.split(separator: "-").last.map { String(Int($0) ?? 0) } ?? ""
                    name = "\(self.titles[wid] ?? "") \(wid) \(number)"
                } else if r.field == "editorial" {
                    name = "editorial"
                } else {
                    name = exhibit.artist.name
                }
                try d.execute(sql: "INSERT INTO idx(rowid, text, hints, name) VALUES (?, ?, ?, ?)",
                              arguments: [k + 1, r.text, Self.hints(for: r), name])
            }
        }
    }

    /// The words a question uses to ask for this sentence's kind of fact.
    static func hints(for r: ContextPacket.Sentence) -> String {
        switch r.field {
        case "title": return "title titled called"
        case "year": return "year when"
        case "medium": return "medium format kind type size big large pixels resolution dimensions file"
        case "summary": return "what describe description depicts depict subject shows show look looks colour colours color colors"
        case "story": return "story why background happened context"
        case "technique": return "technique how made equipment gear"
        case "date": return "when date day month time hour taken where place location coordinates gps"
        case "moment": return "moment burst series when taken"
        case "reasons": return "why picked pick chosen choose selected selection reason reasons"
        case "people": return "who people person persons faces"
        case "camera": return "camera technique equipment gear shot"
        case "lens": return "lens technique equipment"
        case "exposure": return "exposure shutter speed aperture iso settings technique"
        case "focal": return "focal length zoom technique"
        case "tags": return "tags tag keywords keyword subjects topics"
        case "quote": return "quote quotation said say says words saying advice motto"
        case "artist": return "artist who photographer author creator made took name"
        case "mission": return "mission aim goal purpose statement intent intention artist want wants achieve"
        case "bio": return "bio biography who background life living job profession occupation where artist photographer"
        case "themes": return "themes theme topics artist"
        case "editorial": return "editorial section chapter theme group part"
        case "editorialOf": return "editorial section chapter group part belongs"
        default: return ""
        }
    }

    /// When several sentences answer equally well: descriptions before derived facts, tags last.
    static let prior: [String: Int] = ["summary": 0, "story": 1, "date": 2, "reasons": 3, "moment": 4, "quote": 4, "camera": 5, "lens": 5,
                                       "exposure": 5, "focal": 5, "technique": 5, "people": 5, "title": 6, "year": 7, "medium": 8, "tags": 9,
                                       "artist": 1, "mission": 2, "themes": 3, "bio": 6, "editorialOf": 8]

    static let stopwords: Set<String> = Set("""
    a an the of for in on at to by with and or from into onto as is are was were be been being it its it's this that these those \
    there here what which whose whom does did do done can could would should will shall may might must tell me us please i you your \
    we our they their them he she his her him my mine any some much many more most very just also than then so such know let \
    photo photos photograph photographs picture pictures image images work works piece exhibit exhibition one give \
    anything something have has had get got go goes going went come comes came belong belongs belonging use used using \
    really exactly kind sort like there's photographed photographing pictured shown \
    try tries trying tried actually side make makes making \
    behind under over above below beside near next across through inside outside around between \
    about run runs see seen saw visible appear appears held hold holding doing according thing things \
    feature features featured featuring contain contains contained containing include includes included including hold holds held holding \
    happen happens happened occur occurs occurred
    """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))

    /// Irregular forms, so that "find" meets "found" (Porter stemming handles the regular ones).
    static let irregular: [String: [String]] = [
        "find": ["found"], "found": ["find"], "take": ["took", "taken"], "took": ["take", "taken"], "taken": ["take", "took"],
        "make": ["made"], "made": ["make"], "see": ["saw", "seen"], "begin": ["began", "begun"], "began": ["begin"],
        "shoot": ["shot"], "shot": ["shoot"], "hang": ["hung"], "hung": ["hang"], "wait": ["waited"],
        "meet": ["met"], "sit": ["sat"], "spend": ["spent"], "spent": ["spend"], "buy": ["bought"], "think": ["thought"],
        // Words for the end of a sequence, so that "the final picture" meets "the last photograph".
        "hunt": ["look"], "search": ["look"], "seek": ["look"], "hunting": ["look"], "searching": ["look"], "seeking": ["look"],
        "final": ["last"], "ended": ["last"], "ending": ["last"], "finished": ["last"],
        // "Shape" and "building" name what the packets call by its kind.
        "shape": shapes, "shapes": shapes, "building": buildings, "buildings": buildings,
    ]
    static let shapes = ["circle", "square", "disc", "arc", "bar", "panel", "triangle", "stripe", "rectangle", "line"]
    static let buildings = ["house", "boathouse", "shed", "church", "tower", "shop", "door", "hall", "station", "barn", "cottage"]

    /// Other forms of a word the stemmer does not join ("hanging" → "hung").
    static func variants(_ t: String) -> [String] {
        for stem in [t, String(t.dropLast()), t.hasSuffix("ing") ? String(t.dropLast(3)) : "", t.hasSuffix("ed") ? String(t.dropLast(2)) : ""] where !stem.isEmpty {
            if let v = irregular[stem] { return v }
        }
        return []
    }

    static let subordinate = try! NSRegularExpression(pattern: #"\b(?:before|after|while|until|once)\s+\w+\s+(\w+)"#, options: [.caseInsensitive])

    /// The first capture group of each match.
    static func matches(_ r: NSRegularExpression, in q: String) -> [String] {
        r.matches(in: q, range: NSRange(q.startIndex..., in: q)).compactMap { Range($0.range(at: 1), in: q).map { String(q[$0]) } }
    }

    static let spatial = #"\b(behind|under|underneath|beneath|above|below|beside|next to|near|over|inside|outside|between|across|in front of)\b"#

    /// Words that make a question about a photo or its taking.
    static let photoWords = #"(?i)\b(photo|photos|photograph|photographs|photographed|picture|pictures|image|images|work|works|piece|shot|taken|take|took|made|captured|snapped|exhibit)\b"#

    static let numberWords: Set<String> = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// Whether a colour word stands within six words of `thing` (matched by its first letters, as a stem).
    static func colourNear(_ thing: String, in text: String) -> Bool {
        let words = text.lowercased().split(whereSeparator: { !($0.isLetter || $0 == "-") }).map(String.init)
        let stem = String(thing.prefix(max(3, thing.count - 2)))
        let things = words.indices.filter { words[$0].hasPrefix(stem) }
        let colours = words.indices.filter { w in colourWord.firstMatch(in: words[w], range: NSRange(words[w].startIndex..., in: words[w])) != nil }
        return things.contains { t in colours.contains { abs($0 - t) <= 6 } }
    }

    static let howMany = try! NSRegularExpression(pattern: #"\bhow\s+many\s+(\w+)"#, options: [.caseInsensitive])

    /// "Which city…?" asks where: the packets name the place, not its kind.
    static let placeKind = try! NSRegularExpression(pattern: #"\b(which|what) (city|town|country|island|village|region|place|port)\b"#, options: [.caseInsensitive])

    /// A sentence that names a colour answers "what colour…?" without the word "colour".
    static let colourTerms: Set<String> = ["colour", "colours", "color", "colors"]
    static let colourWord = try! NSRegularExpression(pattern:
        #"\b(red|orange|yellow|green|blue|indigo|violet|purple|pink|brown|black|white|grey|gray|maroon|lilac|sage|ochre|olive|plum|khaki|copper|gold|golden|silver|beige|turquoise|teal|navy|cream|crimson|scarlet|amber|magenta|cyan)\b"#,
        options: [.caseInsensitive])

    /// Wh-words ask for a kind of fact, but a sentence can answer without containing the hint.
    static let softField: Set<String> = ["where", "when", "who", "why", "how", "what"]

    /// Questions that ask for a judgement: the packets hold facts, not opinions.
    static let opinion = try! NSRegularExpression(pattern:
        #"\b(do|would|did) you (think|like|love|prefer|feel|recommend|enjoy)|\byour (opinion|view|favou?rite|take)|\bin your (view|opinion)|\b(is|was|are) (it|this|that|the \w+) (good|bad|beautiful|ugly|great|nice|worth|better|worse|boring|interesting)|\b(most|more|less|least) (beautiful|interesting|impressive|boring)|\bfavou?rite\b|\bshould (i|we)\b|\bworth (it|buying|seeing)|\bhow much\b|\bprice\b|\bvalue\b|\bbetter than\b|\b(his|her|their|its) (best|finest|greatest|worst|strongest|weakest)\b|\b\w+'s (best|finest|greatest|worst|strongest|weakest) (work|photo|photograph|picture|piece|image|shot)\b|\bthe (best|finest|greatest|worst) (work|photo|photograph|picture|piece|one|image)\b|\b(like|liked|love|loved|prefer|preferred|enjoy|enjoyed)\s+(\w+\s+)?(most|best|least)\b"#,
        options: [.caseInsensitive])

    static func terms(_ q: String) -> [String] {
        var seen = Set<String>(), out: [String] = []
        // "Take place" is "happen": it asks neither for a place nor for who took something.
        let lowered = q.lowercased().replacingOccurrences(of: "’", with: "'")
            .replacingOccurrences(of: #"\b(take|takes|took|taken|taking) place\b"#, with: "happened", options: .regularExpression)
        for raw in lowered.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }) {
            var t = String(raw)
            if t.hasSuffix("'s") { t.removeLast(2) }
            // "I'd like to know…", "what's": the contraction's ending says nothing.
            if let a = t.firstIndex(of: "'"), ["i", "you", "we", "they", "he", "she", "it", "that", "there", "what", "who", "where", "when", "how"].contains(String(t[..<a])) { t = String(t[..<a]) }
            t = t.replacingOccurrences(of: "'", with: "")
            if t.isEmpty || stopwords.contains(t) { continue }
            if t.count == 1, !(t.first!.isNumber) { continue }
            if seen.insert(t).inserted { out.append(t) }
        }
        return out
    }

    func matching(_ column: String?, _ term: String) throws -> Set<Int> {
        let q = (column.map { "\($0) : " } ?? "") + "\"\(term.replacingOccurrences(of: "\"", with: ""))\""
        return try db.read { d in Set(try Int.fetchAll(d, sql: "SELECT rowid FROM idx WHERE idx MATCH ?", arguments: [q])) }
    }

    /// Answers one question; `workId` is the work on screen ("this photo"), if any.
    public func ask(_ question: String, workId: String? = nil) -> Answer {
        let dontKnow = Answer(answer: Self.unknown, known: false, sources: [])
        let q = question.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !q.isEmpty, q.count <= 2000 else { return dontKnow }
        if Self.opinion.firstMatch(in: q, range: NSRange(q.startIndex..., in: q)) != nil { return dontKnow }
        var terms = Self.terms(q)
        // "Where is the circle in the frame?" asks where in the picture, which its description says.
        let asksInFrame = q.range(of: #"(?i)\bwhere\b.*\b(in|on|within)\s+the\s+(frame|picture|photo|photograph|image|composition)\b"#, options: .regularExpression) != nil
        if asksInFrame { terms.removeAll { ["frame", "composition"].contains($0) } }
        if let m = Self.placeKind.firstMatch(in: q, range: NSRange(q.startIndex..., in: q)), let kind = Range(m.range(at: 2), in: q) {
            let word = q[kind].lowercased()
            terms.removeAll { $0 == word }
            if !terms.contains("where") { terms.insert("where", at: 0) }
        }
        // "work 12" / "work-12" names a work by number: one this exhibit does not have is unknown.
        var namedByNumber: String? = nil
        if let m = q.range(of: #"(?i)\bwork[ -]?0*([0-9]+)\b"#, options: .regularExpression) {
            let n = Int(q[m].filter(\.isNumber)) ?? 0
            guard let w = exhibit.works.first(where: { Int($0.id.split(separator: "-").last ?? "") == n }) else { return dontKnow }
            namedByNumber = w.id
            terms.removeAll { Int($0) == n }
        }
        guard !terms.isEmpty || namedByNumber != nil else { return dontKnow }
        do {
            var inText: [String: Set<Int>] = [:], inHints: [String: Set<Int>] = [:], inName: [String: Set<Int>] = [:]
            for t in terms {
                var text = try matching("text", t), name = try matching("name", t)
                for v in Self.variants(t) { text.formUnion(try matching("text", v)); name.formUnion(try matching("name", v)) }
                inText[t] = text; inHints[t] = try matching("hints", t); inName[t] = name
                if Self.colourTerms.contains(t) {
                    inHints[t]!.formUnion(rows.indices.filter { Self.colourWord.firstMatch(in: rows[$0].text, range: NSRange(rows[$0].text.startIndex..., in: rows[$0].text)) != nil }.map { $0 + 1 })
                }
            }
            let artistName = Set(Self.terms(exhibit.artist.name))
            // "What colour is the shed?" asks a colour; "what did she say about the lagoon's colours?" does not.
            let asksColour = terms.contains(where: Self.colourTerms.contains)
                && q.range(of: #"(?i)\b(what|which)\s+colou?rs?\b|\bcolou?rs?\s+(is|are|was|were|of)\b"#, options: .regularExpression) != nil
            let asksPlaceKind = Self.placeKind.firstMatch(in: q, range: NSRange(q.startIndex..., in: q)) != nil
            // "How many boats…?" is answered by a sentence that counts boats.
            let counted = Self.matches(Self.howMany, in: q).first.map { $0.lowercased().hasSuffix("s") ? String($0.lowercased().dropLast()) : $0.lowercased() }
            let asksPosition = q.range(of: Self.spatial, options: [.regularExpression, .caseInsensitive]) != nil
            let colourThing: String? = terms.firstIndex(where: Self.colourTerms.contains).flatMap { k in
                terms[(k + 1)...].first { Int($0) == nil && !Self.numberWords.contains($0) && !artistName.contains($0) && !Self.colourTerms.contains($0) }
            }
            let asksClock = q.range(of: #"(?i)\b(what|which)\s+time\b"#, options: .regularExpression) != nil
            // Capitalised words inside the question that are not a work's title: names of places and people.
            let titleWords = Set(exhibit.works.flatMap { Self.terms($0.title) })
            let properNames = Set(q.split(whereSeparator: { !($0.isLetter || $0 == "'") }).dropFirst()
                .filter { $0.first!.isUppercase && $0 != "I" && !$0.hasPrefix("I'") }
                .flatMap { Self.terms(String($0)) }).subtracting(titleWords).subtracting(artistName).filter { terms.contains($0) }
            let artistWords = artistName.union(["artist", "photographer"])
            let aboutArtist = terms.contains(where: artistWords.contains)
            let asksWhichWork = q.range(of: #"(?i)\bwhich\s+(works?|photos?|photographs?|pictures?|images?|pieces?)\b"#, options: .regularExpression) != nil
            // A word no packet knows is something the exhibit does not cover.
            if terms.contains(where: { inText[$0]!.isEmpty && inHints[$0]!.isEmpty && inName[$0]!.isEmpty }) { return dontKnow }
            // "…before she took it" names an event, it does not ask who took it: a verb after
            // "before/after/while/until <someone>" is what the question is about, not its field.
            let incidental = Set(Self.matches(Self.subordinate, in: q).flatMap { Self.terms($0) })
            let fieldTerms = terms.filter { !inHints[$0]!.isEmpty && !incidental.contains($0) }
            let hardField = fieldTerms.filter { !Self.softField.contains($0) }
            let subjectTerms = terms.filter { !fieldTerms.contains($0) }

            // Which work the question is about: by title or number, else by where its words are.
            // A work is named when every word of its title is in the question ("Red Square", not just "square").
            let asked = Set(terms)
            var namedWorks = Set(exhibit.works.filter { w in
                let words = Self.terms(w.title)
                return !words.isEmpty && words.allSatisfy(asked.contains)
            }.map(\.id))
            let naming = Set(exhibit.works.filter { namedWorks.contains($0.id) }.flatMap { Self.terms($0.title) })
            if let n = namedByNumber { namedWorks = [n] }
            let namesAPhoto = workId != nil || !namedWorks.isEmpty || q.range(of: Self.photoWords, options: .regularExpression) != nil
            let asksWhenOfEvent = (terms.contains("when") || asksClock) && !namesAPhoto
            // The artist made every work: her name in a question about a work ("What advice does Marta
            // give about circles?") does not have to be in that work's packet.
            let rest = subjectTerms.filter { !naming.contains($0) || namedWorks.isEmpty }
            var workCover: [String: Int] = [:]
            for w in exhibit.works {
                let ids = Set(rows.indices.filter { rows[$0].workId == w.id }.map { $0 + 1 })
                workCover[w.id] = rest.filter { t in artistName.contains(t) || !inText[t]!.isDisjoint(with: ids) || !inName[t]!.isDisjoint(with: ids) }.count
            }
            func enough(_ hit: Int, _ total: Int) -> Bool { total == 0 || Double(hit) / Double(total) >= (total >= 3 ? 0.6 : 0.99) }

            // "What is the orange circle?" asks what the thing is: a sentence that says "The orange
            // circle is …" defines it, where the summary only shows it ("A small orange circle sits …").
            let defined = Self.definitionHead(q)
            struct Scored { var row: Int; var fieldHit: Int; var hardHit: Int; var hintHit: Int; var restHit: Int; var full: Bool; var defines: Bool }
            var scored: [Scored] = []
            for k in rows.indices {
                let row = k + 1, r = rows[k]
                // A sentence that names a place answers "where", one that names a time "when".
                let fieldHit = fieldTerms.filter { inHints[$0]!.contains(row) || inText[$0]!.contains(row)
                    || ($0 == "where" && asksInFrame && Self.placesInFrame(r.text))
                    || (["when", "where"].contains($0) && Self.hasAnswer(to: $0, in: r.text, asked: asked)) }.count
                let hardHit = hardField.filter { inHints[$0]!.contains(row) || inText[$0]!.contains(row) }.count
                // A hint says the sentence is that kind of fact; the word in its text only may be a passing mention.
                let hintHit = fieldTerms.filter { inHints[$0]!.contains(row) }.count
                if !hardField.isEmpty && hardHit == 0 { continue }
                let restHit = rest.filter { inText[$0]!.contains(row) || inName[$0]!.contains(row) }.count
                // "Which works…?" is answered by a work, not by the exhibit's general facts.
                if asksWhichWork && r.workId == nil { continue }
                if let w = r.workId {
                    if !namedWorks.isEmpty && !namedWorks.contains(w) { continue }
                    if namedWorks.isEmpty, let current = workId, w != current, rest.isEmpty { continue }
                    // The work must carry what the question is about, somewhere in its packet.
                    if !enough(workCover[w] ?? 0, rest.count) { continue }
                } else {
                    // The exhibit's own facts: they must carry the question's words themselves, and when a
                    // work is named they answer only what they are for ("who took it?").
                    if !enough(restHit, rest.count) { continue }
                    if !namedWorks.isEmpty && hardField.allSatisfy({ !inHints[$0]!.contains(row) }) { continue }
                }
                // "What colour are the boats?" is answered by a sentence about the boats (the first thing
                // the question names), not by any colour of the work.
                // The thing is the first word after "colour" that is not the artist ("Marta's camera": the camera),
                // even when it is also a field's word ("camera").
                if asksColour, let thing = colourThing ?? rest.first(where: { Int($0) == nil && !Self.numberWords.contains($0) }) {
                    if !(inText[thing]!.contains(row) || inName[thing]!.contains(row)) { continue }
                    // …and the colour is said of it, within six words ("The orange circle is a buoy hung on a shed" does not
                    // colour the shed); a list of tags says no colour of anything.
                    if r.field == "tags" || (inText[thing]!.contains(row) && !Self.colourNear(thing, in: r.text)) { continue }
                }
                // "What is behind the shutter?" asks where something is: a sentence that places nothing does not
                // answer. ("The story behind this" asks for the story: a field word decides.)
                if asksPosition && hardField.isEmpty && r.text.range(of: Self.spatial, options: [.regularExpression, .caseInsensitive]) == nil { continue }
                // A name the question gives (a place, a person) must be in the work's packet, or in the exhibit's sentence.
                if !properNames.isEmpty {
                    let ids = r.workId.map { w in Set(rows.indices.filter { rows[$0].workId == w }.map { $0 + 1 }) } ?? [row]
                    if properNames.contains(where: { inText[$0]!.isDisjoint(with: ids) && inName[$0]!.isDisjoint(with: ids) }) { continue }
                }
                // "Which town…?" is answered by a named place, not by coordinates.
                if asksPlaceKind && r.text.range(of: #"\b(at|in|on|from|near|over|to)\s+(the\s+)?[A-Z][a-z]+"#, options: .regularExpression) == nil { continue }
                if let thing = counted, r.text.range(of: #"(?i)\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(\w+\s+)?"# + NSRegularExpression.escapedPattern(for: thing), options: .regularExpression) == nil { continue }
                // "What is the photo of the buoy called?" asks a title; "what is the fisherman's boat called?" does not.
                if r.field == "title" && !rest.isEmpty && q.range(of: #"(?i)\b(photo|photograph|picture|image|work|piece|shot)s?\b"#, options: .regularExpression) == nil { continue }
                // The file's size answers "how big is the photo?", not "how big is the buoy?".
                if r.field == "medium" && !rest.isEmpty { continue }
                // "Why is the arc red?" asks about the picture: the selection's reasons answer only a question about choosing.
                if r.field == "reasons" && !fieldTerms.contains(where: { $0 != "why" && inHints[$0]!.contains(row) }) { continue }
                // …and they are photocurate's reasons: "Why did Marta choose Chioggia?" asks hers.
                if r.field == "reasons" && !artistName.isDisjoint(with: asked) { continue }
                // A photo's date says when the photo was taken: "When did the shadow leave the door?" asks
                // about another event, and a question that names no photo, no work and no taking is that.
                if ["date", "moment", "year"].contains(r.field) && asksWhenOfEvent { continue }
                // "What time…?" asks for a clock time or a part of the day, not "before the boats passed".
                if asksClock && r.text.range(of: #"\b\d{1,2}:\d{2}\b|\b(morning|afternoon|evening|night|dawn|dusk|noon|midday|midnight|sunrise|sunset)\b"#, options: [.regularExpression, .caseInsensitive]) == nil { continue }
                // "The artist is Marta Ruiz" tells nothing to a question that already names her.
                if r.field == "artist" && !artistName.isEmpty && artistName.isSubset(of: asked) { continue }
                // "Where is the circle in the frame?" asks where in the picture: what the picture shows answers.
                if asksInFrame && r.field != "summary" { continue }
                let defines = defined.map { Self.defines(r.text, head: $0) } ?? false
                // A question that only names a work ("what is Red Square?") is answered by what it shows.
                if fieldTerms.isEmpty && restHit == 0 && !defines && !(rest.isEmpty && !namedWorks.isEmpty && r.field == "summary") { continue }
                // A sentence that says all the question is about answers a wh-question only if it has that kind of answer in it.
                let full = !rest.isEmpty && restHit == rest.count && fieldTerms.filter(Self.softField.contains).allSatisfy { Self.hasAnswer(to: $0, in: r.text, asked: asked) }
                scored.append(Scored(row: row, fieldHit: fieldHit, hardHit: hardHit, hintHit: hintHit, restHit: restHit, full: full, defines: defines))
            }
            guard !scored.isEmpty else { return dontKnow }
            // A wh-question with no hint in a sentence still needs a sentence that says it all.
            // "When was X made?" asks for a time even when another word ("made") names a field:
            // the sentence must say that kind of thing, or be the kind of fact that word asks for.
            let asks = terms.filter { ["when", "where", "who", "why"].contains($0) }
            // "Who was with Marta?" asks for someone else: a sentence about her (her biography) does not
            // answer it by being the kind of fact "who" asks for; it has to name another person.
            // ("Who is Marta Ruiz?" asks for her, and her biography answers.)
            let asksAboutArtist = q.range(of: #"(?i)^\s*who\s+(is|was|'s)\s+"# + NSRegularExpression.escapedPattern(for: exhibit.artist.name.split(separator: " ").first.map(String.init) ?? "\u{0}"), options: .regularExpression) != nil
            let whoElse = !artistName.isEmpty && !artistName.isDisjoint(with: terms) && !asksAboutArtist
            // "Why is the buoy orange?" asks for a cause: a story answers only if it gives one.
            let whyAsksCause = terms.contains("why") && !fieldTerms.contains(where: { $0 != "why" })
            // The colour the question asks the cause of, outside the titles it names: the one it
            // ends on ("Why is the wall green?"). A colour that only says which thing is meant
            // ("… before photographing the maroon disc?") is not what is asked.
            var untitled = q.lowercased()
            for w in exhibit.works where namedWorks.contains(w.id) && !w.title.isEmpty { untitled = untitled.replacingOccurrences(of: w.title.lowercased(), with: " ") }
            let lastWord = untitled.split(whereSeparator: { !$0.isLetter && $0 != "-" }).last.map(String.init) ?? ""
            let colours = Self.colourWord.firstMatch(in: lastWord, range: NSRange(lastWord.startIndex..., in: lastWord)) != nil ? [lastWord] : []
            // "Her first camera": an order the sentence must say too (first, last, began, ended …),
            // or it answers about some other one. "The last photograph" picks a work by its
            // order: one of that work's sentences says it, and any of them may answer.
            let order = q.range(of: Self.orderWord, options: [.regularExpression, .caseInsensitive])
            let ordersWorks = order.map { q[$0.upperBound...].range(of: #"^\s+(photograph|photo|picture|image|work|shot|frame)s?\b"#, options: [.regularExpression, .caseInsensitive]) != nil } ?? false
            func saysOrder(_ text: String) -> Bool { text.range(of: Self.orderAnswer, options: [.regularExpression, .caseInsensitive]) != nil }
            let worksSayingOrder = ordersWorks ? Set(rows.filter { saysOrder($0.text) }.compactMap(\.workId)) : []
            let good = scored.filter { s in
                let r = rows[s.row - 1]
                if order != nil && !saysOrder(r.text) && !(r.workId.map(worksSayingOrder.contains) ?? false) { return false }
                return (fieldTerms.isEmpty || s.fieldHit > 0 || s.full)
                    && asks.allSatisfy { wh in
                        if wh == "who" && whoElse { return Self.namesSomeoneElse(r.text, than: exhibit.artist.name) }
                        if wh == "why" && whyAsksCause && r.field != "reasons" {
                            // "Why is the wall green?" is answered by a cause that says green.
                            return Self.hasAnswer(to: wh, in: r.text, asked: asked) && colours.allSatisfy { r.text.lowercased().contains($0) }
                        }
                        if wh == "where" && asksInFrame { return Self.placesInFrame(r.text) }
                        return (wh != "where" && inHints[wh]!.contains(s.row)) || Self.hasAnswer(to: wh, in: r.text, asked: asked)
                    }
            }
            guard !good.isEmpty else { return dontKnow }
            let rank = try bm25(terms)
            let sorted = good.sorted { a, b in
                if a.hardHit != b.hardHit { return a.hardHit > b.hardHit }
                if a.full != b.full { return a.full }
                if a.defines != b.defines { return a.defines }
                if a.hintHit != b.hintHit { return a.hintHit > b.hintHit }
                // A named work's own sentences before the exhibit's general ones.
                // …and so does a question that asks which work ("Which photograph ended the walk?").
                let wa = rows[a.row - 1].workId != nil, wb = rows[b.row - 1].workId != nil
                if (!namedWorks.isEmpty || asksWhichWork) && wa != wb { return wa }
                // A question about the artist that names no work: the artist's statement before a work's story.
                if namedWorks.isEmpty && !asksWhichWork && aboutArtist && wa != wb { return wb }
                if a.fieldHit != b.fieldHit { return a.fieldHit > b.fieldHit }
                if a.restHit != b.restHit { return a.restHit > b.restHit }
                let pa = Self.prior[rows[a.row - 1].field] ?? 5, pb = Self.prior[rows[b.row - 1].field] ?? 5
                if pa != pb { return pa < pb }
                let ra = rank[a.row] ?? 0, rb = rank[b.row] ?? 0
                return ra != rb ? ra < rb : a.row < b.row
            }
            let top = sorted[0]
            // Several works answer a question that names none: up to three, each named.
            var chosen = [top]
            if namedWorks.isEmpty, workId == nil, rows[top.row - 1].workId != nil {
                for s in sorted.dropFirst() where s.hardHit == top.hardHit && s.full == top.full && s.fieldHit == top.fieldHit
                    && s.restHit == top.restHit && rows[s.row - 1].field == rows[top.row - 1].field && chosen.count < 3
                    && !chosen.contains(where: { rows[$0.row - 1].workId == rows[s.row - 1].workId }) {
                    chosen.append(s)
                }
            }
            let sources = chosen.map { s -> Answer.Source in let r = rows[s.row - 1]; return .init(workId: r.workId, field: r.field, sentence: r.text) }
            return Answer(answer: sources.map(cite).joined(separator: " "), known: true, sources: sources)
        } catch {
            return dontKnow
        }
    }

    /// The head word of what a "what is the X (in Y)?" question asks to have defined ("circle"), stemmed; nil otherwise.
    static func definitionHead(_ q: String) -> String? {
        guard let m = definition.firstMatch(in: q, range: NSRange(q.startIndex..., in: q)),
              let thing = Range(m.range(at: 1), in: q) else { return nil }
        return terms(String(q[thing])).last
    }
    static let definition = try! NSRegularExpression(pattern:
        #"^\s*what\s+(?:is|are|was|were)\s+(?:the|a|an)\s+([a-z' -]+?)(?:\s+(?:in|of|on|under|over|beside|behind|above|below|near|at|next)\s+.*)?\s*\?*\s*$"#, options: [.caseInsensitive])

    /// Whether a sentence opens by saying what `head` is: "The (…) square is a window shutter …".
    static func defines(_ text: String, head: String) -> Bool {
        guard let m = text.range(of: #"^(The|A|An|This|That)\s+(\S+\s+){0,3}?(is|are|was|were)\s"#, options: .regularExpression) else { return false }
        return terms(String(text[m])).contains(head)
    }

    /// Whether a sentence holds the kind of thing a wh-word asks for (a time, a place, a person, a cause).
    /// A place that is itself asked about does not answer "where": "Where is Valencia?" is not
    /// answered by "… from Valencia".
    static func hasAnswer(to wh: String, in text: String, asked: Set<String> = []) -> Bool {
        let pattern: String
        switch wh {
        case "when": pattern = #"\b(\d{1,2}:\d{2}|\d{4}|January|February|March|April|May|June|July|August|September|October|November|December|morning|afternoon|evening|night|dawn|dusk|noon|midday|day|week|month|year|spring|summer|autumn|winter|before|after|during|while)\b"#
        case "where": pattern = #"\b(at|in|on|from|near|over|under|beside|behind|outside|inside) (the |a |an )?([A-Z]\w*|(\w+ ){0,3}(stop|station|door|wall|shed|street|square|island|harbour|port|market|church|beach|bridge|house|shop))|°"#
        case "who": pattern = personName
        case "why": pattern = #"\b(because|so that|to keep|to |for |since|as )"#
        default: return true
        }
        guard wh == "where", !asked.isEmpty else { return text.range(of: pattern, options: .regularExpression) != nil }
        let r = try! NSRegularExpression(pattern: pattern)
        return r.matches(in: text, range: NSRange(text.startIndex..., in: text)).contains { m in
            guard let range = Range(m.range, in: text) else { return false }
            let words = terms(String(text[range]))
            return words.isEmpty || words.contains { !asked.contains($0) }
        }
    }

    /// Whether a sentence says where something is in the picture ("high on", "the left of").
    static func placesInFrame(_ text: String) -> Bool {
        text.range(of: spatial + #"|\b(left|right|top|bottom|corner|centre|center|middle|high|low)\b"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// Words that ask for a place in an order, and the words a sentence says one with.
    static let orderWord = #"\b(first|last|final|earliest|latest)\b"#
    static let orderAnswer = #"\b(first|last|final|earliest|latest|began|begin|begins|start|started|starts|ended|ends|end)\b"#

    /// A person's name: two capitalised words.
    static let personName = #"\b([A-Z][a-z]+ [A-Z][a-z]+)\b"#
    static let personNameRegex = try! NSRegularExpression(pattern: personName)

    /// Whether a sentence names a person who is not `artist`.
    static func namesSomeoneElse(_ text: String, than artist: String) -> Bool {
        personNameRegex.matches(in: text, range: NSRange(text.startIndex..., in: text)).contains { m in
            Range(m.range, in: text).map { String(text[$0]) != artist } ?? false
        }
    }

    func cite(_ s: Answer.Source) -> String {
        guard let w = s.workId else { return "\(s.sentence) (\(s.field == "editorial" ? "the editorials" : "the artist's statement"))" }
        let t = titles[w] ?? ""
        return "\(s.sentence) (\(w)\(t.isEmpty ? "" : ", \"\(t)\""))"
    }

    /// BM25 of every row that matches any term (lower is better), weighting the sentence over its hints and name.
    func bm25(_ terms: [String]) throws -> [Int: Double] {
        let q = terms.map { "\"\($0)\"" }.joined(separator: " OR ")
        return try db.read { d in
            var out: [Int: Double] = [:]
            for row in try Row.fetchAll(d, sql: "SELECT rowid, bm25(idx, 1.0, 0.5, 0.8) AS r FROM idx WHERE idx MATCH ?", arguments: [q]) {
                out[row["rowid"]] = row["r"]
            }
            return out
        }
    }

    /// Every sentence the curator may quote, as the packets give them.
    public var sentences: [String] { rows.map(\.text) }

    /// Every sentence with its work and field, in the packets' order.
    public var sources: [Answer.Source] { rows.map { .init(workId: $0.workId, field: $0.field, sentence: $0.text) } }
}
