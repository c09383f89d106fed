import Foundation
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

final class PipelineDefinitionTests: XCTestCase {
    func testErrorsNameFileLineAndAllowedValues() {
        func error(_ yaml: String) -> String {
            do { _ = try PipelineDefinition.parse(yaml, source: "p.yml"); return "" } catch { return "\(error)" }
        }
        let unknownStage = error("name: x\nstages:\n  clustr:\n    similarity: 0.7\n")
        XCTAssertTrue(unknownStage.hasPrefix("p.yml:3:"), unknownStage)
        XCTAssertTrue(unknownStage.contains("allowed: import, quality"), unknownStage)
        let unknownParam = error("name: x\nstages:\n  cluster:\n    similarty: 0.7\n")
        XCTAssertTrue(unknownParam.hasPrefix("p.yml:4:"), unknownParam)
        XCTAssertTrue(unknownParam.contains("similarity"), unknownParam)
        let badValue = error("name: x\nstages:\n  cluster:\n    similarity: 1.7\n")
        XCTAssertTrue(badValue.contains("0…1"), badValue)
        XCTAssertTrue(error("name: x\nstages:\n  select:\n    top: many\n").contains("must be a number"))
        XCTAssertEqual(error("name: x\nstages:\n  select:\n    top: 7\n"), "")
    }

    func testOverrides() throws {
        var def = PipelineDefinition.defaults()
        try def.apply(override: "cluster.similarity=0.8")
        XCTAssertEqual(def.parameters("cluster")["similarity"], 0.8)
        XCTAssertThrowsError(try def.apply(override: "cluster.similarity"))
        XCTAssertThrowsError(try def.apply(override: "nope.x=1"))
    }
}

final class AnalyzerRegistryTests: XCTestCase {
    func testThePipelineDecidesWhichAnalyzersRunAndRecordsCarryEveryResult() async throws {
        let defaults = PipelineDefinition.defaults()
        // (Tests share one process: another test target may have registered faces, on by default.)
        XCTAssertEqual(defaults.analyzers, AnalyzerRegistry.all.filter { !$0.optional || $0.onByDefault }.map(\.id))
        XCTAssertEqual(Set(StageCatalog.entries.map(\.id)).isSuperset(of: AnalyzerRegistry.all.map(\.id)), true, "every analyzer is a stage the pipeline file may name")
        let dir = try temporaryDirectory()
        try FixtureFactory.write(try FixtureFactory.jpeg(scene: 3, width: 640, height: 480), to: dir + "/a.jpg")
        var o = CurationRunner.Options(root: dir)
        o.cachePath = nil
        let r = try await CurationRunner(options: o).run()
        var record = try XCTUnwrap(r.records.first)
        XCTAssertNotNil(record.quality); XCTAssertNotNil(record.featurePrint); XCTAssertNotNil(record.spectrum); XCTAssertNotNil(record.detail)
        let optional = Set(AnalyzerRegistry.all.filter(\.optional).map(\.id))
        XCTAssertTrue(Set(record.results.keys).isSubset(of: optional), "the core analyzers fill their own fields, not the generic results")
        // An analyzer without a field is read back typed from the stored bytes.
        let enc = JSONEncoder(); enc.outputFormatting = .sortedKeys
        record.results[SpectrumAnalyzer.id] = try enc.encode(try XCTUnwrap(record.spectrum))
        XCTAssertEqual(record.result(SpectrumAnalyzer.self), record.spectrum)
        XCTAssertNil(record.result(QualityAnalyzer.self))
    }
}
