import Foundation
import Logging

/// The loaded models of this process: each one is checked and loaded once, then
/// shared by every task.
///
/// ```swift
/// let sessions = ModelSessions(store: ModelStore(), threads: jobs)
/// let detector = try sessions.session(for: "centerface")   // loads it
/// let again = try sessions.session(for: "centerface")      // the same session
/// ```
/// A model is refused at load when its file no longer has the catalog's sha256
/// (`models verify` reports the same), and a feature whose model or runtime is
/// missing gets one clear error to report once, not one per photo.
public final class ModelSessions: @unchecked Sendable {
    public let store: ModelStore
    public let threads: Int
    private let lock = NSLock()
    private var sessions: [String: OnnxSession] = [:]
    private var failures: [String: Error] = [:]
    private var runtime: OnnxRuntime?
    /// How many models were loaded (each once, and again after `release`).
    public private(set) var loads = 0
    /// How many times `release` dropped the loaded sessions.
    public private(set) var releases = 0

    public init(store: ModelStore = ModelStore(), threads: Int) {
        self.store = store
        self.threads = threads
    }

    /// The session of an installed, intact model; the same one on every call.
    public func session(for id: String) throws -> OnnxSession {
        lock.lock(); defer { lock.unlock() }
        if let s = sessions[id] { return s }
        if let e = failures[id] { throw e }
        do {
            let s = try load(id)
            sessions[id] = s
            loads += 1
            return s
        } catch {
            failures[id] = error
            throw error
        }
    }

    /// Drops every loaded session, and the working memory the runtime keeps for each;
    /// the next `session(for:)` loads its model again.
    ///
    /// The analyse stage calls this once every photo has been through it: the face
    /// models' working memory (60–70 MB at 1,000 photos) is then free for clustering
    /// and export, which were the run's peak while it was held. A task still holding a
    /// session keeps it until it lets go.
    public func release() {
        lock.lock(); defer { lock.unlock() }
        sessions.removeAll()
        releases += 1
    }

    private func load(_ id: String) throws -> OnnxSession {
        let entry = try store.entry(id)
        guard let path = store.installedPath(id) else { throw ModelError.notInstalled(id) }
        let sha = try SHA256.file(path)
        guard sha == entry.installed.sha256 else { throw ModelError.checksumMismatch(path: path, expected: entry.installed.sha256, actual: sha) }
        if runtime == nil {
            guard let lib = store.installedPath("onnxruntime") else { throw ModelError.notInstalled("onnxruntime") }
            runtime = try OnnxRuntime(libraryPath: lib)
        }
        let session = try runtime!.session(model: path, threads: threads)
        Logger(label: "runtime").info("model ready", metadata: ["event": "model-ready", "model": .string(id), "sha256": .string(sha)])
        return session
    }
}
