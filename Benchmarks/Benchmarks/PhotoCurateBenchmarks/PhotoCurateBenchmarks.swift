import Benchmark
import Foundation
import PhotoCurate
import PhotoCurateBench

/// Micro-benchmarks of the engine's hot paths. Inputs are made here, from
/// nothing, so the suite runs anywhere: a 12 MP JPEG of a procedural scene,
/// its analysis image, and synthetic feature prints for clustering.
let benchmarks: @Sendable () -> Void = {
    let fixture = Fixture.shared

    Benchmark("decode 12MP JPEG to analysis size (shrink-on-load)", configuration: .init(maxDuration: .seconds(5))) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try Decoder().decode(fixture.jpegPath)) }
    }
    Benchmark("decode reference: vips_thumbnail 12MP to 768", configuration: .init(maxDuration: .seconds(5))) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try VImage.thumbnail(fixture.jpegPath, width: 768).bytes()) }
    }
    Benchmark("EXIF read (libexif)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ExifReader.read(fixture.exifBlob)) }
    }
    Benchmark("feature print") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(FeaturePrintAnalyzer().analyze(fixture.image)) }
    }
    let q = QualityAnalyzer()
    let img = fixture.image
    Benchmark("quality: all metrics") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(q.analyze(img)) }
    }
    Benchmark("quality: noise (Immerkær, two scales + chroma)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(q.noiseLevel(img)) }
    }
    Benchmark("quality: edge spread (sharpness)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(q.edgeSpread(img.luma, img.width, img.height, noise: 1)) }
    }
    Benchmark("quality: exposure histogram") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(q.exposureScore(q.exposureStats(img.luma, img.width, img.height))) }
    }
    Benchmark("quality: spectral-residual saliency") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(q.saliency(img.luma, img.width, img.height)) }
    }
    let spectrum = SpectrumAnalyzer()
    Benchmark("spectrum (Welch, 64-px windows)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(spectrum.analyze(img)) }
    }
    let a = spectrum.analyze(img), b = spectrum.analyze(img)
    Benchmark("spectrum: extra blur of one pair") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(a.extraBlur(comparedWith: b)) }
    }
    for n in [10_000, 100_000] {
        let inputs = SyntheticPrints.inputs(n)
        Benchmark("cluster \(n) photos", configuration: .init(maxDuration: .seconds(60), maxIterations: 3)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs))
            }
        }
    }
}

final class Fixture: @unchecked Sendable {
    static let shared = Fixture()
    let jpegPath: String
    let exifBlob: [UInt8]
    let image: AnalysisImage

    init() {
        try! Vips.start()
        let w = 4000, h = 3000
        var px = [UInt8](repeating: 0, count: w * h * 3)
        var s: UInt64 = 1
        for y in 0..<h {
            for x in 0..<w {
                s = s &* 6364136223846793005 &+ 1442695040888963407
                let v = Double(x) / Double(w) * 160 + 40 * sin(Double(y) / 37) + Double((x / 250 + y / 250) % 2) * 50
                let i = (y * w + x) * 3
                px[i] = UInt8(max(0, min(255, v + Double(s >> 61))))
                px[i + 1] = UInt8(max(0, min(255, v * 0.8)))
                px[i + 2] = UInt8(max(0, min(255, 255 - v)))
            }
        }
        let img = try! VImage.from(pixels: px, width: w, height: h, bands: 3)
        jpegPath = NSTemporaryDirectory() + "photocurate-bench-12mp.jpg"
        try! Data(try! img.jpeg(quality: 90)).write(to: URL(fileURLWithPath: jpegPath))
        // A real EXIF block as cameras write it: time, offset, GPS, orientation.
        exifBlob = Array("Exif".utf8) + [0, 0] + [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        image = try! Decoder().decode(jpegPath)
    }
}
