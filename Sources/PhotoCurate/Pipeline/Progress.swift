import Foundation
import Logging

/// What the pipeline tells the outside world while it runs.
public enum ProgressEvent: Sendable {
    case scanned(total: Int)
    case photo(done: Int, total: Int, path: String, cached: Bool, failed: Bool)
    case stage(String)
    case finished(seconds: Double)
}

/// Receives progress events; called from one task at a time.
public protocol ProgressSink: AnyObject {
    func handle(_ event: ProgressEvent)
}

/// Renders progress for a person (a live line on a TTY, sparse lines otherwise)
/// or for a machine (NDJSON), on stderr so stdout stays clean.
public final class ProgressPrinter: ProgressSink {
    public enum Mode: String, CaseIterable, Sendable { case auto, tty, plain, json, none }
    let mode: Mode
    let start = Date()
    var lastDraw = Date.distantPast
    var lastPlainPercent = -1
    var stageName = "scan"

    public init(mode: Mode) {
        if mode == .auto { self.mode = isatty(2) != 0 ? .tty : .plain } else { self.mode = mode }
    }

    func write(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }

    let log = StructuredLog.logger(.stage)

    public func handle(_ event: ProgressEvent) {
        switch event {
        case .stage(let s): log.info("stage", metadata: ["event": "stage", "stage": .string(s)])
        case .scanned(let total): log.info("scanned", metadata: ["event": "scanned", "total": .stringConvertible(total)])
        case .finished(let seconds): log.info("finished", metadata: ["event": "finished", "seconds": .stringConvertible(seconds)])
        case .photo: break
        }
        switch mode {
        case .none, .auto: return
        case .json: write(json(event) + "\n")
        case .tty, .plain: human(event)
        }
    }

    func human(_ event: ProgressEvent) {
        switch event {
        case .scanned(let total):
            if mode == .plain { write("found \(total) candidate files\n") }
        case .stage(let s):
            stageName = s
            if mode == .plain { write("stage: \(s)\n") }
        case .photo(let done, let total, _, _, _):
            let elapsed = Date().timeIntervalSince(start)
            let rate = Double(done) / max(0.001, elapsed)
            let eta = rate > 0 ? Double(total - done) / rate : 0
            if mode == .tty {
                guard done == total || Date().timeIntervalSince(lastDraw) > 0.1 else { return }
                lastDraw = Date()
                write(String(format: "\r\u{1B}[K%@ %d/%d  %.1f photos/s  ETA %.0fs", stageName, done, total, rate, eta))
                if done == total { write("\n") }
            } else {
                let pct = total == 0 ? 100 : done * 100 / total
                guard pct / 10 != lastPlainPercent / 10 || done == total else { return }
                lastPlainPercent = pct
                write(String(format: "%d/%d (%d%%) %.1f photos/s ETA %.0fs\n", done, total, pct, rate, eta))
            }
        case .finished(let s):
            if mode == .plain { write(String(format: "done in %.2fs\n", s)) }
        }
    }

    func json(_ event: ProgressEvent) -> String {
        func q(_ s: String) -> String {
            let d = try! JSONEncoder().encode(s)
            return String(decoding: d, as: UTF8.self)
        }
        let t = String(format: "%.3f", Date().timeIntervalSince(start))
        switch event {
        case .scanned(let total): return "{\"event\":\"scanned\",\"t\":\(t),\"total\":\(total)}"
        case .stage(let s): return "{\"event\":\"stage\",\"t\":\(t),\"stage\":\(q(s))}"
        case .photo(let done, let total, let path, let cached, let failed):
            return "{\"event\":\"photo\",\"t\":\(t),\"done\":\(done),\"total\":\(total),\"path\":\(q(path)),\"cached\":\(cached),\"failed\":\(failed)}"
        case .finished(let s): return "{\"event\":\"finished\",\"t\":\(t),\"seconds\":\(String(format: "%.3f", s))}"
        }
    }
}
