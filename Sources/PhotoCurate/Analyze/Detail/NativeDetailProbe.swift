import Foundation

/// Collects `NativeDetail` from the DCT coefficients that a scaled JPEG decode
/// reads anyway (`JpegDecoder` calls `add` for every block before its inverse DCT).
///
/// ```swift
/// let probe = NativeDetailProbe()
/// let pixels = try JpegDecoder.decode(path, scale: 4, probe: probe)
/// let detail = probe.finish(orientation: 6)
/// ```
/// One pass, streaming, fixed memory: per component, AC power per coefficient
/// position summed in 32 bins of low-frequency activity (so the flattest blocks,
/// where only grain lives, can be found afterwards); for luma, also per tile.
public final class NativeDetailProbe {
    public static let tiles = 6
    static let bins = 32

    /// Sums of dequantized power per (component, activity bin, position); raw buffers,
    /// since this runs for every sampled block of every photo.
    let binned = UnsafeMutablePointer<Double>.allocate(capacity: 3 * NativeDetailProbe.bins * 64)
    let binCount = UnsafeMutablePointer<Double>.allocate(capacity: 3 * NativeDetailProbe.bins)
    /// Luma power per (tile, position) with the slope leakage taken out, blocks per tile,
    /// and per position the count of nonzero coefficients.
    let tilePower = UnsafeMutablePointer<Double>.allocate(capacity: NativeDetailProbe.tiles * NativeDetailProbe.tiles * 64)
    let tileBlocks = UnsafeMutablePointer<Double>.allocate(capacity: NativeDetailProbe.tiles * NativeDetailProbe.tiles)
    let nonzeroCount = UnsafeMutablePointer<Double>.allocate(capacity: 64)
    let scratch = UnsafeMutablePointer<Double>.allocate(capacity: 64)
    let leakTable = UnsafeMutablePointer<Double>.allocate(capacity: 8)
    var quant: [[Int]] = [[], [], []]
    var blocks: (Double, Double, Double) = (0, 0, 0)
    /// Layout, set by the decoder before the first block.
    var blocksWide = [1, 1, 1], imcuRows = 1, width = 0, height = 0
    /// Whether each component is subsampled against luma (its grain is averaged over 2×2 pixels).
    var subsampled = [false, false, false]
    /// Every `stride`-th block (in a diagonal pattern; the shim skips the others) is
    /// measured: the statistics of one block in 8 are as good, and the decode stays the cost.
    public static let lumaStride = 8, chromaStride = 4

    /// DCT-II ratios of a linear ramp (odd n: cₙ/c₁) and a centred parabola (even n: cₙ/c₂) over 8 samples.
    static let leak: [Double] = {
        func dct(_ x: [Double], _ n: Int) -> Double {
            (0..<8).reduce(0.0) { $0 + x[$1] * cos(Double(2 * $1 + 1) * Double(n) * Double.pi / 16) }
        }
        let ramp = (0..<8).map { Double($0) - 3.5 }, parabola = (0..<8).map { pow(Double($0) - 3.5, 2) }
        return (0..<8).map { n in
            n < 3 ? 0 : n % 2 == 1 ? dct(ramp, n) / dct(ramp, 1) : dct(parabola, n) / dct(parabola, 2)
        }
    }()

    public init() {
        binned.initialize(repeating: 0, count: 3 * Self.bins * 64)
        binCount.initialize(repeating: 0, count: 3 * Self.bins)
        tilePower.initialize(repeating: 0, count: Self.tiles * Self.tiles * 64)
        tileBlocks.initialize(repeating: 0, count: Self.tiles * Self.tiles)
        nonzeroCount.initialize(repeating: 0, count: 64)
        scratch.initialize(repeating: 0, count: 64)
        for i in 0..<8 { leakTable[i] = Self.leak[i] }
    }

    deinit {
        for p in [binned, binCount, tilePower, tileBlocks, nonzeroCount, scratch, leakTable] { p.deallocate() }
    }

    func blockCount(_ c: Int) -> Double { c == 0 ? blocks.0 : c == 1 ? blocks.1 : blocks.2 }

    /// One block. `coef` and `q` are 64 values in natural order.
    @inline(__always)
    func add(component c: Int, column: Int, imcuRow: Int, coef: UnsafePointer<Int16>, quant q: UnsafePointer<UInt16>) {
        if quant[c].isEmpty { quant[c] = (0..<64).map { Int(q[$0]) } }
        let p = scratch
        // Power of each nonzero AC coefficient; most are zero.
        var any = false
        for k in 1..<64 {
            let v = coef[k]
            if v != 0 { let d = Double(v) * Double(q[k]); p[k] = d * d; any = true } else { p[k] = 0 }
        }
        switch c { case 0: blocks.0 += 1; case 1: blocks.1 += 1; default: blocks.2 += 1 }
        // Low-frequency activity: how much structure the block holds (grain barely moves it).
        let e = p[1] + p[8] + p[9] + p[2] + p[16]
        let bin = e < 1 ? 0 : min(Self.bins - 1, Int(log2(e) * 1.5) + 1)
        binCount[c * Self.bins + bin] += 1
        guard any else {
            if c == 0 { tileBlocks[tileIndex(column, imcuRow)] += 1 }
            return
        }
        let base = (c * Self.bins + bin) * 64
        for k in 1..<64 where p[k] != 0 { binned[base + k] += p[k] }
        guard c == 0 else { return }
        // Luma: the power that is detail, not leakage. An 8-px block of a smooth slope
        // or curve has odd (even) coefficients in fixed ratio to its first (second)
        // one; in a soft photo that leakage outweighs what detail is left. Taking the
        // predicted leak out leaves what a slope or curve cannot explain.
        let t = tileIndex(column, imcuRow)
        tileBlocks[t] += 1
        let tb = t * 64
        for k in 1..<64 {
            let u = k & 7, v = k >> 3
            var d = Double(coef[k]) * Double(q[k])
            if u >= 3 { let src = v * 8 + (u & 1 == 1 ? 1 : 2); d -= leakTable[u] * Double(coef[src]) * Double(q[src]) }
            if v >= 3 { let src = (v & 1 == 1 ? 1 : 2) * 8 + u; d -= leakTable[v] * Double(coef[src]) * Double(q[src]) }
            tilePower[tb + k] += d * d
            if p[k] != 0 { nonzeroCount[k] += 1 }
        }
    }

    @inline(__always) func tileIndex(_ column: Int, _ imcuRow: Int) -> Int {
        let tx = min(Self.tiles - 1, column * Self.tiles / max(1, blocksWide[0]))
        let ty = min(Self.tiles - 1, imcuRow * Self.tiles / max(1, imcuRows))
        return ty * Self.tiles + tx
    }

    /// Grain σ of component c: in the flattest 10 % of its blocks, the quantization-aware
    /// σ at mid frequencies (2 ≤ u+v ≤ 6) where the quantizer is finest.
    func noise(_ c: Int) -> Double? {
        guard blockCount(c) >= 64, quant[c].count == 64 else { return nil }
        let target = blockCount(c) * 0.1
        var acc = 0.0
        var sums = [Double](repeating: 0, count: 64)
        for b in 0..<Self.bins where acc < target {
            acc += binCount[c * Self.bins + b]
            for k in 0..<64 { sums[k] += binned[(c * Self.bins + b) * 64 + k] }
        }
        guard acc > 0 else { return nil }
        let positions = (1..<64).filter { k in let s = k % 8 + k / 8; return s >= 2 && s <= 6 }
            .sorted { quant[c][$0] != quant[c][$1] ? quant[c][$0] < quant[c][$1] : $0 < $1 }
            .prefix(12)
        let sigmas = positions.map { k in NativeDetail.sigma(quantizedPower: sums[k] / acc, step: Double(quant[c][k])) }.sorted()
        guard !sigmas.isEmpty else { return nil }
        // Subsampled chroma was averaged over 2×2 pixels before coding: its grain per pixel is twice that.
        return sigmas[sigmas.count / 2] * (subsampled[c] ? 2 : 1)
    }

    /// Edge spread (native px) of one tile from how its spectrum falls between a low
    /// and a high band, against the f⁻² fall of a sharp edge: σ² = ln(Lf²_L / Hf²_H) / 4π²(f²_H − f²_L).
    static func tileWidth(_ p: ArraySlice<Double>, blocks: Double, floor: (Int) -> Double) -> Double? {
        guard blocks >= 4 else { return nil }
        var lo = 0.0, loF = 0.0, nLo = 0.0, hi = 0.0, hiF = 0.0, nHi = 0.0, loPower = 0.0
        let base = p.startIndex
        for k in 1..<64 {
            let u = k % 8, v = k / 8, r2 = u * u + v * v
            let power = p[base + k] / blocks - floor(k)
            if r2 <= 5 { lo += max(0, power) * NativeDetail.f2(k); loF += NativeDetail.f2(k); nLo += 1; loPower += max(0, power) }
            else if r2 >= 9 && r2 <= 25 { hi += max(0, power) * NativeDetail.f2(k); hiF += NativeDetail.f2(k); nHi += 1 }
        }
        // A tile needs structure (edges of some contrast) for its fall to mean anything.
        guard nLo > 0, nHi > 0, loPower / nLo > 50 else { return nil }
        let ratio = (lo / nLo) / max(1e-6, hi / nHi)
        let d = 4 * Double.pi * Double.pi * (hiF / nHi - loF / nLo)
        return max(0, log(max(1, ratio)) / d).squareRoot()
    }

    /// The summary, with tiles turned upright by the EXIF orientation.
    public func finish(orientation: Int) -> NativeDetail? {
        guard blocks.0 >= 64, quant[0].count == 64 else { return nil }
        let n = Self.tiles
        let noiseY = noise(0) ?? 0
        let chroma = [noise(1), noise(2)].compactMap { $0 }.max()
        let floors = quant[0].map { NativeDetail.quantizedPower(sigma: noiseY, step: Double($0)) }
        var stored: [NativeDetail.Tile] = []
        for t in 0..<(n * n) {
            let tx = t % n, ty = t / n
            let x0 = tx * width / n, y0 = ty * height / n, x1 = (tx + 1) * width / n, y1 = (ty + 1) * height / n
            let slice = Array(UnsafeBufferPointer(start: tilePower + t * 64, count: 64))[...]
            let b = max(1, tileBlocks[t])
            let energy = (1..<64).reduce(0.0) { $0 + slice[$1] } / b
            let w = Self.tileWidth(slice, blocks: tileBlocks[t], floor: { floors[$0] })
            stored.append(.init(x: x0, y: y0, w: x1 - x0, h: y1 - y0, width: w.map { ($0 * 100).rounded() / 100 }, energy: (energy * 10).rounded() / 10))
        }
        let upright = Self.rotate(stored, n: n, width: width, height: height, orientation: orientation)
        let widths = upright.compactMap(\.width).sorted()
        let sharp = widths.isEmpty ? nil : widths[min(widths.count - 1, Int(Double(widths.count - 1) * 0.3))]
        var power = [Float](repeating: 0, count: 64)
        for t in 0..<(n * n) { for k in 1..<64 { power[k] += Float(tilePower[t * 64 + k]) } }
        let total = Float(blocks.0)
        func r(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        return NativeDetail(width: width, height: height, noiseLuma: r(noiseY), noiseChroma: chroma.map(r),
                            power: power.map { (($0 / total) * 1000).rounded() / 1000 },
                            nonzero: (0..<64).map { Float(((nonzeroCount[$0] / Double(total)) * 10000).rounded() / 10000) },
                            quant: quant[0], tiles: upright, sharpWidth: sharp.map(r))
    }

    /// Tiles (row-major in stored orientation) as they lie once the photo is shown upright.
    static func rotate(_ tiles: [NativeDetail.Tile], n: Int, width: Int, height: Int, orientation: Int) -> [NativeDetail.Tile] {
        guard (2...8).contains(orientation) else { return tiles }
        let swap = orientation >= 5
        let uw = swap ? height : width, uh = swap ? width : height
        var out = tiles
        for t in tiles.indices {
            let tx = t % n, ty = t / n
            // Where stored tile (tx, ty) lands in the upright grid.
            let (ux, uy): (Int, Int)
            switch orientation {
            case 2: (ux, uy) = (n - 1 - tx, ty)
            case 3: (ux, uy) = (n - 1 - tx, n - 1 - ty)
            case 4: (ux, uy) = (tx, n - 1 - ty)
            case 5: (ux, uy) = (ty, tx)
            case 6: (ux, uy) = (n - 1 - ty, tx)
            case 7: (ux, uy) = (n - 1 - ty, n - 1 - tx)
            default: (ux, uy) = (ty, n - 1 - tx)  // 8
            }
            var tile = tiles[t]
            tile.x = ux * uw / n; tile.y = uy * uh / n; tile.w = (ux + 1) * uw / n - tile.x; tile.h = (uy + 1) * uh / n - tile.y
            out[uy * n + ux] = tile
        }
        return out
    }
}
