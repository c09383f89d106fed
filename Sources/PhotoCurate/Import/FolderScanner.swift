import Foundation

/// Walks a folder recursively and lists candidate photos in a stable order.
///
/// ```swift
/// let files = try FolderScanner().scan("/home/me/Trip")
/// ```
/// Hidden files and folders are skipped; symlinked folders are followed once
/// (by device and inode), so a loop cannot trap the walk. The order is by path
/// bytes, so two runs over the same tree list the same files in the same order.
public struct FolderScanner: Sendable {
    /// Extensions worth handing to libvips; anything else is ignored silently,
    /// like the sidecars and videos that live beside photos.
    public static let extensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "webp", "tif", "tiff", "heic", "heif", "avif", "hif", "jxl", "gif",
    ]

    public init() {}

    public struct Result: Sendable {
        public var files: [PhotoFile]
        /// Paths that could not be listed or stat'ed, with the reason.
        public var problems: [PhotoError]
    }

    public func scan(_ root: String) throws -> Result {
        var st = stat()
        guard RawPath.with(root, { stat($0, &st) }) == 0 else {
            throw PhotoError.unreadable(path: root, reason: String(cString: strerror(errno)))
        }
        if (st.st_mode & S_IFMT) != S_IFDIR {
            // A single file is a valid (tiny) library.
            return Result(files: [PhotoFile(path: root, size: Int64(st.st_size), mtimeNs: Self.mtime(st))], problems: [])
        }
        // The folder itself unreadable is fatal (README: exit 1), not an empty trip.
        guard let probe = RawPath.with(root, { opendir($0) }) else {
            throw PhotoError.unreadable(path: root, reason: "\(String(cString: strerror(errno))) (the folder itself)")
        }
        closedir(probe)
        var files: [PhotoFile] = []
        var problems: [PhotoError] = []
        var visited = Set<[UInt64]>()
        walk(root, &files, &problems, &visited)
        files.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        return Result(files: files, problems: problems)
    }

    private func walk(_ dir: String, _ files: inout [PhotoFile], _ problems: inout [PhotoError], _ visited: inout Set<[UInt64]>) {
        var st = stat()
        guard RawPath.with(dir, { stat($0, &st) }) == 0 else { return }
        let key = [UInt64(st.st_dev), UInt64(st.st_ino)]
        guard visited.insert(key).inserted else { return }  // a symlink loop or a second link to a seen folder
        guard let d = RawPath.with(dir, { opendir($0) }) else {
            problems.append(.unreadable(path: dir, reason: String(cString: strerror(errno))))
            return
        }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafePointer(to: e.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: 256) { RawPath.string($0) }
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        closedir(d)
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for name in names {
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            var s = stat()
            guard RawPath.with(path, { stat($0, &s) }) == 0 else {
                // A dangling symlink is not a photo problem worth reporting unless it looks like one.
                if Self.isCandidate(name) { problems.append(.unreadable(path: path, reason: String(cString: strerror(errno)))) }
                continue
            }
            switch s.st_mode & S_IFMT {
            case S_IFDIR: walk(path, &files, &problems, &visited)
            case S_IFREG where Self.isCandidate(name):
                files.append(PhotoFile(path: path, size: Int64(s.st_size), mtimeNs: Self.mtime(s)))
            default: continue
            }
        }
    }

    public static func isCandidateName(_ name: String) -> Bool { isCandidate(name) }

    static func isCandidate(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    static func mtime(_ s: stat) -> Int64 {
        Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
    }
}
