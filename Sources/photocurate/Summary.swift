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
        if !m.picks.isEmpty { lines.append("top \(m.picks.count):") }
        for p in m.picks {
            lines.append(String(format: "%3d. %@  %.2f  %@", p.rank, p.path, p.score, p.reasons.first ?? ""))
        }
        if !m.errors.isEmpty {
            lines.append("skipped:")
            for e in m.errors.prefix(20) { lines.append("  \(e.message)") }
            if m.errors.count > 20 { lines.append("  … and \(m.errors.count - 20) more (see manifest.json)") }
        }
        lines.append("manifest: \(outDir)/manifest.json")
        return lines.joined(separator: "\n")
    }
}
