import ArgumentParser
import Foundation
import PhotoCurate

/// `photocurate run DIR --top N`: the whole pipeline, a summary and a manifest.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Curate a folder: analyse (cached), cluster, select, and write manifest.json.",
        discussion: """
        Photos are only read; with --xmp a sidecar file is written beside each one (the photo itself \
        is never changed). Outputs go to --out (default ./photocurate-out) as one set, one run at a \
        time: manifest.json, manifest.csv, contact-sheet.jpg, people/ when people are grouped, and \
        picks/ with --copy or --link.
        Stage parameters come from the pipeline file (--pipeline; default: built-in, same as pipelines/trip.yml) \
        and can be overridden one by one with --set stage.parameter=value. `photocurate stages` lists them all.

        EXAMPLES:
          photocurate run ~/Trip -n 20
          photocurate run ~/Trip -n 30 -o ~/Trip-best --copy
          photocurate run ~/Library --pipeline pipelines/nightly.yml --xmp -q
          photocurate run ~/Trip --set faces.people=1 --set cluster.timeWindow=1200
        """
    )

    @Argument(help: "Folder of photos (searched recursively; hidden folders are skipped).")
    var folder: String

    @Option(name: [.customShort("n"), .long], help: "How many photos to pick (default 20: select.top).")
    var top: Int?

    @Option(name: [.customShort("o"), .long], help: "Output folder for manifest.json, manifest.csv, contact-sheet.jpg and picks/.")
    var out: String = "photocurate-out"

    @Option(help: "Cache database (default: $XDG_CACHE_HOME/photocurate/cache.sqlite).")
    var cache: String?

    @Flag(help: "Do not read or write the cache.")
    var noCache = false

    @Option(help: ArgumentHelp("Photos analysed at once.", valueName: "n"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Pipeline definition (YAML); see pipelines/trip.yml.")
    var pipeline: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Override one parameter, e.g. --set cluster.similarity=0.8 (repeatable).", valueName: "stage.param=value"))
    var overrides: [String] = []

    @Option(help: "Progress: auto, tty, plain, json (NDJSON on stderr) or none.")
    var progress: ProgressPrinter.Mode = .auto

    @Flag(help: "Copy the picks into OUT/picks/ (named by rank).")
    var copy = false

    @Flag(help: "Symlink the picks into OUT/picks/ instead of copying.")
    var link = false

    @Flag(help: "Write XMP sidecars beside the originals (photo.jpg.xmp): ratings, labels, keywords. Existing sidecars are merged.")
    var xmp = false

    @Flag(help: "With --xmp, name sidecars Adobe-style (photo.xmp) instead of darktable-style (photo.jpg.xmp).")
    var xmpAdobeNames = false

    @Flag(name: [.customShort("q"), .long], help: "Quiet: no progress and no summary; only problems (stderr) and the manifest's path.")
    var quiet = false

    @OptionGroup var logs: LogOptions

    func validate() throws {
        if let top, top < 1 { throw ValidationError("--top must be at least 1") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if copy && link { throw ValidationError("choose one of --copy and --link") }
    }

    func run() async throws {
        logs.bootstrap()
        let appLog = StructuredLog.logger(.app)
        appLog.info("run", metadata: ["event": "start", "folder": .string(folder), "jobs": .stringConvertible(jobs)])
        var definition: PipelineDefinition
        do {
            definition = try pipeline.map(PipelineDefinition.load(path:)) ?? .defaults()
            for o in overrides { try definition.apply(override: o) }
            if let top { try definition.set(SelectStage.id, "top", Double(top)) }
        } catch let e as PipelineError {
            throw fail("\(e)", code: ExitStatus.usage)
        } catch {
            throw fail("\(error)", code: ExitStatus.usage)
        }
        // An output folder that cannot be written is found now, not after the whole analysis.
        do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
            throw fail("--out \(out) cannot be created (\(AtomicFile.reason(error))): choose a folder you can write to", code: ExitStatus.fatal)
        }
        if access(out, W_OK) != 0 {
            throw fail("--out \(out) is not writable (\(String(cString: strerror(errno)))): choose a folder you can write to", code: ExitStatus.fatal)
        }
        // Files the output stages will read (works.yml, …) are checked now, not after the analysis.
        for (plugin, parameters) in definition.outputStages {
            do { try plugin.check(parameters, folder) } catch { throw fail("\(plugin.id): \(error)", code: ExitStatus.usage) }
        }
        let lock: OutputLock
        do { lock = try OutputLock(folder: out) } catch { throw fail("\(error)", code: ExitStatus.fatal) }
        defer { withExtendedLifetime(lock) {} }
        // Absolute, so manifest paths and --link targets work from anywhere.
        var options = CurationRunner.Options(root: URL(fileURLWithPath: folder).standardizedFileURL.path)
        options.pipeline = definition
        options.jobs = jobs
        options.cachePath = noCache ? nil : (cache ?? CacheStore.defaultPath())
        let printer = ProgressPrinter(mode: quiet ? .none : progress)
        options.progress = printer

        let started = Date()
        let runner = CurationRunner(options: options)
        let task = Task { try await runner.run() }
        let interrupt = Interrupt.install { task.cancel() }
        defer { interrupt.cancel() }
        let result: CurationRunner.Result
        do { result = try await task.value } catch let e as PhotoError {
            throw fail(e.description)
        } catch {
            throw fail("\(error)")
        }
        if result.cancelled {
            throw fail("interrupted: \(result.computedPhotos) photos analysed in this run are saved in the cache; run again to continue", code: ExitStatus.interrupted)
        }

        var manifest = Manifest(result, startedAt: started, finishedAt: Date())
        let exportParams = definition.parameters("export")
        // Sidecars first, so one that cannot be written is in the manifest's errors; the rest go on.
        if xmp { manifest.errors += XMPSidecarWriter(adobeNames: xmpAdobeNames).write(manifest) }
        do {
            try Exporter(outDir: out).write(manifest, csv: exportParams.int("csv") == 1,
                                            contactSheet: exportParams.int("contactSheet") == 1 && !manifest.picks.isEmpty,
                                            thumbnail: exportParams.int("thumbnailSize"),
                                            picks: copy ? .copy : link ? .link : nil,
                                            stages: definition.outputStages, root: result.root)
        } catch {
            throw fail("outputs not written to \(out): \((error as? PhotoError)?.description ?? AtomicFile.reason(error))")
        }
        if quiet {
            for e in manifest.errors { FileHandle.standardError.write(Data("photocurate: \(e.message)\n".utf8)) }
            print("\(out)/manifest.json")
        } else {
            print(Summary.render(manifest, outDir: out))
            // Where each output stage the pipeline named wrote (exhibit/, albums/, …).
            for (plugin, _) in definition.outputStages {
                for name in plugin.outputs { print("\(plugin.id): \(out)/\(name)/ (\(plugin.summary))") }
            }
        }
        appLog.info("run done", metadata: ["event": "done", "photos": .stringConvertible(manifest.photos.count),
                                           "picks": .stringConvertible(manifest.picks.count), "errors": .stringConvertible(manifest.errors.count),
                                           "seconds": .stringConvertible((Date().timeIntervalSince(started) * 1000).rounded() / 1000)])
        if !manifest.errors.isEmpty { throw ExitCode(ExitStatus.partial) }
    }
}

extension ProgressPrinter.Mode: ExpressibleByArgument {}
