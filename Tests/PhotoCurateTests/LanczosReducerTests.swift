import Foundation
import PhotoCurate
import XCTest

/// `Lanczos3Reducer` stands in for `vips_resize` on the JPEG path: every analysis measure
/// reads its pixels, so it must give libvips' bytes exactly, not nearly.
final class LanczosReducerTests: XCTestCase {
    /// Pixels with edges, gradients and noise, so every tap and every phase is exercised.
    func pattern(_ w: Int, _ h: Int, _ bands: Int, seed: UInt64) -> [UInt8] {
        var rng = seed
        var out = [UInt8](repeating: 0, count: w * h * bands)
        for y in 0..<h {
            for x in 0..<w {
                for z in 0..<bands {
                    rng = rng &* 6364136223846793005 &+ 1442695040888963407
                    let noise = Int(rng >> 58)                       // 0...63
                    let edge = ((x / 7 + y / 5) % 2) * 120           // hard edges at odd phases
                    let ramp = (x * 3 + y * 2 + z * 50) % 90
                    out[(y * w + x) * bands + z] = UInt8(min(255, edge + ramp + noise))
                }
            }
        }
        return out
    }

    func viaLibvips(_ p: [UInt8], _ w: Int, _ h: Int, _ bands: Int, _ hs: Double, _ vs: Double) throws -> [UInt8] {
        try VImage.from(pixels: p, width: w, height: h, bands: bands).resize(h: hs, v: vs).copyMemory().bytes()
    }

    func testItGivesLibvipsBytesForTheSizesTheJpegPathMakes() throws {
        try Vips.start()
        // The reducer is libvips 8.14's arithmetic (Debian 12); another libvips may round otherwise.
        try XCTSkipUnless(Vips.version == (8, 14), "libvips \(Vips.version.major).\(Vips.version.minor), not 8.14")
        // 12 MP and 24 MP photos at 1/4 and 1/8, a portrait, odd sizes, grey and colour, a small one.
        let cases: [(Int, Int, Int, Int, Int)] = [
            (1000, 750, 3, 768, 576), (1008, 756, 3, 768, 576), (750, 1000, 3, 576, 768), (752, 501, 3, 752, 501),
            (999, 667, 3, 768, 513), (1500, 1000, 1, 768, 512), (1023, 1023, 3, 768, 768), (96, 64, 3, 48, 32),
            (1000, 750, 3, 768, 750), (1000, 750, 3, 1000, 576),
            // Slivers, and a shrink just under 2 (13-point masks) in both directions.
            (770, 3, 3, 768, 3), (2, 1535, 1, 2, 768), (1535, 1000, 3, 768, 500),
        ]
        for (k, (w, h, bands, tw, th)) in cases.enumerated() {
            let p = pattern(w, h, bands, seed: UInt64(k + 1))
            let hs = Double(tw) / Double(w), vs = Double(th) / Double(h)
            let want = try viaLibvips(p, w, h, bands, hs, vs)
            guard let got = Lanczos3Reducer.resize(p, width: w, height: h, bands: bands, hscale: hs, vscale: vs) else {
                return XCTFail("\(w)×\(h): not reduced")
            }
            XCTAssertEqual(got.width * got.height * bands, want.count, "\(w)×\(h)×\(bands) → \(tw)×\(th): size")
            let differing = zip(got.pixels, want).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "\(w)×\(h)×\(bands) → \(tw)×\(th): \(differing) bytes differ from vips_resize")
        }
    }

    /// Where libvips would shrink by whole factors first, the reducer declines and libvips resizes.
    func testLargeShrinksAreLeftToLibvips() {
        XCTAssertNil(Lanczos3Reducer.resize([UInt8](repeating: 9, count: 4000 * 10), width: 4000, height: 10, bands: 1, hscale: 0.192, vscale: 1))
        XCTAssertNil(Lanczos3Reducer.resize([UInt8](repeating: 9, count: 100), width: 10, height: 10, bands: 1, hscale: 1.5, vscale: 1), "an enlargement")
        XCTAssertNil(Lanczos3Reducer.resize([1, 2, 3], width: 2, height: 2, bands: 1, hscale: 0.5, vscale: 0.5), "wrong pixel count")
        XCTAssertNotNil(Lanczos3Reducer.resize([UInt8](repeating: 9, count: 1000 * 10), width: 1000, height: 10, bands: 1, hscale: 0.768, vscale: 1))
    }
}
