import Foundation

/// Export stage: `Manifest` → files in the output folder, as one consistent set.
///
/// ```swift
/// try Exporter(outDir: "out").write(manifest, picks: .copy)
/// ```
/// Everything is written into `out/.staging-PID/` first; only when all of it is
/// written (a full disk fails here, with the previous set untouched) are the files
/// renamed into place, the manifest last, and outputs this run does not make
/// (a contact sheet switched off, picks not asked for) are removed, so no output
/// is left from another run. One run at a time per folder: `OutputLock`. The
/// photos themselves are only read.
public struct Exporter {
    public enum PickMode { case copy, link }
    public let outDir: String

    public init(outDir: String) { self.outDir = outDir }

    public func write(_ m: Manifest, csv: Bool = true, contactSheet: Bool = true, thumbnail: Int = 320, picks: PickMode? = nil,
                      stages: [(plugin: OutputStagePlugin, parameters: Parameters)] = [], root: String = "") throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        // Staging left by a killed run (the lock says none is running now).
        for name in (try? fm.contentsOfDirectory(atPath: outDir)) ?? [] where name.hasPrefix(".staging-") {
            try? fm.removeItem(atPath: outDir + "/" + name)
        }
        let staging = outDir + "/.staging-\(getpid())"
        try fm.createDirectory(atPath: staging, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: staging) }
        let stage = Exporter(outDir: staging)
        try m.write(to: staging + "/manifest.json")
        if csv { try AtomicFile.write(CSVExport.render(m), to: staging + "/manifest.csv") }
        if contactSheet { try ContactSheet(thumbnail: thumbnail).write(picks: m.picks, to: staging + "/contact-sheet.jpg") }
        if let picks { try stage.exportPicks(m, mode: picks) }
        if !m.people.isEmpty { try stage.exportPeople(m, thumbnail: thumbnail) }
        let context = OutputContext(manifest: m, root: root)
        for (plugin, parameters) in stages {
            do { try plugin.write(parameters, context, staging) } catch {
                throw PhotoError.io(path: outDir + "/" + (plugin.outputs.first ?? plugin.id), reason: "the \(plugin.id) stage failed: \((error as? PhotoError)?.description ?? "\(error)")")
            }
        }
        // Into place: folders swapped whole, then files, the manifest last.
        let owned = OutputStageRegistry.all.flatMap(\.outputs)
        for name in ["picks", "people"] + owned + ["contact-sheet.jpg", "manifest.csv", "manifest.json"] {
            let new = staging + "/" + name, old = outDir + "/" + name
            let aside = outDir + "/.old-\(getpid())-" + name
            if fm.fileExists(atPath: old) { try? fm.removeItem(atPath: aside); try fm.moveItem(atPath: old, toPath: aside) }
            if fm.fileExists(atPath: new) {
                do { try fm.moveItem(atPath: new, toPath: old) } catch {
                    // Put the previous one back rather than leave a hole.
                    try? fm.moveItem(atPath: aside, toPath: old)
                    throw PhotoError.io(path: old, reason: "cannot be put in place: \(AtomicFile.reason(error))")
                }
            }
            try? fm.removeItem(atPath: aside)
        }
    }

    /// people/person-N.jpg (their best face) and people/person-N-sheet.jpg (their best 12 photos).
    /// Both from shrink-on-load thumbnails: a full decode per person would cost more than the run.
    func exportPeople(_ m: Manifest, thumbnail: Int) throws {
        let dir = outDir + "/people"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let byPath = Dictionary(m.photos.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        // People are independent: two at a time (each task its own images, as libvips wants).
        let failures = FailureList()
        DispatchQueue.concurrentPerform(iterations: m.people.count) { k in
            do { try exportPerson(m.people[k], m, byPath: byPath, thumbnail: thumbnail) } catch { failures.add("\(m.people[k].id): \(error)") }
        }
        if let first = failures.first { throw PhotoError.io(path: dir, reason: first) }
    }


    private func exportPerson(_ p: Manifest.PersonEntry, _ m: Manifest, byPath: [String: Manifest.Photo], thumbnail: Int) throws {
        // Large enough that the face crop is about 200 px (EXIF orientation applied by the thumbnail).
        let faceSide = max(p.box[2], p.box[3]) * 1.5
        var img = try VImage.thumbnail(p.representative, width: min(8192, max(64, Int(200 / max(0.02, faceSide)))))
        if let turn = p.rotation { img = try img.rotated(quarterTurns: turn / 90) }
        let W = Double(img.width), H = Double(img.height)
        let side = 1.5 * max(p.box[2] * W, p.box[3] * H)
        let cx = (p.box[0] + p.box[2] / 2) * W, cy = (p.box[1] + p.box[3] / 2) * H
        let x0 = max(0, Int(cx - side / 2)), y0 = max(0, Int(cy - side / 2))
        let w = min(img.width - x0, Int(side)), h = min(img.height - y0, Int(side))
        if w > 1, h > 1 {
            var crop = try img.crop(x: x0, y: y0, width: w, height: h).srgb8()
            let s = min(1, 200 / Double(max(w, h)))
            if s < 1 { crop = try crop.resize(h: s, v: s) }
            try AtomicFile.write(Data(try crop.jpeg(quality: 90)), to: outDir + "/" + p.crop)
        }
        let picks = (m.recommendations.byPerson[p.id] ?? p.photos).prefix(12).enumerated().map { k, path in
            Manifest.Pick(rank: k + 1, path: path, score: byPath[path]?.score?.overall ?? 0, reasons: [p.id],
                          suggestedRotation: byPath[path]?.suggestedRotation)
        }
        try ContactSheet(thumbnail: min(thumbnail, 240)).write(picks: picks, to: outDir + "/" + p.contactSheet)
    }

    /// Stable names: "01-IMG_0042.jpg" by rank; an earlier export is replaced whole.
    func exportPicks(_ m: Manifest, mode: PickMode) throws {
        let fm = FileManager.default
        let dir = outDir + "/picks"
        let tmp = outDir + "/.picks-tmp-\(getpid())"
        try? fm.removeItem(atPath: tmp)
        try fm.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let width = max(2, String(m.picks.count).count)
        for p in m.picks {
            let name = String(format: "%0\(width)d-", p.rank) + (p.path as NSString).lastPathComponent
            let dest = tmp + "/" + name
            switch mode {
            case .copy:
                // A JPEG stored on its side is copied upright (re-encoded at quality 95, metadata kept);
                // the original is left as it is.
                if let turn = p.suggestedRotation, ["jpg", "jpeg"].contains((p.path as NSString).pathExtension.lowercased()) {
                    let img = try VImage.open(p.path, sequential: false).autorotated().rotated(quarterTurns: turn / 90)
                    try AtomicFile.write(Data(try img.jpeg(quality: 95, strip: false)), to: dest)
                } else {
                    // By the original bytes of its name (a name need not be UTF-8).
                    guard let bytes = RawPath.read(p.path) else { throw PhotoError.unreadable(path: p.path, reason: "cannot be read for --copy") }
                    try AtomicFile.write(bytes, to: dest)
                }
            case .link:
                if RawPath.with(p.path, { t in RawPath.with(dest) { symlink(t, $0) } }) != 0 {
                    throw PhotoError.io(path: dest, reason: "cannot be linked: \(String(cString: strerror(errno)))")
                }
            }
        }
        let old = outDir + "/.picks-old-\(getpid())"
        if fm.fileExists(atPath: dir) { try fm.moveItem(atPath: dir, toPath: old) }
        try fm.moveItem(atPath: tmp, toPath: dir)
        try? fm.removeItem(atPath: old)
    }
}
