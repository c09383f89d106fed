#if canImport(Glibc)
import Glibc
#endif

/// Keeps freed memory in the process for the next photo instead of handing it back.
///
/// ```swift
/// Allocator.keepFreedMemory()   // once, before the first decode
/// ```
/// Every photo allocates the same few buffers of 1–3 MB (decoded pixels, luma,
/// gradients). glibc serves such sizes with fresh `mmap`s, or trims them off the
/// heap when freed, so each photo paid for zeroed pages again: on 12 MP JPEGs
/// the kernel's page faults and clearing cost a tenth of the run (cold throughput
/// 0.73× → 0.83× of the decode-only reference in `bench speed`). With these
/// settings the buffers are reused; peak RSS stays what the largest photo needs.
public enum Allocator {
    private static let applied: Void = {
        #if canImport(Glibc)
        // malloc.h is not in Swift's Glibc module; glibc's option numbers are ABI.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        let mTrimThreshold: Int32 = -1, mMmapThreshold: Int32 = -3
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
        _ = mallopt(mMmapThreshold, 64 << 20)
        _ = mallopt(mTrimThreshold, 512 << 20)
        #endif
    }()

    /// Applies the settings once; later calls are free.
    public static func keepFreedMemory() { _ = applied }
}
