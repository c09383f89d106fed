import Foundation
import GRDB
import PhotoCurate

/// Every identification, kept in SQLite: newest first, duplicates included.
///
/// ```swift
/// let history = try ScanHistory(path: ScanHistory.defaultPath())
/// let id = try history.add(card, confidence: 0.93, photoName: "IMG_2041.jpg")
/// try history.list()          // newest first
/// try history.delete(id)
/// ```
/// A scan keeps the catalog's cover (the original file and a 200×200 thumbnail)
/// and the card as shown, never the user's photo. Each scan is one committed
/// transaction, so a killed process loses at most the scan it was writing.
public final class ScanHistory: Sendable {
    public let path: String
    let queue: DatabaseQueue

    public struct Scan: Codable, Sendable, FetchableRecord {
        public var id: Int64
        public var scannedAt: Double
        public var photoName: String
        public var artist: String
        public var title: String
        public var confidence: Double
        public var card: String
        public var thumbnailBytes: Int
        public var coverBytes: Int
    }

    /// `$XDG_DATA_HOME/photocurate/albums-history.sqlite`, or `~/.local/share/photocurate/albums-history.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return base + "/photocurate/albums-history.sqlite"
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public init(path: String) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var config = Configuration()
        config.busyMode = .timeout(10)
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS scans (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        scanned_at REAL NOT NULL,
                        photo_name TEXT NOT NULL,
                        artist TEXT NOT NULL,
                        title TEXT NOT NULL,
                        confidence REAL NOT NULL,
                        card TEXT NOT NULL,
                        thumbnail BLOB NOT NULL,
                        cover BLOB NOT NULL
                    )
                    """)
            }
        } catch {
            throw Failure(description: "\(path): cannot open the scan history (\(error)); pass --history with a writable file")
        }
    }

    /// Saves one identification; returns its id.
    @discardableResult
    public func add(_ card: ContextCard, confidence: Double, photoName: String, at date: Date = Date()) throws -> Int64 {
        let thumb = try VImage.thumbnail(card.coverPath, width: 200).srgb8()
        // A square 200×200: the thumbnail is centred on a neutral ground.
        let square = try VImage.black(width: 200, height: 200, bands: 3).linear(a: [1, 1, 1], b: [236, 236, 236]).castUChar()
            .inserting(thumb, x: (200 - thumb.width) / 2, y: (200 - thumb.height) / 2).jpeg(quality: 85)
        guard let cover = FileManager.default.contents(atPath: card.coverPath) else {
            throw Failure(description: "\(card.coverPath): the catalog cover cannot be read for the history")
        }
        let json = String(decoding: try card.json(), as: UTF8.self)
        return try queue.write { db in
            try db.execute(sql: """
                INSERT INTO scans(scanned_at, photo_name, artist, title, confidence, card, thumbnail, cover)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [date.timeIntervalSince1970, photoName, card.entry.artist_name, card.entry.album_title,
                                 confidence, json, Data(square), cover])
            return db.lastInsertedRowID
        }
    }

    static let columns = "id, scanned_at AS scannedAt, photo_name AS photoName, artist, title, confidence, card, length(thumbnail) AS thumbnailBytes, length(cover) AS coverBytes"

    /// Newest first (ties: the later id first).
    public func list(limit: Int = 1000) throws -> [Scan] {
        try queue.read { db in
            try Scan.fetchAll(db, sql: "SELECT \(Self.columns) FROM scans ORDER BY scanned_at DESC, id DESC LIMIT ?", arguments: [limit])
        }
    }

    public func scan(_ id: Int64) throws -> Scan? {
        try queue.read { db in try Scan.fetchOne(db, sql: "SELECT \(Self.columns) FROM scans WHERE id = ?", arguments: [id]) }
    }

    public func thumbnail(_ id: Int64) throws -> Data? {
        try queue.read { db in try Data.fetchOne(db, sql: "SELECT thumbnail FROM scans WHERE id = ?", arguments: [id]) }
    }

    /// Removes one scan; false when there was none with that id.
    @discardableResult
    public func delete(_ id: Int64) throws -> Bool {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM scans WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }
}
