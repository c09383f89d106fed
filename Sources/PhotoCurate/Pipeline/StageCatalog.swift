import Foundation

/// Every configurable stage, its version and its declared parameters, in pipeline order.
/// Pipeline files, `photocurate stages` and the docs are checked against this list.
/// The analyzers come from `AnalyzerRegistry`.
public enum StageCatalog {
    public struct Entry: Sendable {
        public let id: String
        public let version: Int
        public let summary: String
        public let parameters: [ParameterSpec]
    }

    public static let importParameters: [ParameterSpec] = [
        ParameterSpec("longEdge", 768, in: 128...4096, integer: true, "long edge of the analysis image, in pixels (one fixed scale for every metric)"),
        ParameterSpec("maxMegapixels", 200, in: 1...10_000, "larger images are refused as decompression bombs"),
    ]
    public static let exportParameters: [ParameterSpec] = [
        ParameterSpec("csv", 1, in: 0...1, integer: true, "also write manifest.csv"),
        ParameterSpec("contactSheet", 1, in: 0...1, integer: true, "also write contact-sheet.jpg of the picks"),
        ParameterSpec("thumbnailSize", 320, in: 64...1024, integer: true, "contact-sheet thumbnail size, in pixels"),
    ]

    public static var entries: [Entry] { [
        Entry(id: "import", version: PhotoImporter.version, summary: "scan, EXIF (libexif), decode (libvips shrink-on-load)", parameters: importParameters),
    ] + AnalyzerRegistry.all.map {
        Entry(id: $0.id, version: $0.version, summary: $0.summary + ($0.optional ? ($0.onByDefault ? " (built-in pipeline and those that name it)" : " (runs when the pipeline names it)") : ""), parameters: $0.parameterSpecs)
    } + [
        Entry(id: ClusterStage.id, version: ClusterStage.version, summary: "moments and visual groups", parameters: ClusterStage.parameterSpecs),
        Entry(id: SelectStage.id, version: SelectStage.version, summary: "scores, best per group, diverse top N", parameters: SelectStage.parameterSpecs),
        Entry(id: "export", version: 1, summary: "manifest JSON/CSV, contact sheet", parameters: exportParameters),
    ] + OutputStageRegistry.all.map {
        Entry(id: $0.id, version: $0.version, summary: $0.summary + " (runs when the pipeline names it)", parameters: $0.parameterSpecs)
    } }

    public static func entry(_ id: String) -> Entry? { entries.first { $0.id == id } }
}
