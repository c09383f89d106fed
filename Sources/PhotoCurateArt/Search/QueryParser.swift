import Foundation

/// Reads a search sentence into `SearchCriteria`: colours, size, orientation, light,
/// mood and style words, price phrases and rooms.
///
/// ```swift
/// QueryParser().parse("calm green landscape print for the bedroom, not red, between 200 and 800 €")
/// // colours [green], excluded [red], orientation landscape, moods [calm], room bedroom, price 200…800
/// ```
/// Shades narrow a family: "light blue" is the family's named colours of
/// CIELAB lightness ≥ 60 (sky blue), "dark green" those ≤ 40 (forest green).
/// "not", "no" and "without" exclude the colour that follows. Prices accept
/// "under 500", "below €1,200", "less than 2k", "over 300", "from 100 to 400",
/// "between 200 and 800", "200-800 EUR", "max 500".
public struct QueryParser: Sendable {
    public let palette: NamedPalette
    public init(palette: NamedPalette = .standard) { self.palette = palette }

    static let stopwords: Set<String> = ["a", "an", "the", "for", "with", "in", "my", "our", "and", "or", "of", "to", "on", "at", "by",
        "artwork", "artworks", "art", "painting", "paintings", "piece", "pieces", "print", "prints", "work", "works", "something",
        "wall", "walls", "room", "i", "we", "want", "need", "looking", "look", "like", "would", "some", "that", "is", "it", "be",
        "colour", "color", "colours", "colors", "tones", "tone", "toned", "style", "please", "show", "me", "find", "canvas", "image",
        "picture", "pictures", "above", "over", "sofa", "couch", "bed", "desk", "space", "home", "feel", "feeling", "vibe", "euros", "euro",
        "dollars", "dollar", "eur", "usd", "gbp", "pounds", "price", "priced", "budget", "cost", "costs", "size", "sized", "very", "quite"]

    static let sizeWords: [String: [String]] = [
        "large": ["large", "oversized"], "big": ["large", "oversized"], "huge": ["oversized", "large"], "oversized": ["oversized"],
        "statement": ["large", "oversized"], "giant": ["oversized"], "xl": ["large", "oversized"],
        "small": ["small"], "little": ["small"], "tiny": ["small"], "mini": ["small"], "compact": ["small", "medium"],
        "medium": ["medium"], "mid-size": ["medium"], "midsize": ["medium"], "moderate": ["medium"],
    ]
    static let orientationWords: [String: String] = [
        "landscape": "landscape", "horizontal": "landscape", "wide": "landscape", "panoramic": "landscape", "panorama": "landscape",
        "portrait": "portrait", "vertical": "portrait", "tall": "portrait", "upright": "portrait", "square": "square",
    ]
    static let styleWords: [String: String] = [
        "abstract": "abstract", "non-figurative": "abstract", "nonfigurative": "abstract",
        "geometric": "geometric", "geometrical": "geometric", "shapes": "geometric", "hard-edge": "geometric",
        "minimal": "minimalist", "minimalist": "minimalist", "minimalistic": "minimalist", "simple": "minimalist", "clean": "minimalist",
        "expressive": "expressive", "expressionist": "expressive", "expressionism": "expressive", "gestural": "expressive",
        "representational": "representational", "figurative": "representational", "realistic": "representational",
        "realism": "representational", "photographic": "representational", "photo": "representational", "photograph": "representational",
    ]
    static let moodWords: [String: String] = [
        "calm": "calm", "calming": "calm", "serene": "calm", "peaceful": "calm", "relaxing": "calm", "tranquil": "calm", "quiet": "calm",
        "soothing": "calm", "restful": "calm", "zen": "calm",
        "energetic": "energetic", "dynamic": "energetic", "lively": "energetic", "energizing": "energetic", "energising": "energetic",
        "playful": "energetic", "exciting": "energetic",
    ]
    static let lightWords: [String: String] = [
        "bright": "bright", "light": "bright", "airy": "bright", "luminous": "bright", "sunny": "bright", "pale": "bright",
        "dark": "dark", "moody": "dark", "dramatic": "dark", "deep": "dark", "shadowy": "dark", "night": "dark",
    ]
    static let saturationWords: [String: String] = [
        "colourful": "vibrant", "colorful": "vibrant", "vibrant": "vibrant", "vivid": "vibrant", "bold": "vibrant", "saturated": "vibrant",
        "muted": "muted", "subtle": "muted", "soft": "muted", "subdued": "muted", "neutral": "muted", "earthy": "muted",
        "pastel": "muted", "desaturated": "muted", "monochrome": "muted",
    ]
    static let temperatureWords: [String: String] = ["warm": "warm", "cozy": "warm", "cosy": "warm", "cool": "cool", "cold": "cool", "icy": "cool"]
    static let roomWords: [String: String] = [
        "office": "office", "study": "office", "workspace": "office", "workplace": "office", "bedroom": "bedroom",
        "living": "living room", "lounge": "living room", "livingroom": "living room", "kitchen": "kitchen",
        "dining": "dining room", "restaurant": "dining room", "nursery": "bedroom", "guest": "bedroom",
    ]

    public func parse(_ text: String) -> SearchCriteria {
        var c = SearchCriteria()
        var s = " " + text.lowercased() + " "
        s = parsePrices(s, into: &c)
        let words = s.replacingOccurrences(of: "’", with: "'")
            .components(separatedBy: CharacterSet(charactersIn: " \t\n,.;:!?()[]{}\"/&+"))
            .filter { !$0.isEmpty }
        var negate = false
        var i = 0
        func add<T: Equatable>(_ v: T, to list: inout [T]) { if !list.contains(v) { list.append(v) } }
        while i < words.count {
            let w = words[i]
            if ["not", "no", "without", "except", "avoid", "avoiding", "non"].contains(w) { negate = true; i += 1; continue }
            // Shade + colour ("light blue", "dark green"): a narrower set of one family.
            if ["light", "pale", "dark", "deep"].contains(w), i + 1 < words.count, let fam = palette.family(forWord: words[i + 1]) {
                let light = w == "light" || w == "pale"
                let names = palette.colours.filter { $0.family == fam && (light ? $0.lab.l >= 60 : $0.lab.l <= 40) }.map(\.name)
                let wish = SearchCriteria.ColourWish(word: "\(w) \(words[i + 1])", family: fam,
                                                     names: names.isEmpty ? palette.colours.filter { $0.family == fam }.map(\.name) : names)
                if negate { c.excludedColours.append(wish) } else { c.colours.append(wish) }
                negate = false; i += 2; continue
            }
            // Two-word names ("sky blue", "forest green") are specific; a family word ("green") means the
            // whole family (olive, sage, forest green…), even where it is also one colour's name.
            let two = i + 1 < words.count ? palette.colour(named: w + " " + words[i + 1]) : nil
            if let fam = two == nil ? palette.family(forWord: w) : nil {
                let wish = SearchCriteria.ColourWish(word: w, family: fam, names: palette.colours.filter { $0.family == fam }.map(\.name))
                if negate { c.excludedColours.append(wish) } else { c.colours.append(wish) }
                negate = false; i += 1; continue
            }
            if let named = two ?? palette.colour(named: w) {
                let wish = SearchCriteria.ColourWish(word: named.name, family: named.family, names: [named.name])
                if negate { c.excludedColours.append(wish) } else { c.colours.append(wish) }
                negate = false; i += named.name.contains(" ") ? 2 : 1; continue
            }
            negate = false
            if w == "living" || w == "dining", i + 1 < words.count, words[i + 1] == "room" { c.room = Self.roomWords[w]; i += 2; continue }
            if w == "colour" || w == "color", i + 1 < words.count, words[i + 1] == "field" { add("colour field", to: &c.styles); i += 2; continue }
            if let sz = Self.sizeWords[w] { for x in sz { add(x, to: &c.sizes) }; i += 1; continue }
            if let o = Self.orientationWords[w] { c.orientation = o; i += 1; continue }
            if let st = Self.styleWords[w] { add(st, to: &c.styles); i += 1; continue }
            if let m = Self.moodWords[w] { add(m, to: &c.moods); i += 1; continue }
            if let l = Self.lightWords[w] {
                // "a bright office": the word describes the room, not the artwork.
                let next = i + 1 < words.count ? words[i + 1] : ""
                if Self.roomWords[next] == nil { c.brightness = l }
                i += 1; continue
            }
            if let sa = Self.saturationWords[w] {
                c.saturation = sa
                if w == "pastel" { c.brightness = "bright" }
                i += 1; continue
            }
            if let t = Self.temperatureWords[w] { c.temperature = t; i += 1; continue }
            if let r = Self.roomWords[w] { c.room = r; i += 1; continue }
            if !Self.stopwords.contains(w), w.rangeOfCharacter(from: .letters) != nil { add(w, to: &c.unrecognised) }
            i += 1
        }
        return c
    }

    /// Compiled once: compiling them per query cost more than the whole ranking.
    /// Kinds: 0 a range ("between … and …"), 1 a bare range ("200-800 €"), 2 an upper limit, 3 a lower limit.
    static let pricePatterns: [(NSRegularExpression, Int)] = {
        let cur = #"(?:[$€£]\s*)?"#
        let num = #"(\d{1,3}(?:[,\s]\d{3})+|\d+(?:\.\d+)?)\s*(k\b)?"#
        let unit = #"(?:\s*(?:[$€£]|eur|euros?|usd|dollars?|gbp|pounds?)\b)?"#
        let patterns: [(String, Int)] = [
            (#"\b(?:between|from)\s+"# + cur + num + unit + #"\s*(?:and|to|-|–)\s*"# + cur + num + unit, 0),
            (#"(?<![\w.])"# + cur + num + unit + #"\s*(?:-|–|to)\s*"# + cur + num + unit + #"(?=\s|$)"#, 1),
            (#"\b(?:under|below|less than|up to|at most|max(?:imum)?|cheaper than|no more than|within|<)\s*"# + cur + num + unit, 2),
            (#"\b(?:over|above|more than|at least|min(?:imum)?|from|>)\s*"# + cur + num + unit, 3),
        ]
        return patterns.map { (try! NSRegularExpression(pattern: $0.0, options: [.caseInsensitive]), $0.1) }
    }()

    /// Takes price phrases out of `s` (so their numbers are not read as words) into `c`.
    func parsePrices(_ s: String, into c: inout SearchCriteria) -> String {
        var s = s
        func value(_ m: NSTextCheckingResult, _ g: Int, _ kg: Int) -> Double? {
            guard let r = Range(m.range(at: g), in: s) else { return nil }
            let digits = s[r].replacingOccurrences(of: ",", with: "").replacingOccurrences(of: " ", with: "")
            guard var v = Double(digits) else { return nil }
            if let kr = Range(m.range(at: kg), in: s), !s[kr].isEmpty { v *= 1000 }
            return v
        }
        for (re, kind) in Self.pricePatterns {
            while let m = re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) {
                switch kind {
                case 0, 1: c.priceMin = value(m, 1, 2); c.priceMax = value(m, 3, 4)
                case 2: c.priceMax = value(m, 1, 2)
                default: c.priceMin = value(m, 1, 2)
                }
                guard let r = Range(m.range, in: s) else { break }
                s.replaceSubrange(r, with: " ")
            }
        }
        if let lo = c.priceMin, let hi = c.priceMax, lo > hi { c.priceMin = hi; c.priceMax = lo }
        return s
    }
}
