import Foundation
import PhotoCurate

/// How many photos of a folder the quality measures call faulty, by camera: run
/// it on photos a person calls sharp and clean, and every flag is a false alarm.
///
/// ```swift
/// let rows = FalseAlarms.table(try Manifest.read("out/manifest.json"))
/// print(FalseAlarms.render(rows))
/// ```
/// A photo is called faulty when one of its quality scores is under ½ (each score
/// is ½ at its fault's reference size: `edgeWidthRef`, `noiseRef`, `grainRef`, the
/// exposure curve), or when selection's comparison with its burst halves its
/// technical score. Photos are also split by size: thumbnails and small web copies
/// have no sensor-level detail, so grain and sharpness mean less there.
public enum FalseAlarms {
    public struct Row: Codable, Sendable, Equatable {
        public var camera: String
        public var photos = 0
        public var flagged = 0
        public var sharpness = 0, exposure = 0, noise = 0, relative = 0
        /// Flagged files with what flagged them.
        public var examples: [String] = []
    }

    /// Size classes by megapixels of the stored image.
    public static let sizeClasses: [(name: String, range: Range<Double>)] = [
        ("under 0.3 MP (thumbnails)", 0..<0.3), ("0.3–1 MP", 0.3..<1), ("1 MP and over", 1..<Double.infinity),
    ]

    public static func flags(_ p: Manifest.Photo) -> [String] {
        guard let q = p.quality else { return [] }
        var out: [String] = []
        if q.sharpness < 0.5 { out.append(String(format: "sharpness %.2f", q.sharpness)) }
        if q.exposure < 0.5 { out.append(String(format: "exposure %.2f", q.exposure)) }
        if q.noise < 0.5 {
            out.append(String(format: "noise %.2f (σ %.1f%@)", q.noise, q.measurements.noiseSigma,
                              q.measurements.grainNative.map { String(format: ", grain %.1f at 100 %%", $0) } ?? ""))
        }
        if let s = p.score, q.overall > 0, s.technical < 0.5 * q.overall { out.append(String(format: "burst %.2f of its quality", s.technical / q.overall)) }
        if p.reasons.contains(where: { $0.hasPrefix("not offered: a blank frame") }) { out.append("blank frame") }
        return out
    }

    /// One row per camera (EXIF make and model; "unknown" without) and one per size class, then the total.
    public static func table(_ manifest: Manifest) -> (cameras: [Row], sizes: [Row], total: Row) {
        var cameras: [String: Row] = [:], sizes: [String: Row] = [:]
        var total = Row(camera: "all")
        for p in manifest.photos where p.quality != nil {
            let f = p.facts
            let camera = [f?.make, f?.model].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
            let mp = Double((f?.pixelWidth ?? 0) * (f?.pixelHeight ?? 0)) / 1e6
            let size = sizeClasses.first { $0.range.contains(mp) }?.name ?? sizeClasses[0].name
            let flags = Self.flags(p)
            func add(_ r: inout Row) {
                r.photos += 1
                guard !flags.isEmpty else { return }
                r.flagged += 1
                let q = p.quality!
                if q.sharpness < 0.5 { r.sharpness += 1 }
                if q.exposure < 0.5 { r.exposure += 1 }
                if q.noise < 0.5 { r.noise += 1 }
                if flags.contains(where: { $0.hasPrefix("burst") }) { r.relative += 1 }
                r.examples.append("\(p.relativePath): \(flags.joined(separator: "; "))")
            }
            add(&cameras[camera.isEmpty ? "unknown" : camera, default: Row(camera: camera.isEmpty ? "unknown" : camera)])
            add(&sizes[size, default: Row(camera: size)])
            add(&total)
        }
        let order = sizeClasses.map(\.name)
        return (cameras.values.sorted { $0.camera < $1.camera },
                sizes.values.sorted { order.firstIndex(of: $0.camera)! < order.firstIndex(of: $1.camera)! }, total)
    }

    public static func render(_ t: (cameras: [Row], sizes: [Row], total: Row)) -> String {
        func line(_ r: Row) -> String {
            let rate = r.photos > 0 ? 100 * Double(r.flagged) / Double(r.photos) : 0
            return "| \(r.camera) | \(r.photos) | \(r.flagged) | \(String(format: "%.1f %%", rate)) | \(r.sharpness) | \(r.exposure) | \(r.noise) | \(r.relative) |"
        }
        let head = "| camera | photos | called faulty | rate | sharpness | exposure | noise/grain | vs burst |\n|---|---|---|---|---|---|---|---|"
        var out = [head] + t.cameras.map(line) + [line(t.total), "", head.replacingOccurrences(of: "| camera |", with: "| size |")] + t.sizes.map(line)
        let flagged = (t.cameras.flatMap(\.examples)).sorted()
        if !flagged.isEmpty { out += ["", "called faulty:"] + flagged.map { "  \($0)" } }
        return out.joined(separator: "\n")
    }

    /// Reads `path<TAB>reason` lines (`#` starts a comment).
    public static func readExclusions(_ file: String) throws -> [String: String] {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let parts = line.split(separator: "\t", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            out[parts[0]] = parts.count > 1 ? parts[1] : "listed"
        }
        return out
    }

    /// The manifest without the listed files, and the listed files that were in it (sorted by path), with why they are listed.
    public static func split(_ m: Manifest, excluding listed: [String: String]) -> (Manifest, [(photo: Manifest.Photo, why: String)]) {
        var kept = m
        kept.photos = m.photos.filter { listed[$0.relativePath] == nil }
        let left = m.photos.compactMap { p in listed[p.relativePath].map { (photo: p, why: $0) } }.sorted { $0.photo.relativePath < $1.photo.relativePath }
        return (kept, left)
    }
}
