import Hummingbird
import Logging

/// Runs a router until the process is stopped: what every photocurate server shares.
///
/// ```swift
/// try await Serve.run(router, host: "127.0.0.1", port: 3001, label: "art-server")
/// ```
/// Only warnings are logged: a request log on a loopback tool is noise.
enum Serve {
    static func run(_ router: Router<BasicRequestContext>, host: String, port: Int, label: String) async throws {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "photocurate"), logger: logger)
        try await app.runService()
    }
}
