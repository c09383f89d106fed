import CVipsShim
import Foundation

/// Process-wide libvips set-up and the error type for its failures.
///
/// ```swift
/// try Vips.start()          // once, before any decode
/// let img = try VImage.open("/photos/a.jpg")
/// ```
/// libvips runs with one worker thread per call: parallelism comes from the
/// pipeline's own tasks, so decodes never oversubscribe the cores. Starting it
/// also tunes the allocator for per-photo buffers (`Allocator`).
public enum Vips {
    private static let started: Result<Void, VipsError> = {
        Allocator.keepFreedMemory()
        if pcv_init("photocurate") != 0 { return .failure(VipsError.take("vips_init")) }
        return .success(())
    }()

    /// Starts libvips once; later calls are free.
    public static func start() throws { try started.get() }

    /// Whether libvips uses its run-time SIMD (liborc). `pcv_init` turns it off in every
    /// process, since liborc's code allocator raced between our tasks; the pixels differ by a
    /// few levels, so cache keys over decoded pixels say which way they were made.
    public static var simd: Bool { (try? start()) != nil && pcv_simd_enabled() != 0 }

    /// The libvips in use, as (major, minor), e.g. (8, 14): `Lanczos3Reducer` reproduces 8.14's resize.
    public static var version: (major: Int, minor: Int) { (Int(vips_version(0)), Int(vips_version(1))) }
}

/// A libvips failure, with the library's own message copied right after the call.
public struct VipsError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let message: String
    public var description: String { message.isEmpty ? "\(operation) failed" : message }

    static func take(_ operation: String) -> VipsError {
        var buf = [CChar](repeating: 0, count: 1024)
        pcv_error_take(&buf, buf.count)
        let text = String(cString: buf).trimmingCharacters(in: .whitespacesAndNewlines)
        // libvips prefixes messages with the operation ("jpegload: ..."); keep the last line.
        let line = text.split(separator: "\n").map(String.init).last ?? ""
        return VipsError(operation: operation, message: explainHeif(line))
    }

    /// libheif's errors reach libvips as bare codes, "(2.100)": say what they mean.
    static func explainHeif(_ line: String) -> String {
        guard let r = line.range(of: #"\((\d+)\.(\d+)\)"#, options: .regularExpression) else { return line }
        let codes = line[r].dropFirst().dropLast().split(separator: ".").compactMap { Int($0) }
        guard codes.count == 2 else { return line }
        let what: String
        switch (codes[0], codes[1]) {
        case (_, 100): what = "the file ends before its image data (truncated)"
        case (_, 101): what = "a part of the file claims an impossible size (damaged)"
        case (_, 102...119): what = "a part every HEIF file needs is missing (damaged or not HEIF)"
        case (3, _): what = "not a HEIF/AVIF file libheif can read"
        case (4, _): what = "uses a HEIF feature libheif does not support"
        case (6, _): what = "libheif ran out of memory"
        case (7, _): what = "the HEVC/AV1 decoder failed on its image data (damaged, or no decoder installed)"
        default: what = "libheif could not read it"
        }
        let rest = line.replacingCharacters(in: r, with: "").trimmingCharacters(in: CharacterSet(charactersIn: " :"))
        return "\(what)\(rest.isEmpty || rest.hasSuffix("heifload") ? "" : " (\(rest))") (libheif error \(codes[0]).\(codes[1]))"
    }
}

/// An owned reference to a `VipsImage`. Never shared across tasks.
public final class VImage {
    let ptr: UnsafeMutablePointer<VipsImage>

    init(_ ptr: UnsafeMutablePointer<VipsImage>) { self.ptr = ptr }
    deinit { pcv_unref(ptr) }

    public var width: Int { Int(vips_image_get_width(ptr)) }
    public var height: Int { Int(vips_image_get_height(ptr)) }
    public var bands: Int { Int(vips_image_get_bands(ptr)) }

    /// Opens a file lazily: only the header is read until pixels are asked for.
    /// `strict` makes any decoder warning (corrupt data) an error; otherwise only truncation is.
    public static func open(_ path: String, shrink: Int = 1, sequential: Bool = true, strict: Bool = false) throws -> VImage {
        guard let p = RawPath.with(path, { pcv_open($0, Int32(shrink), sequential ? 1 : 0, strict ? 1 : 0) }) else { throw VipsError.take("load") }
        return VImage(p)
    }

    /// Wraps 8-bit interleaved pixels (copied).
    public static func from(pixels: [UInt8], width: Int, height: Int, bands: Int) throws -> VImage {
        let p = pixels.withUnsafeBytes { pcv_new_from_memory($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands)) }
        guard let p else { throw VipsError.take("new_from_memory") }
        return VImage(p)
    }

    public static func loader(for path: String) -> String? {
        guard let c = RawPath.with(path, { pcv_loader_for($0) }) else { vips_error_clear(); return nil }
        return String(cString: c)
    }

    public func int(_ name: String) -> Int? {
        var v: Int32 = 0
        return pcv_get_int(ptr, name, &v) == 0 ? Int(v) : nil
    }

    /// Sets an integer metadata field (e.g. "orientation" on pixels made in memory, for `autorotated`).
    public func setInt(_ name: String, _ value: Int) { vips_image_set_int(ptr, name, Int32(value)) }

    public func blob(_ name: String) -> [UInt8]? {
        var data: UnsafeRawPointer?
        var len = 0
        guard pcv_get_blob(ptr, name, &data, &len) == 0, let data, len > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: len))
    }

    @inline(__always)
    private func make(_ op: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws -> VImage {
        var out: UnsafeMutablePointer<VipsImage>?
        guard body(&out) == 0, let out else { throw VipsError.take(op) }
        return VImage(out)
    }

    public func resize(h: Double, v: Double) throws -> VImage { try make("resize") { pcv_resize(ptr, $0, h, v) } }
    public func copyMemory() throws -> VImage { try make("copy_memory") { pcv_copy_memory(ptr, $0) } }
    public func autorotated() throws -> VImage { try make("autorot") { pcv_autorot(ptr, $0) } }
    public func rotated(quarterTurns q: Int) throws -> VImage { try make("rot") { pcv_rot90(ptr, $0, Int32(q)) } }
    public func srgb8() throws -> VImage { try make("colourspace") { pcv_to_srgb8(ptr, $0) } }
    public func linear() throws -> VImage { try make("colourspace") { pcv_to_linear(ptr, $0) } }
    public func fromLinear() throws -> VImage { try make("colourspace") { pcv_from_linear(ptr, $0) } }
    public func crop(x: Int, y: Int, width: Int, height: Int) throws -> VImage {
        try make("extract_area") { pcv_extract_area(ptr, $0, Int32(x), Int32(y), Int32(width), Int32(height)) }
    }
    public func similarity(scale: Double, angle: Double) throws -> VImage {
        try make("similarity") { pcv_similarity(ptr, $0, scale, angle) }
    }
    public func gaussblur(_ sigma: Double) throws -> VImage { try make("gaussblur") { pcv_gaussblur(ptr, $0, sigma) } }
    public func convolve(mask: [Double], width: Int, height: Int) throws -> VImage {
        try make("conv") { out in mask.withUnsafeBufferPointer { pcv_conv(ptr, out, $0.baseAddress, Int32(width), Int32(height)) } }
    }
    public func linear(a: [Double], b: [Double]) throws -> VImage {
        try make("linear") { out in
            a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in pcv_linear(ptr, out, pa.baseAddress, pb.baseAddress, Int32(a.count)) } }
        }
    }
    public func adding(_ other: VImage) throws -> VImage { try make("add") { pcv_add(ptr, other.ptr, $0) } }
    public func castUChar() throws -> VImage { try make("cast") { pcv_cast_uchar(ptr, $0) } }
    public func inserting(_ sub: VImage, x: Int, y: Int) throws -> VImage {
        try make("insert") { pcv_insert(ptr, sub.ptr, $0, Int32(x), Int32(y)) }
    }
    public static func noise(width: Int, height: Int, sigma: Double, seed: Int) throws -> VImage {
        var out: UnsafeMutablePointer<VipsImage>?
        guard pcv_gaussnoise(&out, Int32(width), Int32(height), sigma, Int32(truncatingIfNeeded: seed)) == 0, let out else { throw VipsError.take("gaussnoise") }
        return VImage(out)
    }
    public static func bandjoin(_ a: VImage, _ b: VImage, _ c: VImage) throws -> VImage {
        var out: UnsafeMutablePointer<VipsImage>?
        guard pcv_bandjoin3(a.ptr, b.ptr, c.ptr, &out) == 0, let out else { throw VipsError.take("bandjoin") }
        return VImage(out)
    }
    public static func black(width: Int, height: Int, bands: Int) throws -> VImage {
        var out: UnsafeMutablePointer<VipsImage>?
        guard pcv_black(&out, Int32(width), Int32(height), Int32(bands)) == 0, let out else { throw VipsError.take("black") }
        return VImage(out)
    }
    /// Rendered text (a one-band mask), made in memory under one process-wide lock: Pango and
    /// fontconfig share caches that are not safe across threads (the cover generator, rendering
    /// two covers at a time, crashed in GLib after ~20,000 of them without it).
    public static func text(_ s: String, width: Int, dpi: Int) throws -> VImage {
        textLock.lock(); defer { textLock.unlock() }
        var out: UnsafeMutablePointer<VipsImage>?
        guard pcv_text(&out, s, Int32(width), Int32(dpi)) == 0, let out else { throw VipsError.take("text") }
        return try VImage(out).copyMemory()
    }
    private static let textLock = NSLock()
    /// libvips' own shrink-on-load thumbnail: the decode reference for benchmarks.
    public static func thumbnail(_ path: String, width: Int) throws -> VImage {
        var out: UnsafeMutablePointer<VipsImage>?
        guard RawPath.with(path, { pcv_thumbnail($0, &out, Int32(width)) }) == 0, let out else { throw VipsError.take("thumbnail") }
        return VImage(out)
    }

    public func jpeg(quality: Int, strip: Bool = true) throws -> [UInt8] {
        var buf: UnsafeMutableRawPointer?
        var len = 0
        guard pcv_jpegsave_buffer(ptr, &buf, &len, Int32(quality), strip ? 1 : 0) == 0, let buf else { throw VipsError.take("jpegsave") }
        defer { pcv_free(buf) }
        return Array(UnsafeRawBufferPointer(start: buf, count: len))
    }

    /// Reads all pixels into a plain buffer (band-interleaved, the image's format).
    public func bytes() throws -> [UInt8] {
        var len = 0
        guard let p = pcv_write_to_memory(ptr, &len) else { throw VipsError.take("write_to_memory") }
        defer { pcv_free(p) }
        return Array(UnsafeRawBufferPointer(start: p, count: len))
    }
}
