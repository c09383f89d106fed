import COpenCVShim
import Foundation
import PhotoCurate
import PhotoCurateAlbums

/// A labelled evaluation set for album identification: procedural covers (artwork
/// and typography), a catalog of them, and "phone photos" of covers in and out of it.
///
/// ```swift
/// try CoverGenerator(seed: 7).write(to: "/tmp/albums", catalog: 500, photos: 400, unknown: 100)
/// // /tmp/albums/catalog/albums.json + covers, /tmp/albums/photos/*.jpg, /tmp/albums/labels.json
/// ```
/// Each photo draws its conditions independently: perspective up to 35°, the cover's
/// width from 25 % of the frame, glare, blur, JPEG quality 60–90, occlusion up to 30 %,
/// wear, and neighbouring covers. `labels.json` records the album (or none) and every
/// condition's value, so accuracy can be split by condition.
public struct CoverGenerator: Sendable {
    public var seed: UInt64
    public var coverSize = 600
    public var photoWidth = 1600
    public var photoHeight = 1200

    public init(seed: UInt64) { self.seed = seed }

    /// What each photo shows and under which conditions (`labels.json`), as `albums eval` reads it.
    public typealias Label = AlbumEvaluation.Label

    static let words = ["Blue", "Midnight", "Electric", "Silver", "Velvet", "Echo", "Garden", "River", "Paper", "Neon", "Quiet", "Northern",
                        "Golden", "Glass", "Static", "Summer", "Winter", "Hollow", "Crimson", "Lantern", "Ocean", "Desert", "Signal", "Harbor",
                        "Motion", "Shadow", "Orchard", "Thunder", "Cotton", "Atlas", "Mirror", "Ember", "Copper", "Satellite", "Wild", "Lonely",
                        "Radio", "Canyon", "Spiral", "Fever", "Honey", "Iron", "Lotus", "Marble", "Nova", "Pale", "Rust", "Saints", "Tide", "Vessel"]
    static let genres = ["Jazz", "Soul", "Rock", "Folk", "Electronic", "Hip hop", "Ambient", "Funk", "Blues", "Pop", "Reggae", "Classical"]

    /// Cover k's pixels (RGB, coverSize²): a layered procedural artwork with the artist and title set on it.
    public func cover(_ k: Int, artist: String, title: String) throws -> [UInt8] {
        var rng = SeededRandom(seed: seed &* 1_000_003 &+ UInt64(k), stream: 11)
        let n = coverSize
        var px = [UInt8](repeating: 0, count: n * n * 3)
        let a = (rng.uniform(0, 255), rng.uniform(0, 255), rng.uniform(0, 255)), b = (rng.uniform(0, 255), rng.uniform(0, 255), rng.uniform(0, 255))
        let angle = rng.uniform(0, .pi)
        struct Shape { var kind: Int; var x, y, r, w, h, rot: Double; var c: (Double, Double, Double); var freq: Double }
        let shapes = (0..<rng.int(6...14)).map { _ in
            Shape(kind: rng.int(0...3), x: rng.uniform(0, 1), y: rng.uniform(0, 1), r: rng.uniform(0.04, 0.3), w: rng.uniform(0.05, 0.6),
                  h: rng.uniform(0.02, 0.4), rot: rng.uniform(0, .pi), c: (rng.uniform(0, 255), rng.uniform(0, 255), rng.uniform(0, 255)),
                  freq: rng.uniform(4, 30))
        }
        for y in 0..<n {
            for x in 0..<n {
                let u = Double(x) / Double(n), v = Double(y) / Double(n)
                let t = max(0, min(1, 0.5 + (u - 0.5) * cos(angle) + (v - 0.5) * sin(angle)))
                var c = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
                for s in shapes {
                    let dx = u - s.x, dy = v - s.y
                    let ru = dx * cos(s.rot) + dy * sin(s.rot), rv = -dx * sin(s.rot) + dy * cos(s.rot)
                    let inside: Bool
                    switch s.kind {
                    case 0: inside = hypot(dx, dy) < s.r
                    case 1: inside = abs(ru) < s.w / 2 && abs(rv) < s.h / 2
                    case 2: inside = hypot(dx, dy) < s.r && hypot(dx, dy) > s.r * 0.6            // ring
                    default: inside = abs(rv) < s.h / 2 && sin(ru * s.freq * 6.283) > 0.2          // stripes
                    }
                    if inside {
                        let tex = 0.8 + 0.2 * sin(u * s.freq * 6.283) * cos(v * s.freq * 5.1)
                        c = (s.c.0 * tex, s.c.1 * tex, s.c.2 * tex)
                    }
                }
                let i = (y * n + x) * 3
                px[i] = UInt8(max(0, min(255, c.0))); px[i + 1] = UInt8(max(0, min(255, c.1))); px[i + 2] = UInt8(max(0, min(255, c.2)))
            }
        }
        // Typography: the artist and the title, set in one of two places, light or dark.
        let ink: UInt8 = rng.chance(0.5) ? 250 : 12
        let top = rng.chance(0.5)
        for (line, (text, dpi)) in [(artist.uppercased(), rng.int(110...170)), (title, rng.int(90...140))].enumerated() {
            let mask = try VImage.text(text, width: n - 60, dpi: dpi)
            let bytes = try mask.bytes(), mw = mask.width, mh = mask.height
            let y0 = top ? 30 + line * (mh + 14) : n - 40 - (2 - line) * (mh + 14)
            for y in 0..<mh where y0 + y >= 0 && y0 + y < n {
                for x in 0..<mw where 30 + x < n {
                    let alpha = Double(bytes[y * mw + x]) / 255
                    guard alpha > 0 else { continue }
                    let i = ((y0 + y) * n + 30 + x) * 3
                    for ch in 0..<3 { px[i + ch] = UInt8(Double(px[i + ch]) * (1 - alpha) + Double(ink) * alpha) }
                }
            }
        }
        return px
    }

    func entry(_ k: Int, rng: inout SeededRandom) -> (artist: String, title: String, json: [String: Any]) {
        let artist = "The \(Self.words[rng.int(0...49)]) \(Self.words[rng.int(0...49)])s"
        let title = "\(Self.words[rng.int(0...49)]) \(Self.words[rng.int(0...49)]) \(k)"
        let recs = ["ESSENTIAL", "RECOMMENDED", "SKIP", "AVOID"]
        let json: [String: Any] = [
            "album_title": title, "artist_name": artist, "release_year": rng.int(1955...2024),
            "genres": [Self.genres[rng.int(0...11)]], "record_label": "\(Self.words[rng.int(0...49)]) Records",
            "context_summary": "A generated album for the evaluation set. Its sound is \(Self.genres[rng.int(0...11)].lowercased()) with \(Self.words[rng.int(0...49)].lowercased()) textures.",
            "context_bullets": ["Recorded in one week", "Produced by \(Self.words[rng.int(0...49)]) \(Self.words[rng.int(0...49)])", "Its closing track became a live favourite"],
            "rating": Double(rng.int(30...100)) / 10, "recommendation": recs[rng.int(0...3)],
            "key_tracks": ["\(Self.words[rng.int(0...49)]) Song", "\(Self.words[rng.int(0...49)]) Dance"],
            "album_art": String(format: "covers/cover-%05d.jpg", k),
        ]
        return (artist, title, json)
    }

    /// Writes `catalog` covers with albums.json, `unknown` covers that are not in it, and
    /// `photos` photos (of catalog covers) plus `unknown` photos (one per unknown cover).
    public func write(to dir: String, catalog: Int, photos: Int, unknown: Int) throws {
        try Vips.start()
        let fm = FileManager.default
        for d in ["catalog/covers", "unknown", "photos"] { try fm.createDirectory(atPath: dir + "/" + d, withIntermediateDirectories: true) }
        var rng = SeededRandom(seed: seed, stream: 3)
        var entries: [[String: Any]] = [], names: [(String, String)] = []
        for k in 0..<(catalog + unknown) {
            let e = entry(k, rng: &rng)
            names.append((e.artist, e.title))
            if k < catalog { entries.append(e.json) }
        }
        // Covers (in parallel: each is independent).
        let total = catalog + unknown
        let errors = FailureList()
        DispatchQueue.concurrentPerform(iterations: total) { k in
            do {
                let px = try cover(k, artist: names[k].0, title: names[k].1)
                let img = try VImage.from(pixels: px, width: coverSize, height: coverSize, bands: 3)
                try Data(try img.jpeg(quality: 92)).write(to: URL(fileURLWithPath: coverPath(k, catalog: catalog, dir: dir)))
            } catch { errors.add("cover \(k): \(error)") }
        }
        if let first = errors.first { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: first]) }
        let albumsJSON = try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys])
        try AtomicFile.write(albumsJSON, to: dir + "/catalog/albums.json")

        // Photos: the first `photos` show catalog covers, the last `unknown` show the others.
        let count = photos + unknown
        var plans: [(target: Int, label: Label, seed: UInt64)] = []
        for p in 0..<count {
            let target = p < photos ? rng.int(0...(catalog - 1)) : catalog + (p - photos) % max(1, unknown)
            var l = Label(file: String(format: "photo-%05d.jpg", p), album: p < photos ? "\(names[target].0) — \(names[target].1)".lowercased() : nil,
                          perspective: 0, scale: 0, glare: 0, blur: 0, jpegQuality: rng.int(60...90), occlusion: 0, wear: 0, neighbours: 0, guide: false)
            l.perspective = rng.chance(0.7) ? rng.uniform(0, 35) : 0
            l.scale = rng.chance(0.4) ? rng.uniform(0.25, 0.4) : rng.uniform(0.4, 0.75)
            l.glare = rng.chance(0.35) ? rng.uniform(0.2, 0.7) : 0
            l.blur = rng.chance(0.35) ? rng.uniform(0.8, 2.5) : 0
            l.occlusion = rng.chance(0.3) ? rng.uniform(0.05, 0.3) : 0
            l.wear = rng.chance(0.3) ? rng.uniform(0.2, 1) : 0
            l.neighbours = rng.chance(0.4) ? rng.int(1...3) : 0
            // One photo in ten is taken with the app's square guide: the cover fills the centre square.
            if rng.chance(0.1) {
                l.guide = true
                l.scale = rng.uniform(0.75, 0.95) * Double(photoHeight) / Double(photoWidth)
                l.perspective = rng.uniform(0, 10)
            }
            plans.append((target, l, rng.next()))
        }
        DispatchQueue.concurrentPerform(iterations: count) { p in
            do { try photo(plans[p], catalog: catalog, dir: dir) } catch { errors.add("photo \(p): \(error)") }
        }
        if let first = errors.first { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: first]) }
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try enc.encode(plans.map(\.label)), to: dir + "/labels.json")
    }

    func coverPath(_ k: Int, catalog: Int, dir: String) -> String {
        k < catalog ? dir + String(format: "/catalog/covers/cover-%05d.jpg", k) : dir + String(format: "/unknown/cover-%05d.jpg", k)
    }

    /// A cover as the catalog stores it (its JPEG), which is what gets photographed.
    func coverPixels(_ k: Int, catalog: Int, dir: String) throws -> [UInt8] {
        try Decoder(longEdge: coverSize).decode(coverPath(k, catalog: catalog, dir: dir)).rgb
    }

    /// Places a cover (RGB coverSize²) into the photo as a tilted quadrilateral centred at (cx, cy) with the given width.
    func place(_ cover: [UInt8], into photo: inout [UInt8], cx: Double, cy: Double, width: Double, tilt: Double, axis: Double, spin: Double) throws -> [Double] {
        // The square turned by `tilt` about an in-plane axis, seen by a pinhole camera.
        let f = Double(photoWidth) * 1.2, half = width / 2
        var dst: [Float] = []
        for (x, y) in [(-half, -half), (half, -half), (half, half), (-half, half)] {
            let xr = x * cos(spin) - y * sin(spin), yr = x * sin(spin) + y * cos(spin)
            // Rotate about the axis at angle `axis` in the plane by `tilt`.
            let ax = cos(axis), ay = sin(axis)
            let along = xr * ax + yr * ay, across = -xr * ay + yr * ax
            let z = across * sin(tilt), acrossP = across * cos(tilt)
            let X = along * ax - acrossP * ay, Y = along * ay + acrossP * ax
            let s = f / (f + z)
            dst += [Float(cx + X * s), Float(cy + Y * s)]
        }
        let n = Float(coverSize)
        let src: [Float] = [0, 0, n, 0, n, n, 0, n]
        var h = [Double](repeating: 0, count: 9)
        guard pc_cv_perspective(src, dst, &h) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: pc_cv_last_error())]) }
        let rc = cover.withUnsafeBufferPointer { c in
            photo.withUnsafeMutableBufferPointer { p in
                pc_cv_warp(c.baseAddress, Int32(coverSize), Int32(coverSize), 3, h, p.baseAddress, Int32(photoWidth), Int32(photoHeight))
            }
        }
        guard rc == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: pc_cv_last_error())]) }
        return dst.map(Double.init)
    }

    func photo(_ plan: (target: Int, label: Label, seed: UInt64), catalog: Int, dir: String) throws {
        var rng = SeededRandom(seed: plan.seed)
        let l = plan.label, w = photoWidth, h = photoHeight
        // A surface: a wood-like or fabric-like gradient with grain.
        var px = [UInt8](repeating: 0, count: w * h * 3)
        let base = (rng.uniform(60, 200), rng.uniform(50, 170), rng.uniform(40, 150)), freq = rng.uniform(20, 90)
        for y in 0..<h {
            for x in 0..<w {
                let v = 0.85 + 0.15 * sin(Double(y) / Double(h) * freq + 3 * sin(Double(x) / 170))
                let i = (y * w + x) * 3
                px[i] = UInt8(min(255, base.0 * v)); px[i + 1] = UInt8(min(255, base.1 * v)); px[i + 2] = UInt8(min(255, base.2 * v))
            }
        }
        let width = l.scale * Double(w)
        let jitter = l.guide ? 0.01 : 0.08
        let cx = Double(w) / 2 + rng.uniform(-jitter, jitter) * Double(w), cy = Double(h) / 2 + rng.uniform(-jitter, jitter) * Double(h)
        // Neighbours: other catalog covers beside it, partly in the frame.
        for k in 0..<l.neighbours {
            let other = rng.int(0...(catalog - 1))
            let side = Double(k % 2 == 0 ? 1 : -1), nx = cx + side * width * rng.uniform(1.02, 1.25), ny = cy + rng.uniform(-0.3, 0.3) * width
            _ = try place(try coverPixels(other, catalog: catalog, dir: dir), into: &px, cx: nx, cy: ny, width: width * rng.uniform(0.9, 1.1),
                          tilt: rng.uniform(0, 0.3), axis: rng.uniform(0, .pi), spin: rng.uniform(-0.1, 0.1))
        }
        var cover = try coverPixels(plan.target, catalog: catalog, dir: dir)
        if l.wear > 0 { wear(&cover, amount: l.wear, rng: &rng) }
        let quad = try place(cover, into: &px, cx: cx, cy: cy, width: width, tilt: l.perspective * .pi / 180, axis: rng.uniform(0, .pi),
                             spin: rng.uniform(-0.25, 0.25))
        if l.occlusion > 0 { occlude(&px, quad: quad, fraction: l.occlusion, rng: &rng) }
        if l.glare > 0 { glare(&px, quad: quad, strength: l.glare, rng: &rng) }
        var img = try VImage.from(pixels: px, width: w, height: h, bands: 3)
        if l.blur > 0 { img = try img.gaussblur(l.blur).castUChar() }
        try Data(try img.jpeg(quality: l.jpegQuality)).write(to: URL(fileURLWithPath: dir + "/photos/" + l.file))
    }

    /// Wear: faded ink (lower contrast, a yellow cast), ring wear and scuffs.
    func wear(_ c: inout [UInt8], amount: Double, rng: inout SeededRandom) {
        let n = coverSize, fade = 0.35 * amount
        let ring = (rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.45))
        let scuffs = (0..<Int(amount * 30)).map { _ in (rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0, .pi), rng.uniform(0.05, 0.3)) }
        for y in 0..<n {
            for x in 0..<n {
                let u = Double(x) / Double(n), v = Double(y) / Double(n)
                var lift = fade
                if abs(hypot(u - ring.0, v - ring.1) - ring.2) < 0.012 { lift += 0.3 * amount }
                for s in scuffs {
                    let dx = u - s.0, dy = v - s.1
                    let along = dx * cos(s.2) + dy * sin(s.2), across = -dx * sin(s.2) + dy * cos(s.2)
                    if abs(across) < 0.002, abs(along) < s.3 / 2 { lift += 0.5 * amount }
                }
                let i = (y * n + x) * 3
                let cast = [238.0, 228.0, 200.0]
                for ch in 0..<3 { c[i + ch] = UInt8(max(0, min(255, Double(c[i + ch]) * (1 - min(0.9, lift)) + cast[ch] * min(0.9, lift)))) }
            }
        }
    }

    /// Covers a share of the cover with a skin-toned blob entering from one side (a hand or a sleeve).
    func occlude(_ px: inout [UInt8], quad: [Double], fraction: Double, rng: inout SeededRandom) {
        let xs = stride(from: 0, to: 8, by: 2).map { quad[$0] }, ys = stride(from: 1, to: 8, by: 2).map { quad[$0] }
        let x0 = xs.min()!, x1 = xs.max()!, y0 = ys.min()!, y1 = ys.max()!
        let fromLeft = rng.chance(0.5), depth = fraction * (x1 - x0)
        let tone = (rng.uniform(150, 230), rng.uniform(110, 180), rng.uniform(90, 150))
        let yc = rng.uniform(y0, y1), r = (y1 - y0) * 0.55
        for y in max(0, Int(yc - r))..<min(photoHeight, Int(yc + r)) {
            let t = (Double(y) - yc) / r
            let reach = depth * max(0, 1 - t * t).squareRoot() * 1.6
            let xa = fromLeft ? Int(x0 - 40) : Int(x1 - reach), xb = fromLeft ? Int(x0 + reach) : Int(x1 + 40)
            for x in max(0, xa)..<min(photoWidth, max(0, xb)) {
                let i = (y * photoWidth + x) * 3
                px[i] = UInt8(tone.0); px[i + 1] = UInt8(tone.1); px[i + 2] = UInt8(tone.2)
            }
        }
    }

    /// A specular highlight: a bright elliptical bloom on the sleeve.
    func glare(_ px: inout [UInt8], quad: [Double], strength: Double, rng: inout SeededRandom) {
        let cx = quad[0] + (quad[4] - quad[0]) * rng.uniform(0.25, 0.75), cy = quad[1] + (quad[5] - quad[1]) * rng.uniform(0.25, 0.75)
        let r = abs(quad[2] - quad[0]) * rng.uniform(0.15, 0.35)
        for y in max(0, Int(cy - 3 * r))..<min(photoHeight, Int(cy + 3 * r)) {
            for x in max(0, Int(cx - 3 * r))..<min(photoWidth, Int(cx + 3 * r)) {
                let d2 = (pow(Double(x) - cx, 2) + pow((Double(y) - cy) * 1.6, 2)) / (r * r)
                let g = strength * exp(-d2)
                guard g > 0.01 else { continue }
                let i = (y * photoWidth + x) * 3
                for ch in 0..<3 { px[i + ch] = UInt8(min(255, Double(px[i + ch]) + (255 - Double(px[i + ch])) * g)) }
            }
        }
    }
}
