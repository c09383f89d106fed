import Foundation

/// One slot per task, filled from `DispatchQueue.concurrentPerform` iterations.
///
/// ```swift
/// let out = ResultSlots<Int>(count: n)
/// DispatchQueue.concurrentPerform(iterations: n) { k in out[k] = work(k) }
/// ```
public final class ResultSlots<T>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = NSLock()
    public init(count: Int) { slots = Array(repeating: nil, count: count) }
    public subscript(_ k: Int) -> T? {
        get { lock.lock(); defer { lock.unlock() }; return slots[k] }
        set { lock.lock(); slots[k] = newValue; lock.unlock() }
    }
}
