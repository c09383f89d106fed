import Foundation

/// Writes files all-or-nothing: a temporary file beside the target, then rename.
///
/// ```swift
/// try AtomicFile.write(Data(json.utf8), to: "/out/manifest.json")
/// ```
/// A reader never sees a half-written manifest, and a killed run leaves the
/// previous version in place.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try data.write(to: tmp)
            if rename(tmp.path, url.path) != 0 {
                throw PhotoError.io(path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw error
        }
    }

    public static func write(_ text: String, to path: String) throws { try write(Data(text.utf8), to: path) }
}
