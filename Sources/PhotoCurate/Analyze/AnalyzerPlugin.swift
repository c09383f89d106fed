import Foundation

/// An analyzer as the pipeline sees it: its declaration (id, version, parameters),
/// how to build it from a pipeline's parameters, and where its result goes in the
/// `PhotoRecord`. `AnalyzeStage` runs a list of these; it knows no analyzer by name.
///
/// ```swift
/// // Faces/FaceAnalyzer.swift
/// extension AnalyzerPlugin {
///     static let faces = AnalyzerPlugin(FaceAnalyzer.self, optional: true, summary: "faces, eyes, smile")
/// }
/// // AnalyzerRegistry.all gains `.faces`; pipelines/trip.yml gains `faces: {}`.
/// ```
/// Its result lands in `PhotoRecord.results[id]`, where later stages read it typed
/// (`record.result(FaceAnalyzer.self)`); the core analyzers fill their own fields instead.
public struct AnalyzerPlugin: Sendable {
    public let id: String
    public let version: Int
    public let summary: String
    public let parameterSpecs: [ParameterSpec]
    /// Optional analyzers run only when the pipeline file names them.
    public let optional: Bool
    /// An optional analyzer that the built-in pipeline (no --pipeline) names.
    public let onByDefault: Bool
    /// Called once the analyse stage has seen every photo of a run: an analyzer that
    /// holds models frees them here, so that clustering and export do not add their
    /// memory on top of the models'.
    let drained: (@Sendable () -> Void)?
    let build: @Sendable (Parameters, String) -> Instance

    /// A configured analyzer: its cache key, and the two things the stage does with it.
    struct Instance: Sendable {
        let key: ResultKey
        let analyze: @Sendable (AnalysisImage) throws -> Data
        /// Puts a (cached or fresh) result into the record; throws when the bytes do not decode.
        let store: @Sendable (Data, inout PhotoRecord) throws -> Void
    }

    public init<A: Analyzer>(_ type: A.Type, optional: Bool = false, onByDefault: Bool = false, summary: String,
                             field: (@Sendable (inout PhotoRecord, A.Output) -> Void)? = nil, drained: (@Sendable () -> Void)? = nil) {
        id = A.id
        version = A.version
        self.summary = summary
        parameterSpecs = A.parameterSpecs
        self.optional = optional
        self.onByDefault = onByDefault
        self.drained = drained
        build = { parameters, upstream in
            let analyzer = A(parameters: parameters)
            return Instance(
                key: analyzer.key(upstream: upstream),
                analyze: { image in try Self.encoder.encode(analyzer.analyze(image)) },
                store: { data, record in
                    let value = try JSONDecoder().decode(A.Output.self, from: data)
                    // A typed field, or the bytes: never both (10,000 records are held at once).
                    if let field { field(&record, value) } else { record.results[A.id] = data }
                })
        }
    }

    /// Key-sorted, so the same result is stored as the same bytes.
    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return e
    }
}

/// Every analyzer the engine has, in the order they run. A new analyzer is its own
/// file, one line here (or one `register` call from a layer the core does not
/// depend on, such as faces), and (if optional) one line in the pipeline file.
public enum AnalyzerRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var extra: [AnalyzerPlugin] = []

    /// Adds an analyzer from another layer; call it before building any pipeline.
    public static func register(_ plugin: AnalyzerPlugin) {
        lock.lock(); defer { lock.unlock() }
        if !extra.contains(where: { $0.id == plugin.id }) { extra.append(plugin) }
    }

    public static var all: [AnalyzerPlugin] {
        lock.lock(); defer { lock.unlock() }
        return core + extra
    }

    static let core: [AnalyzerPlugin] = [
        AnalyzerPlugin(QualityAnalyzer.self, summary: "sharpness, exposure, noise, composition") { $0.quality = $1 },
        AnalyzerPlugin(FeaturePrintAnalyzer.self, summary: "feature-print embedding") { $0.featurePrint = $1 },
        AnalyzerPlugin(SpectrumAnalyzer.self, summary: "luma power spectrum, for blur relative to a burst") { $0.spectrum = $1 },
        AnalyzerPlugin(DetailAnalyzer.self, summary: "the photo at 100 %: grain and fine detail from the JPEG's DCT coefficients") { $0.detail = $1.detail },
    ]

    public static func plugin(_ id: String) -> AnalyzerPlugin? { all.first { $0.id == id } }
}
