import Foundation
import PhotoCurate

/// Accuracy of identification on a labelled set (`photocurate bench make-covers`), split by condition.
///
/// ```swift
/// let report = AlbumEvaluation.run(labels: labels, folder: "set/photos", identifier: id)
/// report.top1          // share of catalog-cover photos named right
/// report.falseMatches  // share of unknown-cover photos given an album
/// ```
public struct AlbumEvaluation: Sendable {
    /// One photo of a labelled set (`labels.json` of `bench make-covers`): the album it shows
    /// (`AlbumEntry.id`, or nil for a cover not in the catalog) and each condition's value:
    /// perspective (degrees of tilt), scale (cover width / frame width), glare (0–1 added
    /// brightness), blur (Gaussian σ, px), JPEG quality, occlusion (share of the cover hidden),
    /// wear (0–1), neighbouring covers, and whether the square guide was used.
    public struct Label: Codable, Sendable {
        public var file: String
        public var album: String?
        public var perspective: Double
        public var scale: Double
        public var glare: Double
        public var blur: Double
        public var jpegQuality: Int
        public var occlusion: Double
        public var wear: Double
        public var neighbours: Int
        public var guide: Bool

        public init(file: String, album: String?, perspective: Double, scale: Double, glare: Double, blur: Double, jpegQuality: Int,
                    occlusion: Double, wear: Double, neighbours: Int, guide: Bool) {
            self.file = file; self.album = album; self.perspective = perspective; self.scale = scale; self.glare = glare
            self.blur = blur; self.jpegQuality = jpegQuality; self.occlusion = occlusion; self.wear = wear
            self.neighbours = neighbours; self.guide = guide
        }
    }

    public struct Outcome: Sendable {
        public var label: Label
        public var answer: String?
        public var milliseconds: Double
        public var error: String?
        public var correct: Bool { label.album != nil && answer == label.album }
    }

    public var outcomes: [Outcome]

    public var known: [Outcome] { outcomes.filter { $0.label.album != nil } }
    public var unknown: [Outcome] { outcomes.filter { $0.label.album == nil } }
    public var top1: Double { Double(known.filter(\.correct).count) / Double(max(1, known.count)) }
    /// Catalog-cover photos given the wrong album (not "no match").
    public var wrongAlbum: Int { known.filter { $0.answer != nil && !$0.correct }.count }
    public var falseMatches: Double { Double(unknown.filter { $0.answer != nil }.count) / Double(max(1, unknown.count)) }

    public static func run(labels: [Label], folder: String, identifier: AlbumIdentifier) -> AlbumEvaluation {
        var out: [Outcome] = []
        for l in labels {
            let t0 = Date()
            do {
                let r = try identifier.identify(folder + "/" + l.file, guide: l.guide)
                out.append(Outcome(label: l, answer: r.match?.album.id, milliseconds: Date().timeIntervalSince(t0) * 1000))
            } catch {
                out.append(Outcome(label: l, answer: nil, milliseconds: Date().timeIntervalSince(t0) * 1000, error: "\(error)"))
            }
        }
        return AlbumEvaluation(outcomes: out)
    }

    /// Conditions and their bins, as table rows.
    static let conditions: [(String, (Label) -> String)] = [
        ("perspective", { $0.perspective == 0 ? "none" : $0.perspective < 20 ? "< 20°" : "20–35°" }),
        ("scale (cover width / frame)", { $0.scale < 0.4 ? "25–40 %" : "40 %+" }),
        ("glare", { $0.glare == 0 ? "none" : "0.2–0.7" }),
        ("blur", { $0.blur == 0 ? "none" : $0.blur < 1.5 ? "σ 0.8–1.5" : "σ 1.5–2.5" }),
        ("JPEG quality", { $0.jpegQuality < 75 ? "60–74" : "75–90" }),
        ("occlusion", { $0.occlusion == 0 ? "none" : $0.occlusion < 0.15 ? "5–15 %" : "15–30 %" }),
        ("wear", { $0.wear == 0 ? "none" : "0.2–1" }),
        ("neighbouring covers", { $0.neighbours == 0 ? "none" : "1–3" }),
        ("square guide", { $0.guide ? "yes" : "no" }),
    ]

    public func render(indexSeconds: Double, covers: Int) -> String {
        let k = known, times = outcomes.map(\.milliseconds).sorted()
        func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "–" : String(format: "%.3f", Double(a) / Double(b)) }
        var lines = [
            "catalog: \(covers) covers, indexed in \(String(format: "%.1f", indexSeconds)) s",
            "photos of catalog covers: \(k.count), top-1 \(pct(k.filter(\.correct).count, k.count)) (wrong album \(wrongAlbum), no match \(k.filter { $0.answer == nil }.count))",
            "photos of covers not in the catalog: \(unknown.count), false matches \(pct(unknown.filter { $0.answer != nil }.count, unknown.count))",
            String(format: "time per photo: median %.0f ms, p95 %.0f ms, max %.0f ms", times.isEmpty ? 0 : times[times.count / 2],
                   times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * 0.95))], times.last ?? 0),
            "", "| condition | value | photos | top-1 |", "|---|---|---|---|",
        ]
        for (name, bin) in Self.conditions {
            let groups = Dictionary(grouping: k, by: { bin($0.label) })
            for key in groups.keys.sorted() {
                let g = groups[key]!
                lines.append("| \(name) | \(key) | \(g.count) | \(pct(g.filter(\.correct).count, g.count)) |")
            }
        }
        let misses = k.filter { !$0.correct }.prefix(15)
        if !misses.isEmpty {
            lines += ["", "missed:"] + misses.map { o in
                let l = o.label
                return "  \(l.file): \(o.answer.map { "said \($0)" } ?? o.error ?? "no match") — persp \(Int(l.perspective))°, scale \(String(format: "%.2f", l.scale)), glare \(String(format: "%.1f", l.glare)), blur \(String(format: "%.1f", l.blur)), q\(l.jpegQuality), occl \(String(format: "%.2f", l.occlusion)), wear \(String(format: "%.1f", l.wear)), neighbours \(l.neighbours)"
            }
        }
        return lines.joined(separator: "\n")
    }
}
