import Foundation
import Logging

/// photocurate's logs: swift-log loggers by category, one line per event on stderr,
/// as text for a person or as one JSON object per line for a machine.
///
/// ```swift
/// StructuredLog.bootstrap(format: .json, level: .info)     // once, in main
/// StructuredLog.logger(.download).info("progress", metadata: ["event": "progress", "model": "centerface", "pct": .stringConvertible(40)])
/// // {"category":"download","event":"progress","level":"info","model":"centerface","pct":40,"ts":"…"}
/// ```
/// Human progress (the live line, `--progress`) is separate and stays as it is.
public enum StructuredLog {
    public enum Category: String, CaseIterable, Sendable { case app, download, runtime, stage }
    public enum Format: String, CaseIterable, Sendable { case text, json }

    private static let once = NSLock()
    nonisolated(unsafe) private static var bootstrapped = false

    /// Sets the process's log handler; later calls are ignored (swift-log allows one).
    public static func bootstrap(format: Format, level: Logger.Level) {
        once.lock(); defer { once.unlock() }
        guard !bootstrapped else { return }
        bootstrapped = true
        LoggingSystem.bootstrap { label in Handler(category: label, format: format, logLevel: level) }
    }

    public static func logger(_ c: Category) -> Logger { Logger(label: c.rawValue) }

    struct Handler: LogHandler {
        let category: String
        let format: Format
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]
        private static let lock = NSLock()

        init(category: String, format: Format, logLevel: Logger.Level) {
            self.category = category; self.format = format; self.logLevel = logLevel
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            let text = Self.render(level: level, message: message, metadata: metadata.merging(extra ?? [:]) { $1 },
                                   category: category, format: format, date: Date())
            Self.lock.lock(); defer { Self.lock.unlock() }
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }

        /// One line: a JSON object with sorted keys, or text for a person.
        static func render(level: Logger.Level, message: Logger.Message, metadata all: Logger.Metadata, category: String,
                           format: Format, date: Date) -> String {
            let ts = ISO8601DateFormatter().string(from: date)
            let text: String
            switch format {
            case .json:
                var fields: [String: Any] = ["ts": ts, "level": level.rawValue, "category": category, "message": message.description]
                for (k, v) in all { fields[k] = Self.json(v) }
                if fields["event"] == nil { fields["event"] = message.description }
                let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
                text = String(decoding: data, as: UTF8.self)
            case .text:
                let meta = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                text = "photocurate [\(category)] \(level.rawValue): \(message)" + (meta.isEmpty ? "" : " (\(meta))")
            }
            return text
        }

        /// Numbers and booleans given as such (`"pct": .stringConvertible(40)`) stay numbers
        /// in JSON (`"pct":40`); strings stay strings, even when they look like numbers.
        static func json(_ v: Logger.Metadata.Value) -> Any {
            switch v {
            case .string(let s): return s
            case .stringConvertible(let c):
                if let n = c as? Int { return n }
                if let n = c as? Int64 { return n }
                if let d = c as? Double { return d.isFinite ? d as Any : c.description }
                if let b = c as? Bool { return b }
                return c.description
            case .array(let a): return a.map(json)
            case .dictionary(let d): return d.mapValues(json)
            }
        }
    }
}
