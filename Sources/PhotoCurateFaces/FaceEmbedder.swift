import CBLAS
import CDlibShim
import Foundation
import PhotoCurate
import PhotoCurateModels

/// dlib's face descriptor: 128 numbers per face, close (Euclidean < 0.6) for the same
/// person across photos. Input: the analysis image and face boxes; output: one
/// descriptor per face.
///
/// ```swift
/// let e = try FaceEmbedder.shared(store: store)
/// let d = try e.describe([face.box], in: image)   // [[Float]] of 128 each
/// ```
/// The two models (`face-shape5`, `face-embed`) are checked and loaded once per
/// process; a failure is remembered and reported once. The network is dlib's own,
/// run through the `CDlibShim` target; calls are serialised inside the shim.
final class FaceEmbedder: @unchecked Sendable {
    static let models = ["face-shape5", "face-embed"]
    private let handle: OpaquePointer

    private init(shape: String, network: String) throws {
        var err = [CChar](repeating: 0, count: 512)
        guard let h = pcd_load(shape, network, &err, err.count) else {
            throw ModelError.io(path: network, reason: "dlib could not load it: \(String(cString: err))")
        }
        handle = h
    }

    deinit { pcd_free(handle) }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: Result<FaceEmbedder, Error>?

    /// The process's embedder, loaded on first use after checking both files against the catalog.
    static func shared(store: ModelStore) throws -> FaceEmbedder {
        lock.lock(); defer { lock.unlock() }
        if let loaded { return try loaded.get() }
        // dlib's convolutions go through OpenBLAS: one thread, as everywhere in the engine (parallelism is ours).
        openblas_set_num_threads(1)
        let r = Result { () throws -> FaceEmbedder in
            var paths: [String] = []
            for id in models {
                let entry = try store.entry(id)
                guard let path = store.installedPath(id) else { throw ModelError.notInstalled(id) }
                let sha = try SHA256.file(path)
                guard sha == entry.installed.sha256 else { throw ModelError.checksumMismatch(path: path, expected: entry.installed.sha256, actual: sha) }
                paths.append(path)
            }
            return try FaceEmbedder(shape: paths[0], network: paths[1])
        }
        loaded = r
        return try r.get()
    }

    /// Drops the process's embedder (its networks' memory); the next `shared` loads it again.
    static func release() {
        lock.lock(); defer { lock.unlock() }
        if case .success = loaded { loaded = nil }
    }

    /// Descriptors for boxes given as fractions of the image (x, y, w, h). dlib's landmarks
    /// want a box about its own detector's size: a square on the face's middle, 0.8× the
    /// larger side of CenterFace's looser box.
    func describe(_ boxes: [[Double]], in image: AnalysisImage) throws -> [[Float]] {
        guard !boxes.isEmpty else { return [] }
        let W = Double(image.width), H = Double(image.height)
        var flat: [Float] = []
        for b in boxes {
            let side = 0.8 * max(b[2] * W, b[3] * H)
            let cx = (b[0] + b[2] / 2) * W, cy = (b[1] + b[3] / 2) * H
            flat += [Float(cx - side / 2), Float(cy - side / 2), Float(side), Float(side)]
        }
        var out = [Float](repeating: 0, count: 128 * boxes.count)
        var err = [CChar](repeating: 0, count: 512)
        let rc = image.rgb.withUnsafeBufferPointer { rgb in
            pcd_embed(handle, rgb.baseAddress, Int32(image.width), Int32(image.height), flat, Int32(boxes.count), &out, nil, &err, err.count)
        }
        guard rc == 0 else { throw ModelError.io(path: "face-embed", reason: String(cString: err)) }
        return (0..<boxes.count).map { Array(out[(128 * $0)..<(128 * $0 + 128)]) }
    }
}
