import Foundation
import Logging
import PhotoCurate
import PhotoCurateModels

/// Puts face analysis into the engine: registers `FaceAnalyzer` as an optional
/// analyzer (it runs when the pipeline file names `faces`) with the process's models.
///
/// ```swift
/// FacesFeature.register(sessions: ModelSessions(threads: 1))
/// ```
public enum FacesFeature {
    nonisolated(unsafe) static var sessions: ModelSessions?
    private static let lock = NSLock()
    nonisolated(unsafe) private static var reported: Set<String> = []

    public static func register(sessions: ModelSessions) {
        lock.lock(); self.sessions = sessions; lock.unlock()
        AnalyzerRegistry.register(AnalyzerPlugin(FaceAnalyzer.self, optional: true, onByDefault: true,
                                                 summary: "faces: boxes, eyes, smile, pose, face sharpness, sideways photos (CenterFace, MediaPipe face mesh and iris; needs photocurate models install)",
                                                 drained: releaseModels))
    }

    /// Frees the face models once a run's photos are analysed (the registry keeps the
    /// first registration's hook, so this reads the sessions registered last).
    static func releaseModels() {
        lock.lock(); let sessions = self.sessions; lock.unlock()
        sessions?.release()
        FaceEmbedder.release()
        Allocator.returnFreedMemory()
    }

    /// A missing model is said once per process, not once per photo.
    static func reportOnce(_ message: String) {
        lock.lock()
        let first = reported.insert(message).inserted
        lock.unlock()
        if first { Logger(label: "stage").warning("\(message)", metadata: ["event": "feature-unavailable", "feature": "faces"]) }
    }
}
