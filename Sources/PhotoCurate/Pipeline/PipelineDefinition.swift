import Foundation
import Yams

/// A declarative pipeline: which stages run and with which parameters.
///
/// ```yaml
/// # pipelines/trip.yml
/// name: trip
/// stages:
///   cluster: { similarity: 0.75, timeWindow: 600 }
///   select: { top: 20 }
/// ```
/// Stages left out run with their defaults. Every stage name and parameter is
/// checked against `StageCatalog`; a mistake names the file, the line and what is allowed.
public struct PipelineDefinition: Sendable {
    public var name: String
    public var source: String
    public var stages: [String: Parameters]
    /// Stages the file (or `--set`) names: an optional analyzer runs only when named.
    public var named: Set<String> = []

    /// The analyzers that run, in registry order.
    public var analyzers: [String] {
        AnalyzerRegistry.all.filter { !$0.optional || named.contains($0.id) }.map(\.id)
    }

    /// All stages at their defaults: the built-in pipeline, the same as pipelines/trip.yml.
    /// It names the optional analyzers registered as on by default (faces), so they run
    /// without a pipeline file; a pipeline file runs them only where it names them.
    public static func defaults() -> PipelineDefinition {
        var p = PipelineDefinition(name: "default", source: "(built-in defaults)",
                                   stages: Dictionary(uniqueKeysWithValues: StageCatalog.entries.map { ($0.id, try! Parameters($0.parameters)) }))
        p.named = Set(AnalyzerRegistry.all.filter { $0.optional && $0.onByDefault }.map(\.id))
        return p
    }

    public func parameters(_ stage: String) -> Parameters { stages[stage]! }

    public mutating func set(_ stage: String, _ name: String, _ value: Double) throws {
        try stages[stage]!.set(name, value)
        named.insert(stage)
    }

    public static func load(path: String) throws -> PipelineDefinition {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw PipelineError(file: path, line: nil, message: "cannot read the pipeline file")
        }
        return try parse(text, source: path)
    }

    public static func parse(_ text: String, source: String) throws -> PipelineDefinition {
        var def = defaults()
        def.source = source
        // A file runs the optional analyzers it names, and no others.
        def.named = []
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw PipelineError(file: source, line: nil, message: "not valid YAML: \(error)")
        }
        guard let root = node?.mapping else {
            throw PipelineError(file: source, line: node?.mark.map { $0.line }, message: "expected a mapping with 'name' and 'stages'")
        }
        for (k, v) in root {
            let line = k.mark?.line
            switch k.string {
            case "name": def.name = v.string ?? def.name
            case "version":
                guard v.int == 1 else { throw PipelineError(file: source, line: line, message: "unsupported pipeline version '\(v.string ?? "?")'; allowed: 1") }
            case "description": continue
            case "stages":
                guard let stages = v.mapping else { throw PipelineError(file: source, line: line, message: "'stages' must be a mapping of stage name to parameters") }
                for (sk, sv) in stages {
                    let sline = sk.mark?.line
                    guard let id = sk.string, let entry = StageCatalog.entry(id) else {
                        throw PipelineError(file: source, line: sline, message: "unknown stage '\(sk.string ?? "?")'; allowed: \(StageCatalog.entries.map(\.id).joined(separator: ", "))")
                    }
                    def.named.insert(id)
                    if sv.scalar?.string == "" || sv.scalar?.tag.rawValue == Tag.Name.null.rawValue { continue }
                    guard let params = sv.mapping else {
                        throw PipelineError(file: source, line: sline, message: "stage '\(id)' needs a mapping of parameters")
                    }
                    for (pk, pv) in params {
                        let pline = pk.mark?.line
                        let name = pk.string ?? "?"
                        guard let spec = entry.parameters.first(where: { $0.name == name }) else {
                            throw PipelineError(file: source, line: pline, message: "stage '\(id)' has no parameter '\(name)'; allowed: \(entry.parameters.map(\.name).joined(separator: ", "))")
                        }
                        let value: Double?
                        if let b = pv.bool, pv.float == nil { value = b ? 1 : 0 } else { value = pv.float }
                        guard let value else {
                            throw PipelineError(file: source, line: pline, message: "'\(id).\(name)' must be a number in \(spec.rangeText), not '\(pv.string ?? "?")'")
                        }
                        do { try def.set(id, name, value) } catch let e as ParameterError {
                            throw PipelineError(file: source, line: pline, message: "'\(id).\(name)': \(e)")
                        }
                    }
                }
            default:
                throw PipelineError(file: source, line: line, message: "unknown key '\(k.string ?? "?")'; allowed: name, version, description, stages")
            }
        }
        return def
    }

    /// Applies one command-line override, "stage.parameter=value".
    public mutating func apply(override s: String) throws {
        let parts = s.split(separator: "=", maxSplits: 1).map(String.init)
        let path = parts.first?.split(separator: ".").map(String.init) ?? []
        guard parts.count == 2, path.count == 2 else { throw PipelineError(file: "--set", line: nil, message: "'\(s)' is not stage.parameter=value") }
        guard StageCatalog.entry(path[0]) != nil else {
            throw PipelineError(file: "--set", line: nil, message: "unknown stage '\(path[0])'; allowed: \(StageCatalog.entries.map(\.id).joined(separator: ", "))")
        }
        guard let v = Double(parts[1]) else { throw PipelineError(file: "--set", line: nil, message: "'\(parts[1])' is not a number") }
        do { try set(path[0], path[1], v) } catch let e as ParameterError {
            throw PipelineError(file: "--set", line: nil, message: "\(path[0]): \(e)")
        }
    }

    /// The YAML for these parameters (all stages, all values).
    public func yaml() -> String {
        var out = "name: \(name)\nversion: 1\nstages:\n"
        for e in StageCatalog.entries {
            out += "  \(e.id):\n"
            let p = stages[e.id]!
            for s in e.parameters { out += "    \(s.name): \(ParameterSpec.format(p[s.name]))   # \(s.doc) (\(s.rangeText))\n" }
        }
        return out
    }
}

/// A mistake in a pipeline file.
public struct PipelineError: Error, CustomStringConvertible {
    public let file: String
    /// 1-based line, when known.
    public let line: Int?
    public let message: String
    public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}
