import Dispatch
import Foundation

/// Turns the first Ctrl-C (or SIGTERM) into a cancellation, so the run stops
/// between photos and flushes the cache; a second one exits at once.
final class Interrupt: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private var count = 0

    static func install(_ onInterrupt: @escaping @Sendable () -> Void) -> Interrupt {
        let me = Interrupt()
        let queue = DispatchQueue(label: "photocurate.signals")
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                me.count += 1
                if me.count > 1 { exit(130) }
                FileHandle.standardError.write(Data("\nphotocurate: stopping after the photos in progress (Ctrl-C again to quit now)\n".utf8))
                onInterrupt()
            }
            source.resume()
            me.sources.append(source)
        }
        return me
    }

    func cancel() {
        sources.forEach { $0.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
