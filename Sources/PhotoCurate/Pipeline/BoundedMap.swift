import AsyncAlgorithms

/// Runs `transform` over `input` with at most `limit` calls in flight and
/// hands results to `consume` one at a time, in completion order.
///
/// ```swift
/// try await BoundedMap.run(files, limit: 2, transform: { try await stage.process($0) }) { record in ... }
/// ```
/// Results pass through an `AsyncChannel`, whose `send` waits for the consumer:
/// at most `limit` decoded images exist at once, whatever the folder size.
/// Cancelling the calling task stops new work; calls in flight finish.
public enum BoundedMap {
    public static func run<In: Sendable, Out: Sendable>(
        _ input: [In], limit: Int,
        transform: @escaping @Sendable (In) async -> Out,
        consume: (Out) async throws -> Void
    ) async throws {
        let channel = AsyncChannel<Out>()
        try await withThrowingTaskGroup(of: Void.self) { outer in
            outer.addTask {
                await withTaskGroup(of: Out.self) { group in
                    var inflight = 0
                    for item in input {
                        if Task.isCancelled { break }
                        if inflight >= max(1, limit), let r = await group.next() {
                            await channel.send(r)
                            inflight -= 1
                        }
                        group.addTask { await transform(item) }
                        inflight += 1
                    }
                    for await r in group { await channel.send(r) }
                }
                channel.finish()
            }
            for await r in channel { try await consume(r) }
            try await outer.waitForAll()
        }
    }
}
