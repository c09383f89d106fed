import Foundation

/// Small float-image helpers shared by the analyzers. Plain loops over
/// contiguous buffers: at the analysis size (≤ 768 px) they cost a few ms.
enum ImageOps {
    /// Area-average downsample of a single-channel image to exactly `tw`×`th`.
    static func resample(_ src: [Float], _ w: Int, _ h: Int, to tw: Int, _ th: Int) -> [Float] {
        var out = [Float](repeating: 0, count: tw * th)
        var counts = [Float](repeating: 0, count: tw * th)
        // The target column of every source column, once: a division per pixel
        // cost more than the sums. Same sums in the same order as before.
        let column = (0..<w).map { min(tw - 1, $0 * tw / w) }
        src.withUnsafeBufferPointer { s in out.withUnsafeMutableBufferPointer { o in counts.withUnsafeMutableBufferPointer { n in
            column.withUnsafeBufferPointer { col in
                for y in 0..<h {
                    let target = min(th - 1, y * th / h) * tw
                    let row = y * w
                    for x in 0..<w {
                        o[target + col[x]] += s[row + x]
                        n[target + col[x]] += 1
                    }
                }
            }
            for i in 0..<o.count where n[i] > 0 { o[i] /= n[i] }
        } } }
        return out
    }

    /// 3×3 binomial smoothing ([1 2 1]/4 separable, σ ≈ 0.7), edges clamped.
    static func binomial(_ src: [Float], _ w: Int, _ h: Int) -> [Float] {
        var tmp = [Float](repeating: 0, count: w * h)
        var out = [Float](repeating: 0, count: w * h)
        src.withUnsafeBufferPointer { s in
            for y in 0..<h {
                let r = y * w
                for x in 0..<w {
                    let l = s[r + max(0, x - 1)], c = s[r + x], rr = s[r + min(w - 1, x + 1)]
                    tmp[r + x] = 0.25 * l + 0.5 * c + 0.25 * rr
                }
            }
        }
        for y in 0..<h {
            let up = max(0, y - 1) * w, r = y * w, dn = min(h - 1, y + 1) * w
            for x in 0..<w { out[r + x] = 0.25 * tmp[up + x] + 0.5 * tmp[r + x] + 0.25 * tmp[dn + x] }
        }
        return out
    }

    /// Separable gaussian blur with clamped edges.
    static func gaussian(_ src: [Float], _ w: Int, _ h: Int, sigma: Float) -> [Float] {
        let r = max(1, Int((3 * sigma).rounded(.up)))
        var k = (-r...r).map { exp(-Float($0 * $0) / (2 * sigma * sigma)) }
        let s = k.reduce(0, +)
        k = k.map { $0 / s }
        var tmp = [Float](repeating: 0, count: w * h)
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var acc: Float = 0
                for i in -r...r { acc += k[i + r] * src[y * w + min(w - 1, max(0, x + i))] }
                tmp[y * w + x] = acc
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                var acc: Float = 0
                for i in -r...r { acc += k[i + r] * tmp[min(h - 1, max(0, y + i)) * w + x] }
                out[y * w + x] = acc
            }
        }
        return out
    }

    @inline(__always)
    static func bilinear(_ s: UnsafeBufferPointer<Float>, _ w: Int, _ h: Int, _ x: Float, _ y: Float) -> Float {
        let xc = min(max(x, 0), Float(w - 1) - 0.001), yc = min(max(y, 0), Float(h - 1) - 0.001)
        let x0 = Int(xc), y0 = Int(yc)
        let fx = xc - Float(x0), fy = yc - Float(y0)
        let i = y0 * w + x0
        let top = s[i] * (1 - fx) + s[i + 1] * fx
        let bot = s[i + w] * (1 - fx) + s[i + w + 1] * fx
        return top * (1 - fy) + bot * fy
    }

    static func percentile(_ values: [Float], _ p: Double) -> Float {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let idx = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * p).rounded())))
        return sorted[idx]
    }
}
