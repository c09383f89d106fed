import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (a free port), answering from a script: the
/// seam where tests stand in for a remote provider without any network.
///
/// ```swift
/// let stub = try StubHTTPServer { request in .init(status: 200, body: #"{"ok":true}"#) }
/// defer { stub.stop() }
/// // point the client at stub.baseURL; stub.requests holds what it received
/// ```
/// One connection at a time, `Connection: close`; enough for a client under test.
public final class StubHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var headers: [String: String]   // lower-cased names
        public var body: Data
    }
    public struct Response: Sendable {
        public var status: Int
        public var body: String
        /// Seconds to wait before answering (a slow or hung provider).
        public var delay: TimeInterval
        public init(status: Int, body: String, delay: TimeInterval = 0) { self.status = status; self.body = body; self.delay = delay }
    }

    public let port: UInt16
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    private let fd: Int32
    private let handler: @Sendable (Request) -> Response
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false

    public var requests: [Request] { lock.lock(); defer { lock.unlock() }; return received }

    public init(_ handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw NSError(domain: "StubHTTPServer", code: Int(errno)) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 8) == 0 else { close(fd); throw NSError(domain: "StubHTTPServer", code: Int(errno)) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = UInt16(bigEndian: addr.sin_port)
        self.fd = fd
        let t = Thread { [self] in self.serve() }
        t.start()
    }

    /// Stops accepting. The socket is closed by the serving thread itself: closing it here, while
    /// that thread waits in accept(), would let a new server reuse the number and have its
    /// connections answered by this one.
    public func stop() {
        lock.lock(); let was = stopped; stopped = true; lock.unlock()
        if !was { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    deinit { if !stopped { stop() } }

    private func serve() {
        while true {
            let c = accept(fd, nil, nil)
            lock.lock(); let done = stopped; lock.unlock()
            if done {
                if c >= 0 { close(c) }
                close(fd)
                return
            }
            if c < 0 { continue }
            handle(c)
            close(c)
        }
    }

    private func handle(_ c: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var data = Data()
        var headerEnd: Range<Data.Index>? = nil
        var need = Int.max
        while data.count < need {
            let n = read(c, &buffer, buffer.count)
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if headerEnd == nil, let r = data.range(of: Data("\r\n\r\n".utf8)) {
                headerEnd = r
                let head = String(decoding: data[..<r.lowerBound], as: UTF8.self)
                let length = head.split(separator: "\r\n").compactMap { line -> Int? in
                    let kv = line.split(separator: ":", maxSplits: 1)
                    return kv.count == 2 && kv[0].lowercased() == "content-length" ? Int(kv[1].trimmingCharacters(in: .whitespaces)) : nil
                }.first ?? 0
                need = r.upperBound + length
            }
        }
        guard let headerEnd else { return }
        let lines = String(decoding: data[..<headerEnd.lowerBound], as: UTF8.self).split(separator: "\r\n").map(String.init)
        let first = lines.first?.split(separator: " ").map(String.init) ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let kv = line.split(separator: ":", maxSplits: 1)
            if kv.count == 2 { headers[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces) }
        }
        let request = Request(method: first.first ?? "", path: first.count > 1 ? first[1] : "", headers: headers, body: Data(data[headerEnd.upperBound...]))
        lock.lock(); received.append(request); lock.unlock()
        let response = handler(request)
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        let body = Data(response.body.utf8)
        var out = Data("HTTP/1.1 \(response.status) Stub\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
        out.append(body)
        out.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(c, raw.baseAddress! + done, raw.count - done)
                if n <= 0 { return }
                done += n
            }
        }
    }
}
