import Foundation

/// A JPEG grid of the picks, with rank and a short reason under each, made with libvips.
///
/// ```swift
/// try ContactSheet(thumbnail: 320).write(picks: manifest.picks, to: "out/contact-sheet.jpg")
/// ```
public struct ContactSheet {
    public var thumbnail: Int
    public var columns: Int

    public init(thumbnail: Int = 320, columns: Int = 5) {
        self.thumbnail = thumbnail
        self.columns = columns
    }

    public func render(picks: [Manifest.Pick]) throws -> [UInt8] {
        try Vips.start()
        let pad = 12, label = 56
        let cols = max(1, min(columns, picks.count))
        let rows = max(1, (picks.count + cols - 1) / cols)
        let cellW = thumbnail + pad, cellH = thumbnail + label + pad
        var sheet = try VImage.black(width: cols * cellW + pad, height: rows * cellH + pad, bands: 3).linear(a: [0, 0, 0], b: [40, 40, 40]).castUChar()
        for (k, pick) in picks.enumerated() {
            let x = pad + (k % cols) * cellW, y = pad + (k / cols) * cellH
            // Decoded now, not when the sheet is saved: a lazy thumbnail keeps its file's decoder open
            // until then, and twenty open at once was the run's peak with the face models (RESULTS, #9).
            var thumb = try VImage.thumbnail(pick.path, width: thumbnail).srgb8().copyMemory()
            // A photo stored on its side is shown upright, then fitted to the cell again.
            if let turn = pick.suggestedRotation {
                thumb = try thumb.rotated(quarterTurns: turn / 90)
                if thumb.height > thumbnail { let s = Double(thumbnail) / Double(thumb.height); thumb = try thumb.resize(h: s, v: s) }
            }
            // Sat on the caption: a wide photo leaves its gap above, not between it and its words.
            sheet = try sheet.inserting(thumb, x: x + (thumbnail - thumb.width) / 2, y: y + thumbnail - thumb.height)
            let reason = pick.reasons.first ?? ""
            let text = String(format: "#%d  %.2f  ", pick.rank, pick.score) + "\((pick.path as NSString).lastPathComponent)\n\(reason)"
            if let t = try? VImage.text(Self.escape(text), width: thumbnail, dpi: 72) {
                // vips_text gives a one-band mask; use it as white ink.
                let ink = try VImage.bandjoin(t, t, t).castUChar()
                let h = min(ink.height, label - 4), w = min(ink.width, thumbnail)
                let cropped = try ink.crop(x: 0, y: 0, width: w, height: h)
                sheet = try sheet.inserting(cropped, x: x, y: y + thumbnail + 4)
            }
        }
        return try sheet.jpeg(quality: 88)
    }

    public func write(picks: [Manifest.Pick], to path: String) throws {
        try AtomicFile.write(Data(try render(picks: picks)), to: path)
    }

    /// vips_text reads Pango markup.
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
