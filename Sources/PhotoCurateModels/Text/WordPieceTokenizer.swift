import Foundation

/// BERT's uncased WordPiece tokenizer, as `BertTokenizer` (do_lower_case) does it.
///
/// ```swift
/// let t = try WordPieceTokenizer(vocabFile: "vocab.txt")
/// t.encode("The weather is lovely today.")   // [101, 1996, 4633, 2003, 8403, 2651, 1012, 102]
/// ```
/// Text is cleaned (control characters dropped, any space becomes " "), CJK
/// ideographs are split apart, words are lowercased with their accents stripped
/// and split at punctuation, then each word is cut greedily into the longest
/// pieces the vocabulary holds ("##" marks a piece inside a word). A word that
/// cannot be cut, or is over 100 characters, is [UNK].
public struct WordPieceTokenizer: Sendable {
    let vocab: [String: Int32]
    public let unknown: Int32, classify: Int32, separator: Int32

    public init(vocabFile: String) throws {
        guard let text = try? String(contentsOfFile: vocabFile, encoding: .utf8) else {
            throw ModelError.io(path: vocabFile, reason: "cannot be read as UTF-8 text")
        }
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        try self.init(tokens: lines, source: vocabFile)
    }

    /// One token per line number, as vocab.txt lists them.
    public init(tokens: [String], source: String = "vocabulary") throws {
        var vocab: [String: Int32] = [:]
        for (i, t) in tokens.enumerated() where vocab[t] == nil { vocab[t] = Int32(i) }
        guard let u = vocab["[UNK]"], let c = vocab["[CLS]"], let s = vocab["[SEP]"] else {
            throw ModelError.badArchive(path: source, reason: "no [UNK], [CLS] or [SEP] token: not a BERT vocabulary")
        }
        self.vocab = vocab; unknown = u; classify = c; separator = s
    }

    /// [CLS] pieces… [SEP], at most `maxLength` ids in all.
    public func encode(_ text: String, maxLength: Int = 256) -> [Int32] {
        var ids: [Int32] = [classify]
        for word in words(text) {
            ids += pieces(word)
            if ids.count >= maxLength - 1 { ids = Array(ids.prefix(maxLength - 1)); break }
        }
        return ids + [separator]
    }

    /// The lowercased, accent-free words and punctuation marks of `text`.
    public func words(_ text: String) -> [String] {
        var out: [String] = [], current = ""
        func flush() { if !current.isEmpty { out.append(current); current = "" } }
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            let v = scalar.value, p = scalar.properties
            if v == 0 || v == 0xFFFD { continue }
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || p.generalCategory == .spaceSeparator { flush(); continue }
            if Self.isControl(scalar) || p.generalCategory == .nonspacingMark { continue }
            if Self.isPunctuation(scalar) || Self.isCJK(v) { flush(); out.append(String(scalar)); continue }
            current.unicodeScalars.append(scalar)
        }
        flush()
        return out
    }

    /// Greedy longest-match-first, as WordPiece does.
    func pieces(_ word: String) -> [Int32] {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count <= 100 else { return [unknown] }
        var out: [Int32] = [], start = 0
        while start < scalars.count {
            var end = scalars.count, found: Int32? = nil
            while start < end {
                var piece = String(String.UnicodeScalarView(scalars[start..<end]))
                if start > 0 { piece = "##" + piece }
                if let id = vocab[piece] { found = id; break }
                end -= 1
            }
            guard let id = found else { return [unknown] }
            out.append(id)
            start = end
        }
        return out
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }

    static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v) { return true }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation: return true
        default: return false
        }
    }

    static func isCJK(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x20000...0x2A6DF).contains(v)
            || (0x2A700...0x2B73F).contains(v) || (0x2B740...0x2B81F).contains(v) || (0x2B820...0x2CEAF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x2F800...0x2FA1F).contains(v)
    }
}
