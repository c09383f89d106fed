import Foundation
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

/// A frame with no strong edge (a crop of bokeh, a fog bank) shows neither focus nor shake:
/// it only fills a top N left short.
final class FeaturelessFrameTests: XCTestCase {
    /// A soft wash of colour: brightness from 70 to 200 across the frame, no edge anywhere.
    func wash() throws -> AnalysisImage {
        try Vips.start()
        let w = 480, h = 320
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let t = Double(x) / Double(w - 1), u = Double(y) / Double(h - 1)
                let l = 70 + 130 * (0.5 - 0.5 * cos(.pi * t)) * (0.8 + 0.2 * u)
                let i = 3 * (y * w + x)
                pixels[i] = UInt8(min(255, l * 1.05)); pixels[i + 1] = UInt8(l); pixels[i + 2] = UInt8(l * 0.85)
            }
        }
        return try decoded(try VImage.from(pixels: pixels, width: w, height: h, bands: 3).jpeg(quality: 92))
    }

    func testAGroupWhoseBestFrameHasNoEdgeOnlyFillsAShortTopN() throws {
        let q = QualityAnalyzer(), f = FeaturePrintAnalyzer()
        let images = [try wash(), try decoded(try FixtureFactory.jpeg(scene: 3, width: 480, height: 320)),
                      try decoded(try FixtureFactory.jpeg(scene: 5, width: 480, height: 320)),
                      try decoded(try FixtureFactory.jpeg(scene: 8, width: 480, height: 320, gain: 0.3))]
        let inputs = images.enumerated().map { k, img in
            SelectInput(path: "p\(k).jpg", technical: q.analyze(img), localHour: nil, timeLabel: nil, print: f.analyze(img), timeTrusted: false)
        }
        XCTAssertEqual(inputs[0].technical.measurements.edgeCount, 0, "the wash has no strong edge")
        for k in 1...3 { XCTAssertGreaterThan(inputs[k].technical.measurements.edgeCount, 100) }
        let clustering = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs.map {
            ClusterInput(epoch: nil, latitude: nil, longitude: nil, print: $0.print, quality: $0.technical.overall, path: $0.path)
        })
        XCTAssertEqual(Set(clustering.clusterOf).count, 4, "four scenes")
        func select(top: Int, minEdges: Double = 1) throws -> Selection {
            try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": Double(top), "minQuality": 0, "minEdges": minEdges]))
                .run((inputs, clustering))
        }
        // Without the rule the wash outranks the dark scene: the test is about that order.
        let off = try select(top: 3, minEdges: 0)
        XCTAssertTrue(off.picks.contains(0), "minEdges 0 turns it off: the wash is picked on its score (\(off.scores.map(\.overall)))")
        let three = try select(top: 3)
        XCTAssertEqual(Set(three.picks), [1, 2, 3], "the three scenes that show their sharpness come first")
        XCTAssertTrue(three.reasons[0].contains { $0.hasPrefix("not offered: it has no strong edge") }, "\(three.reasons[0])")
        let four = try select(top: 4)
        XCTAssertEqual(Set(four.picks), [0, 1, 2, 3], "a top N left short still takes it")
    }
}
