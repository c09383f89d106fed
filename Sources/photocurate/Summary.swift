import Foundation
import PhotoCurate

/// The short human summary `run` prints on stdout.
enum Summary {
    static func render(_ m: Manifest, outDir: String) -> String {
        var lines: [String] = []
        let s = m.summary
        let secs = m.run.timings["total"] ?? 0
        lines.append(String(format: "%d files, %d usable, %d skipped; %d moments, %d visual groups; %.1fs", s.files, s.usable, s.errors, s.moments, s.clusters, secs))
        if m.run.computedPhotos == 0 && s.files > 0 {
            lines.append("cache: all \(m.run.cachedPhotos) photos unchanged, nothing recomputed")
        } else {
            lines.append("cache: \(m.run.computedPhotos) analysed, \(m.run.cachedPhotos) reused")
        }
        if let note = s.note { lines.append("note: \(note)") }
        // A time without an offset reads like local time but may not be: say so once, with the count.
        let zoneless = m.photos.filter { p in
            guard let f = p.facts, f.timeTrusted, let t = f.captureTime else { return false }
            return !CaptureTime.hasOffset(iso: t)
        }.count
        if zoneless > 0 {
            lines.append("times: \(zoneless) photo\(zoneless == 1 ? " has" : "s have") no time zone in EXIF; their times are the camera's clock as set, marked \"(time zone unknown)\"")
        }
        if !m.picks.isEmpty { lines.append("top \(m.picks.count):") }
        for p in m.picks {
            lines.append(String(format: "%3d. %@  %.2f  %@", p.rank, RawPath.display(p.path), p.score, p.reasons.first ?? ""))
        }
        // Files that could not be used, then outputs that could not be written (sidecars).
        for (title, list) in [("skipped:", m.errors.filter { $0.kind != "sidecar" }), ("not written:", m.errors.filter { $0.kind == "sidecar" })] where !list.isEmpty {
            lines.append(title)
            for e in list.prefix(20) { lines.append("  \(e.message)") }
            if list.count > 20 { lines.append("  … and \(list.count - 20) more (see manifest.json)") }
        }
        lines.append("manifest: \(outDir)/manifest.json")
        return lines.joined(separator: "\n")
    }
}
