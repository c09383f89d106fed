import Foundation

/// One run at a time per output folder: an exclusive `flock` on `OUT/.photocurate.lock`,
/// held for the whole run and released when the process ends (however it ends).
///
/// ```swift
/// let lock = try OutputLock(folder: "out")   // throws when another run holds it
/// ```
/// Two runs writing one folder would mix their files; the second is refused at once
/// with the first one's process id.
public final class OutputLock {
    private let fd: Int32
    public let path: String

    public init(folder: String) throws {
        path = folder + "/.photocurate.lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PhotoError.io(path: path, reason: "cannot be created: \(String(cString: strerror(errno)))") }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            // The holder writes its pid just after it takes the lock: a run refused in between
            // would read an empty file, so it waits a little (at most 0.2 s) for the pid to name.
            var holder = ""
            for _ in 0..<20 {
                holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                if !holder.isEmpty { break }
                usleep(10_000)
            }
            close(fd)
            throw PhotoError.io(path: folder, reason: "another photocurate run\(holder.isEmpty ? "" : " (pid \(holder))") is writing its outputs there; wait for it to finish or choose another --out")
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { Foundation.write(fd, $0, strlen($0)) }
    }

    deinit { flock(fd, LOCK_UN); close(fd) }
}
