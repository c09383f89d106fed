import Foundation
import PhotoCurate

/// Composites an artwork into a room photo: position, scale, quarter turns, opacity, aspect lock, grid.
///
/// ```swift
/// let p = RoomVisualizer.Placement(x: 0.5, y: 0.35, scale: 0.3, rotation: 1, opacity: 0.9, grid: true)
/// let jpeg = try RoomVisualizer().composite(room: "room.jpg", artwork: "images/aw-014.jpg", placement: p)
/// ```
/// Input: two image files (read-only) and a `Placement`. Output: JPEG bytes of
/// the room at up to `maxEdge` px with the artwork drawn over it (a thin
/// shadow under its lower edge so it sits on the wall), encoded by libvips.
public struct RoomVisualizer: Sendable {
    public struct Placement: Codable, Sendable, Equatable {
        /// Centre of the artwork, 0–1 of the room's width and height.
        public var x: Double, y: Double
        /// Artwork width (after rotation) as a fraction of the room's width.
        public var scale: Double
        /// Quarter turns clockwise, 0–3.
        public var rotation: Int
        /// 0 (invisible) … 1 (opaque).
        public var opacity: Double
        /// Keep the artwork's own aspect ratio; otherwise its height is multiplied by `stretch`.
        public var aspectLock: Bool
        public var stretch: Double
        /// Draw a 10×10 grid over the room.
        public var grid: Bool

        public init(x: Double = 0.5, y: Double = 0.4, scale: Double = 0.3, rotation: Int = 0, opacity: Double = 1,
                    aspectLock: Bool = true, stretch: Double = 1, grid: Bool = false) {
            self.x = x; self.y = y; self.scale = scale; self.rotation = rotation; self.opacity = opacity
            self.aspectLock = aspectLock; self.stretch = stretch; self.grid = grid
        }

        /// What is wrong with it, or nil.
        public var problem: String? {
            if !(0...1).contains(x) || !(0...1).contains(y) { return "x and y must be within 0–1 (the artwork's centre in the room)" }
            if !(0.02...1).contains(scale) { return "scale must be within 0.02–1 (artwork width / room width)" }
            if !(0...3).contains(rotation) { return "rotation must be 0–3 quarter turns" }
            if !(0...1).contains(opacity) { return "opacity must be within 0–1" }
            if !(0.2...5).contains(stretch) { return "stretch must be within 0.2–5" }
            return nil
        }
    }

    public var maxEdge: Int
    public init(maxEdge: Int = 2048) { self.maxEdge = maxEdge }

    public func composite(room: String, artwork: String, placement p: Placement) throws -> [UInt8] {
        if let why = p.problem { throw PhotoError.io(path: artwork, reason: why) }
        let r = try Decoder(longEdge: maxEdge, maxPixels: 200_000_000).decode(room)
        let a = try Decoder(longEdge: maxEdge, maxPixels: 200_000_000).decode(artwork)
        return try composite(room: (r.rgb, r.width, r.height), artwork: (a.rgb, a.width, a.height), placement: p)
    }

    public func composite(room: ([UInt8], Int, Int), artwork: ([UInt8], Int, Int), placement p: Placement) throws -> [UInt8] {
        var (out, rw, rh) = room
        var (art, aw, ah) = artwork
        for _ in 0..<p.rotation { (art, aw, ah) = Self.rotateClockwise(art, aw, ah) }
        let tw = max(1, Int((p.scale * Double(rw)).rounded()))
        let th = max(1, Int((Double(tw) * Double(ah) / Double(aw) * (p.aspectLock ? 1 : p.stretch)).rounded()))
        let x0 = Int((p.x * Double(rw)).rounded()) - tw / 2, y0 = Int((p.y * Double(rh)).rounded()) - th / 2
        // A soft shadow below and right of the frame: without it the artwork looks pasted on.
        let sh = max(2, tw / 60)
        for y in stride(from: max(0, y0 + sh), to: min(rh, y0 + th + sh), by: 1) {
            for x in stride(from: max(0, x0 + sh), to: min(rw, x0 + tw + sh), by: 1) where !(x < x0 + tw && y < y0 + th) {
                let i = 3 * (y * rw + x)
                for c in 0..<3 { out[i + c] = UInt8(Double(out[i + c]) * (1 - 0.35 * p.opacity)) }
            }
        }
        for y in stride(from: max(0, y0), to: min(rh, y0 + th), by: 1) {
            let sy = min(ah - 1, (y - y0) * ah / th)
            for x in stride(from: max(0, x0), to: min(rw, x0 + tw), by: 1) {
                let sx = min(aw - 1, (x - x0) * aw / tw)
                let i = 3 * (y * rw + x), j = 3 * (sy * aw + sx)
                for c in 0..<3 { out[i + c] = UInt8((Double(art[j + c]) * p.opacity + Double(out[i + c]) * (1 - p.opacity)).rounded()) }
            }
        }
        if p.grid {
            for k in 1..<10 {
                let gx = k * rw / 10, gy = k * rh / 10
                for y in 0..<rh { let i = 3 * (y * rw + gx); for c in 0..<3 { out[i + c] = UInt8((Double(out[i + c]) + 255) / 2) } }
                for x in 0..<rw { let i = 3 * (gy * rw + x); for c in 0..<3 { out[i + c] = UInt8((Double(out[i + c]) + 255) / 2) } }
            }
        }
        return try VImage.from(pixels: out, width: rw, height: rh, bands: 3).jpeg(quality: 90)
    }

    static func rotateClockwise(_ px: [UInt8], _ w: Int, _ h: Int) -> ([UInt8], Int, Int) {
        var out = [UInt8](repeating: 0, count: px.count)
        // New image is h wide, w high: (x, y) → (h − 1 − y, x).
        for y in 0..<h { for x in 0..<w {
            let nx = h - 1 - y, ny = x
            let i = 3 * (y * w + x), j = 3 * (ny * h + nx)
            out[j] = px[i]; out[j + 1] = px[i + 1]; out[j + 2] = px[i + 2]
        } }
        return (out, h, w)
    }
}
