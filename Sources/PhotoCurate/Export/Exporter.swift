import Foundation

/// Export stage: `Manifest` → files in the output folder. Each file is written
/// atomically; the photos themselves are only read.
public struct Exporter {
    public enum PickMode { case copy, link }
    public let outDir: String

    public init(outDir: String) { self.outDir = outDir }

    public func write(_ m: Manifest, csv: Bool = true, contactSheet: Bool = true, thumbnail: Int = 320, picks: PickMode? = nil) throws {
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        try AtomicFile.write(try m.json(), to: outDir + "/manifest.json")
        if csv { try AtomicFile.write(CSVExport.render(m), to: outDir + "/manifest.csv") }
        if contactSheet { try ContactSheet(thumbnail: thumbnail).write(picks: m.picks, to: outDir + "/contact-sheet.jpg") }
        if let picks { try exportPicks(m, mode: picks) }
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
                    try fm.copyItem(atPath: p.path, toPath: dest)
                }
            case .link: try fm.createSymbolicLink(atPath: dest, withDestinationPath: p.path)
            }
        }
        let old = outDir + "/.picks-old-\(getpid())"
        if fm.fileExists(atPath: dir) { try fm.moveItem(atPath: dir, toPath: old) }
        try fm.moveItem(atPath: tmp, toPath: dir)
        try? fm.removeItem(atPath: old)
    }
}
