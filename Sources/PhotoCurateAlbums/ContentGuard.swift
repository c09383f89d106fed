import Foundation

/// Keeps money and collecting talk off the card: the product tells why an album
/// matters musically, never what it is worth.
///
/// ```swift
/// let (clean, violations) = ContentGuard.screen(entry)
/// // violations: ["context_bullets[2]: mentions \"first pressing\""]
/// ```
/// A text that mentions price, value, investment, rarity, pressings or
/// collectibility is dropped from what is shown (a bullet, a summary sentence, a
/// track) and reported with the entry and field.
public enum ContentGuard {
    /// Word stems, matched case-insensitively at word starts. "value" is also caught in "valuable", "valuation".
    static let patterns: [String] = [
        #"\bpric(e|es|ed|ing|ey|eless)\b"#, #"\bvalu(e|es|ed|able|ation|ations)\b"#, #"\bworth\b"#, #"\bcost(s|ly)?\b"#,
        #"\binvest(s|ed|ing|ment|ments|or|ors)?\b"#, #"\brar(e|er|est|ity|ities)\b"#, #"\bscarc(e|ity)\b"#,
        #"\bpressings?\b"#, #"\bcollect(ible|ibles|ibility|able|ables|or|ors|or's|ors')\b"#, #"\bmint condition\b"#,
        #"\bresale\b"#, #"\bauction(s|ed)?\b"#, #"\bappreciat(e|es|ed|ing|ion) in\b"#,
        #"[$€£¥]\s?\d"#, #"\b\d+(\.\d+)?\s?(dollars?|euros?|pounds?|usd|eur|gbp)\b"#,
    ]
    static let regexes: [NSRegularExpression] = patterns.map { try! NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }

    /// The first forbidden phrase in `text`, if any.
    public static func violation(in text: String) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        for r in regexes {
            if let m = r.firstMatch(in: text, range: range), let rr = Range(m.range, in: text) { return String(text[rr]) }
        }
        return nil
    }

    /// The entry with every offending text removed, and what was removed.
    public static func screen(_ entry: AlbumEntry) -> (AlbumEntry, [String]) {
        var e = entry, found: [String] = []
        func check(_ field: String, _ text: String) -> Bool {
            guard let v = violation(in: text) else { return true }
            found.append("\(field): mentions \"\(v)\"; not shown")
            return false
        }
        // The summary loses only its offending sentences.
        let sentences = splitSentences(e.context_summary)
        e.context_summary = sentences.enumerated().filter { check("context_summary sentence \($0.offset + 1)", $0.element) }.map(\.element).joined(separator: " ")
        e.context_bullets = e.context_bullets.enumerated().filter { check("context_bullets[\($0.offset)]", $0.element) }.map(\.element)
        e.key_tracks = e.key_tracks.enumerated().filter { check("key_tracks[\($0.offset)]", $0.element) }.map(\.element)
        e.genres = e.genres.enumerated().filter { check("genres[\($0.offset)]", $0.element) }.map(\.element)
        if let l = e.record_label, !check("record_label", l) { e.record_label = nil }
        if !check("album_title", e.album_title) { e.album_title = "" }
        if !check("artist_name", e.artist_name) { e.artist_name = "" }
        return (e, found)
    }

    static func splitSentences(_ s: String) -> [String] {
        var out: [String] = [], cur = ""
        let chars = Array(s)
        for (i, c) in chars.enumerated() {
            cur.append(c)
            if ".!?".contains(c), i + 1 == chars.count || chars[i + 1] == " " {
                out.append(cur.trimmingCharacters(in: .whitespaces)); cur = ""
            }
        }
        let rest = cur.trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { out.append(rest) }
        return out
    }
}
