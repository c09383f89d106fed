import Foundation

/// Failures collected from concurrent tasks (`DispatchQueue.concurrentPerform`), reported
/// in a stable order so that the same faults give the same message.
///
/// ```swift
/// let failures = FailureList()
/// DispatchQueue.concurrentPerform(iterations: n) { k in do { … } catch { failures.add("\(k): \(error)") } }
/// if let first = failures.first { throw … }
/// ```
public final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    public init() {}
    public func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
    /// The first in sorted order, not in the order the tasks happened to fail.
    public var first: String? { lock.lock(); defer { lock.unlock() }; return list.sorted().first }
}
