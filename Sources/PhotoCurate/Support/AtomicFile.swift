import Foundation

/// Writes files all-or-nothing: a temporary file beside the target, then rename.
///
/// ```swift
/// try AtomicFile.write(Data(json.utf8), to: "/out/manifest.json")
/// ```
/// A reader never sees a half-written manifest, and a killed run leaves the
/// previous version in place. Failures name the file and the system's reason
/// ("no space left on device", "permission denied"), never a Foundation dump.
public enum AtomicFile {
    public static func write(_ data: Data, to path: String) throws {
        try write(to: path) { emit in try emit(data) }
    }

    /// Streams the file's content in pieces, so a large file (a 10,000-photo
    /// manifest) never has to exist in memory whole; still all-or-nothing.
    ///
    /// ```swift
    /// try AtomicFile.write(to: "/out/big.json") { emit in for part in parts { try emit(part) } }
    /// ```
    public static func write(to path: String, _ produce: (_ emit: (Data) throws -> Void) throws -> Void) throws {
        let dir = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        if !RawPath.isEscaped(dir) {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw PhotoError.io(path: path, reason: "its folder cannot be created (\(reason(error)))")
            }
        }
        let tmp = dir + "/.\((path as NSString).lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = RawPath.with(tmp) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw PhotoError.io(path: path, reason: "cannot be written: \(String(cString: strerror(errno))) (folder \(dir))") }
        struct WriteFailure: Error { let reason: String }
        var failure: String? = nil
        do {
            try produce { data in
                try data.withUnsafeBytes { raw in
                    var done = 0
                    while done < raw.count {
                        let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
                        if n < 0 { if errno == EINTR { continue }; throw WriteFailure(reason: String(cString: strerror(errno))) }
                        done += n
                    }
                }
            }
        } catch let e as WriteFailure {
            failure = e.reason
        } catch {
            close(fd)
            RawPath.with(tmp) { _ = unlink($0) }
            throw error
        }
        if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil && RawPath.with(tmp, { t in RawPath.with(path) { rename(t, $0) } }) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            RawPath.with(tmp) { _ = unlink($0) }
            throw PhotoError.io(path: path, reason: "cannot be written: \(failure); the previous version, if any, is unchanged")
        }
    }

    public static func write(_ text: String, to path: String) throws { try write(Data(text.utf8), to: path) }

    /// The system's words for a Foundation error, where it carries them.
    public static func reason(_ error: Error) -> String {
        let e = error as NSError
        if let u = e.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(u.code))) }
        if e.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(e.code))) }
        if let p = error as? PhotoError { return p.description }
        switch e.code {
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on device"
        case NSFileWriteVolumeReadOnlyError: return "read-only file system"
        default: return e.localizedDescription
        }
    }
}
