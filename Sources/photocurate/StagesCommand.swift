import ArgumentParser
import PhotoCurate

/// `photocurate stages`: every stage with its version and declared parameters.
struct StagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stages",
        abstract: "List the stages, their versions and parameters (defaults and ranges), or print a full pipeline file.",
        discussion: """
        EXAMPLES:
          photocurate stages
          photocurate stages --yaml > my-trip.yml && photocurate run ~/Trip --pipeline my-trip.yml
        """
    )

    @Flag(help: "Print a complete pipeline YAML with every default, ready to edit.")
    var yaml = false

    func run() {
        if yaml { print(PipelineDefinition.defaults().yaml(), terminator: ""); return }
        for e in StageCatalog.entries {
            print("\(e.id) v\(e.version) — \(e.summary)")
            for p in e.parameters {
                print("  \(p.name) = \(ParameterSpec.formatted(p.defaultValue))  [\(p.rangeText)]  \(p.doc)")
            }
        }
    }
}
