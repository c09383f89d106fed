import COpenCVShim
import Foundation
import PhotoCurate

/// ORB keypoints and descriptors of one image (a catalog cover or a photo), in its analysed pixels.
///
/// ```swift
/// let f = try CoverFeatures.extract(AnalysisImage(...), maxFeatures: 500)
/// f.count        // ≤ 500, strongest first
/// ```
/// Stored in the albums cache as compact bytes (`encoded()`), so a cover is analysed once.
public struct CoverFeatures: Sendable, Equatable {
    /// Size of the analysed image, in pixels.
    public var width: Int
    public var height: Int
    /// x, y, size, angle per point.
    public var keypoints: [Float]
    /// 32 bytes per point.
    public var descriptors: [UInt8]

    public var count: Int { keypoints.count / 4 }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public static func extract(_ image: AnalysisImage, maxFeatures: Int, fastThreshold: Int = 12) throws -> CoverFeatures {
        let gray = image.luma.map { UInt8(max(0, min(255, $0.rounded()))) }
        return try extract(gray: gray, width: image.width, height: image.height, maxFeatures: maxFeatures, fastThreshold: fastThreshold)
    }

    public static func extract(gray: [UInt8], width: Int, height: Int, maxFeatures: Int, fastThreshold: Int = 12) throws -> CoverFeatures {
        precondition(gray.count == width * height)
        var kp = [Float](repeating: 0, count: maxFeatures * 4)
        var desc = [UInt8](repeating: 0, count: maxFeatures * 32)
        let n = gray.withUnsafeBufferPointer { g in
            pc_cv_orb(g.baseAddress, Int32(width), Int32(height), Int32(maxFeatures), Int32(fastThreshold), &kp, &desc)
        }
        guard n >= 0 else { throw Failure(description: "ORB features: " + String(cString: pc_cv_last_error())) }
        return CoverFeatures(width: width, height: height, keypoints: Array(kp.prefix(Int(n) * 4)), descriptors: Array(desc.prefix(Int(n) * 32)))
    }

    /// The first `n` points (they are strongest first).
    public func prefix(_ n: Int) -> CoverFeatures {
        let k = min(n, count)
        return CoverFeatures(width: width, height: height, keypoints: Array(keypoints.prefix(k * 4)), descriptors: Array(descriptors.prefix(k * 32)))
    }

    /// "ORB1", width, height, count (little-endian Int32), then the floats and the bytes.
    public func encoded() -> Data {
        var d = Data("ORB1".utf8)
        for v in [Int32(width), Int32(height), Int32(count)] { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        keypoints.withUnsafeBytes { d.append(contentsOf: $0) }
        d.append(contentsOf: descriptors)
        return d
    }

    public init(width: Int, height: Int, keypoints: [Float], descriptors: [UInt8]) {
        self.width = width; self.height = height; self.keypoints = keypoints; self.descriptors = descriptors
    }

    public init?(encoded d: Data) {
        let b = [UInt8](d)
        guard b.count >= 16, b[0..<4] == [79, 82, 66, 49] else { return nil }
        func i32(_ o: Int) -> Int { Int(Int32(littleEndian: b[o..<(o + 4)].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) })) }
        let w = i32(4), h = i32(8), n = i32(12)
        guard w > 0, h > 0, n >= 0, b.count == 16 + n * 16 + n * 32 else { return nil }
        var kp = [Float](repeating: 0, count: n * 4)
        kp.withUnsafeMutableBytes { dst in b[16..<(16 + n * 16)].withUnsafeBytes { dst.copyMemory(from: $0) } }
        self.init(width: w, height: h, keypoints: kp, descriptors: Array(b[(16 + n * 16)...]))
    }
}
