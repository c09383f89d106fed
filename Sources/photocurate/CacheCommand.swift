import ArgumentParser
import Foundation
import PhotoCurate

/// `photocurate cache stats|prune|vacuum`.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Look after the result cache.",
        discussion: """
        EXAMPLES:
          photocurate cache stats
          # keep what the nightly run reads too
          photocurate cache prune --pipeline pipelines/nightly.yml
          photocurate cache vacuum --cache /srv/photos/cache.sqlite
        """,
        subcommands: [Stats.self, Prune.self, Vacuum.self]
    )

    struct Location: ParsableArguments {
        @Option(help: "Cache database (default: $XDG_CACHE_HOME/photocurate/cache.sqlite).")
        var cache: String?
        func open() throws -> CacheStore {
            let path = cache ?? CacheStore.defaultPath()
            guard FileManager.default.fileExists(atPath: path) else { throw fail("no cache at \(path)") }
            return try CacheStore(path: path)
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Size, files and results per analyzer version.")
        @OptionGroup var location: Location
        func run() throws {
            let s = try location.open().stats()
            print("cache    \(s.path)")
            print(String(format: "size     %.1f MB", Double(s.bytes) / 1e6))
            print("files    \(s.files) paths, \(s.distinctPhotos) distinct photos with results")
            for (k, n) in s.results.sorted(by: { $0.key < $1.key }) { print("results  \(k): \(n)") }
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget deleted files, orphaned results, and results of other analyzer versions or parameters than the default pipeline's.")
        @OptionGroup var location: Location
        @Flag(help: "Keep results of other versions and parameters; only forget deleted files.")
        var keepOtherVersions = false
        @Option(help: "Keep the results this pipeline file reads (e.g. pipelines/nightly.yml), besides the built-in pipeline's.")
        var pipeline: [String] = []
        func run() throws {
            var keys = Set(CurationRunner.resultKeys(for: .defaults()))
            for file in pipeline {
                do { keys.formUnion(CurationRunner.resultKeys(for: try PipelineDefinition.load(path: file))) } catch {
                    throw ValidationError("\(error)")
                }
            }
            let (files, results) = try location.open().prune(current: keepOtherVersions ? nil : keys)
            print("pruned \(files) missing files and \(results) results")
        }
    }

    struct Vacuum: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Checkpoint the WAL and compact the database file.")
        @OptionGroup var location: Location
        func run() throws {
            let store = try location.open()
            let before = try store.stats().bytes
            try store.vacuum()
            let after = try store.stats().bytes
            print(String(format: "vacuumed: %.1f MB → %.1f MB", Double(before) / 1e6, Double(after) / 1e6))
        }
    }
}
