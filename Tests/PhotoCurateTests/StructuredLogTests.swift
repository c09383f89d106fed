import Foundation
import Logging
@testable import PhotoCurate
import XCTest

final class StructuredLogTests: XCTestCase {
    func testJSONLinesKeepNumbersAsNumbersAndStringsAsStrings() throws {
        let line = StructuredLog.Handler.render(
            level: .info, message: "progress",
            metadata: ["event": "progress", "model": "centerface", "pct": .stringConvertible(40), "sha256": "1234e5"],
            category: "download", format: .json, date: Date(timeIntervalSince1970: 0))
        XCTAssertFalse(line.contains("\n"), "one object per line")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["category"] as? String, "download")
        XCTAssertEqual(object["event"] as? String, "progress")
        XCTAssertEqual(object["pct"] as? Int, 40)
        XCTAssertEqual(object["sha256"] as? String, "1234e5", "a string that looks like a number stays a string")
        XCTAssertEqual(object["ts"] as? String, "1970-01-01T00:00:00Z")
        let text = StructuredLog.Handler.render(level: .warning, message: "slow", metadata: ["stage": "analyse"], category: "stage",
                                                format: .text, date: Date())
        XCTAssertEqual(text, "photocurate [stage] warning: slow (stage=analyse)")
    }
}
