import ArgumentParser
import Foundation
import PhotoCurate
import PhotoCurateBench

extension BenchCommand {
    struct Features: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Feature-print separation on a labelled trip: pairwise AUC, precision/recall at the threshold.")
        @Option(help: "Trip folder made by make-trip (with photos/ and labels.json).") var trip: String
        @Option(help: "Cache database (results are reused).") var cache: String?
        @Option(name: .customLong("set"), help: "Override a parameter, e.g. featureprint.bias=0.5 (repeatable).") var overrides: [String] = []
        @Option(help: "Similarity threshold to report precision/recall at.") var threshold: Double = 0.75
        func run() async throws {
            let labels = try TripLabels.read(trip + "/labels.json")
            var options = CurationRunner.Options(root: trip + "/photos")
            options.cachePath = cache ?? CacheStore.defaultPath()
            for o in overrides { try options.pipeline.apply(override: o) }
            let result = try await CurationRunner(options: options).run()
            var prints: [FeaturePrint] = [], files: [TripLabels.File] = []
            for i in result.usable {
                let r = result.records[i]
                guard let l = labels.files[(r.file.path as NSString).lastPathComponent], l.scene != nil else { continue }
                prints.append(r.featurePrint!); files.append(l)
            }
            let rep = FeatureEvaluation.evaluate(prints: prints, files: files, threshold: threshold)
            let enc = JSONEncoder(); enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try enc.encode(rep), as: UTF8.self))
        }
    }

    struct ExifConformance: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "exif-conformance", abstract: "Compare the engine's EXIF reading with exiftool -json on every file of a folder.")
        @Argument(help: "Folder, e.g. ../shared/exif-samples.") var folder: String
        @Flag(help: "List every disagreement.") var verbose = false
        func run() throws {
            let r = try PhotoCurateBench.ExifConformance.run(folder: folder)
            print("\(r.files) candidate files, \(r.readByExiftool) read by exiftool, \(r.engineErrors.count) refused by the engine, \(r.filesAllAgree) agree on every field")
            for (k, v) in r.fields.sorted(by: { $0.key < $1.key }) {
                print("  \(k): \(v.agree)/\(v.compared) agree")
                if verbose { v.disagreements.forEach { print("    \($0)") } }
            }
            if verbose { r.engineErrors.forEach { print("  refused: \($0)") } }
        }
    }
}
