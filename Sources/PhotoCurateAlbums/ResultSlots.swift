import Foundation

/// One slot per task, filled from `DispatchQueue.concurrentPerform` iterations.
///
/// ```swift
/// let out = ResultSlots<Int>(count: n)
/// DispatchQueue.concurrentPerform(iterations: n) { k in out[k] = work(k) }
/// ```
final class ResultSlots<T>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    subscript(_ k: Int) -> T? {
        get { lock.lock(); defer { lock.unlock() }; return slots[k] }
        set { lock.lock(); slots[k] = newValue; lock.unlock() }
    }
}
