import Foundation

/// The one decoded image every analyzer works on: 8-bit sRGB, upright, with
/// its long edge scaled to a fixed size so scores compare across cameras.
public struct AnalysisImage: Sendable {
    public let width: Int
    public let height: Int
    /// Interleaved RGB, row-major, `width * height * 3` bytes.
    public let rgb: [UInt8]
    /// Rec.601 luma (gamma-encoded), 0–255, `width * height` values.
    public let luma: [Float]
    /// The photo at 100 %, measured during decode (JPEG only; `nil` otherwise).
    public var native: NativeDetail?

    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3, "pixel buffer does not match its size")
        self.width = width
        self.height = height
        self.rgb = rgb
        var l = [Float](repeating: 0, count: width * height)
        rgb.withUnsafeBufferPointer { p in
            for i in 0..<(width * height) {
                l[i] = 0.299 * Float(p[3 * i]) + 0.587 * Float(p[3 * i + 1]) + 0.114 * Float(p[3 * i + 2])
            }
        }
        self.luma = l
    }
}
