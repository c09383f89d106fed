import Foundation
import PhotoCurateTestSupport
import XCTest

extension XCTestCase {
    /// A fresh directory that is removed when the test ends.
    func temporaryDirectory(_ name: String = "photocurate-test") throws -> String {
        let dir = try FixtureFactory.temporaryDirectory(name)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }
}
