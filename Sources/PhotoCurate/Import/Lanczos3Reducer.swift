import CVipsShim
import Foundation

/// libvips 8.14's `vips_resize` (Lanczos 3, gap 2, plain C paths) for 8-bit pixels in
/// memory, reproduced byte for byte so the JPEG path can resize without libvips.
///
/// ```swift
/// let small = Lanczos3Reducer.resize(pixels, width: 1000, height: 750, bands: 3,
///                                    hscale: 768.0 / 1000, vscale: 576.0 / 750)
/// small?.width   // 768; nil when libvips would take another path (a shrink of 4 or more)
/// ```
/// libvips spends about 20 ms on each 12 MP photo's 1000 → 768 px step, in two scalar
/// passes that look up their per-pixel state one pixel at a time; here the positions are
/// planned once, and both passes sum whole rows with SSE2 (`pcv_reduce_rows`; the
/// horizontal pass on the image transposed). The
/// arithmetic is libvips' own: masks of `2·rint(3·shrink)+1` points from its Lanczos
/// formula at 65 sub-pixel phases, truncated to 12-bit integers, sums rounded with
/// `(v + 2048) >> 12` and clipped; edges extended by copying; the vertical pass's
/// position restarts at the top of every 16-row strip, as libvips' sink asks for them
/// (`vips_get_tile_size`, fat strips). `LanczosReducerTests` holds it to `vips_resize`.
public enum Lanczos3Reducer {
    /// libvips' sub-pixel phases (`VIPS_TRANSFORM_SCALE`) and coefficient scale.
    static let phases = 64
    static let shift = 12
    /// Rows of one strip of libvips' output, where the vertical pass recomputes its position.
    static let strip = 16

    /// Resized pixels, or nil where libvips would shrink by whole factors first (a scale
    /// under 1/4) or the scales are not a reduction.
    public static func resize(_ pixels: [UInt8], width: Int, height: Int, bands: Int,
                              hscale: Double, vscale: Double) -> (pixels: [UInt8], width: Int, height: Int)? {
        guard width > 0, height > 0, bands > 0, pixels.count == width * height * bands else { return nil }
        let hs = max(hscale, 1.0 / Double(width)), vs = max(vscale, 1.0 / Double(height))
        guard hs <= 1, vs <= 1 else { return nil }
        var data = pixels, w = width, h = height
        if vs < 1 {
            guard let plan = Axis(size: height, shrink: 1.0 / vs) else { return nil }
            data = vertical(data, width: w, height: h, bands: bands, plan)
            h = plan.size
        }
        if hs < 1 {
            guard let plan = Axis(size: width, shrink: 1.0 / hs) else { return nil }
            data = horizontal(data, width: w, height: h, bands: bands, plan)
            w = plan.size
        }
        return (data, w, h)
    }

    /// One axis of a reduce: output size, mask length, offset and the integer masks.
    struct Axis {
        let size: Int
        let shrink: Double
        let points: Int
        let offset: Double
        /// `masks[phase * points + i]`, phase 0...64.
        let masks: [Int32]
        /// Pixels of edge copied before the first one.
        let lead: Int

        init?(size input: Int, shrink: Double) {
            let out = Int(Double(input) / shrink + 0.5)
            guard out > 0 else { return nil }
            // libvips shrinks by whole factors first past twice the gap (2): not reproduced.
            guard max(1, Int((Double(input) / Double(out) / 2.0).rounded(.down))) == 1, shrink != 1 else { return nil }
            let extra = Double(out) * shrink - Double(input)
            let n = 2 * Int((3 * shrink).rounded(.toNearestOrEven)) + 1
            guard n <= 64 else { return nil }
            size = out; self.shrink = shrink; points = n
            offset = (1 + extra) / 2.0 - 1
            lead = Int((Double(n) / 2.0).rounded(.up)) - 1
            var m = [Int32](repeating: 0, count: (Lanczos3Reducer.phases + 1) * n)
            for p in 0...Lanczos3Reducer.phases {
                let c = Lanczos3Reducer.mask(shrink: shrink, x: Double(Float(p) / Float(Lanczos3Reducer.phases)), points: n)
                for i in 0..<n { m[p * n + i] = Int32(c[i] * Double(1 << Lanczos3Reducer.shift)) }
            }
            masks = m
        }

        /// Where output pixel `k` reads: the first input pixel (edge-extended coordinates) and the phase.
        static func place(_ position: Double) -> (first: Int, phase: Int) {
            let s = Int(position * Double(Lanczos3Reducer.phases) * 2)
            return (Int(position), ((s & (Lanczos3Reducer.phases * 2 - 1)) + 1) >> 1)
        }
    }

    /// libvips' `calculate_coefficients_lanczos` with 3 lobes, term for term.
    static func mask(shrink: Double, x: Double, points n: Int) -> [Double] {
        let a = 3.0
        let half = x + Double(n) / 2.0 - 1
        var c = [Double](repeating: 0, count: n)
        var sum = 0.0
        for i in 0..<n {
            let xp = (Double(i) - half) / shrink
            let l: Double
            if xp == 0 { l = 1 }
            else if xp < -a || xp > a { l = 0 }
            else { l = a * sin(Double.pi * xp) * sin(Double.pi * xp / a) / (Double.pi * Double.pi * xp * xp) }
            c[i] = l
            sum += l
        }
        for i in 0..<n { c[i] /= sum }
        return c
    }

    /// One pass along the rows of a `rows`-tall image whose rows hold `row` bytes: output row j
    /// from input rows `first …+points` (edges copied). The position restarts every `restart`
    /// output rows, as libvips' vertical pass does at each strip; its horizontal pass never does.
    static func pass(_ src: [UInt8], rows: Int, row: Int, _ a: Axis, restart: Int) -> [UInt8] {
        var first = [Int32](repeating: 0, count: a.size), phase = first
        var top = 0
        while top < a.size {
            var y = (Double(top) + 0.5) * a.shrink - 0.5 - a.offset
            for j in top..<min(a.size, top + restart) {
                let p = Axis.place(y)
                first[j] = Int32(p.first - a.lead); phase[j] = Int32(p.phase)
                y += a.shrink
            }
            top += restart
        }
        var out = [UInt8](repeating: 0, count: row * a.size)
        out.withUnsafeMutableBufferPointer { o in
            pcv_reduce_rows(src, Int32(rows), Int32(row), o.baseAddress, Int32(a.size), first, phase, a.masks, Int32(a.points))
        }
        return out
    }

    /// libvips' vertical pass, restarting at each 16-row strip.
    static func vertical(_ src: [UInt8], width: Int, height: Int, bands: Int, _ a: Axis) -> [UInt8] {
        pass(src, rows: height, row: width * bands, a, restart: strip)
    }

    /// libvips' horizontal pass: the image transposed, a pass along its rows, and back.
    static func horizontal(_ src: [UInt8], width: Int, height: Int, bands: Int, _ a: Axis) -> [UInt8] {
        let turned = transposed(src, width: width, height: height, bands: bands)
        let reduced = pass(turned, rows: width, row: height * bands, a, restart: a.size)
        return transposed(reduced, width: height, height: a.size, bands: bands)
    }

    /// Pixels of a `width` × `height` image as a `height` × `width` one, rows for columns.
    static func transposed(_ src: [UInt8], width: Int, height: Int, bands: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: src.count)
        out.withUnsafeMutableBufferPointer { o in pcv_transpose(src, Int32(width), Int32(height), Int32(bands), o.baseAddress) }
        return out
    }
}
