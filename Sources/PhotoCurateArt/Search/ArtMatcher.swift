import Foundation
import PhotoCurate

/// One search result, in the product's `MatchResult` shape.
public struct MatchResult: Codable, Sendable, Equatable {
    public var artworkId: String
    /// 0–100.
    public var score: Double
    /// Each names the measured fact it rests on: "dominant colour cobalt blue (38 %)".
    public var reasons: [String]
    /// "high", "medium" or "low".
    public var confidence: String
    public var artwork: Artwork
    public var analysis: ArtAnalysis?
}

/// The response of every search endpoint: `{success, criteria, results, count}`.
public struct SearchResponse: Codable, Sendable, Equatable {
    public var success: Bool
    public var criteria: SearchCriteria
    public var results: [MatchResult]
    public var count: Int
    /// Artworks that passed the filters, before `limit`.
    public var total: Int
    /// Set when the query had nothing to rank by.
    public var message: String?
}

/// Filters (all must hold; within one, any value may) and the order of results.
///
/// ```swift
/// var o = SearchOptions()
/// o.priceMax = 800; o.styles = ["abstract"]; o.colors = ["blue"]; o.artist = "ana"
/// o.sort = .priceAscending
/// ```
public struct SearchOptions: Codable, Sendable, Equatable {
    public enum Sort: String, Codable, Sendable, CaseIterable {
        case bestMatch = "best", priceAscending = "price_asc", priceDescending = "price_desc", newest = "newest", random = "random"
    }
    public var priceMin: Double?
    public var priceMax: Double?
    /// Any of these styles (`styleAndGenre.styles`).
    public var styles: [String]?
    /// Any of these named colours or families among the dominant colours.
    public var colors: [String]?
    /// Case-insensitive part of `studioName`.
    public var artist: String?
    public var sort: Sort?
    /// Seed of the random order (the same seed gives the same order).
    public var seed: UInt64?
    /// Results returned, 1–200 (default 24).
    public var limit: Int?
    public init() {}
}

/// Ranks analysed artworks against `SearchCriteria`, with the reasons for each score.
///
/// ```swift
/// let matcher = ArtMatcher()
/// let response = matcher.search(QueryParser().parse("blue abstract under 500"), in: library.analysed)
/// response.results[0].reasons   // ["dominant colour cobalt blue (38 %)", "abstract: 71 % flat colour, 3 colours cover 90 %", "price 450 EUR (under 500)"]
/// ```
/// Each wish gives a satisfaction 0–1 and a weight; the score is their weighted
/// mean × 100. A price phrase is a hard limit: artworks outside it are left out.
/// A reason is given only for a wish the artwork meets (satisfaction ≥ ½), and
/// states the measured value. Confidence: high at ≥ 75 with at least two wishes
/// met, medium at ≥ 50, low otherwise.
///
/// Colour harmony with a room's wall (`harmony`): a chromatic wall harmonises with
/// a work whose largest chromatic colour is analogous (hues within 35°) or
/// complementary (within 30° of opposite); a neutral wall with any work. Either
/// way the work must not disappear into the wall: its largest colour must differ
/// from the wall by ΔE2000 ≥ 10. A chromatic colour within ΔE 10 of the wall is tone on tone: it
/// harmonises, at half the score of an analogous or complementary colour.
public struct ArtMatcher: Sendable {
    public let palette: NamedPalette
    public let dominantShare: Double
    public init(palette: NamedPalette = .standard, dominantShare: Double = 0.08) { self.palette = palette; self.dominantShare = dominantShare }

    /// A reason is only written (`explain`) for the results returned: formatting one for every
    /// artwork of the catalog cost more than ranking it.
    struct Wish { var weight: Double; var satisfaction: Double; var reason: String? }

    static func pct(_ v: Double) -> String { "\(Int((v * 100).rounded())) %" }
    public static func money(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.2f", v) }

    /// Scores one artwork; nil when a hard limit (price) leaves it out.
    public func match(_ c: SearchCriteria, _ a: Artwork, _ an: ArtAnalysis) -> MatchResult? {
        evaluate(c, a, an, explain: true).map {
            MatchResult(artworkId: a.objectID, score: $0.score, reasons: $0.reasons, confidence: $0.confidence, artwork: a, analysis: an)
        }
    }

    /// Score, confidence and (with `explain`) reasons; nil when a hard limit leaves the artwork out.
    func evaluate(_ c: SearchCriteria, _ a: Artwork, _ an: ArtAnalysis, explain: Bool) -> (score: Double, confidence: String, reasons: [String])? {
        if let lo = c.priceMin, a.price < lo { return nil }
        if let hi = c.priceMax, a.price > hi { return nil }
        let m = an.measured
        var wishes: [Wish] = []
        for wish in c.colours {
            let shares = m.colours.filter { wish.names.contains($0.name) }
            let share = shares.reduce(0) { $0 + $1.share }
            let top = shares.max { $0.share < $1.share }
            let dominantShare = self.dominantShare
            func reason() -> String? {
                guard let top, share >= 0.03 else { return nil }
                var r = top.share >= dominantShare ? "dominant colour \(top.name) (\(Self.pct(top.share)))" : "has \(top.name) (\(Self.pct(top.share)))"
                if shares.count > 1 && share - top.share >= 0.01 { r += ", \(wish.word) in all \(Self.pct(share))" }
                return r
            }
            // Continuous up to half the surface, so more of the colour ranks higher instead of tying.
            wishes.append(Wish(weight: 3, satisfaction: min(1, share / 0.5), reason: explain ? reason() : nil))
        }
        for wish in c.excludedColours {
            let share = m.colours.filter { wish.names.contains($0.name) }.reduce(0) { $0 + $1.share }
            wishes.append(Wish(weight: 1.5, satisfaction: share < 0.03 ? 1 : max(0, 1 - share / 0.15),
                               reason: explain ? share < 0.03 ? "no \(wish.word) (\(Self.pct(share)))" : nil : nil))
        }
        if let b = c.brightness {
            // Half satisfied (and a reason given) at lightness 60 for bright, 40 for dark.
            let s = b == "bright" ? clamp((m.brightness - 0.5) / 0.2) : clamp((0.5 - m.brightness) / 0.2)
            wishes.append(Wish(weight: 2, satisfaction: s, reason: explain ? "\(b): mean lightness \(Int((m.brightness * 100).rounded()))/100" : nil))
        }
        if let sat = c.saturation {
            let s = sat == "vibrant" ? clamp((m.saturation - 0.3) / 0.25) : clamp((0.45 - m.saturation) / 0.25)
            wishes.append(Wish(weight: 1.5, satisfaction: s, reason: explain ? "\(sat): colourfulness \(String(format: "%.2f", m.saturation))" : nil))
        }
        if let t = c.temperature {
            let s = t == "warm" ? clamp(m.warmth / 0.3) : clamp(-m.warmth / 0.3)
            wishes.append(Wish(weight: 1.5, satisfaction: s, reason: explain ? "\(t) colours: warmth \(String(format: "%+.2f", m.warmth))" : nil))
        }
        if !c.sizes.isEmpty {
            let order = ["small", "medium", "large", "oversized"]
            var s = 0.0
            if c.sizes.contains(m.sizeClass) { s = 1 } else if let i = order.firstIndex(of: m.sizeClass),
                c.sizes.contains(where: { order.firstIndex(of: $0).map { abs($0 - i) == 1 } ?? false }) { s = 0.25 }
            let dims = a.dimensions.map { "\(Self.money($0.widthCm)) × \(Self.money($0.heightCm)) cm" } ?? ""
            wishes.append(Wish(weight: 2, satisfaction: s, reason: explain ? "\(m.sizeClass) (\(dims))" : nil))
        }
        if let o = c.orientation {
            wishes.append(Wish(weight: 2, satisfaction: m.orientation == o ? 1 : 0,
                               reason: explain ? "\(o) (width/height \(String(format: "%.2f", m.aspect)))" : nil))
        }
        for st in c.styles {
            let has = an.styleAndGenre.styles.contains(st)
            var why = ""
            if explain { switch st {
            case "abstract", "representational": why = "\(Self.pct(m.paletteConcentration)) of pixels in 8 colour cells, \(Self.pct(m.flatShare)) flat colour"
            case "geometric": why = "\(Self.pct(m.axisAlignedEdges)) of edges horizontal or vertical"
            case "minimalist": why = "\(m.coloursFor90) colours cover 90 %, \(Self.pct(m.edgeDensity)) of pixels on edges"
            case "colour field": why = "\(m.colours.first.map { "\($0.name) covers \(Self.pct($0.share))" } ?? "")"
            default: why = "\(Self.pct(m.edgeDensity)) of pixels on edges, colourfulness \(String(format: "%.2f", m.saturation))"
            } }
            wishes.append(Wish(weight: 2, satisfaction: has ? 1 : 0, reason: explain ? "\(st): \(why)" : nil))
        }
        for mood in c.moods {
            let has = an.psychologicalImpact.mood.contains(mood)
            wishes.append(Wish(weight: 1.5, satisfaction: has ? 1 : 0,
                               reason: explain ? (an.evidence["mood"] ?? []).first { $0.hasPrefix(mood + ":") } ?? mood : nil))
        }
        if let room = c.room {
            let has = an.spaceAndDisplay.recommendedRoomTypes.contains(room)
            func basis() -> String {
                let b = an.psychologicalImpact.mood.filter { ["calm", "bright", "energetic", "warm", "cool", "vibrant", "dark"].contains($0) }
                return b.isEmpty ? m.sizeClass : b.joined(separator: ", ")
            }
            wishes.append(Wish(weight: 1.5, satisfaction: has ? 1 : 0, reason: explain ? "suits a \(room): \(basis())" : nil))
        }
        if let wall = c.wall {
            let (s, why) = harmony(wall: wall, analysis: an, explain: explain)
            wishes.append(Wish(weight: 3, satisfaction: s, reason: explain ? why : nil))
            if wall.styleCue == "minimal" {
                let has = an.styleAndGenre.styles.contains("minimalist") || an.styleAndGenre.styles.contains("abstract")
                wishes.append(Wish(weight: 0.5, satisfaction: has ? 1 : 0, reason: explain ? "suits a minimal room: \(an.styleAndGenre.styles.joined(separator: ", "))" : nil))
            } else if wall.styleCue == "eclectic" {
                wishes.append(Wish(weight: 0.5, satisfaction: clamp((m.saturation - 0.3) / 0.25), reason: explain ? "suits an eclectic room: colourfulness \(String(format: "%.2f", m.saturation))" : nil))
            }
        }
        var reasons: [String] = []
        if explain {
            reasons = wishes.filter { $0.satisfaction >= 0.5 }.compactMap(\.reason)
        if let lo = c.priceMin, let hi = c.priceMax { reasons.append("price \(Self.money(a.price)) \(a.currency) (\(Self.money(lo))–\(Self.money(hi)))") }
        else if let hi = c.priceMax { reasons.append("price \(Self.money(a.price)) \(a.currency) (under \(Self.money(hi)))") }
        else if let lo = c.priceMin { reasons.append("price \(Self.money(a.price)) \(a.currency) (over \(Self.money(lo)))") }
        }
        let priceWish = (c.priceMin != nil || c.priceMax != nil) ? 1.0 : 0
        let wsum = wishes.reduce(priceWish) { $0 + $1.weight }
        let score = wsum > 0 ? 100 * (wishes.reduce(priceWish) { $0 + $1.weight * $1.satisfaction }) / wsum : 0
        let met = wishes.filter { $0.satisfaction >= 0.5 }.count + (priceWish > 0 ? 1 : 0)
        let conf = score >= 75 && met >= 2 ? "high" : score >= 50 ? "medium" : "low"
        return ((score * 10).rounded() / 10, conf, reasons)
    }

    /// The colour rule: how well an artwork's colours sit on the room's wall (0–1), and why.
    public func harmony(wall: RoomAnalysis, analysis an: ArtAnalysis, explain: Bool = true) -> (Double, String?) {
        let cols = an.measured.colours
        guard let largest = cols.first, let largestColour = palette.colour(named: largest.name) else { return (0, nil) }
        let lostDE = largestColour.lab.deltaE2000(wall.wallLab)
        if lostDE < 10 { return (0, nil) }
        if wall.wallNeutral {
            return (1, explain ? "\(largest.name) (\(Self.pct(largest.share))) stands out on the \(wall.wallColour) wall (ΔE \(Int(lostDE.rounded())))" : nil)
        }
        // The work's largest chromatic colour against the wall's hue.
        guard let chroma = cols.first(where: { c in (palette.colour(named: c.name)?.lab.chroma ?? 0) >= 20 && c.share >= 0.05 }),
              let cl = palette.colour(named: chroma.name) else { return (0.2, nil) }
        let d = Lab.hueDistance(cl.lab.hue, wall.wallLab.hue)
        let same = cl.lab.deltaE2000(wall.wallLab)
        if same < 10 {
            // The wall's own colour: tone on tone, it harmonises but blends in; a true analogous or complementary colour ranks above it.
            return (0.5, explain ? "\(chroma.name) (\(Self.pct(chroma.share))) is the wall's own colour (ΔE \(Int(same.rounded())))" : nil)
        }
        if d <= 35 {
            return (1 - 0.3 * d / 35, explain ? "\(chroma.name) (\(Self.pct(chroma.share))) is analogous to the \(wall.wallColour) wall (hues \(Int(d.rounded()))° apart)" : nil)
        }
        if d >= 150 {
            return (0.9, explain ? "\(chroma.name) (\(Self.pct(chroma.share))) complements the \(wall.wallColour) wall (hues \(Int(d.rounded()))° apart)" : nil)
        }
        return (0, nil)
    }

    /// Matches, filters, sorts and cuts to `limit`.
    ///
    /// Ranks indices and scores only; artwork records and analyses are copied into
    /// results for the returned few (copying 300 of them per search was most of its cost).
    public func search(_ c: SearchCriteria, in items: [(Artwork, ArtAnalysis)], options: SearchOptions = SearchOptions()) -> SearchResponse {
        search(c, entries: items.map { ArtEntry(artwork: $0.0, analysis: $0.1) }, options: options)
    }

    public func search(_ c: SearchCriteria, entries items: [ArtEntry], options: SearchOptions = SearchOptions()) -> SearchResponse {
        // Sort keys are copied out once: reaching into `items` from the comparator copied whole records.
        struct Ranked { var i: Int; var score: Double; var id: String; var price: Double; var year: Int }
        var ranked: [Ranked] = []
        ranked.reserveCapacity(items.count)
        let styles = options.styles.map { Set($0.map { $0.lowercased() }) } ?? []
        let colours = options.colors.map { Set($0.map { $0.lowercased() }) } ?? []
        let artist = options.artist?.trimmingCharacters(in: .whitespaces) ?? ""
        for (i, e) in items.enumerated() {
            let a = e.artwork
            if let lo = options.priceMin, a.price < lo { continue }
            if let hi = options.priceMax, a.price > hi { continue }
            if !styles.isEmpty && !e.analysis.styleAndGenre.styles.contains(where: { styles.contains($0) }) { continue }
            if !colours.isEmpty && !e.analysis.basicVisualProperties.dominantColors.contains(where: {
                colours.contains($0) || colours.contains(palette.colour(named: $0)?.family ?? "") }) { continue }
            if !artist.isEmpty && a.studioName.range(of: artist, options: [.caseInsensitive, .diacriticInsensitive]) == nil { continue }
            guard let r = evaluate(c, e.artwork, e.analysis, explain: false) else { continue }
            ranked.append(Ranked(i: i, score: r.score, id: a.objectID, price: a.price, year: a.year ?? Int.min))
        }
        func best(_ x: Ranked, _ y: Ranked) -> Bool { x.score != y.score ? x.score > y.score : x.id < y.id }
        switch options.sort ?? .bestMatch {
        case .bestMatch: ranked.sort(by: best)
        case .priceAscending: ranked.sort { $0.price != $1.price ? $0.price < $1.price : best($0, $1) }
        case .priceDescending: ranked.sort { $0.price != $1.price ? $0.price > $1.price : best($0, $1) }
        case .newest: ranked.sort { $0.year != $1.year ? $0.year > $1.year : best($0, $1) }
        case .random:
            ranked.sort { $0.id < $1.id }
            var rng = SeededRandom(seed: options.seed ?? 1)
            ranked.shuffle(using: &rng)
        }
        let limit = max(1, min(200, options.limit ?? 24))
        let out = ranked.prefix(limit).compactMap { match(c, items[$0.i].artwork, items[$0.i].analysis) }
        return SearchResponse(success: true, criteria: c, results: out, count: out.count, total: ranked.count,
                              message: c.isEmpty ? "no colour, size, orientation, light, mood, style, room or price was recognised; the results are not ranked" : nil)
    }

    func clamp(_ v: Double) -> Double { min(1, max(0, v)) }
}
