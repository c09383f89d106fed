import Foundation
import PhotoCurate

/// Procedural "photos" for tests, fixtures and scaling benchmarks, when no
/// real photos are at hand (CI has no ../shared).
public enum ProceduralScene {
    /// An RGB scene: a sky-to-ground gradient, rectangles and discs with
    /// textures, all placed by `scene` as a seed. Different seeds give scenes
    /// that look different; the same seed gives the same pixels.
    public static func pixels(scene: Int, width: Int, height: Int, shiftX: Double = 0, shiftY: Double = 0) -> [UInt8] {
        var rng = SeededRandom(seed: UInt64(scene) &* 7919 &+ 17)
        let top = (rng.uniform(40, 220), rng.uniform(40, 220), rng.uniform(40, 220))
        let bottom = (rng.uniform(20, 200), rng.uniform(20, 200), rng.uniform(20, 200))
        let horizon = rng.uniform(0.3, 0.7)
        struct Shape { var x, y, r, w, h: Double; var disc: Bool; var c: (Double, Double, Double); var freq: Double }
        let shapes = (0..<rng.int(5...9)).map { _ in
            Shape(x: rng.uniform(0, 1), y: rng.uniform(0, 1), r: rng.uniform(0.05, 0.2), w: rng.uniform(0.05, 0.35), h: rng.uniform(0.05, 0.35),
                  disc: rng.chance(0.5), c: (rng.uniform(0, 255), rng.uniform(0, 255), rng.uniform(0, 255)), freq: rng.uniform(8, 40))
        }
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for yy in 0..<height {
            for xx in 0..<width {
                let u = Double(xx) / Double(width) + shiftX, v = Double(yy) / Double(height) + shiftY
                let t = v < horizon ? v / horizon * 0.3 : 0.3 + (v - horizon) / (1 - horizon) * 0.7
                var c = (top.0 + (bottom.0 - top.0) * t, top.1 + (bottom.1 - top.1) * t, top.2 + (bottom.2 - top.2) * t)
                for s in shapes {
                    let inside = s.disc ? hypot(u - s.x, (v - s.y) * Double(height) / Double(width)) < s.r
                                        : abs(u - s.x) < s.w / 2 && abs(v - s.y) < s.h / 2
                    if inside {
                        let tex = 0.85 + 0.15 * sin(u * s.freq * 6.283) * cos(v * s.freq * 4.1)
                        c = (s.c.0 * tex, s.c.1 * tex, s.c.2 * tex)
                    }
                }
                let i = (yy * width + xx) * 3
                px[i] = UInt8(max(0, min(255, c.0))); px[i + 1] = UInt8(max(0, min(255, c.1))); px[i + 2] = UInt8(max(0, min(255, c.2)))
            }
        }
        return px
    }


    /// Writes `count` procedural scenes as JPEGs: sources for `TripGenerator`.
    public static func writeSources(count: Int, to dir: String, width: Int = 800, height: Int = 600) throws {
        try Vips.start()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for k in 0..<count {
            let img = try VImage.from(pixels: pixels(scene: 100 + k, width: width, height: height), width: width, height: height, bands: 3)
            try Data(try img.jpeg(quality: 92)).write(to: URL(fileURLWithPath: dir + "/" + String(format: "source-%02d.jpg", k)))
        }
    }
}
