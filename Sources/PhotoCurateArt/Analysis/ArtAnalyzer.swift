import Foundation
import PhotoCurate

/// Measures an artwork image: named colours, light, warmth, texture, style cues.
///
/// ```swift
/// let analyzer = try ArtAnalyzer()
/// let a = try analyzer.analyze(path: "images/aw-001.jpg", artwork: artwork)
/// a.basicVisualProperties.dominantColors   // ["cobalt blue", "white"]
/// a.styleAndGenre.styles                    // ["abstract", "geometric"]
/// ```
/// Input: the artwork's first image, decoded by libvips at `longEdge` px with its
/// orientation applied, and the catalog record (dimensions, techniques, price).
/// Output: `ArtAnalysis`. Every word in it comes from a number in
/// `ArtAnalysis.Measured` by one of the rules below, and `evidence` says which.
///
/// Rules (the thresholds are parameters):
/// - a colour is dominant at ≥ 8 % of the pixels, secondary at 3–8 %;
/// - warm / cool temperature at warmth ≥ 0.2 / ≤ −0.2;
/// - abstract when `abstractScore` ≥ ½: palette concentration (the share of pixels in
///   the 8 most common cells of a 16-level RGB grid) from 0.65 (score 0) to 0.95 (1).
///   Colour fields, hard-edge and geometric work are painted in a few fills;
///   photographs and painted scenes shade every surface across many cells. Without
///   an image model this is the only subject evidence there is;
///   `subjectMatter.primarySubject` stays "unknown";
/// - geometric: abstract with ≥ 55 % of strong edges horizontal or vertical;
///   minimalist: ≤ 3 colours cover 90 % and edges are sparse;
/// - moods from light, colour and busyness (bright, dark, calm, energetic, warm, cool);
///   the rooms a work suits follow from its moods (calm → bedroom, bright → office, …).
public struct ArtAnalyzer: Sendable {
    public static let id = "art"
    /// 1: first version.
    /// 2: abstract vs representational from palette concentration (the share of pixels in the 8 most
    ///    common cells of a 16-level RGB grid): flat colour and palette size called 81 of 101 photographs abstract.
    public static let version = 2
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("longEdge", 256, in: 64...1024, integer: true, "long edge (px) at which artworks are measured"),
        ParameterSpec("dominantShare", 0.08, in: 0.01...0.5, "share of the pixels at which a named colour is dominant"),
        ParameterSpec("secondaryShare", 0.03, in: 0.005...0.3, "share of the pixels at which a named colour is secondary"),
        ParameterSpec("flatGradient", 2.5, in: 0.5...20, "gradient (levels/px, after a light blur) under which a pixel is flat colour"),
        ParameterSpec("edgeGradient", 24, in: 4...100, "gradient (levels/px) over which a pixel is on a strong edge"),
        ParameterSpec("abstractThreshold", 0.5, in: 0...1, "abstractScore at which a work counts as abstract"),
    ]

    public let parameters: Parameters
    public let palette: NamedPalette

    public init(parameters: Parameters? = nil, palette: NamedPalette = .standard) throws {
        self.parameters = try parameters ?? Parameters(Self.parameterSpecs)
        self.palette = palette
    }

    /// What the cache keys on besides the image: analyzer, version, parameters.
    /// Decodes without libvips' SIMD (off since the fourteenth session) are a few levels apart: their results key apart.
    public var cacheKey: String { "\(Self.id)/v\(Self.version)/\(parameters.hash)" + (Vips.simd ? "" : "/nosimd") }

    /// Decodes `path` (read-only) and measures it.
    public func analyze(path: String, artwork: Artwork?) throws -> ArtAnalysis {
        let image = try Decoder(longEdge: parameters.int("longEdge"), maxPixels: 200_000_000).decode(path)
        return analyze(rgb: image.rgb, width: image.width, height: image.height, artwork: artwork)
    }

    public func analyze(rgb: [UInt8], width w: Int, height h: Int, artwork: Artwork?) -> ArtAnalysis {
        let n = w * h
        // Name pixels through a 32-level cube: at most 32,768 colours to name, not one per pixel.
        var binCount = [Int](repeating: 0, count: 32 * 32 * 32)
        var cells = [Int](repeating: 0, count: 16 * 16 * 16)
        var lum = [Float](repeating: 0, count: n)
        var sumL = 0.0, sumC = 0.0, warmW = 0.0, coolW = 0.0, allW = 0.0
        var lHist = [Int](repeating: 0, count: 101)
        var labCache = [Lab?](repeating: nil, count: 32 * 32 * 32)
        for i in 0..<n {
            let r = Int(rgb[3 * i]), g = Int(rgb[3 * i + 1]), b = Int(rgb[3 * i + 2])
            let bin = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
            binCount[bin] += 1
            cells[(r >> 4) << 8 | (g >> 4) << 4 | (b >> 4)] += 1
            let lab: Lab
            if let c = labCache[bin] { lab = c } else {
                lab = Lab(r: Double((r >> 3) << 3 | 4), g: Double((g >> 3) << 3 | 4), b: Double((b >> 3) << 3 | 4))
                labCache[bin] = lab
            }
            lum[i] = Float(0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b))
            sumL += lab.l
            let c = lab.chroma
            sumC += c
            lHist[max(0, min(100, Int(lab.l.rounded())))] += 1
            allW += max(c, 10)
            if c >= 10 {
                let hue = lab.hue
                // Warm: magenta-reds through yellows; cool: greens through blues.
                if hue < 100 || hue >= 340 { warmW += c } else if hue >= 140 && hue < 310 { coolW += c }
            }
        }
        var shares: [String: Int] = [:]
        for bin in 0..<binCount.count where binCount[bin] > 0 {
            let name = palette.nearest(labCache[bin]!).name
            shares[name, default: 0] += binCount[bin]
        }
        let total = Double(max(1, n))
        let colours = shares.map { (name, count) -> ArtAnalysis.Measured.ColourShare in
            let c = palette.colour(named: name)!
            return .init(name: name, family: c.family, hex: c.hex, share: Self.r(Double(count) / total))
        }.sorted { $0.share != $1.share ? $0.share > $1.share : $0.name < $1.name }
        var cum = 0.0, for90 = 0
        for c in colours { cum += c.share; for90 += 1; if cum >= 0.9 { break } }
        func pct(_ p: Double) -> Double {
            let target = Int(Double(n) * p)
            var acc = 0
            for (l, c) in lHist.enumerated() { acc += c; if acc > target { return Double(l) } }
            return 100
        }
        let brightness = sumL / total / 100
        let saturation = min(1, sumC / total / 70)
        let warmth = allW > 0 ? (warmW - coolW) / allW : 0
        let contrast = (pct(0.95) - pct(0.05)) / 100

        // Texture: gradients of a lightly blurred luma (so JPEG noise is not texture).
        let s = Self.blur3(lum, w, h)
        var flat = 0, edges = 0, aligned = 0, gradSum = 0.0, inner = 0, ex = 0.0, ey = 0.0, left = 0
        let flatT = Float(parameters["flatGradient"]), edgeT = Float(parameters["edgeGradient"])
        if w > 2 && h > 2 {
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    let i = y * w + x
                    let gx = (s[i + 1] - s[i - 1]) / 2, gy = (s[i + w] - s[i - w]) / 2
                    let m = (gx * gx + gy * gy).squareRoot()
                    inner += 1; gradSum += Double(m)
                    if m < flatT { flat += 1 }
                    if m > edgeT {
                        edges += 1
                        ex += Double(x) / Double(w); ey += Double(y) / Double(h)
                        if 2 * x < w { left += 1 }
                        let ang = abs(atan2(gy, gx)) * 180 / .pi   // 0…180
                        let off = min(abs(ang), abs(ang - 90), abs(180 - ang))
                        if off <= 10 { aligned += 1 }
                    }
                }
            }
        }
        let flatShare = inner > 0 ? Double(flat) / Double(inner) : 0
        let edgeDensity = inner > 0 ? Double(edges) / Double(inner) : 0
        let busyness = inner > 0 ? gradSum / Double(inner) : 0
        let axisAligned = edges > 0 ? Double(aligned) / Double(edges) : 0
        let focusX = edges > 0 ? ex / Double(edges) : 0.5, focusY = edges > 0 ? ey / Double(edges) : 0.5
        let imbalance = edges > 0 ? abs(Double(2 * left - edges)) / Double(edges) : 0
        // Painted fills put most pixels in a few colour cells; a photograph (or a painted scene)
        // shades every surface across many. Flat share and palette size alone do not tell them
        // apart: a photo at 256 px has smooth areas and few colour names.
        let concentration = Double(cells.sorted(by: >).prefix(8).reduce(0, +)) / total
        let abstractScore = min(1, max(0, (concentration - 0.65) / 0.3))

        var aspect = Double(w) / Double(max(1, h))
        var longest: Double? = nil
        if let d = artwork?.dimensions { aspect = d.widthCm / d.heightCm; longest = max(d.widthCm, d.heightCm) }
        let orientation = aspect > 1.1 ? "landscape" : aspect < 1 / 1.1 ? "portrait" : "square"
        let sizeClass = longest.map { $0 < 40 ? "small" : $0 < 100 ? "medium" : $0 < 160 ? "large" : "oversized" } ?? "unknown"

        let m = ArtAnalysis.Measured(colours: colours.filter { $0.share >= 0.01 }, brightness: Self.r(brightness), saturation: Self.r(saturation),
                                     warmth: Self.r(warmth), contrast: Self.r(contrast), edgeDensity: Self.r(edgeDensity),
                                     flatShare: Self.r(flatShare), busyness: Self.r(busyness), axisAlignedEdges: Self.r(axisAligned),
                                     coloursFor90: for90, paletteConcentration: Self.r(concentration), abstractScore: Self.r(abstractScore), focusX: Self.r(focusX), focusY: Self.r(focusY), imbalance: Self.r(imbalance), orientation: orientation,
                                     aspect: Self.r(aspect), sizeClass: sizeClass, longestSideCm: longest, width: w, height: h)
        return describe(m, artwork: artwork)
    }

    /// Words from numbers: the documented rules, with the evidence for each.
    public func describe(_ m: ArtAnalysis.Measured, artwork: Artwork?) -> ArtAnalysis {
        func p(_ v: Double) -> String { "\(Int((v * 100).rounded())) %" }
        let dominant = m.colours.filter { $0.share >= parameters["dominantShare"] }.map(\.name)
        let secondary = m.colours.filter { $0.share >= parameters["secondaryShare"] && $0.share < parameters["dominantShare"] }.map(\.name)
        let temperature = m.warmth >= 0.2 ? "warm" : m.warmth <= -0.2 ? "cool" : "neutral"
        var evidence: [String: [String]] = [:]
        evidence["colours"] = m.colours.prefix(5).map { "\($0.name) \(p($0.share))" }
        evidence["temperature"] = ["warmth \(String(format: "%.2f", m.warmth)) (−1 all cool hues, +1 all warm)"]

        let abstract = m.abstractScore >= parameters["abstractThreshold"]
        var styles: [String] = [abstract ? "abstract" : "representational"]
        var styleEvidence = ["\(p(m.paletteConcentration)) of the pixels fall in 8 colour cells (painted fills; a photograph shades across many)",
                             "\(p(m.flatShare)) of the surface is flat colour", "\(m.coloursFor90) named colours cover 90 %",
                             "abstract score \(String(format: "%.2f", m.abstractScore)) (abstract from \(ParameterSpec.formatted(parameters["abstractThreshold"])))"]
        if abstract && m.axisAlignedEdges >= 0.55 && m.edgeDensity >= 0.005 {
            styles.append("geometric"); styleEvidence.append("\(p(m.axisAlignedEdges)) of strong edges are horizontal or vertical")
        }
        if m.coloursFor90 <= 3 && m.edgeDensity < 0.06 {
            styles.append("minimalist"); styleEvidence.append("\(p(m.edgeDensity)) of pixels on strong edges")
        }
        if abstract, let top = m.colours.first, top.share >= 0.5, m.edgeDensity < 0.06 {
            styles.append("colour field"); styleEvidence.append("\(top.name) covers \(p(top.share))")
        }
        if abstract && m.edgeDensity >= 0.12 && m.saturation >= 0.45 {
            styles.append("expressive"); styleEvidence.append("\(p(m.edgeDensity)) of pixels on strong edges, saturation \(String(format: "%.2f", m.saturation))")
        }
        evidence["style"] = styleEvidence

        var moods: [String] = [], moodEvidence: [String] = []
        if m.brightness >= 0.62 { moods.append("bright"); moodEvidence.append("bright: mean lightness \(Int(m.brightness * 100))/100") }
        if m.brightness <= 0.35 { moods.append("dark"); moodEvidence.append("dark: mean lightness \(Int(m.brightness * 100))/100") }
        if m.busyness < 6 && m.contrast < 0.6 && m.saturation < 0.55 { moods.append("calm"); moodEvidence.append("calm: busyness \(String(format: "%.1f", m.busyness)), contrast \(String(format: "%.2f", m.contrast))") }
        if m.saturation >= 0.5 && (m.busyness >= 8 || m.contrast >= 0.6) { moods.append("energetic"); moodEvidence.append("energetic: saturation \(String(format: "%.2f", m.saturation)), busyness \(String(format: "%.1f", m.busyness))") }
        if temperature == "warm" { moods.append("warm") } else if temperature == "cool" { moods.append("cool") }
        if m.saturation >= 0.5 { moods.append("vibrant") } else if m.saturation < 0.2 { moods.append("muted") }
        moodEvidence.append("saturation \(String(format: "%.2f", m.saturation))")
        evidence["mood"] = moodEvidence

        var rooms: [String] = []
        if moods.contains("calm") || (moods.contains("cool") && !moods.contains("energetic")) { rooms.append("bedroom") }
        if moods.contains("bright") || moods.contains("energetic") { rooms.append("office") }
        if m.sizeClass == "large" || m.sizeClass == "oversized" || moods.contains("vibrant") { rooms.append("living room") }
        if moods.contains("warm") && moods.contains("bright") { rooms.append("kitchen") }
        if moods.contains("dark") || m.contrast >= 0.7 { rooms.append("dining room") }
        if rooms.isEmpty { rooms.append("living room") }
        evidence["rooms"] = ["bedroom ← calm, or cool and not energetic", "office ← bright or energetic",
                             "living room ← large, oversized or vibrant", "kitchen ← warm and bright", "dining room ← dark or high contrast"]

        let wall = temperature == "warm" ? ["white", "cream", "warm grey"] : temperature == "cool" ? ["white", "light grey", "sky blue"] : ["white", "grey", "beige"]
        let energy = m.saturation >= 0.5 && m.busyness >= 8 ? "high" : (m.saturation < 0.25 && m.busyness < 6 ? "low" : "medium")
        let texType = m.flatShare >= 0.6 ? "smooth" : m.edgeDensity >= 0.15 ? "heavily textured" : m.busyness >= 8 ? "textured" : "fine"
        // Where the strong edges sit is where the eye goes: their centre is the focal point.
        let col = m.focusX < 0.4 ? "left" : m.focusX > 0.6 ? "right" : "centre"
        let row = m.focusY < 0.4 ? "upper" : m.focusY > 0.6 ? "lower" : ""
        let focal = row.isEmpty ? col : col == "centre" ? "\(row) centre" : "\(row) \(col)"
        let balance = m.imbalance < 0.2 ? "symmetrical" : "asymmetrical"
        evidence["composition"] = ["centre of strong edges at (\(String(format: "%.2f", m.focusX)), \(String(format: "%.2f", m.focusY)))",
                                   "left/right imbalance of edges \(String(format: "%.2f", m.imbalance))"]
        let medium = artwork?.techniques.first ?? "unknown"
        let price = artwork.map { $0.price < 250 ? "under 250" : $0.price < 1000 ? "250–1000" : $0.price < 5000 ? "1000–5000" : "5000 and over" }
        var tags = Array(Set(dominant + styles + moods + [m.orientation] + (m.sizeClass == "unknown" ? [] : [m.sizeClass]))).sorted()
        tags.removeAll { $0.isEmpty }

        return ArtAnalysis(
            basicVisualProperties: .init(dominantColors: dominant, secondaryColors: secondary, colorTemperature: temperature,
                                         colorPalette: m.colours.prefix(6).map(\.hex)),
            textureAnalysis: .init(textureType: texType,
                                   textureDescription: "\(p(m.flatShare)) flat colour, \(p(m.edgeDensity)) of pixels on strong edges, busyness \(String(format: "%.1f", m.busyness))",
                                   surfaceQuality: m.flatShare >= 0.6 ? "even" : "varied"),
            styleAndGenre: .init(style: styles.joined(separator: " "), genre: abstract ? "abstract" : "representational", movement: nil, period: nil, styles: styles),
            subjectMatter: .init(primarySubject: "unknown", secondarySubjects: [], themes: [], narrative: nil),
            mediumAndTechnique: .init(medium: medium, technique: artwork?.techniques.dropFirst().first ?? medium, materials: artwork.map { Array($0.techniques) }),
            composition: .init(layout: m.orientation, focalPoint: focal, balance: balance, perspective: nil),
            spaceAndDisplay: .init(recommendedRoomTypes: rooms, recommendedWallColor: wall, lightingRecommendations: m.brightness <= 0.35 ? ["bright, even light"] : ["soft daylight"],
                                   sizeRecommendations: m.sizeClass),
            psychologicalImpact: .init(mood: moods, energyLevel: energy, emotionalTone: "\(temperature), \(m.brightness >= 0.62 ? "light" : m.brightness <= 0.35 ? "dark" : "mid-toned")"),
            marketAnalysis: .init(targetAudience: [], priceRange: price, collectibility: "unknown"),
            tags: tags, measured: m, evidence: evidence, analyzer: cacheKey)
    }

    static func r(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }

    /// 3×3 binomial blur.
    static func blur3(_ y: [Float], _ w: Int, _ h: Int) -> [Float] {
        guard w > 2, h > 2 else { return y }
        var t = y, o = y
        for yy in 0..<h { for x in 1..<(w - 1) { let i = yy * w + x; t[i] = 0.25 * y[i - 1] + 0.5 * y[i] + 0.25 * y[i + 1] } }
        for yy in 1..<(h - 1) { for x in 0..<w { let i = yy * w + x; o[i] = 0.25 * t[i - w] + 0.5 * t[i] + 0.25 * t[i + w] } }
        return o
    }
}
