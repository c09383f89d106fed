import ArgumentParser
import Foundation
import PhotoCurate
import PhotoCurateArt
import PhotoCurateBench
import PhotoCurateServer

/// `photocurate art index|search|room|visualize|serve|eval`: artworks found by words, by a room photo, or both.
struct ArtCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "art",
        abstract: "Search an artwork catalog by text, by a room photo, or both; see an artwork in the room; serve the REST API.",
        discussion: """
        A catalog is artworks.json (the product's AlgoliaArtwork records) with the images it names, \
        relative to the file. Each image is analysed once (colours, light, warmth, texture, style) and cached \
        (--cache, default ~/.cache/photocurate/art.sqlite).

        EXAMPLES:
          photocurate art index ~/Art/artworks.json
          photocurate art search ~/Art "large abstract blue artwork for a bright office"
          photocurate art search ~/Art --room living-room.jpg
          photocurate art search ~/Art "under 800" --room living-room.jpg --sort price_asc --style abstract
          photocurate art room living-room.jpg
          photocurate art visualize ~/Art --room living-room.jpg --artwork aw-014 --x 0.5 --y 0.35 --scale 0.3 --out composite.jpg
          photocurate art serve ~/Art --port 3001
          photocurate bench make-art-catalog --out /tmp/art && photocurate art eval /tmp/art

        ANALYSIS PARAMETERS (--set name=value; analyzer \(ArtAnalyzer.id) v\(ArtAnalyzer.version); the cache keys on them):
        \(ArtAnalyzer.parameterSpecs.map { "  \($0.name) = \(ParameterSpec.formatted($0.defaultValue))  [\($0.rangeText)]  \($0.doc)" }.joined(separator: "\n"))
        """,
        subcommands: [Index.self, Search.self, Room.self, Visualize.self, Serve.self, Eval.self]
    )

    struct CatalogOptions: ParsableArguments {
        @Option(help: "Art cache (SQLite). Default: $XDG_CACHE_HOME/photocurate/art.sqlite.") var cache: String?
        @Flag(help: "Analyse without reading or writing a cache.") var noCache = false
        @Option(name: .customLong("set"), help: ArgumentHelp("An art analysis parameter, e.g. --set dominantShare=0.1 (`photocurate art --help` lists them).", valueName: "param=value"))
        var overrides: [String] = []

        func library(_ path: String, quiet: Bool = false) throws -> ArtLibrary { try libraryAndReport(path, quiet: quiet).0 }

        func libraryAndReport(_ path: String, quiet: Bool = false) throws -> (ArtLibrary, ArtLibrary.Report) {
            var p = try Parameters(ArtAnalyzer.parameterSpecs)
            for o in overrides {
                let kv = o.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, let v = Double(kv[1]) else { throw fail("--set \(o): expected param=number", code: ExitStatus.usage) }
                do { try p.set(kv[0], v) } catch { throw fail("--set: \(error)", code: ExitStatus.usage) }
            }
            let catalog: ArtCatalog
            do { catalog = try ArtCatalog.load(path) } catch { throw fail("\(error)") }
            var store: CacheStore?
            if !noCache {
                let path = cache ?? ArtLibrary.defaultCachePath()
                do {
                    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    store = try CacheStore.openChecked(path: path, warn: { FileHandle.standardError.write(Data("photocurate: warning: \($0)\n".utf8)) })
                } catch {
                    FileHandle.standardError.write(Data("photocurate: warning: art cache \(path) not used (\(error)); images are analysed without it\n".utf8))
                }
            }
            let library = try ArtLibrary(catalog: catalog, analyzer: ArtAnalyzer(parameters: p), cache: store)
            let report = library.analyseMissing()
            for problem in report.problems { FileHandle.standardError.write(Data("photocurate: \(problem)\n".utf8)) }
            if !quiet {
                FileHandle.standardError.write(Data("catalog: \(catalog.artworks.count) artworks, \(report.analysed) analysed, \(report.reused) from the cache, \(report.problems.count) problems\n".utf8))
            }
            if library.entries.isEmpty { throw fail("\(path): no artwork could be analysed") }
            return (library, report)
        }
    }

    struct Index: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Analyse every artwork image once and cache it; report records and images that cannot be used.")
        @Argument(help: "artworks.json, or a folder that holds it.") var catalog: String
        @OptionGroup var options: CatalogOptions
        @Option(help: "Also write every analysis (the product's AIAnalysisData, keyed by objectID) to this JSON file.") var out: String?
        func run() async throws {
            let (library, report) = try options.libraryAndReport(catalog)
            if let out {
                var all: [String: ArtAnalysis] = [:]
                for (a, an) in library.analysed { all[a.objectID] = an }
                let e = JSONEncoder(); e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try AtomicFile.write(try e.encode(all), to: out)
            }
            // Some records or images could not be used: the rest is indexed, and the exit status says it was partial.
            if !report.problems.isEmpty { throw ExitCode(ExitStatus.partial) }
        }
    }

    struct SearchFlags: ParsableArguments {
        @Option(help: "Lowest price.") var priceMin: Double?
        @Option(help: "Highest price.") var priceMax: Double?
        @Option(help: "Keep artworks with any of these styles (repeatable): abstract, representational, geometric, minimalist, colour field, expressive.") var style: [String] = []
        @Option(help: "Keep artworks with any of these dominant colours or families (repeatable).") var color: [String] = []
        @Option(help: "Keep artworks whose studio name contains this (any case).") var artist: String?
        @Option(help: "best, price_asc, price_desc, newest or random.") var sort: String = "best"
        @Option(help: "Seed of --sort random.") var seed: UInt64 = 1
        @Option(help: "Results to show (1–200).") var limit = 10

        func options() throws -> SearchOptions {
            var o = SearchOptions()
            o.priceMin = priceMin; o.priceMax = priceMax; o.styles = style; o.colors = color; o.artist = artist; o.seed = seed
            guard let s = SearchOptions.Sort(rawValue: sort) else {
                throw fail("--sort \(sort): expected one of \(SearchOptions.Sort.allCases.map(\.rawValue).joined(separator: ", "))", code: ExitStatus.usage)
            }
            guard (1...200).contains(limit) else { throw fail("--limit \(limit): expected 1–200", code: ExitStatus.usage) }
            o.sort = s; o.limit = limit
            return o
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Find artworks by a description, a room photo, or both; print the matches and why.")
        @Argument(help: "artworks.json, or a folder that holds it.") var catalog: String
        @Argument(help: "What you are looking for, e.g. \"large abstract blue artwork for a bright office under 800\".") var query: String?
        @Option(help: "A photo of the room the artwork is for.") var room: String?
        @OptionGroup var flags: SearchFlags
        @OptionGroup var options: CatalogOptions
        @Flag(help: "Print the response JSON (the REST API's).") var json = false

        func run() async throws {
            guard query?.isEmpty == false || room != nil else { throw fail("give a query, --room PHOTO, or both", code: ExitStatus.usage) }
            let library = try options.library(catalog, quiet: json)
            var criteria = query.map { QueryParser().parse($0) } ?? SearchCriteria()
            if let room {
                let r: RoomAnalysis
                do { r = try RoomAnalyzer().analyze(path: room) } catch { throw fail("\(room): \(error)") }
                let rc = RoomAnalyzer().criteria(for: r)
                criteria = query == nil ? rc : criteria.merged(with: rc)
            }
            let response = ArtMatcher().search(criteria, entries: library.entries, options: try flags.options())
            if json {
                let e = JSONEncoder(); e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try e.encode(response), as: UTF8.self))
                return
            }
            if let m = response.message { print("note: \(m)") }
            if !response.criteria.unrecognised.isEmpty { print("not understood: \(response.criteria.unrecognised.joined(separator: ", "))") }
            if let w = response.criteria.wall { print("room: \(w.evidence.joined(separator: "; "))") }
            print("\(response.total) artworks match; best \(response.count):")
            for r in response.results {
                let a = r.artwork
                print(String(format: "%5.1f  %-6@ %@  \"%@\" by %@, %@ %@", r.score, r.confidence as NSString, a.objectID as NSString, a.title as NSString,
                             a.studioName as NSString, ArtMatcher.money(a.price) as NSString, a.currency as NSString))
                for reason in r.reasons { print("         · \(reason)") }
            }
        }
    }

    struct Room: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show what a room photo says: wall colour and area, light, warmth, style cue.")
        @Argument(help: "A photo of a room.") var photo: String
        func run() async throws {
            let r: RoomAnalysis
            do { r = try RoomAnalyzer().analyze(path: photo) } catch { throw fail("\(photo): \(error)") }
            let e = JSONEncoder(); e.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try e.encode(r), as: UTF8.self))
        }
    }

    struct Visualize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Place an artwork in a room photo and write the composite JPEG.")
        @Argument(help: "artworks.json, or a folder that holds it.") var catalog: String
        @Option(help: "The room photo.") var room: String
        @Option(help: "The artwork's objectID.") var artwork: String
        @OptionGroup var placement: PlacementOptions
        @Option(help: "Composite JPEG to write.") var out: String = "composite.jpg"
        func run() async throws {
            let cat: ArtCatalog
            do { cat = try ArtCatalog.load(catalog) } catch { throw fail("\(error)") }
            guard let a = cat.artwork(id: artwork) else { throw fail("\(artwork): no artwork with this objectID in \(cat.file)") }
            let p = try placement.placement()
            do {
                let jpeg = try RoomVisualizer().composite(room: room, artwork: try cat.imagePath(of: a), placement: p)
                try AtomicFile.write(Data(jpeg), to: out)
            } catch { throw fail("\(error)") }
            print("\(out): \(a.title) in \((room as NSString).lastPathComponent)")
        }
    }

    struct PlacementOptions: ParsableArguments {
        @Option(help: "Centre of the artwork, 0–1 across the room photo.") var x = 0.5
        @Option(help: "Centre of the artwork, 0–1 down the room photo.") var y = 0.4
        @Option(help: "Artwork width as a fraction of the room photo's width (0.02–1).") var scale = 0.3
        @Option(help: "Height / width stretch when --no-aspect-lock is given.") var stretch = 1.0
        @Flag(inversion: .prefixedNo, help: "Keep the artwork's own aspect ratio.") var aspectLock = true
        @Option(help: "Quarter turns clockwise (0–3).") var rotation = 0
        @Option(help: "Opacity 0–1.") var opacity = 1.0
        @Flag(help: "Draw a 10×10 grid over the room.") var grid = false

        func placement() throws -> RoomVisualizer.Placement {
            let p = RoomVisualizer.Placement(x: x, y: y, scale: scale, rotation: rotation, opacity: opacity, aspectLock: aspectLock, stretch: stretch, grid: grid)
            if let why = p.problem { throw fail(why, code: ExitStatus.usage) }
            return p
        }
    }

    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Serve the art-match REST API and its web page (loopback by default).")
        @Argument(help: "artworks.json, or a folder that holds it.") var catalog: String
        @Option(help: "Port.") var port = 3001
        @Option(help: "Address to listen on; 0.0.0.0 exposes it to the network.") var host = "127.0.0.1"
        @OptionGroup var options: CatalogOptions
        func run() async throws {
            let library = try options.library(catalog)
            FileHandle.standardError.write(Data("serving \(library.catalog.artworks.count) artworks on http://\(host):\(port)/ (Ctrl-C stops)\n".utf8))
            try await ArtServer(library: library, host: host, port: port).run()
        }
    }

    struct Eval: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Score search on a catalog made by `bench make-art-catalog`: precision@10, room harmony, true reasons.")
        @Argument(help: "The folder `bench make-art-catalog` wrote.") var folder: String
        @OptionGroup var options: CatalogOptions
        @Flag(help: "Print the report as JSON.") var json = false
        func run() async throws {
            let library = try options.library(folder, quiet: json)
            let report = try ArtEvaluation(folder: folder).run(library: library)
            if json {
                let e = JSONEncoder(); e.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try e.encode(report), as: UTF8.self)); return
            }
            for q in report.queries {
                print(String(format: "%-12@ p@10 %.1f (%3d relevant)  %@%@", q.group as NSString, q.precision, q.relevant, q.query as NSString, q.wrong.isEmpty ? "" : "  wrong: \(q.wrong.joined(separator: " "))" as NSString))
            }
            for (g, p) in report.groups.sorted(by: { $0.key < $1.key }) { print(String(format: "mean p@10 %-12@ %.3f", g as NSString, p)) }
            for r in report.rooms { print("room \(r.room): wall \(r.wall) (read as \(r.measuredWall)), \(r.harmonising)/\(r.returned) harmonise") }
            print("abstract vs representational: \(report.photosCalledAbstract) of \(report.photos) photographs called abstract, \(report.paintingsCalledRepresentational) of \(report.paintings) paintings called representational")
            print("rooms with ≥ 8 of 10 harmonising: \(report.roomsMeeting8of10)/\(report.rooms.count)")
            print("reasons checked: \(report.reasonsChecked), false: \(report.falseReasons.count)")
            for f in report.falseReasons.prefix(20) { print("  false: \(f)") }
        }
    }
}
