import Foundation
import Logging
import PhotoCurate

/// One photo in, one answer out: identification, then the card (through the
/// context provider when the catalog knows the album only by title), then the
/// scan history. The `albums identify` command and the `albums` stage share it.
///
/// ```swift
/// let scanner = AlbumScanner(identifier: identifier, provider: try AlbumContextProvider.fromEnvironment(), history: history)
/// let scan = try scanner.scan("IMG_2041.jpg", guide: false)
/// print(scan.result)    // "Miles Davis — Kind of Blue" or "Couldn't find a match"
/// ```
/// Input: a photo path. Output: `AlbumScan`. A photo that cannot be read throws;
/// everything after identification (provider, history) degrades with a note.
public struct AlbumScanner: Sendable {
    public let identifier: AlbumIdentifier
    public let provider: AlbumContextProvider?
    public let history: ScanHistory?
    let log = Logger(label: "albums")

    public init(identifier: AlbumIdentifier, provider: AlbumContextProvider?, history: ScanHistory?) {
        self.identifier = identifier; self.provider = provider; self.history = history
    }

    /// What a scan found, as `--json` and the stage write it.
    public struct AlbumScan: Codable, Sendable {
        public var photo: String
        public var result: String
        public var confidence: Double?
        public var card: ContextCard.JSONCard?
        public var guardNotes: [String]?
        /// Why a matched cover still gives no card (the provider failed), or why the history missed it.
        public var notes: [String]?
        public var identification: AlbumIdentifier.Identification
    }

    /// The scan and, when it matched, the card as shown.
    public func scan(_ file: String, guide: Bool) throws -> (scan: AlbumScan, card: ContextCard?) {
        let r = try identifier.identify(file, guide: guide)
        var out = AlbumScan(photo: file, result: AlbumIdentifier.noMatch, identification: r)
        guard let m = r.match else { return (out, nil) }
        var entry = m.album
        let catalog = identifier.index.catalog
        if entry.needsContext {
            // The cover matched, but the catalog has no card for it: without one there is
            // nothing honest to show, so the answer is no match, with the reason logged.
            guard let provider else {
                let why = "\(entry.artist_name) — \(entry.album_title) matched, but the catalog knows it only by title and no context provider is set (ANTHROPIC_API_KEY)"
                log.warning("\(file): \(why)", metadata: ["event": "album-context-missing"])
                out.notes = [why]
                return (out, nil)
            }
            do { entry = try provider.complete(entry, catalogFolder: catalog.folder) } catch {
                let why = "\(entry.artist_name) — \(entry.album_title) matched, but its context could not be fetched: \(error)"
                log.warning("\(file): \(why)", metadata: ["event": "album-context-failed"])
                out.notes = [why]
                return (out, nil)
            }
        }
        let card = ContextCard(entry, coverPath: catalog.artPath(entry))
        for n in card.guardNotes {
            log.warning("content guard: \(entry.artist_name) — \(entry.album_title): \(n)", metadata: ["event": "content-guard"])
        }
        out.result = "\(entry.artist_name) — \(entry.album_title)"
        out.confidence = m.confidence
        out.card = card.jsonCard
        out.guardNotes = card.guardNotes.isEmpty ? nil : card.guardNotes
        if let history {
            do { try history.add(card, confidence: m.confidence, photoName: (file as NSString).lastPathComponent) } catch {
                out.notes = (out.notes ?? []) + ["not saved in the scan history: \(error)"]
                log.warning("\(file): scan not saved in the history: \(error)", metadata: ["event": "history-failed"])
            }
        }
        return (out, card)
    }
}
