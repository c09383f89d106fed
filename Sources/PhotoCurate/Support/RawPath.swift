import Foundation

/// File names are bytes on Linux, not always UTF-8. A name that is not valid UTF-8
/// travels in a `String` with each byte that does not decode as U+F700 + byte (the
/// Private Use Area, U+F780–U+F7FF), and becomes the same bytes again at every
/// file call. The manifest, CSV and cache carry that form (documented in the schema).
///
/// ```swift
/// let name = RawPath.string(dirent.d_name)          // "caf\u{F7E9}.jpg" for the bytes caf\xE9.jpg
/// RawPath.with(path) { stat($0, &st) }              // the original bytes
/// ```
/// A real name holding U+F780–U+F7FF (never seen in practice) would be read as those bytes.
public enum RawPath {
    /// The bytes of a C string as a path string, escaping what is not UTF-8.
    public static func string(_ c: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(c).assumingMemoryBound(to: UInt8.self), count: strlen(c))
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            // The longest valid UTF-8 sequence here, else one escaped byte.
            var decoded = false
            for n in [1, 2, 3, 4] where i + n <= bytes.count {
                if let s = String(validating: UnsafeBufferPointer(rebasing: bytes[i..<(i + n)]), as: UTF8.self), s.unicodeScalars.count == 1 {
                    scalars.append(s.unicodeScalars.first!); i += n; decoded = true; break
                }
            }
            if !decoded { scalars.append(Unicode.Scalar(0xF700 + UInt32(bytes[i]))!); i += 1 }
        }
        return String(scalars)
    }

    /// The path's bytes, NUL-terminated: escaped bytes back to themselves, the rest UTF-8.
    public static func bytes(_ path: String) -> [CChar] {
        var out: [CChar] = []
        out.reserveCapacity(path.utf8.count + 1)
        for s in path.unicodeScalars {
            if (0xF780...0xF7FF).contains(s.value) { out.append(CChar(bitPattern: UInt8(s.value - 0xF700))) }
            else { for b in String(s).utf8 { out.append(CChar(bitPattern: b)) } }
        }
        out.append(0)
        return out
    }

    /// For people: each escaped byte as `\xE9`, the rest as it is.
    public static func display(_ path: String) -> String {
        guard isEscaped(path) else { return path }
        return path.unicodeScalars.map { (0xF780...0xF7FF).contains($0.value) ? String(format: "\\x%02X", $0.value - 0xF700) : String($0) }.joined()
    }

    /// Whether the path holds escaped bytes (Foundation's file calls would not find it).
    public static func isEscaped(_ path: String) -> Bool { path.unicodeScalars.contains { (0xF780...0xF7FF).contains($0.value) } }

    /// Calls `body` with the path's original bytes.
    public static func with<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try bytes(path).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// A handle for reading, opened by the original bytes; nil when it cannot be opened.
    public static func reading(_ path: String) -> FileHandle? {
        let fd = with(path) { open($0, O_RDONLY | O_CLOEXEC) }
        return fd < 0 ? nil : FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// A whole file's bytes, read by the original name.
    public static func read(_ path: String) -> Data? {
        guard let fh = reading(path) else { return nil }
        defer { try? fh.close() }
        return try? fh.readToEnd() ?? Data()
    }
}
