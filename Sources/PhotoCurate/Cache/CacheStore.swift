import Foundation
import GRDB

/// The per-photo result cache: one SQLite file (WAL), keyed by content hash and
/// `ResultKey`.
///
/// ```swift
/// let cache = try CacheStore(path: CacheStore.defaultPath())
/// if let hash = try cache.knownHash(for: file) { ... }   // path+size+mtime unchanged: no re-hash
/// ```
/// A photo is identified by path, size and mtime for speed, and by a hash of
/// its bytes for truth: a moved or renamed file keeps its results.
public final class CacheStore: @unchecked Sendable {
    public let path: String
    let pool: DatabasePool

    public init(path: String) throws {
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            try Self.migrator.migrate(pool)
        } catch {
            throw CacheError.open(path: path, reason: Self.reason(error))
        }
    }

    /// Opens the cache after `PRAGMA quick_check`. A SQLite cache with damaged pages is
    /// moved aside (`cache.sqlite.damaged-<time>`, with its -wal and -shm) and rebuilt:
    /// results are only ever a cache. A file that is not SQLite at all is refused untouched
    /// (it may be something else, given by mistake).
    public static func openChecked(path: String, warn: (String) -> Void) throws -> CacheStore {
        // Runs started together on one new cache race to set it up (WAL mode, tables); SQLite
        // answers "locked" to all but one without waiting. They wait their turn here.
        var attempt = 0
        while true {
            do { return try openCheckedOnce(path: path, warn: warn) } catch let e as CacheError {
                attempt += 1
                // Locked, or another run's setup landed first ("already exists"): its tables are there on the next try.
                guard case .open(_, let why) = e,
                      why.contains("SQLite code 5)") || why.contains("SQLite code 6)") || why.contains("locked")
                        || why.contains("already exists") || why.contains("UNIQUE constraint failed"),
                      attempt < 40 else { throw e }
                Thread.sleep(forTimeInterval: 0.05 * Double(min(attempt, 10)))
            }
        }
    }

    static func openCheckedOnce(path: String, warn: (String) -> Void) throws -> CacheStore {
        if FileManager.default.fileExists(atPath: path) {
            var damage: String? = nil
            do {
                let store = try CacheStore(path: path)
                let verdict: [String]
                do { verdict = try store.pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") } } catch {
                    throw CacheError.open(path: path, reason: reason(error))
                }
                if verdict == ["ok"] { return store }
                damage = verdict.prefix(3).joined(separator: "; ")
            } catch let e as CacheError {
                let text = "\(e)"
                guard text.contains("malformed") || text.contains("corrupt") else { throw e }
                damage = text
            }
            let aside = path + ".damaged-\(Int(Date().timeIntervalSince1970))"
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            warn("cache \(path) is damaged (\(damage ?? "quick_check failed")): moved aside to \(aside) and rebuilt; this run analyses every photo again")
        }
        return try CacheStore(path: path)
    }

    /// SQLite's own words for a database error, without the Swift dump around them.
    static func reason(_ error: Error) -> String {
        if let e = error as? DatabaseError { return "\(e.message ?? "error") (SQLite code \(e.resultCode.rawValue))" }
        if let e = error as? CacheError { return "\(e)" }
        return "\(error)"
    }

    /// `$XDG_CACHE_HOME/photocurate/cache.sqlite`, or `~/.cache/photocurate/cache.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/photocurate/cache.sqlite"
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE files (
                    path TEXT PRIMARY KEY NOT NULL,
                    size INTEGER NOT NULL,
                    mtime_ns INTEGER NOT NULL,
                    content_hash TEXT NOT NULL,
                    seen_at REAL NOT NULL
                );
                CREATE INDEX files_hash ON files(content_hash);
                CREATE TABLE results (
                    content_hash TEXT NOT NULL,
                    analyzer TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    params_hash TEXT NOT NULL,
                    payload BLOB NOT NULL,
                    created_at REAL NOT NULL,
                    PRIMARY KEY (content_hash, analyzer, version, params_hash)
                ) WITHOUT ROWID;
                """)
        }
        return m
    }

    /// The content hash recorded for this exact path, size and mtime, if any.
    public func knownHash(for file: PhotoFile) throws -> String? {
        try pool.read { db in
            try String.fetchOne(db, sql: "SELECT content_hash FROM files WHERE path = ? AND size = ? AND mtime_ns = ?",
                                arguments: [file.path, file.size, file.mtimeNs])
        }
    }

    /// Stored payloads for one photo, for the keys asked.
    public func results(for hash: String, keys: [ResultKey]) throws -> [ResultKey: Data] {
        try pool.read { db in
            var out: [ResultKey: Data] = [:]
            for key in keys {
                if let d = try Data.fetchOne(db, sql: """
                    SELECT payload FROM results WHERE content_hash = ? AND analyzer = ? AND version = ? AND params_hash = ?
                    """, arguments: [hash, key.analyzer, key.version, key.parametersHash]) {
                    out[key] = d
                }
            }
            return out
        }
    }

    /// One photo's new facts, written together.
    public struct Entry: Sendable {
        public var file: PhotoFile
        public var contentHash: String
        public var results: [(ResultKey, Data)]
        public init(file: PhotoFile, contentHash: String, results: [(ResultKey, Data)]) {
            self.file = file
            self.contentHash = contentHash
            self.results = results
        }
    }

    /// Writes many photos' entries in one transaction.
    public func write(_ entries: [Entry]) throws {
        guard !entries.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        try pool.write { db in
            for e in entries {
                try db.execute(sql: """
                    INSERT INTO files(path, size, mtime_ns, content_hash, seen_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                        content_hash = excluded.content_hash, seen_at = excluded.seen_at
                    """, arguments: [e.file.path, e.file.size, e.file.mtimeNs, e.contentHash, now])
                for (key, payload) in e.results {
                    try db.execute(sql: """
                        INSERT OR REPLACE INTO results(content_hash, analyzer, version, params_hash, payload, created_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """, arguments: [e.contentHash, key.analyzer, key.version, key.parametersHash, payload, now])
                }
            }
        }
    }

    public struct Stats: Sendable, Codable {
        public var path: String
        public var bytes: Int64
        public var files: Int
        public var distinctPhotos: Int
        public var results: [String: Int]
    }

    public func stats() throws -> Stats {
        let (files, photos, rows) = try pool.read { db -> (Int, Int, [Row]) in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM files") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT content_hash) FROM results") ?? 0,
             try Row.fetchAll(db, sql: "SELECT analyzer || '@' || version AS k, COUNT(*) AS n FROM results GROUP BY k ORDER BY k"))
        }
        var bytes: Int64 = 0
        for suffix in ["", "-wal", "-shm"] {
            if let a = try? FileManager.default.attributesOfItem(atPath: path + suffix), let n = a[.size] as? NSNumber { bytes += n.int64Value }
        }
        return Stats(path: path, bytes: bytes, files: files, distinctPhotos: photos,
                     results: Dictionary(uniqueKeysWithValues: rows.map { ($0["k"] as String, $0["n"] as Int) }))
    }

    /// Forgets files that no longer exist, results no file refers to, and
    /// results made by analyzer versions or parameters other than `current`.
    public func prune(current: Set<ResultKey>? = nil, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) throws -> (files: Int, results: Int) {
        let paths = try pool.read { db in try String.fetchAll(db, sql: "SELECT path FROM files") }
        let gone = paths.filter { !fileExists($0) }
        return try pool.write { db in
            for p in gone { try db.execute(sql: "DELETE FROM files WHERE path = ?", arguments: [p]) }
            try db.execute(sql: "DELETE FROM results WHERE content_hash NOT IN (SELECT content_hash FROM files)")
            var removed = db.changesCount
            if let current {
                let rows = try Row.fetchAll(db, sql: "SELECT DISTINCT analyzer, version, params_hash FROM results")
                for r in rows {
                    let k = ResultKey(analyzer: r["analyzer"], version: r["version"], parametersHash: r["params_hash"])
                    if !current.contains(k) {
                        try db.execute(sql: "DELETE FROM results WHERE analyzer = ? AND version = ? AND params_hash = ?",
                                       arguments: [k.analyzer, k.version, k.parametersHash])
                        removed += db.changesCount
                    }
                }
            }
            return (gone.count, removed)
        }
    }

    public func vacuum() throws {
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM")
            // In WAL mode VACUUM writes through the log: fold it back, so the file on disk is the compact one.
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}

public enum CacheError: Error, CustomStringConvertible {
    case open(path: String, reason: String)
    public var description: String {
        switch self {
        case .open(let p, let r): return "cannot open cache \(p): \(r); give another --cache, or --no-cache"
        }
    }
    /// Not writable or no room: the run can go on without a cache. Anything else (not a
    /// database at all) is refused, untouched.
    public var canRunWithout: Bool {
        switch self {
        case .open(_, let r):
            return ["SQLite code 8)", "SQLite code 14)", "SQLite code 13)", "SQLite code 10)", "SQLite code 3)"].contains { r.hasSuffix($0) }
                || r.contains("ermission denied") || r.contains("o space left")
        }
    }
}
