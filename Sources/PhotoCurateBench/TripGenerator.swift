import Foundation
import PhotoCurate

/// Makes a labelled synthetic trip from a folder of real photos.
///
/// ```swift
/// var g = TripGenerator(sources: "../shared/corpus", out: "/tmp/trip", seed: 7)
/// g.longEdge = 4000                       // 12 MP
/// try await g.generate()                  // /tmp/trip/photos/*.jpg + /tmp/trip/labels.json
/// ```
/// Each scene is a crop of one source photo, shot as a burst of 2–8 frames with
/// handheld variation (shift, zoom and crop of a few %, ±2° rotation, ±0.7 EV,
/// white balance, the scene's own light per-pixel sensor noise). Some frames are
/// degraded (defocus, motion blur, under- or over-exposure that clips, grain),
/// never all of a burst. `range` sets how strong a fault is (`FaultRange`):
/// `.mild` (the default) is the smallest fault a person rejects at 100 %,
/// `.strong` is obvious even at screen size. EXIF is
/// written by our own `ExifWriter`: times (frames seconds apart, scenes from
/// under a minute to hours apart), GPS (tens of metres to many km), Orientation
/// (some frames stored rotated), and some files have no EXIF at all. A few
/// corrupt, truncated and non-image files are added, and names are shuffled.
/// The same seed gives the same bytes.
public struct TripGenerator {
    public enum Mode: String, Sendable, CaseIterable { case normal, cityWalk = "city-walk" }

    /// How strong the faults are, per 1000 px of the long edge (×4 at 12 MP).
    ///
    /// `.mild` starts at the smallest fault a person culling at 100 % rejects:
    /// defocus σ 0.5 px, a 3 px smear, luma grain σ 8 levels per pixel with chroma
    /// grain σ ≥ 3, 1.7 EV. `.strong` is the earlier range, visible at screen size.
    /// `.edge` is the bottom sixth or so of `.mild`, just over each threshold, where
    /// clean frames and faulty ones are hardest to tell apart: a stress test, since a
    /// mild range drawn uniformly puts about one fault in six there.
    public enum FaultRange: String, Sendable, CaseIterable {
        case mild, strong, edge

        /// (lower, upper) bound of the strength of each kind.
        func bounds(_ kind: String) -> (Double, Double) {
            switch (self, kind) {
            case (.mild, "blur"): return (0.5, 1.5)       // gaussian σ, px per 1000 px
            case (.mild, "motion"): return (3, 8)         // smear length, px per 1000 px
            case (.mild, "noise"): return (8, 14)         // luma σ, 8-bit levels per pixel
            case (.strong, "blur"): return (1.5, 4)
            case (.strong, "motion"): return (6, 16)
            case (.strong, "noise"): return (16, 28)
            case (.edge, "blur"): return (0.5, 0.65)
            case (.edge, "motion"): return (3, 3.8)
            case (.edge, "noise"): return (8, 9.5)
            case (.edge, _): return (1.7, 1.9)
            default: return (1.7, 2.3)                    // under / over: EV
            }
        }
    }

    public var sources: String
    public var out: String
    public var seed: UInt64
    public var mode: Mode = .normal
    public var range: FaultRange = .mild
    public var scenes = 30
    public var longEdge = 2560
    public var degradedFraction = 0.3
    public var noExifFraction = 0.06
    public var noGPSFraction = 0.12
    public var rotatedFraction = 0.12
    public var corruptFiles = 3
    /// JPEG quality of the written files (libvips' default is 75; cameras write 90–98).
    public var jpegQuality = 90
    /// Before the thirteenth session an under- or over-exposed frame was its own handheld
    /// exposure (±0.7 EV) plus the fault; true reproduces those trips.
    public var frameRelativeExposureFaults = false
    public var jobs = ProcessInfo.processInfo.activeProcessorCount

    public init(sources: String, out: String, seed: UInt64) {
        self.sources = sources
        self.out = out
        self.seed = seed
    }

    static let kinds = ["blur", "motion", "under", "over", "noise"]

    struct Shot: Sendable {
        var scene: Int, shot: Int
        var source: String
        var crop: (x: Double, y: Double, w: Double, h: Double)  // fractions of the source
        var dx: Double, dy: Double, zoom: Double, angle: Double, ev: Double, wbR: Double, wbB: Double
        var degradation: TripLabels.Degradation?
        var motionAngle: Double
        var orientation: Int
        var exif: ExifWriter.Fields?
        var noiseSeed: Int
        /// The camera's own per-pixel noise in this scene (luma, chroma σ in levels): every frame has some.
        var baseNoise: (luma: Double, chroma: Double)
        var captureTime: String?
    }

    public func generate() async throws -> TripLabels {
        try Vips.start()
        let fm = FileManager.default
        let sourceFiles = try fm.contentsOfDirectory(atPath: sources)
            .filter { FolderScanner.isCandidateName($0) }
            .sorted()
        guard !sourceFiles.isEmpty else { throw PhotoError.unreadable(path: sources, reason: "no source photos found") }
        let photosDir = out + "/photos"
        try? fm.removeItem(atPath: photosDir)
        try fm.createDirectory(atPath: photosDir, withIntermediateDirectories: true)

        var rng = SeededRandom(seed: seed)
        let w = longEdge, h = longEdge * 3 / 4
        var shots: [Shot] = []
        // Timeline and route.
        var t = 1_717_228_800.0 + 8 * 3600  // 2024-06-01 08:00 local wall clock
        var lat = 45.4371, lon = 12.3326
        let order = (0..<scenes).map { $0 % sourceFiles.count }
        for scene in 0..<scenes {
            let src = sourceFiles[order[scene]]
            let repeatIndex = scene / sourceFiles.count
            let cw = rng.uniform(0.55, 0.8), ch = cw
            // A source used twice gives two different crops (opposite corners).
            let cx = repeatIndex % 2 == 0 ? rng.uniform(0, 1 - cw) * 0.5 : 0.5 * (1 - cw) + rng.uniform(0, 1 - cw) * 0.5
            let cy = rng.uniform(0, 1 - ch)
            let count = rng.int(2...8)
            let gap = mode == .cityWalk ? rng.uniform(60, 300) : rng.logUniform(45, 3 * 3600)
            t += gap
            let dist = mode == .cityWalk ? rng.uniform(60, 400) : rng.logUniform(30, 20_000)
            let bearing = rng.uniform(0, 2 * .pi)
            lat += dist * cos(bearing) / 111_320
            lon += dist * sin(bearing) / (111_320 * cos(lat * .pi / 180))
            let nDegraded = min(count - 1, Int((Double(count) * degradedFraction + rng.uniform(0, 1)).rounded(.down)))
            var degradedShots = Set<Int>()
            while degradedShots.count < nDegraded { degradedShots.insert(rng.int(0...(count - 1))) }
            let hasExifCamera = !rng.chance(noExifFraction * 2)
            let baseNoise = (luma: rng.uniform(1, 3), chroma: rng.uniform(0.5, 1.5))
            for k in 0..<count {
                t += rng.uniform(0.4, 3)
                var shot = Shot(scene: scene, shot: k, source: src, crop: (cx, cy, cw, ch),
                                dx: rng.uniform(-0.03, 0.03), dy: rng.uniform(-0.03, 0.03), zoom: rng.uniform(0.97, 1.03),
                                angle: rng.uniform(-2, 2), ev: rng.uniform(-0.7, 0.7), wbR: rng.uniform(0.92, 1.08), wbB: rng.uniform(0.92, 1.08),
                                degradation: nil, motionAngle: rng.uniform(0, 180), orientation: 1, exif: nil,
                                noiseSeed: Int(rng.next() % 1_000_000), baseNoise: baseNoise, captureTime: nil)
                if degradedShots.contains(k) {
                    let kind = Self.kinds[rng.int(0...(Self.kinds.count - 1))]
                    let (lo, hi) = range.bounds(kind)
                    let strength = rng.uniform(lo, hi)
                    shot.degradation = .init(kind: kind, strength: (strength * 1000).rounded() / 1000)
                    // Grain comes with colour noise, as from a sensor at high ISO: 3–6 levels (mild), 6–12 (strong), 3–4 (edge).
                    if kind == "noise" {
                        let (clo, chi) = range == .edge ? (3.0, 4.0) : (3.0, 6.0)
                        shot.degradation!.chroma = (rng.uniform(clo, chi) * (range == .strong ? 2 : 1) * 1000).rounded() / 1000
                    }
                }
                let hasExif = hasExifCamera && !rng.chance(noExifFraction / 2)
                if hasExif {
                    var e = ExifWriter.Fields()
                    e.make = "Photocurate"
                    e.model = "TripGen \(mode.rawValue)"
                    let iso = CaptureTime.iso(epoch: t)  // wall clock written as "Z"; we drop the zone
                    let digits = Array(iso)
                    e.dateTimeOriginal = "\(String(digits[0..<4])):\(String(digits[5..<7])):\(String(digits[8..<10])) \(String(digits[11..<19]))"
                    e.offsetTimeOriginal = "+02:00"
                    e.subSecTimeOriginal = String(format: "%02d", Int((t - floor(t)) * 100))
                    if !rng.chance(noGPSFraction) {
                        e.latitude = lat + rng.uniform(-3, 3) / 111_320
                        e.longitude = lon + rng.uniform(-3, 3) / 111_320
                        e.altitude = rng.uniform(2, 40)
                    }
                    if rng.chance(rotatedFraction) { shot.orientation = [6, 8, 3][rng.int(0...2)] }
                    e.orientation = shot.orientation
                    shot.exif = e
                    shot.captureTime = e.dateTimeOriginal
                }
                shots.append(shot)
            }
        }
        // Shuffled names: only EXIF time tells the order.
        var numbers = Array(1...(shots.count + corruptFiles))
        for i in stride(from: numbers.count - 1, to: 0, by: -1) { numbers.swapAt(i, rng.int(0...i)) }
        let names = numbers.map { String(format: "IMG_%04d.jpg", 1000 + $0) }

        var labels = TripLabels(seed: seed, mode: mode.rawValue, size: "\(w)x\(h)", scenes: scenes, files: [:])
        labels.range = range.rawValue
        labels.quality = jpegQuality
        let sourceDir = sources, quality = jpegQuality, frameRelative = frameRelativeExposureFaults
        labels.exposureFaults = frameRelative ? "frame" : "scene"
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            var out: [(Int, [UInt8])] = []
            var next = 0
            func add(_ i: Int) {
                let shot = shots[i]
                group.addTask { (i, try Self.render(shot, sourceDir: sourceDir, width: w, height: h, quality: quality, frameRelativeExposure: frameRelative)) }
            }
            while next < min(jobs, shots.count) { add(next); next += 1 }
            while let r = try await group.next() {
                try Data(r.1).write(to: URL(fileURLWithPath: photosDir + "/" + names[r.0]))
                out.append((r.0, []))
                if next < shots.count { add(next); next += 1 }
            }
            return out
        }
        _ = results
        for (i, s) in shots.enumerated() {
            labels.files[names[i]] = TripLabels.File(scene: s.scene, burst: s.scene, shot: s.shot, source: s.source, degradation: s.degradation,
                                                     has_exif: s.exif != nil, has_gps: s.exif?.latitude != nil, orientation: s.orientation,
                                                     corrupt: false, corruption: nil, capture_time: s.captureTime)
        }
        // Corrupt files, made from real shots so they look like photos by name and header.
        for c in 0..<corruptFiles {
            let name = names[shots.count + c]
            let donor = try Data(contentsOf: URL(fileURLWithPath: photosDir + "/" + names[c % shots.count]))
            var bytes = [UInt8](donor)
            let kind: String
            switch c % 3 {
            case 0: kind = "truncated"; bytes = Array(bytes.prefix(bytes.count * 2 / 5))
            case 1: kind = "not-an-image"; bytes = Array("This is a text file that was named like a photo.\n".utf8)
            default:
                kind = "garbage"
                // Keep the headers, replace most of the entropy-coded data with noise.
                var r = SeededRandom(seed: seed, stream: UInt64(c))
                let start = min(bytes.count - 1, 2000)
                for k in start..<(bytes.count - 2) { bytes[k] = UInt8(truncatingIfNeeded: r.next()) }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: photosDir + "/" + name))
            labels.files[name] = TripLabels.File(scene: nil, burst: nil, shot: nil, source: nil, degradation: nil, has_exif: false, has_gps: false,
                                                 orientation: 1, corrupt: true, corruption: kind, capture_time: nil)
        }
        // Fixed mtimes: a file without EXIF falls back to this, as an untrusted time.
        for name in names {
            try fm.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_717_300_000)], ofItemAtPath: photosDir + "/" + name)
        }
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try enc.encode(labels), to: out + "/labels.json")
        return labels
    }

    /// The exposure change (EV) that pushes the brightest `fraction` of the frame to white.
    static func evToClip(_ img: VImage, fraction: Double) throws -> Double {
        let small = try img.resize(h: 64 / Double(img.width), v: 64 / Double(img.width)).srgb8()
        let px = try small.bytes()
        var lin: [Double] = []
        for i in stride(from: 0, to: px.count - 2, by: 3) {
            let y = (0.2126 * Double(px[i]) + 0.7152 * Double(px[i + 1]) + 0.0722 * Double(px[i + 2])) / 255
            lin.append(y <= 0.04045 ? y / 12.92 : pow((y + 0.055) / 1.055, 2.4))
        }
        lin.sort()
        let p = max(1e-4, lin[min(lin.count - 1, Int(Double(lin.count) * (1 - fraction)))])
        return log2(1 / p) + 0.2
    }

    /// Renders one frame: crop, handheld variation, exposure, white balance, degradation, noise, EXIF.
    static func render(_ s: Shot, sourceDir: String, width w: Int, height h: Int, quality: Int, frameRelativeExposure: Bool) throws -> [UInt8] {
        let src = try VImage.open(sourceDir + "/" + s.source, sequential: false).srgb8()
        let sw = Double(src.width), sh = Double(src.height)
        // The scene's crop, 4:3, inside the source.
        var cw = s.crop.w * sw, ch = cw * 3 / 4
        if ch > s.crop.h * sh * 1.33 || ch > sh * 0.95 { ch = min(sh * 0.95, s.crop.h * sh); cw = ch * 4 / 3 }
        cw = min(cw, sw * 0.95); ch = cw * 3 / 4
        cw /= s.zoom; ch /= s.zoom
        let cx = min(max(0, s.crop.x * sw + s.dx * cw), sw - cw), cy = min(max(0, s.crop.y * sh + s.dy * ch), sh - ch)
        // Rotate about the crop centre: take a padded region, rotate and scale it, cut the frame from its middle.
        let pad = 0.06 * cw
        let rx = max(0, cx - pad), ry = max(0, cy - pad)
        let rw = min(sw - rx, cw + 2 * pad), rh = min(sh - ry, ch + 2 * pad)
        let region = try src.crop(x: Int(rx), y: Int(ry), width: Int(rw), height: Int(rh))
        let scale = Double(w) / cw
        var img = try region.similarity(scale: scale, angle: s.angle)
        let ox = (Double(img.width) - Double(w)) / 2 + (cx + cw / 2 - (rx + rw / 2)) * scale
        let oy = (Double(img.height) - Double(h)) / 2 + (cy + ch / 2 - (ry + rh / 2)) * scale
        img = try img.crop(x: max(0, min(img.width - w, Int(ox))), y: max(0, min(img.height - h, Int(oy))), width: min(w, img.width), height: min(h, img.height))
        if img.width != w || img.height != h { img = try img.resize(h: Double(w) / Double(img.width), v: Double(h) / Double(img.height)) }

        // Exposure and white balance in linear light.
        var ev = s.ev
        if let d = s.degradation {
            // The label says "this many stops from the scene's good exposure" (issue #9's spec): the
            // handheld ±0.7 EV of every frame is not added to a misfire's, or a frame labelled 1.7 EV
            // under could be 1.0 EV under its scene (`frameRelativeExposureFaults` restores that).
            if ["under", "over"].contains(d.kind) && !frameRelativeExposure { ev = 0 }
            if d.kind == "under" { ev -= d.strength }
            // "Over-exposed with clipped highlights": at least the brightest 5 % must clip,
            // which +2 EV alone does not do to a dark scene.
            else if d.kind == "over" { ev = max(ev + d.strength, try Self.evToClip(img, fraction: 0.05)) }
        }
        let gain = pow(2, ev)
        img = try img.srgb8().linear().linear(a: [gain * s.wbR, gain, gain * s.wbB], b: [0, 0, 0]).fromLinear().castUChar()

        let scaleK = Double(w) / 1000
        if let d = s.degradation {
            switch d.kind {
            case "blur":
                img = try img.gaussblur(d.strength * scaleK).castUChar()
            case "motion":
                let len = max(3, Int((d.strength * scaleK).rounded()) | 1)
                let turned = try img.similarity(scale: 1, angle: s.motionAngle)
                let smeared = try turned.convolve(mask: [Double](repeating: 1 / Double(len), count: len), width: len, height: 1)
                let back = try smeared.similarity(scale: 1, angle: -s.motionAngle)
                img = try back.crop(x: (back.width - w) / 2, y: (back.height - h) / 2, width: w, height: h).castUChar()
            default: break
            }
        }
        // Sensor noise, per pixel: a luma part shared by the three channels and an
        // independent part per channel (colour noise). Every frame has the scene's
        // own light noise; a "noise" frame has grain of the labelled σ on top.
        var luma = s.baseNoise.luma, chroma = s.baseNoise.chroma
        if let d = s.degradation, d.kind == "noise" {
            luma = (luma * luma + d.strength * d.strength).squareRoot()
            chroma = (chroma * chroma + pow(d.chroma ?? 0, 2)).squareRoot()
        }
        let shared = try VImage.noise(width: w, height: h, sigma: luma, seed: s.noiseSeed * 4)
        let bands = try (0..<3).map { b in try VImage.noise(width: w, height: h, sigma: chroma, seed: s.noiseSeed * 4 + 1 + b).adding(shared) }
        img = try img.adding(VImage.bandjoin(bands[0], bands[1], bands[2])).castUChar()

        switch s.orientation {
        case 6: img = try img.rotated(quarterTurns: 3)  // displayed by turning 90° clockwise
        case 8: img = try img.rotated(quarterTurns: 1)
        case 3: img = try img.rotated(quarterTurns: 2)
        default: break
        }
        let jpeg = try img.jpeg(quality: quality)
        guard let exif = s.exif else { return jpeg }
        return ExifWriter.insert(exif, into: jpeg)
    }
}
