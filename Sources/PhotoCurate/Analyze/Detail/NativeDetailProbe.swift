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
    /// The hot path touches only these raw buffers (`let`, so Swift checks no exclusive
    /// access per block): the block's dequantized coefficients and their power, the
    /// quantizer tables (3 × 64, step 0 until seen), blocks per component, and per AC
    /// position the source and ratio of the leakage to take out along u and along v.
    let coefficients = UnsafeMutablePointer<Double>.allocate(capacity: 64)
    let scratch = UnsafeMutablePointer<Double>.allocate(capacity: 64)
    let steps = UnsafeMutablePointer<Double>.allocate(capacity: 3 * 64)
    let counts = UnsafeMutablePointer<Double>.allocate(capacity: 3)
    let leakSource = UnsafeMutablePointer<Int>.allocate(capacity: 2 * 64)
    let leakRatio = UnsafeMutablePointer<Double>.allocate(capacity: 2 * 64)
    /// Luma blocks across and iMCU rows down, for the tile a block falls in.
    let grid = UnsafeMutablePointer<Int>.allocate(capacity: 2)
    /// Layout, set by the decoder before the first block.
    var width = 0, height = 0
    /// Whether each component is subsampled against luma (its grain is averaged over 2×2 pixels).
    var subsampled = [false, false, false]
    /// About this many blocks per component are measured (evenly spread; the shim skips
    /// the others): statistics of 6,000 luma blocks are as good as of all 190,000 of a
    /// 12 MP photo, and the probe's cost stays the same whatever the photo's size.
    public static let lumaBlocks = 6_000, chromaBlocks = 3_000

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
        coefficients.initialize(repeating: 0, count: 64)
        scratch.initialize(repeating: 0, count: 64)
        steps.initialize(repeating: 0, count: 3 * 64)
        counts.initialize(repeating: 0, count: 3)
        grid.initialize(repeating: 1, count: 2)
        // Position k = v·8 + u leaks from (v, 1 or 2) along u and from (1 or 2, u) along v;
        // positions with u < 3 (v < 3) take nothing out: source the DC with ratio 0.
        for k in 0..<64 {
            let u = k & 7, v = k >> 3
            leakSource[k] = u >= 3 ? v * 8 + (u & 1 == 1 ? 1 : 2) : 0
            leakRatio[k] = u >= 3 ? Self.leak[u] : 0
            leakSource[64 + k] = v >= 3 ? (v & 1 == 1 ? 1 : 2) * 8 + u : 0
            leakRatio[64 + k] = v >= 3 ? Self.leak[v] : 0
        }
    }

    deinit {
        for p in [binned, binCount, tilePower, tileBlocks, nonzeroCount, coefficients, scratch, steps, counts, leakRatio] { p.deallocate() }
        leakSource.deallocate(); grid.deallocate()
    }

    /// Sets the layout the decoder found, before the first block.
    func setLayout(width: Int, height: Int, lumaBlocksWide: Int, imcuRows: Int, subsampled: [Bool]) {
        self.width = width; self.height = height; self.subsampled = subsampled
        grid[0] = max(1, lumaBlocksWide); grid[1] = max(1, imcuRows)
    }

    func blockCount(_ c: Int) -> Double { counts[c] }

    /// The quantizer steps of component c, once a block of it has been seen.
    func quant(_ c: Int) -> [Int]? { steps[c * 64 + 1] == 0 ? nil : (0..<64).map { Int(steps[c * 64 + $0]) } }

    /// One block. `coef` and `q` are 64 values in natural order.
    @inline(__always)
    func add(component c: Int, column: Int, imcuRow: Int, coef: UnsafePointer<Int16>, quant q: UnsafePointer<UInt16>) {
        let step = steps + c * 64
        if step[1] == 0 { for k in 0..<64 { step[k] = Double(q[k]) } }
        let d = coefficients, p = scratch
        var any = false
        for k in 0..<64 {
            let x = Double(coef[k]) * step[k]
            d[k] = x; p[k] = x * x
        }
        for k in 1..<64 where coef[k] != 0 { any = true; break }
        counts[c] += 1
        // Low-frequency activity: how much structure the block holds (grain barely moves it).
        let e = p[1] + p[8] + p[9] + p[2] + p[16]
        let bin = e < 1 ? 0 : min(Self.bins - 1, Int(log2(e) * 1.5) + 1)
        // A luma block at black or white (mean under 6 or over 249: DC = 8·(mean − 128))
        // is the flattest of all and has had its grain clipped away: a blown sky or a
        // black stage would read a grainy frame as clean.
        let clipped = c == 0 && abs(d[0]) > 976
        if !clipped { binCount[c * Self.bins + bin] += 1 }
        let t = c == 0 ? tileIndex(column, imcuRow) : 0
        if c == 0 { tileBlocks[t] += 1 }
        if any && !clipped {
            let binRow = binned + (c * Self.bins + bin) * 64
            for k in 1..<64 { binRow[k] += p[k] }
        }
        guard any else { return }
        guard c == 0 else { return }
        // Luma: the power that is detail, not leakage. An 8-px block of a smooth slope
        // or curve has odd (even) coefficients in fixed ratio to its first (second)
        // one; in a soft photo that leakage outweighs what detail is left. Taking the
        // predicted leak out leaves what a slope or curve cannot explain.
        let tile = tilePower + t * 64
        for k in 1..<64 {
            let x = d[k] - leakRatio[k] * d[leakSource[k]] - leakRatio[64 + k] * d[leakSource[64 + k]]
            tile[k] += x * x
            nonzeroCount[k] += coef[k] != 0 ? 1 : 0
        }
    }

    @inline(__always) func tileIndex(_ column: Int, _ imcuRow: Int) -> Int {
        let tx = min(Self.tiles - 1, column * Self.tiles / grid[0])
        let ty = min(Self.tiles - 1, imcuRow * Self.tiles / grid[1])
        return ty * Self.tiles + tx
    }

    /// Grain σ of chroma component c: in the flattest 10 % of its blocks, the
    /// quantization-aware σ at mid frequencies (2 ≤ u+v ≤ 6) where the quantizer is finest.
    func noise(_ c: Int) -> Double? {
        guard let (sums, quant) = flattestDecile(c) else { return nil }
        let inBand = (1..<64).filter { (2...6).contains($0 % 8 + $0 / 8) }
        let positions = inBand.sorted { (a: Int, b: Int) -> Bool in quant[a] != quant[b] ? quant[a] < quant[b] : a < b }.prefix(12)
        let sigmas = positions.map { k in NativeDetail.sigma(quantizedPower: sums[k], step: Double(quant[k])) }.sorted()
        guard !sigmas.isEmpty else { return nil }
        // Subsampled chroma was averaged over 2×2 pixels before coding: its grain per pixel is twice that.
        return sigmas[sigmas.count / 2] * (subsampled[c] ? 2 : 1)
    }

    /// Luma blocks a photo needs before its grain is judged at 100 %: in a thumbnail
    /// every block is texture, and there is no flat patch for grain to show in.
    public static let minGrainBlocks = 1_000

    /// Luma grain σ per pixel, or why it cannot be measured.
    ///
    /// Grain is white and everywhere; texture (foliage, sand, water) is not. So the
    /// σ comes from the flattest 1 % of blocks (at least 48), and from the highest
    /// frequencies the quantizer kept finely enough to invert (step ≤ 20): the three
    /// highest such rings u+v, the median of their σ. Texture loses power towards
    /// the pixel scale (optics, demosaicing); grain added to the pixels does not.
    /// Chosen on the development trips and the real camera files: grain σ 8–14
    /// reads 0.93× its size (7.0 at least), clean frames at most 3.6, 640 px photos
    /// of sand and foliage at most 6.3 (the flattest 10 % at mid frequencies read
    /// them at 10–18, like grain).
    func lumaGrain() -> (sigma: Double?, note: String?) {
        let blocks = blockCount(0)
        guard blocks >= Double(Self.minGrainBlocks) else {
            return (nil, "too small to judge grain at 100 % (\(Int(blocks)) blocks of 8×8)")
        }
        guard let (power, quant) = flattest(0, fraction: max(0.01, 48 / blocks)) else { return (nil, "no blocks away from black and white") }
        var rings: [Int: [Double]] = [:]
        for k in 1..<64 where quant[k] <= 20 && (3...10).contains(k % 8 + k / 8) {
            rings[k % 8 + k / 8, default: []].append(NativeDetail.sigma(quantizedPower: power[k], step: Double(quant[k])))
        }
        let top = rings.keys.sorted().suffix(3).filter { $0 >= 4 }
        guard !top.isEmpty else { return (nil, "the JPEG keeps no fine frequencies (quantizer steps over 20)") }
        let perRing = top.map { r -> Double in let v = rings[r]!.sorted(); return v[v.count / 2] }.sorted()
        return (perRing[perRing.count / 2], nil)
    }

    /// Mean power per coefficient of component c's flattest 10 % of blocks (dequantized)
    /// and its quantizer steps; nil before 64 blocks.
    func flattestDecile(_ c: Int) -> (power: [Double], quant: [Int])? {
        flattest(c, fraction: 0.1)
    }

    /// The same over the flattest `fraction` of the blocks (whole activity bins, so a little more).
    func flattest(_ c: Int, fraction: Double) -> (power: [Double], quant: [Int])? {
        let kept = (0..<Self.bins).reduce(0.0) { $0 + binCount[c * Self.bins + $1] }
        guard kept >= 64, let quant = quant(c) else { return nil }
        let target = kept * fraction
        var acc = 0.0
        var sums = [Double](repeating: 0, count: 64)
        for b in 0..<Self.bins where acc < target {
            acc += binCount[c * Self.bins + b]
            for k in 0..<64 { sums[k] += binned[(c * Self.bins + b) * 64 + k] }
        }
        guard acc > 0 else { return nil }
        return (sums.map { $0 / acc }, quant)
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
        guard counts[0] >= 64, let quant = quant(0) else { return nil }
        let n = Self.tiles
        let grain = lumaGrain()
        let noiseY = grain.sigma ?? 0
        let chroma = [noise(1), noise(2)].compactMap { $0 }.max()
        let floors = quant.map { NativeDetail.quantizedPower(sigma: noiseY, step: Double($0)) }
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
        let total = Float(counts[0])
        func r(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        return NativeDetail(width: width, height: height, noiseLuma: r(noiseY), grainUnmeasured: grain.note, noiseChroma: chroma.map(r),
                            power: power.map { (($0 / total) * 1000).rounded() / 1000 },
                            nonzero: (0..<64).map { Float(((nonzeroCount[$0] / Double(total)) * 10000).rounded() / 10000) },
                            quant: quant, tiles: upright, transposed: (5...8).contains(orientation), sharpWidth: sharp.map(r))
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
