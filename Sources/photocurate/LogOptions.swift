import ArgumentParser
import Logging
import PhotoCurate

/// `--log-format` and `--log-level`, shared by the commands that log.
///
/// ```
/// photocurate models install --log-format json
/// {"bytes":34824680,"category":"download","event":"installed","level":"info","model":"onnxruntime",…}
/// ```
struct LogOptions: ParsableArguments {
    @Option(help: "Logs on stderr: text, or json (one object per line with category and event).")
    var logFormat: StructuredLog.Format = .text
    @Option(help: "trace, debug, info, notice, warning, error or critical (default: warning for text, info for json).")
    var logLevel: Logger.Level?

    func bootstrap() {
        StructuredLog.bootstrap(format: logFormat, level: logLevel ?? (logFormat == .json ? .info : .warning))
    }
}

extension StructuredLog.Format: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
