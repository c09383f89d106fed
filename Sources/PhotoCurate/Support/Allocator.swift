#if canImport(Glibc)
import Glibc
#endif

/// glibc's malloc, tuned for a process that handles one photo after another on a few tasks.
///
/// ```swift
/// Allocator.oneHeap()           // first thing in main, before any task starts
/// Allocator.keepFreedMemory()   // once, before the first decode
/// ```
/// Every photo allocates the same few buffers of 1–3 MB (decoded pixels, luma,
/// gradients). glibc serves such sizes with fresh `mmap`s, or trims them off the
/// heap when freed, so each photo paid for zeroed pages again: on 12 MP JPEGs
/// the kernel's page faults and clearing cost a tenth of the run (cold throughput
/// 0.73× → 0.83× of the decode-only reference in `bench speed`). With these
/// settings the buffers are reused; peak RSS stays what the largest photo needs.
public enum Allocator {
    // malloc.h is not in Swift's Glibc module; glibc's option numbers are ABI.
    private static let mTrimThreshold: Int32 = -1, mMmapThreshold: Int32 = -3, mArenaMax: Int32 = -8

    private static func mallopt(_ option: Int32, _ value: Int32) {
        #if canImport(Glibc)
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: MallOpt.self)(option, value)
        #endif
    }

    private static let kept: Void = {
        mallopt(mMmapThreshold, 64 << 20)
        mallopt(mTrimThreshold, 512 << 20)
    }()

    /// Applies the settings once; later calls are free.
    public static func keepFreedMemory() { _ = kept }

    /// One malloc heap for the whole process.
    ///
    /// glibc gives each busy thread a heap of its own, and, with `keepFreedMemory`, each
    /// keeps what it once held: with the face models two of them held 42–57 MB beside the
    /// runtime's own arena. One heap peaked 25–40 MB lower in `bench speed`, with and without
    /// the models, at the same cold throughput (RESULTS, #9). Call it before tasks start:
    /// heaps already made stay.
    public static func oneHeap() { mallopt(mArenaMax, 1) }

    /// Gives the heap's free pages back to the system (`malloc_trim`).
    ///
    /// For a large block freed once and not needed again soon: the face models' working
    /// memory when a run's photos are analysed. `keepFreedMemory` keeps freed memory for
    /// the next photo; kept, the runtime's 60–70 MB stayed resident, and in a process that
    /// runs twice (`bench speed`) the second run's models took fresh memory beside it
    /// (251 MB at 1,000 photos, against 244 MB with the models never released).
    public static func returnFreedMemory() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}
