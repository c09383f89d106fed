#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory, read cheaply enough to ask before each model run.
///
/// ```swift
/// if ResidentMemory.bytes() ?? 0 > 200 << 20 { … }   // over 200 MB resident
/// ```
/// Reads `/proc/self/statm` (pages resident × page size) with plain system calls: about
/// 10 µs, against 5–25 ms for a model run. `nil` where there is no such file.
public enum ResidentMemory {
    public static func bytes() -> Int? {
        #if canImport(Glibc)
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 127) }
        guard n > 0 else { return nil }
        // "size resident shared text lib data dt", in pages.
        let fields = buffer[..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
        #else
        return nil
        #endif
    }
}
