import PhotoCurate

/// Adds the albums stage to the engine's catalog; the CLI calls this once at start-up.
///
/// ```swift
/// AlbumsFeature.register()
/// // pipelines/albums.yml can now name `albums`.
/// ```
public enum AlbumsFeature {
    public static func register() {
        OutputStageRegistry.register(AlbumsStage.plugin)
    }
}
