import Foundation
import PhotoCurate
import PhotoCurateTestSupport
import XCTest

extension XCTestCase {
    /// A fresh directory that is removed when the test ends.
    func temporaryDirectory(_ name: String = "photocurate-test") throws -> String {
        let dir = try FixtureFactory.temporaryDirectory(name)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    /// JPEG bytes as the engine sees them: written to a file and decoded at `longEdge`.
    func decoded(_ bytes: [UInt8], longEdge: Int = 320) throws -> AnalysisImage {
        let path = try temporaryDirectory() + "/f.jpg"
        try FixtureFactory.write(bytes, to: path)
        return try Decoder(longEdge: longEdge).decode(path)
    }
}
