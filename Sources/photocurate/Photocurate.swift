import ArgumentParser
import Foundation
import PhotoCurate
import PhotoCurateFaces
import PhotoCurateModels
import PhotoCurateAlbums
import PhotoCurateArt
import PhotoCurateExhibit

/// The `photocurate` command line.
///
/// ```
/// photocurate run ~/Trip --top 20
/// ```
@main
struct Photocurate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photocurate",
        abstract: "Batch photo curation: picks the best, most diverse photos of a trip and says why.",
        discussion: """
        Exit codes: 0 success; 2 partial success (some files could not be used, the manifest lists them); \
        1 fatal error (nothing usable was written); 64 usage error; 130 interrupted (computed results stay cached).
        """,
        version: Manifest.toolVersion,
        subcommands: [RunCommand.self, InspectCommand.self, CacheCommand.self, StagesCommand.self, ModelsCommand.self, ExhibitCommand.self, AlbumsCommand.self, ArtCommand.self, BenchCommand.self],
        defaultSubcommand: nil
    )

    /// Layers the engine does not depend on register here, before any pipeline is built.
    static func main() async {
        // Before any task: glibc's heaps are made per thread as they start (see Allocator).
        Allocator.oneHeap()
        // One model session per process; each runs single-threaded, `--jobs` photos at a time.
        FacesFeature.register(sessions: ModelSessions(threads: 1))
        ExhibitFeature.register()
        AlbumsFeature.register()
        ArtFeature.register()
        await main(nil)
    }
}

/// Exit codes documented in README.md.
enum ExitStatus {
    static let success: Int32 = 0
    static let fatal: Int32 = 1
    static let partial: Int32 = 2
    static let usage: Int32 = 64
    static let interrupted: Int32 = 130
}

func fail(_ message: String, code: Int32 = ExitStatus.fatal) -> ExitCode {
    FileHandle.standardError.write(Data("photocurate: \(message)\n".utf8))
    return ExitCode(code)
}
