import PhotoCurate

/// Adds the exhibit stage to the engine's catalog; the CLI calls this once at start-up.
///
/// ```swift
/// ExhibitFeature.register()
/// // pipelines/exhibit.yml can now name `exhibit`.
/// ```
public enum ExhibitFeature {
    public static func register() {
        OutputStageRegistry.register(ExhibitStage.plugin)
    }
}
