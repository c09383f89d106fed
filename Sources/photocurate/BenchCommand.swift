import ArgumentParser
import Foundation
import PhotoCurate
import PhotoCurateBench

/// `photocurate bench …`: the labelled-trip generator, the scorer and the throughput harness.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark harness: make labelled trips, score manifests, measure throughput.",
        discussion: """
        EXAMPLES:
          photocurate bench make-trip --from ../shared/corpus --out /tmp/t --size 4000 --range mild
          photocurate run /tmp/t/photos -o /tmp/t/out && photocurate bench score --labels /tmp/t/labels.json --manifest /tmp/t/out/manifest.json
          photocurate bench speed /tmp/t/photos --pipeline pipelines/trip.yml
        """,
        subcommands: [MakeSources.self, MakeTrip.self, MakeCovers.self, MakeArtCatalog.self, Score.self, Alarms.self, Features.self, Speed.self, Cluster.self, ExifConformance.self]
    )

    struct MakeArtCatalog: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "make-art-catalog",
            abstract: "Write an evaluation artwork catalog: procedural paintings and crops of real photos with known properties, and rooms with a known wall.",
            discussion: """
            Writes OUT/artworks.json, OUT/images/, OUT/rooms/ and OUT/truth.json (what each artwork and room was made to be). Same seed, same bytes.

            EXAMPLES:
              photocurate bench make-art-catalog --out /tmp/art --sources ../shared/corpus --count 320
              photocurate art eval /tmp/art
            """)
        @Option(help: "Folder to write.") var out: String
        @Option(help: "Folder of real photos to crop a quarter of the artworks from (none: paintings only).") var sources: String?
        @Option(help: "Artworks.") var count = 320
        @Option(help: "Room photos.") var rooms = 24
        @Option(help: "Seed.") var seed: UInt64 = 3

        func run() async throws {
            guard count >= 1, rooms >= 0 else { throw fail("--count must be ≥ 1 and --rooms ≥ 0", code: ExitStatus.usage) }
            var g = ArtCatalogGenerator(out: out, sources: sources, count: count, seed: seed)
            g.rooms = rooms
            try g.generate()
            print("\(out): \(count) artworks, \(rooms) rooms, truth.json")
        }
    }

    struct MakeCovers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "make-covers",
            abstract: "Write a labelled album-identification set: procedural covers, a catalog of them, and phone photos of covers in and out of it.",
            discussion: """
            Writes OUT/catalog/ (albums.json + covers/), OUT/unknown/ (covers not in the catalog), OUT/photos/ and OUT/labels.json. \
            Conditions per photo: perspective ≤ 35°, cover width 25–75 % of the frame, glare, blur, JPEG quality 60–90, \
            occlusion ≤ 30 %, wear, 0–3 neighbouring covers; one in ten taken with the square guide. Same seed, same bytes.

            EXAMPLES:
              photocurate bench make-covers --out /tmp/albums --catalog 500 --photos 400 --unknown 100
              photocurate albums eval /tmp/albums
            """)
        @Option(help: "Folder to write.") var out: String
        @Option(help: "Covers in the catalog.") var catalog = 500
        @Option(help: "Photos of catalog covers.") var photos = 400
        @Option(help: "Covers not in the catalog (one photo each).") var unknown = 100
        @Option(help: "Seed.") var seed: UInt64 = 1
        @Option(help: "Cover images' size in pixels (smaller is faster: the 50,000-cover scale test uses 320).") var coverSize = 600

        func run() async throws {
            guard catalog >= 1, photos >= 0, unknown >= 0 else { throw fail("--catalog must be ≥ 1, --photos and --unknown ≥ 0", code: ExitStatus.usage) }
            guard (128...2048).contains(coverSize) else { throw fail("--cover-size \(coverSize): expected 128–2048", code: ExitStatus.usage) }
            var generator = CoverGenerator(seed: seed)
            generator.coverSize = coverSize
            try generator.write(to: out, catalog: catalog, photos: photos, unknown: unknown)
            print("\(out): \(catalog) catalog covers, \(unknown) unknown covers, \(photos + unknown) photos, labels.json")
        }
    }

    struct MakeTrip: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "make-trip",
            abstract: "Generate a labelled synthetic trip (OUT/photos/ and OUT/labels.json) from a folder of real photos.")
        @Option(help: "Folder of source photos, e.g. ../shared/corpus.") var from: String
        @Option(help: "Output folder.") var out: String
        @Option(help: "Random seed; the same seed gives the same bytes.") var seed: UInt64 = 1
        @Option(help: "Number of scenes (bursts).") var scenes: Int = 30
        @Option(help: "Long edge in pixels (4000 gives 4000×3000, 12 MP).") var size: Int = 2560
        @Option(help: "normal, or city-walk (scenes minutes and a few hundred metres apart).") var mode: String = "normal"
        @Option(help: "Corrupt, truncated and non-image files to add.") var corrupt: Int = 3
        @Option(help: "Fault strength: mild (the smallest a person rejects at 100 %: defocus σ 0.5–1.5 px, smear 3–8 px per 1000 px, grain σ 8–14) strong (defocus 1.5–4, smear 6–16, grain 16–28), or edge (just over each threshold: defocus 0.5–0.65, smear 3–3.8, grain 8–9.5, 1.7–1.9 EV; a stress test).")
        var range: String = "mild"
        @Option(help: "JPEG quality of the files (cameras write 90–98; web copies and libvips' default are 75).") var quality: Int = 90
        @Flag(help: "Add a misexposed frame's fault to its own handheld exposure (±0.7 EV), as trips made before the thirteenth session did, instead of to the scene's.")
        var frameRelativeExposure = false
        func validate() throws {
            guard (30...100).contains(quality) else { throw ValidationError("--quality must be 30…100") }
            guard TripGenerator.FaultRange(rawValue: range) != nil else { throw ValidationError("--range must be mild, strong or edge") }
            guard TripGenerator.Mode(rawValue: mode) != nil else { throw ValidationError("--mode must be normal or city-walk") }
            guard (64...4000).contains(size) else { throw ValidationError("--size must be 64…4000") }
            guard scenes >= 1 else { throw ValidationError("--scenes must be at least 1") }
        }
        func run() async throws {
            var g = TripGenerator(sources: from, out: out, seed: seed)
            g.mode = TripGenerator.Mode(rawValue: mode)!
            g.scenes = scenes
            g.longEdge = size
            g.corruptFiles = corrupt
            g.range = TripGenerator.FaultRange(rawValue: range)!
            g.jpegQuality = quality
            g.frameRelativeExposureFaults = frameRelativeExposure
            let t0 = Date()
            let labels = try await g.generate()
            let degraded = labels.files.values.filter { $0.degradation != nil }.count
            print(String(format: "%d files (%d scenes, %d degraded, %d corrupt) in %@/photos, labels in %@/labels.json, %.1fs",
                         labels.files.count, labels.scenes, degraded, labels.files.values.filter(\.corrupt).count, out, out, Date().timeIntervalSince(t0)))
            let sources = Set(labels.files.values.compactMap(\.source)).count
            if scenes > 2 * sources {
                // Crops alternate between two sides of a source, so a third use repeats the first one's view.
                print("note: \(scenes) scenes from \(sources) sources: some scenes are the same view of the same source; clustering scores will count them as errors")
            }
        }
    }

    struct MakeSources: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "make-sources",
            abstract: "Write procedural source images (for make-trip when no real photos are at hand, as in CI).")
        @Option(help: "Output folder.") var out: String
        @Option(help: "How many.") var count: Int = 8
        @Option(help: "Width in pixels (height is 3/4 of it).") var width: Int = 800
        func run() throws {
            try ProceduralScene.writeSources(count: count, to: out, width: width, height: width * 3 / 4)
            print("\(count) procedural sources in \(out)")
        }
    }

    struct Speed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Throughput: cold and warm photos/s against libvips' own thumbnail decode, peak RSS, per-stage split, scaling table.")
        @Argument(help: "Folder of photos.") var folder: String
        @Option(help: "Parallel tasks (default: cores).") var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
        @Option(help: "Comma-separated sizes for the scaling table (files repeat; cache bypassed), e.g. 100,1000,10000.") var scale: String = ""
        @Option(help: "Alternating reference/cold runs; medians are reported.") var repeats: Int = 3
        @Option(help: "Pipeline definition (YAML) to time, e.g. one that names faces; default: built-in.") var pipeline: String?
        @Option(name: .customLong("set"), help: "Override one parameter, e.g. --set faces.sideways=0 (repeatable).") var overrides: [String] = []
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var logs: LogOptions
        func run() async throws {
            logs.bootstrap()
            let sizes = scale.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            var definition = try pipeline.map(PipelineDefinition.load(path:)) ?? .defaults()
            for o in overrides { try definition.apply(override: o) }
            let r = try await SpeedBench.run(folder: folder, jobs: jobs, scaling: sizes, repeats: repeats, pipeline: definition)
            if json {
                let enc = JSONEncoder(); enc.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try enc.encode(r), as: UTF8.self))
            } else {
                print(SpeedBench.render(r), terminator: "")
            }
        }
    }

    struct Cluster: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Time clustering of N synthetic photos (scenes of 5) and check it finds the scenes.")
        @Option(help: "How many photos.") var photos: Int = 100_000
        func run() throws {
            let inputs = SyntheticPrints.inputs(photos)
            let t0 = Date()
            let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
            let secs = Date().timeIntervalSince(t0)
            let ari = photos <= 20_000 ? String(format: ", ARI %.3f", Metrics.adjustedRand(truth: (0..<photos).map { $0 / 5 }, predicted: c.clusterOf)) : ""
            print(String(format: "%d photos clustered in %.2fs: %d moments, %d visual groups (truth %d)%@", photos, secs, c.moments.count, c.clusters.count, (photos + 4) / 5, ari))
        }
    }

    struct Alarms: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count, by camera and by size, the photos of a run that the quality measures call faulty.",
            discussion: "Run it on a manifest of photos a person calls sharp and clean (e.g. photocurate run ../shared/exif-samples): every flag is a false alarm.")
        @Option(help: "manifest.json of a run.") var manifest: String
        @Option(help: "A list of files that are not photographs (graphics, renders, test patterns): one relative path per line, a tab, then why. They are counted apart, not in the rate.")
        var exclude: String?
        func run() throws {
            var m = try Manifest.read(manifest)
            if let exclude {
                let listed = try FalseAlarms.readExclusions(exclude)
                let (kept, left) = FalseAlarms.split(m, excluding: listed)
                m = kept
                if !left.isEmpty {
                    print("not photographs (\(left.count), left out of the rate):")
                    for (photo, why) in left {
                        let flags = FalseAlarms.flags(photo)
                        print("  \(photo.relativePath): \(why)" + (flags.isEmpty ? "" : " — would be called: " + flags.joined(separator: "; ")))
                    }
                    print("")
                }
            }
            print(FalseAlarms.render(FalseAlarms.table(m)))
        }
    }

    struct Score: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Score a manifest against a trip's labels: clustering, quality AUC, top-N checks.")
        @Option(help: "labels.json of the trip.") var labels: String
        @Option(help: "manifest.json of a run over the trip's photos.") var manifest: String
        @Option(name: .customLong("exclude-source"), help: "Leave the photos cut from this source (its file name in labels.json) out of the quality AUCs: one that is no photograph, such as a flat test pattern. Repeatable.")
        var excludeSource: [String] = []
        @Flag(help: "Print JSON.") var json = false
        func run() throws {
            let labels = try TripLabels.read(self.labels)
            let known = Set(labels.files.values.compactMap(\.source))
            for name in excludeSource where !known.contains(name) {
                throw ValidationError("--exclude-source \(name): no photo of \(self.labels) is cut from it")
            }
            let report = TripScorer.score(labels: labels, manifest: try Manifest.read(manifest), excludingSources: Set(excludeSource))
            if json {
                let enc = JSONEncoder(); enc.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try enc.encode(report), as: UTF8.self))
            } else {
                print(TripScorer.render(report))
            }
        }
    }
}
