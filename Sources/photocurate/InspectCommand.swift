import ArgumentParser
import Foundation
import PhotoCurate
import PhotoCurateFaces

/// `photocurate inspect FILE`: everything the engine reads and measures in one photo.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what the engine reads from one photo: EXIF facts, decode, every score with its explanation.",
        discussion: """
        EXAMPLES:
          photocurate inspect ~/Trip/IMG_4410.jpg
          # blur, exposure, grain against its burst
          photocurate inspect IMG_4410.jpg --compare IMG_4409.jpg IMG_4411.jpg
          # crops with boxes and landmarks drawn
          photocurate inspect IMG_4410.jpg --faces-out faces/
          photocurate inspect IMG_4410.jpg --json | jq .faces
        """
    )

    @Argument(help: "A photo file.")
    var file: String

    @Option(name: .customLong("compare"), parsing: .upToNextOption,
            help: "Other photos of the same scene: show how much more blurred and how much brighter FILE is than each.")
    var others: [String] = []

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(name: .customLong("faces-out"), help: "Write each face as a JPEG crop, with its box and landmarks drawn, into this folder.")
    var facesOut: String?

    @OptionGroup var logs: LogOptions

    func run() throws {
        logs.bootstrap()
        var st = stat()
        guard stat(file, &st) == 0 else { throw fail("\(file): \(String(cString: strerror(errno)))") }
        let f = PhotoFile(path: file, size: Int64(st.st_size), mtimeNs: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
        let importer = PhotoImporter()
        let facts: PhotoFacts, image: AnalysisImage?
        do { (facts, image) = try importer.load(f, decode: true) } catch let e as PhotoError { throw fail(e.description, code: ExitStatus.partial) }
        let quality = QualityAnalyzer().analyze(image!)
        let fp = FeaturePrintAnalyzer().analyze(image!)
        // Faces when the models are installed; otherwise the result says why.
        let faces = FaceAnalyzer().analyze(image!)
        if json {
            struct Out: Encodable { var facts: PhotoFacts; var quality: TechnicalQualityScore; var featurePrintDimension: Int; var native: NativeDetail?; var faces: FaceResult }
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try enc.encode(Out(facts: facts, quality: quality, featurePrintDimension: fp.vector.count, native: image!.native, faces: faces)), as: UTF8.self))
            return
        }
        func opt<T>(_ v: T?) -> String { v.map { "\($0)" } ?? "—" }
        print("file         \(file) (\(f.size) bytes, \(facts.format))")
        print("pixels       \(facts.pixelWidth)×\(facts.pixelHeight), orientation \(facts.orientation); analysed at \(image!.width)×\(image!.height) upright")
        print("captured     \(opt(facts.captureTime))  [\(facts.timeSource)\(facts.timeTrusted ? "" : ", untrusted")]")
        print("gps          \(facts.hasGPS ? String(format: "%.6f, %.6f", facts.latitude!, facts.longitude!) : "—")\(facts.altitude.map { String(format: ", %.1f m", $0) } ?? "")")
        print("camera       \(opt(facts.make)) \(opt(facts.model))  lens \(opt(facts.lens))")
        print("exposure     \(facts.exposureTime.map { $0 < 1 ? "1/\(Int((1 / $0).rounded()))s" : "\($0)s" } ?? "—")  f/\(opt(facts.fNumber))  ISO \(opt(facts.iso))  \(opt(facts.focalLength)) mm")
        for w in facts.warnings { print("warning      \(w)") }
        print("")
        for (name, value, why) in quality.explanations {
            print(name.padding(toLength: 13, withPad: " ", startingAt: 0) + String(format: "%.3f  ", value) + why)
        }
        print("laplacian".padding(toLength: 13, withPad: " ", startingAt: 0) + String(format: "%.1f (reported, not scored)", quality.measurements.laplacianVariance))
        print("featureprint \(fp.vector.count) floats, v\(FeaturePrintAnalyzer.version)")
        printNative(image!.native)
        if let note = faces.note {
            print("faces        \(note)")
        } else {
            let turned = faces.suggestedRotation != nil && faces.suggestedRotation! % 180 != 0
            let (w, h) = turned ? (Double(image!.height), Double(image!.width)) : (Double(image!.width), Double(image!.height))
            if let turn = faces.suggestedRotation {
                print("orientation  stored on its side: turn \(turn)° clockwise to show it upright (faces stand up only that way)")
            }
            print("faces        \(faces.faces.count) found (boxes in upright analysis px, \(Int(w))×\(Int(h)))")
            for f in faces.faces {
                print(String(format: "  face       x %.0f y %.0f, %.0f×%.0f px (size %.2f of the frame), confidence %.2f", f.box[0] * w, f.box[1] * h, f.box[2] * w, f.box[3] * h, f.size ?? 0, f.confidence))
                let eyes = f.eyes.map { "\($0.rawValue)\(f.eyesConfidence.map { String(format: " (%.2f)", $0) } ?? "")" } ?? "—"
                let iris = f.mesh?.eyeIris.map { " lid/iris " + $0.map { $0 < 0 ? "—" : String(format: "%.2f", $0) }.joined(separator: "/") } ?? ""
                print("             eyes \(eyes)\(iris), smile \(f.smile?.rawValue ?? "—"), yaw \(opt(f.yaw))°, roll \(opt(f.roll))°, sharpness \(opt(f.sharpness))")
            }
            if let dir = facesOut {
                let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
                do {
                    let files = try FaceCrops.write(faces, image: image!, name: name, to: dir)
                    print("face crops   \(files.count) written to \(dir)")
                } catch { throw fail("--faces-out \(dir): \(error)") }
            }
        }
        guard !others.isEmpty else { return }
        let spectrum = SpectrumAnalyzer().analyze(image!)
        print("")
        for other in others {
            let o: AnalysisImage
            guard FileManager.default.fileExists(atPath: other) else { print("vs \(other): no such file"); continue }
            do { o = try Decoder().decode(other) } catch let e as PhotoError { print("vs \(other): \(e.description)"); continue }
            let os = SpectrumAnalyzer().analyze(o), oq = QualityAnalyzer().analyze(o)
            let sectors = spectrum.sectorBlur(comparedWith: os).map { $0.map { String(format: "%+.2f", $0) } ?? "—" }.joined(separator: " ")
            let blur = spectrum.extraBlur(comparedWith: os).map { String(format: "%.2f px", max(0, $0).squareRoot()) } ?? "not comparable"
            let ev = GroupExposure.stops(medianLuma: quality.measurements.medianLuma) - GroupExposure.stops(medianLuma: oq.measurements.medianLuma)
            if let a = image!.native, let b = o.native {
                let d = a.blurDifference(comparedWith: b)
                // What selection adds to the analysis-scale comparison (GroupBlur): the same Δσ² in analysis px².
                let weight = (try? Parameters(SelectStage.parameterSpecs))?["nativeBlurWeight"] ?? 0
                let counted = GroupBlur.nativeDifference(a, b).map { String(format: "; %+.2f px² at the analysis scale, which selection adds ×%g when positive", $0, weight) }
                    ?? "; not counted by selection (under \(GroupBlur.nativeScale)× the analysis scale)"
                print("vs \(other) at 100 %: " + (d.map { String(format: "%@ blur (σ² %+.2f px² in its own pixels, coarse DCT frequencies)", $0 > 0 ? String(format: "%.2f px more", $0.squareRoot()) : "no more", $0) } ?? "blur not comparable")
                      + (d == nil ? "" : counted) + String(format: ", grain σ %.1f vs %.1f levels", a.noiseLuma, b.noiseLuma))
            }
            print("vs \(other): similarity \(String(format: "%.3f", fp.cosine(FeaturePrintAnalyzer().analyze(o)))), "
                  + "extra blur \(blur) (Δσ² by sector: \(sectors)), \(String(format: "%+.2f", ev)) EV, noise σ \(String(format: "%.1f vs %.1f", quality.measurements.noiseSigma, oq.measurements.noiseSigma))")
        }
    }

    /// What was measured at 100 %, and where: the tile boxes in upright full-resolution pixels.
    func printNative(_ n: NativeDetail?) {
        guard let n else { print("at 100 %     — (no DCT blocks: judged at the analysis scale only)"); return }
        let per1000 = 1000 / Double(max(n.width, n.height))
        let luma = n.grainUnmeasured.map { "grain not judged (\($0))" } ?? String(format: "grain σ %.2f levels luma (flattest 1 %% of blocks, finest frequencies)", n.noiseLuma)
        print(String(format: "at 100 %%     %d×%d from the JPEG's DCT blocks: %@, %@ chroma; edge spread %@ in the sharpest tiles",
                     n.width, n.height, luma, n.noiseChroma.map { String(format: "%.2f", $0) } ?? "—",
                     n.sharpWidth.map { String(format: "%.2f px (%.2f per 1000 px)", $0, $0 * per1000) } ?? "—"))
        print("tiles        box (x,y w×h)              edge σ px   detail")
        for t in n.tiles {
            let box = "\(t.x),\(t.y) \(t.w)×\(t.h)".padding(toLength: 26, withPad: " ", startingAt: 0)
            print("             \(box) \(t.width.map { String(format: "%6.2f", $0) } ?? "     —")   \(String(format: "%8.1f", t.energy))")
        }
    }
}
