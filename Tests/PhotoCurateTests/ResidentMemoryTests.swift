import XCTest
@testable import PhotoCurate

final class ResidentMemoryTests: XCTestCase {
    /// Resident memory is read, and it grows by what the process touches: the face detector's
    /// gate (`FaceAnalyzer.oneLookAbove`) relies on it.
    func testResidentMemoryGrowsWithTouchedPages() throws {
        let before = try XCTUnwrap(ResidentMemory.bytes())
        XCTAssertGreaterThan(before, 1 << 20)
        let size = 64 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { block.deallocate() }
        // Touch every page so that it is resident.
        for offset in stride(from: 0, to: size, by: 4096) { block.storeBytes(of: UInt8(1), toByteOffset: offset, as: UInt8.self) }
        let after = try XCTUnwrap(ResidentMemory.bytes())
        XCTAssertGreaterThan(after - before, 48 << 20, "64 MB touched: \(before) → \(after)")
    }
}
