import Foundation
import PhotoCurate

/// What a room photo shows that an artwork should fit: the wall, the light, the style.
public struct RoomAnalysis: Codable, Sendable, Equatable {
    /// The wall's named colour and its measured CIELAB values.
    public var wallColour: String
    public var wallFamily: String
    public var wallHex: String
    public var wallLab: Lab
    /// True when the wall has no hue to speak of (chroma < 12): white, grey, beige.
    public var wallNeutral: Bool
    /// Fraction of the photo that is that wall (flat, within ΔE 12 of its colour).
    public var wallShare: Double
    /// Named colours of the whole photo, largest first (up to 5).
    public var dominantColors: [String]
    /// Mean lightness / 100 and warmth (−1…1), as for artworks.
    public var brightness: Double
    public var warmth: Double
    /// "minimal" (few colours, calm surfaces), "eclectic" (many colours, busy) or "neutral".
    public var styleCue: String
    /// Why each value is what it is.
    public var evidence: [String]
}

/// Reads a room photo: wall colour and area, light, warmth and a style cue; and the criteria they suggest.
///
/// ```swift
/// let room = try RoomAnalyzer().analyze(path: "living-room.jpg")
/// room.wallColour            // "sage"
/// RoomAnalyzer().criteria(for: room).sizes   // ["large", "oversized"]: a big free wall
/// ```
/// The wall is the largest flat colour of the upper two thirds of the photo
/// (walls are flat and above the furniture). Sizes follow the wall's share of
/// the frame: ≥ 35 % → large or oversized, ≥ 15 % → medium or large, else small
/// or medium. The colour rule (`ArtMatcher.harmony`) is applied by the matcher.
public struct RoomAnalyzer: Sendable {
    public let palette: NamedPalette
    public let longEdge: Int
    public init(palette: NamedPalette = .standard, longEdge: Int = 256) { self.palette = palette; self.longEdge = longEdge }

    public func analyze(path: String) throws -> RoomAnalysis {
        let image = try Decoder(longEdge: longEdge, maxPixels: 100_000_000).decode(path)
        return analyze(rgb: image.rgb, width: image.width, height: image.height)
    }

    public func analyze(rgb: [UInt8], width w: Int, height h: Int) -> RoomAnalysis {
        let n = w * h
        var labs = [Lab](repeating: Lab(l: 0, a: 0, b: 0), count: n)
        var lum = [Float](repeating: 0, count: n)
        var cache: [Int: Lab] = [:]
        var sumL = 0.0, warmW = 0.0, coolW = 0.0, allW = 0.0
        for i in 0..<n {
            let r = Int(rgb[3 * i]), g = Int(rgb[3 * i + 1]), b = Int(rgb[3 * i + 2])
            let key = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
            let lab = cache[key] ?? { let l = Lab(r: Double(r), g: Double(g), b: Double(b)); cache[key] = l; return l }()
            labs[i] = lab
            lum[i] = Float(0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b))
            sumL += lab.l
            let c = lab.chroma
            allW += max(c, 10)
            if c >= 10 { let hue = lab.hue; if hue < 100 || hue >= 340 { warmW += c } else if hue >= 140 && hue < 310 { coolW += c } }
        }
        let s = ArtAnalyzer.blur3(lum, w, h)
        // Flat pixels of the upper two thirds, by named colour.
        var flatByName: [String: [Int]] = [:]
        var named: [String: Int] = [:]
        var gradSum = 0.0, inner = 0
        var nameCache: [Int: NamedPalette.Colour] = [:]
        for y in 1..<max(1, h - 1) {
            for x in 1..<max(1, w - 1) {
                let i = y * w + x
                let gx = (s[i + 1] - s[i - 1]) / 2, gy = (s[i + w] - s[i - w]) / 2
                let m = Double((gx * gx + gy * gy).squareRoot())
                gradSum += m; inner += 1
                let r = Int(rgb[3 * i]) >> 3, g = Int(rgb[3 * i + 1]) >> 3, b = Int(rgb[3 * i + 2]) >> 3
                let key = r << 10 | g << 5 | b
                let c = nameCache[key] ?? { let c = palette.nearest(labs[i]); nameCache[key] = c; return c }()
                named[c.name, default: 0] += 1
                if y < 2 * h / 3 && m < 2.5 { flatByName[c.name, default: []].append(i) }
            }
        }
        let wallName = flatByName.max { $0.value.count != $1.value.count ? $0.value.count < $1.value.count : $0.key > $1.key }?.key ?? "white"
        let px = flatByName[wallName] ?? []
        var L = 0.0, A = 0.0, B = 0.0
        for i in px { L += labs[i].l; A += labs[i].a; B += labs[i].b }
        let k = Double(max(1, px.count))
        let wallLab = Lab(l: (L / k * 10).rounded() / 10, a: (A / k * 10).rounded() / 10, b: (B / k * 10).rounded() / 10)
        // The wall is every flat pixel near its colour, wherever it is.
        var wallPixels = 0
        for y in 1..<max(1, h - 1) {
            for x in 1..<max(1, w - 1) {
                let i = y * w + x
                let gx = (s[i + 1] - s[i - 1]) / 2, gy = (s[i + w] - s[i - w]) / 2
                if (gx * gx + gy * gy).squareRoot() < 2.5 && labs[i].deltaE2000(wallLab) < 12 { wallPixels += 1 }
            }
        }
        let wallShare = Double(wallPixels) / Double(max(1, inner))
        let colours = named.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var cum = 0, for90 = 0
        for c in colours { cum += c.value; for90 += 1; if Double(cum) >= 0.9 * Double(max(1, inner)) { break } }
        let busy = gradSum / Double(max(1, inner))
        let cue = for90 <= 4 && busy < 5 ? "minimal" : for90 >= 9 && busy >= 8 ? "eclectic" : "neutral"
        let wallColour = palette.colour(named: wallName)!
        func r(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }
        return RoomAnalysis(
            wallColour: wallName, wallFamily: wallColour.family, wallHex: wallColour.hex, wallLab: wallLab,
            wallNeutral: wallLab.chroma < 12, wallShare: r(wallShare),
            dominantColors: colours.prefix(5).map(\.key), brightness: r(sumL / Double(max(1, n)) / 100),
            warmth: r(allW > 0 ? (warmW - coolW) / allW : 0), styleCue: cue,
            evidence: ["wall: \(wallName) (L \(Int(wallLab.l)), chroma \(Int(wallLab.chroma.rounded())), hue \(Int(wallLab.hue.rounded()))°), the largest flat colour of the upper two thirds",
                       "wall covers \(Int((wallShare * 100).rounded())) % of the photo",
                       "\(for90) named colours cover 90 %, busyness \(String(format: "%.1f", busy)) → \(cue) room"])
    }

    /// The criteria a room suggests: harmony with its wall and a size for its wall area (the matcher adds its style cue, lightly weighted).
    public func criteria(for room: RoomAnalysis) -> SearchCriteria {
        var c = SearchCriteria()
        c.source = "image"
        c.wall = room
        c.sizes = room.wallShare >= 0.35 ? ["large", "oversized"] : room.wallShare >= 0.15 ? ["medium", "large"] : ["small", "medium"]
        return c
    }
}
