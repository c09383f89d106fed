import Foundation
import PhotoCurate
import PhotoCurateArt

/// Makes an evaluation catalog: procedural paintings and crops of real photos,
/// each with the properties it was made to have, plus room photos with a known wall.
///
/// ```swift
/// try ArtCatalogGenerator(out: "/tmp/art", sources: "../shared/corpus", count: 320, seed: 3).generate()
/// // /tmp/art/artworks.json, /tmp/art/images/*.jpg, /tmp/art/rooms/*.jpg, /tmp/art/truth.json
/// ```
/// Paintings (colour fields, hard-edge grids, circles, stripes, washes) are drawn
/// with one main colour on a known share of the canvas, on canvas grain. The
/// truth of a real crop is read by a method independent of the engine's (HSV hue
/// ranges, not CIELAB naming): it is "blue" when ≥ 25 % of its pixels are. Dimensions, price
/// and year are drawn at random; orientation follows the dimensions and the image.
/// The same seed gives the same bytes.
public struct ArtCatalogGenerator {
    public var out: String
    public var sources: String?
    public var count: Int
    public var seed: UInt64
    public var rooms: Int = 24
    public var realShare: Double = 0.25

    public init(out: String, sources: String?, count: Int = 320, seed: UInt64 = 3) {
        self.out = out; self.sources = sources; self.count = count; self.seed = seed
    }

    /// What an artwork was made to be.
    public struct Truth: Codable, Sendable {
        public var kind: String
        public var abstract: Bool
        /// Families covering ≥ 25 % of the image (paintings: the main colour's family).
        public var families: [String]
        public var mainFamily: String?
        public var mainShare: Double?
        /// Paintings: the share of the canvas painted in each family.
        public var familyShares: [String: Double]?
        /// Mean CIELAB lightness of the image as written (0–100).
        public var meanL: Double
        public var orientation: String
        public var sizeClass: String
        public var price: Double
        public var source: String?
    }
    public struct RoomTruth: Codable, Sendable {
        public var file: String
        public var wallColour: String
        public var wallHex: String
    }
    public struct TruthFile: Codable, Sendable {
        public var artworks: [String: Truth]
        public var rooms: [RoomTruth]
    }

    static let chromatic = ["red", "crimson", "pink", "magenta", "coral", "orange", "terracotta", "ochre", "gold", "yellow", "olive",
                            "sage", "green", "forest green", "teal", "turquoise", "sky blue", "cobalt blue", "navy", "lavender", "purple"]
    static let neutrals = ["white", "cream", "black", "charcoal", "grey", "silver", "beige"]
    static let studios = ["Studio Ana Ferreira", "Atelier Nord", "Maya Lindqvist", "Okoro & Daughters", "Jonas Weber", "Casa Azul",
                          "Hana Sato", "Lucía Romero", "Tomasz Nowak", "Red Barn Press", "Élodie Marchand", "Kwame Mensah",
                          "Isla McLeod", "Priya Raman", "Studio Vermeer Lane", "Nils Aaberg", "Greta Holm", "Mateo Silva",
                          "Zoe Papadopoulos", "Arun Mehta", "Lin Wei", "Sofia Conti", "Ben Carter", "Yara Haddad"]

    public func generate() throws {
        try Vips.start()
        let fm = FileManager.default
        try fm.createDirectory(atPath: out + "/images", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: out + "/rooms", withIntermediateDirectories: true)
        var rng = SeededRandom(seed: seed)
        let palette = NamedPalette.standard
        var realFiles: [String] = []
        if let sources {
            realFiles = ((try? fm.contentsOfDirectory(atPath: sources)) ?? []).filter { ["jpg", "jpeg", "png"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
        }
        var records: [[String: Any]] = []
        var truths: [String: Truth] = [:]
        for k in 0..<count {
            let id = String(format: "aw-%03d", k + 1)
            let orientation = ["landscape", "portrait", "square"][rng.int(0...2)]
            let (w, h) = orientation == "landscape" ? (480, rng.int(300...380)) : orientation == "portrait" ? (rng.int(300...380), 480) : (420, 420)
            let sizeClass = ["small", "medium", "large", "oversized"][rng.int(0...3)]
            let longest = sizeClass == "small" ? rng.uniform(20, 39) : sizeClass == "medium" ? rng.uniform(40, 99) : sizeClass == "large" ? rng.uniform(100, 159) : rng.uniform(160, 240)
            let aspect = Double(w) / Double(h)
            let wcm = (aspect >= 1 ? longest : longest * aspect).rounded(), hcm = (aspect >= 1 ? longest / aspect : longest).rounded()
            let price = (rng.logUniform(80, 9000) / 10).rounded() * 10
            let year = rng.int(1985...2025)
            var px: [UInt8]
            var truth: Truth
            let useReal = !realFiles.isEmpty && rng.chance(realShare)
            if useReal {
                let src = realFiles[rng.int(0...(realFiles.count - 1))]
                px = try realCrop(sources! + "/" + src, w, h, &rng)
                truth = Truth(kind: "photograph", abstract: false, families: Self.hsvFamilies(px, w, h), mainFamily: nil, mainShare: nil, familyShares: nil,
                              meanL: 0, orientation: "", sizeClass: sizeClass, price: price, source: src)
            } else {
                let main = Self.chromatic[rng.int(0...(Self.chromatic.count - 1))]
                let kind = ["colour field", "grid", "circles", "stripes", "wash"][rng.int(0...4)]
                let (p, share, byFamily) = paint(kind, main: main, w, h, &rng, palette)
                px = p
                truth = Truth(kind: kind, abstract: true, families: byFamily.filter { $0.value >= 0.25 }.map(\.key).sorted(), mainFamily: palette.colour(named: main)!.family,
                              mainShare: (share * 1000).rounded() / 1000, familyShares: byFamily.mapValues { ($0 * 1000).rounded() / 1000 }, meanL: 0, orientation: "", sizeClass: sizeClass, price: price, source: nil)
            }
            truth.meanL = (Self.meanL(px) * 10).rounded() / 10
            truth.orientation = wcm / hcm > 1.1 ? "landscape" : wcm / hcm < 1 / 1.1 ? "portrait" : "square"
            let jpeg = try VImage.from(pixels: px, width: w, height: h, bands: 3).jpeg(quality: 90)
            try AtomicFile.write(Data(jpeg), to: "\(out)/images/\(id).jpg")
            let kindWord = truth.kind == "photograph" ? "Study" : truth.kind.capitalized
            let title = "\(kindWord) No. \(k + 1)"
            records.append(["objectID": id, "title": title, "studioName": Self.studios[rng.int(0...(Self.studios.count - 1))],
                            "price": price, "currency": "EUR", "imageUrls": ["images/\(id).jpg"],
                            "dimensions": ["widthCm": wcm, "heightCm": hcm], "techniques": truth.kind == "photograph" ? ["photographic print"] : ["acrylic on canvas"],
                            "year": year, "status": "available"])
            truths[id] = truth
        }
        var roomTruths: [RoomTruth] = []
        let walls = ["sage", "sky blue", "terracotta", "navy", "cream", "grey", "yellow", "lavender", "forest green", "coral", "teal", "white", "pink", "ochre"]
        for r in 0..<rooms {
            let wall = walls[r % walls.count]
            let px = room(wall: wall, 640, 480, &rng, palette)
            let file = String(format: "room-%02d.jpg", r + 1)
            try AtomicFile.write(Data(try VImage.from(pixels: px, width: 640, height: 480, bands: 3).jpeg(quality: 90)), to: "\(out)/rooms/\(file)")
            roomTruths.append(RoomTruth(file: file, wallColour: wall, wallHex: palette.colour(named: wall)!.hex))
        }
        let json = try JSONSerialization.data(withJSONObject: records, options: [.prettyPrinted, .sortedKeys])
        try AtomicFile.write(json, to: out + "/artworks.json")
        let e = JSONEncoder(); e.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try e.encode(TruthFile(artworks: truths, rooms: roomTruths)), to: out + "/truth.json")
    }

    func rgb(_ name: String, _ palette: NamedPalette, jitter: Int, _ rng: inout SeededRandom) -> (Int, Int, Int) {
        let hex = palette.colour(named: name)!.hex.dropFirst()
        let v = Int(hex, radix: 16)!
        func j(_ c: Int) -> Int { max(0, min(255, c + rng.int(-jitter...jitter))) }
        return (j((v >> 16) & 255), j((v >> 8) & 255), j(v & 255))
    }

    /// Draws one painting; returns its pixels and the share of the canvas in the main colour.
    func paint(_ kind: String, main: String, _ w: Int, _ h: Int, _ rng: inout SeededRandom, _ palette: NamedPalette) -> ([UInt8], Double, [String: Double]) {
        let mainFamily = palette.colour(named: main)!.family
        let others = (Self.chromatic + Self.neutrals).filter { palette.colour(named: $0)!.family != mainFamily }
        func other(_ rng: inout SeededRandom) -> String { let o = others[rng.int(0...(others.count - 1))]; current = o; return o }
        var label = [UInt8](repeating: 0, count: w * h)   // index into `drawn`: which named colour each pixel was painted with
        var drawn: [String] = [main]
        var current = main
        func idx(_ name: String) -> UInt8 { if let i = drawn.firstIndex(of: name) { return UInt8(i) }; drawn.append(name); return UInt8(drawn.count - 1) }
        var px = [UInt8](repeating: 0, count: w * h * 3)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ c: (Int, Int, Int), isMain: Bool, name: String? = nil) {
            if let name { current = name }
            for y in max(0, y0)..<min(h, y1) { for x in max(0, x0)..<min(w, x1) {
                let i = y * w + x; px[3 * i] = UInt8(c.0); px[3 * i + 1] = UInt8(c.1); px[3 * i + 2] = UInt8(c.2); label[i] = isMain ? 0 : idx(current) } }
        }
        let mc = rgb(main, palette, jitter: 10, &rng)
        switch kind {
        case "colour field":
            fill(0, 0, w, h, mc, isMain: true)
            for _ in 0..<rng.int(1...2) {
                let bw = Int(Double(w) * rng.uniform(0.5, 0.8)), bh = Int(Double(h) * rng.uniform(0.12, 0.25))
                let x0 = (w - bw) / 2, y0 = rng.int(h / 10...(h - bh - h / 10))
                let band = other(&rng)
                fill(x0, y0, x0 + bw, y0 + bh, rgb(band, palette, jitter: 10, &rng), isMain: false, name: band)
            }
        case "grid":
            let ground = ["white", "cream"][rng.int(0...1)]
            fill(0, 0, w, h, rgb(ground, palette, jitter: 4, &rng), isMain: false, name: ground)
            let xs = [0, Int(Double(w) * rng.uniform(0.45, 0.7)), w], ys = [0, Int(Double(h) * rng.uniform(0.5, 0.75)), h]
            // The big cell is the main colour; one small cell another colour.
            fill(xs[0], ys[0], xs[1], ys[1], mc, isMain: true)
            let cell = other(&rng)
            fill(xs[1], ys[1], xs[2], ys[2], rgb(cell, palette, jitter: 10, &rng), isMain: false, name: cell)
            let t = max(4, w / 60)
            for x in xs.dropFirst().dropLast() { fill(x - t / 2, 0, x + t / 2, h, (20, 20, 20), isMain: false, name: "black") }
            for y in ys.dropFirst().dropLast() { fill(0, y - t / 2, w, y + t / 2, (20, 20, 20), isMain: false, name: "black") }
        case "circles":
            fill(0, 0, w, h, mc, isMain: true)
            for _ in 0..<rng.int(4...12) {
                let r = Double(min(w, h)) * rng.uniform(0.04, 0.12), cx = rng.uniform(0, Double(w)), cy = rng.uniform(0, Double(h))
                let c = rgb(other(&rng), palette, jitter: 10, &rng)
                for y in max(0, Int(cy - r))..<min(h, Int(cy + r) + 1) { for x in max(0, Int(cx - r))..<min(w, Int(cx + r) + 1) {
                    let dx = Double(x) - cx, dy = Double(y) - cy
                    if dx * dx + dy * dy <= r * r { let i = y * w + x; px[3 * i] = UInt8(c.0); px[3 * i + 1] = UInt8(c.1); px[3 * i + 2] = UInt8(c.2); label[i] = 0 }
                } }
            }
        case "stripes":
            let vertical = rng.chance(0.5), n = rng.int(5...9)
            let n2 = other(&rng), n3 = other(&rng)
            let c2 = rgb(n2, palette, jitter: 10, &rng), c3 = rgb(n3, palette, jitter: 10, &rng)
            let len = vertical ? w : h
            for s in 0..<n {
                let a = s * len / n, b = (s + 1) * len / n
                let c = s % 3 == 1 ? c2 : s % 3 == 2 && n > 6 ? c3 : mc
                let isMain = !(s % 3 == 1) && !(s % 3 == 2 && n > 6)
                let name = s % 3 == 1 ? n2 : n3
                if vertical { fill(a, 0, b, h, c, isMain: isMain, name: name) } else { fill(0, a, w, b, c, isMain: isMain, name: name) }
            }
        default: // wash: the main colour shading to a lighter and darker tone, with brush texture
            for y in 0..<h { for x in 0..<w {
                let t = (Double(x) / Double(w) + Double(y) / Double(h)) / 2 - 0.5
                let f = 1 + 0.35 * t
                let i = y * w + x
                px[3 * i] = UInt8(max(0, min(255, Double(mc.0) * f))); px[3 * i + 1] = UInt8(max(0, min(255, Double(mc.1) * f))); px[3 * i + 2] = UInt8(max(0, min(255, Double(mc.2) * f)))
                label[i] = 0
            } }
            for _ in 0..<rng.int(20...60) {   // strokes of another colour
                let stroke = other(&rng)
                let c = rgb(stroke, palette, jitter: 10, &rng)
                let x0 = rng.int(0...(w - 1)), y0 = rng.int(0...(h - 1)), len = rng.int(10...60), t = rng.int(2...5)
                let horizontal = rng.chance(0.5)
                if horizontal { fill(x0, y0, x0 + len, y0 + t, c, isMain: false, name: stroke) } else { fill(x0, y0, x0 + t, y0 + len, c, isMain: false, name: stroke) }
            }
        }
        // Canvas grain, light enough that the colours stay what they were made to be.
        let grain = rng.uniform(1.5, 4)
        for i in 0..<(w * h * 3) {
            let g = (rng.uniform(-1, 1) + rng.uniform(-1, 1) + rng.uniform(-1, 1)) * grain / 1.73
            px[i] = UInt8(max(0, min(255, (Double(px[i]) + g).rounded())))
        }
        var byFamily: [String: Double] = [:]
        var counts = [Int](repeating: 0, count: drawn.count)
        for l in label { counts[Int(l)] += 1 }
        for (i, name) in drawn.enumerated() { byFamily[palette.colour(named: name)!.family, default: 0] += Double(counts[i]) / Double(w * h) }
        return (px, Double(counts[0]) / Double(w * h), byFamily)
    }

    func realCrop(_ path: String, _ w: Int, _ h: Int, _ rng: inout SeededRandom) throws -> [UInt8] {
        let image = try Decoder(longEdge: 1200).decode(path)
        let iw = image.width, ih = image.height
        let scale = max(Double(w) / Double(iw), Double(h) / Double(ih)) * rng.uniform(1.0, 1.6)
        let cw = min(iw, Int(Double(w) / scale)), ch = min(ih, Int(Double(h) / scale))
        let x0 = rng.int(0...max(0, iw - cw)), y0 = rng.int(0...max(0, ih - ch))
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h { for x in 0..<w {
            let sx = min(iw - 1, x0 + x * cw / w), sy = min(ih - 1, y0 + y * ch / h)
            for c in 0..<3 { out[3 * (y * w + x) + c] = image.rgb[3 * (sy * iw + sx) + c] }
        } }
        return out
    }

    /// A room: wall (known colour, flat with a little light falloff), floor, sofa, a lamp, a plant.
    func room(wall: String, _ w: Int, _ h: Int, _ rng: inout SeededRandom, _ palette: NamedPalette) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: w * h * 3)
        let wc = rgb(wall, palette, jitter: 0, &rng)
        let floorY = Int(Double(h) * rng.uniform(0.68, 0.78))
        let floor = [(150, 110, 75), (120, 90, 60), (190, 170, 140), (90, 90, 95)][rng.int(0...3)]
        for y in 0..<h { for x in 0..<w {
            let i = 3 * (y * w + x)
            if y < floorY {
                let f = 1 - 0.05 * Double(y) / Double(floorY)
                px[i] = UInt8(Double(wc.0) * f); px[i + 1] = UInt8(Double(wc.1) * f); px[i + 2] = UInt8(Double(wc.2) * f)
            } else {
                let plank = ((x / 60) + (y / 9)) % 2 == 0 ? 1.0 : 0.9
                px[i] = UInt8(Double(floor.0) * plank); px[i + 1] = UInt8(Double(floor.1) * plank); px[i + 2] = UInt8(Double(floor.2) * plank)
            }
        } }
        func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ c: (Int, Int, Int)) {
            for y in max(0, y0)..<min(h, y1) { for x in max(0, x0)..<min(w, x1) {
                let i = 3 * (y * w + x); px[i] = UInt8(c.0); px[i + 1] = UInt8(c.1); px[i + 2] = UInt8(c.2) } }
        }
        let sofa = [(80, 80, 85), (200, 195, 185), (60, 70, 100), (140, 100, 70)][rng.int(0...3)]
        let sx = rng.int(w / 8...(w / 3)), sw = w / 2
        box(sx, floorY - h / 5, sx + sw, floorY + h / 12, sofa)
        box(sx - 12, floorY - h / 7, sx, floorY + h / 12, sofa); box(sx + sw, floorY - h / 7, sx + sw + 12, floorY + h / 12, sofa)
        box(w - 90, floorY - h / 3, w - 84, floorY, (40, 40, 40)); box(w - 110, floorY - h / 3 - 30, w - 64, floorY - h / 3, (240, 230, 200))
        box(30, floorY - 70, 70, floorY, (150, 90, 60)); box(20, floorY - 130, 80, floorY - 70, (50, 110, 60))
        for i in 0..<(w * h * 3) { px[i] = UInt8(max(0, min(255, Int(px[i]) + rng.int(-2...2)))) }
        return px
    }

    static func meanL(_ px: [UInt8]) -> Double {
        var s = 0.0
        for i in 0..<(px.count / 3) { s += Lab(r: Double(px[3 * i]), g: Double(px[3 * i + 1]), b: Double(px[3 * i + 2])).l }
        return s / Double(max(1, px.count / 3))
    }

    /// Families covering ≥ 25 % of pixels by HSV hue (S ≥ 0.3, V ≥ 0.25): an independent reading of colour.
    static func hsvFamilies(_ px: [UInt8], _ w: Int, _ h: Int) -> [String] {
        var counts: [String: Int] = [:]
        for i in 0..<(w * h) {
            let r = Double(px[3 * i]) / 255, g = Double(px[3 * i + 1]) / 255, b = Double(px[3 * i + 2]) / 255
            let mx = max(r, g, b), mn = min(r, g, b), d = mx - mn
            guard mx >= 0.25, mx > 0, d / mx >= 0.3 else { continue }
            var hue: Double
            if mx == r { hue = 60 * ((g - b) / d).truncatingRemainder(dividingBy: 6) } else if mx == g { hue = 60 * ((b - r) / d + 2) } else { hue = 60 * ((r - g) / d + 4) }
            if hue < 0 { hue += 360 }
            let fam = hue < 15 || hue >= 345 ? "red" : hue < 40 ? "orange" : hue < 70 ? "yellow" : hue < 160 ? "green" : hue < 195 ? "teal" : hue < 255 ? "blue" : hue < 290 ? "purple" : "pink"
            counts[fam, default: 0] += 1
        }
        return counts.filter { Double($0.value) >= 0.25 * Double(w * h) }.map(\.key).sorted()
    }
}
