import Foundation
import PhotoCurate

/// Throughput against the decode limit, measured in one process.
///
/// ```swift
/// let r = try await SpeedBench.run(folder: "/tmp/trip/photos", jobs: 2, scaling: [100, 1000])
/// ```
/// - reference: libvips' own `vips_thumbnail` of every file to the analysis size,
///   pixels copied out, with the same number of parallel tasks (median of `repeats`,
///   alternating with the cold runs);
/// - cold: the whole pipeline with an empty cache (scan → select → manifest);
/// - warm: the same again, everything cached;
/// - scaling: cold runs over N files (repeated through symlinks, cache bypassed,
///   so each counts as a cold decode).
/// Peak RSS is reset between phases (`/proc/self/clear_refs`) and read from `VmHWM`.
public enum SpeedBench {
    public struct Row: Codable, Sendable {
        public var label: String
        public var photos: Int
        public var seconds: Double
        public var photosPerSecond: Double
        public var peakRSSMB: Double
    }

    public struct Report: Codable, Sendable {
        public var folder: String
        public var jobs: Int
        public var reference: Row
        public var cold: Row
        public var warm: Row
        public var coldOverDecode: Double
        public var warmSpeedup: Double
        /// Seconds per stage in the cold run: task-seconds for the per-photo stages, wall for the rest.
        public var split: [String: Double]
        public var scaling: [Row]
        public var repeats: Int
    }

    public static func resetPeakRSS() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    public static func peakRSSMB() -> Double {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = Double(line.split(separator: " ").dropFirst().first { Double($0) != nil } ?? "0") ?? 0
            return kb / 1024
        }
        return 0
    }

    static func row(_ label: String, _ n: Int, _ seconds: Double) -> Row {
        Row(label: label, photos: n, seconds: (seconds * 1000).rounded() / 1000,
            photosPerSecond: (Double(n) / max(1e-9, seconds) * 100).rounded() / 100, peakRSSMB: (peakRSSMB() * 10).rounded() / 10)
    }

    /// libvips' thumbnail decode of every file, `jobs` at a time.
    public static func reference(_ files: [String], jobs: Int, longEdge: Int) async throws -> Row {
        try Vips.start()
        resetPeakRSS()
        let t0 = Date()
        var ok = 0
        try await BoundedMap.run(files, limit: jobs, transform: { path -> Bool in
            guard let t = try? VImage.thumbnail(path, width: longEdge), let px = try? t.bytes() else { return false }
            return !px.isEmpty
        }, consume: { if $0 { ok += 1 } })
        return row("decode reference (vips_thumbnail)", ok, Date().timeIntervalSince(t0))
    }

    /// `repeats` alternates reference and cold runs (each cold run on a new, empty
    /// cache) and reports the medians, so one noisy run cannot decide the ratio.
    public static func run(folder: String, jobs: Int, scaling: [Int], repeats: Int = 3, pipeline: PipelineDefinition = .defaults()) async throws -> Report {
        let files = try FolderScanner().scan(folder).files.map(\.path)
        let longEdge = pipeline.parameters("import").int("longEdge")

        let cacheDir = NSTemporaryDirectory() + "photocurate-speed-\(getpid())"
        try? FileManager.default.removeItem(atPath: cacheDir)
        defer { try? FileManager.default.removeItem(atPath: cacheDir) }
        var options = CurationRunner.Options(root: folder)
        options.pipeline = pipeline
        options.jobs = jobs
        options.cachePath = cacheDir + "/cache.sqlite"

        func endToEnd(_ label: String, _ o: CurationRunner.Options) async throws -> (Row, CurationRunner.Result, Double) {
            resetPeakRSS()
            let t0 = Date()
            let r = try await CurationRunner(options: o).run()
            let e0 = Date()
            let m = Manifest(r, startedAt: t0, finishedAt: Date())
            try Exporter(outDir: cacheDir + "/out").write(m, csv: true, contactSheet: false)
            let export = Date().timeIntervalSince(e0)
            return (row(label, r.records.count, Date().timeIntervalSince(t0)), r, export)
        }
        var references: [Row] = [], colds: [(Row, CurationRunner.Result, Double)] = []
        for _ in 0..<max(1, repeats) {
            references.append(try await reference(files, jobs: jobs, longEdge: longEdge))
            try? FileManager.default.removeItem(atPath: cacheDir)
            colds.append(try await endToEnd("cold (empty cache)", options))
        }
        let reference = references.sorted { $0.seconds < $1.seconds }[references.count / 2]
        let (cold, coldResult, export) = colds.sorted { $0.0.seconds < $1.0.seconds }[colds.count / 2]
        let (warm, _, _) = try await endToEnd("warm (all cached)", options)
        var split: [String: Double] = [:]
        for (k, v) in coldResult.timings where k.hasPrefix("task.") { split[String(k.dropFirst(5))] = (v * 1000).rounded() / 1000 }
        for k in ["scan", "cluster", "select"] { split[k] = ((coldResult.timings[k] ?? 0) * 1000).rounded() / 1000 }
        split["export"] = (export * 1000).rounded() / 1000

        var rows: [Row] = []
        for n in scaling where !files.isEmpty {
            let dir = cacheDir + "/scale-\(n)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for i in 0..<n {
                let src = files[i % files.count]
                try FileManager.default.createSymbolicLink(atPath: dir + String(format: "/f%06d.", i) + (src as NSString).pathExtension, withDestinationPath: src)
            }
            var o = options
            o.root = dir
            o.cachePath = nil
            rows.append(try await endToEnd("cold, \(n) photos", o).0)
            try? FileManager.default.removeItem(atPath: dir)
        }
        return Report(folder: folder, jobs: jobs, reference: reference, cold: cold, warm: warm,
                      coldOverDecode: (cold.photosPerSecond / max(1e-9, reference.photosPerSecond) * 1000).rounded() / 1000,
                      warmSpeedup: (warm.photosPerSecond / max(1e-9, cold.photosPerSecond) * 10).rounded() / 10,
                      split: split, scaling: rows, repeats: max(1, repeats))
    }

    public static func render(_ r: Report) -> String {
        var out = "folder \(r.folder), \(r.jobs) jobs; reference and cold rows are medians of \(r.repeats) alternating runs\n"
        out += "| run | photos | seconds | photos/s | peak RSS MB |\n|---|---|---|---|---|\n"
        for row in [r.reference, r.cold, r.warm] + r.scaling {
            out += "| \(row.label) | \(row.photos) | \(String(format: "%.2f", row.seconds)) | \(String(format: "%.1f", row.photosPerSecond)) | \(String(format: "%.0f", row.peakRSSMB)) |\n"
        }
        out += String(format: "cold end-to-end / decode-only: %.2f×; warm is %.0f× faster than cold\n", r.coldOverDecode, r.warmSpeedup)
        out += "split of the cold run (seconds; per-photo stages in task-seconds over \(r.jobs) tasks):\n"
        for (k, v) in r.split.sorted(by: { $0.value > $1.value }) { out += String(format: "  %-13@ %.3f\n", k as NSString, v) }
        return out
    }
}
