import Foundation

/// A stage after `select` that turns the finished manifest into more outputs
/// (the exhibit, …): declared like an analyzer, run only when a pipeline file
/// names it, and written into the export's staging folder so that its files
/// land with the manifest as one set.
///
/// ```swift
/// // Sources/PhotoCurateExhibit/ExhibitStage.swift
/// OutputStageRegistry.register(OutputStagePlugin(id: "exhibit", version: 1, summary: "offline gallery",
///     parameterSpecs: ExhibitStage.parameterSpecs, outputs: ["exhibit"]) { params, context, dir in
///     try ExhibitStage(parameters: params).write(context, into: dir)
/// })
/// // pipelines/exhibit.yml gains `exhibit: {}`.
/// ```
/// Input: `OutputContext` (the manifest and the photo folder). Output: the
/// top-level names it wrote inside the staging folder (a subset of `outputs`).
public struct OutputStagePlugin: Sendable {
    public let id: String
    public let version: Int
    public let summary: String
    public let parameterSpecs: [ParameterSpec]
    /// Top-level names in the output folder that this stage owns; a run that does not
    /// make them removes stale ones, so no output of another run is left behind.
    public let outputs: [String]
    public let write: @Sendable (Parameters, OutputContext, String) throws -> Void
    /// Checks what the stage will read from the photo folder (files the user wrote) before any
    /// analysis, so that a mistake there is reported at once, not after the whole run.
    public let check: @Sendable (Parameters, String) throws -> Void

    public init(id: String, version: Int, summary: String, parameterSpecs: [ParameterSpec], outputs: [String],
                check: @escaping @Sendable (Parameters, String) throws -> Void = { _, _ in },
                write: @escaping @Sendable (Parameters, OutputContext, String) throws -> Void) {
        self.check = check
        self.id = id
        self.version = version
        self.summary = summary
        self.parameterSpecs = parameterSpecs
        self.outputs = outputs
        self.write = write
    }
}

/// What an output stage reads: the run's manifest (facts, scores, reasons,
/// moments, people) and the folder that was curated (for files the user wrote
/// beside the photos, such as `works.yml`).
public struct OutputContext: Sendable {
    public var manifest: Manifest
    public var root: String
    public init(manifest: Manifest, root: String) {
        self.manifest = manifest
        self.root = root
    }
}

/// Output stages from layers the engine does not depend on, registered at start-up.
public enum OutputStageRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var list: [OutputStagePlugin] = []

    public static func register(_ plugin: OutputStagePlugin) {
        lock.lock(); defer { lock.unlock() }
        if !list.contains(where: { $0.id == plugin.id }) { list.append(plugin) }
    }

    public static var all: [OutputStagePlugin] {
        lock.lock(); defer { lock.unlock() }
        return list
    }
}

extension PipelineDefinition {
    /// The output stages this pipeline runs (always optional: only when named), with their parameters.
    public var outputStages: [(plugin: OutputStagePlugin, parameters: Parameters)] {
        OutputStageRegistry.all.filter { named.contains($0.id) }.map { ($0, parameters($0.id)) }
    }
}
