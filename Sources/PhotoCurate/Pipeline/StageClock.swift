import Foundation

/// Accumulates time spent per stage across all tasks (task-seconds, so the
/// split adds up to the work done, not the wall clock).
///
/// ```swift
/// let v = clock.measure("decode") { try decoder.decode(path) }
/// ```
public final class StageClock: @unchecked Sendable {
    private let lock = NSLock()
    private var totals: [String: Double] = [:]

    public init() {}

    public func measure<T>(_ stage: String, _ body: () throws -> T) rethrows -> T {
        let t0 = DispatchTime.now().uptimeNanoseconds
        defer { add(stage, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9) }
        return try body()
    }

    public func add(_ stage: String, _ seconds: Double) {
        lock.lock(); totals[stage, default: 0] += seconds; lock.unlock()
    }

    public var snapshot: [String: Double] {
        lock.lock(); defer { lock.unlock() }
        return totals
    }
}
