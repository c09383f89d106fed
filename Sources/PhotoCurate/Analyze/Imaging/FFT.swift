import Foundation

/// In-place radix-2 complex FFT for the small square maps the analyzers use
/// (64×64 saliency maps and power-spectrum windows).
///
/// ```swift
/// let plan = FFT.Plan(n: 64)
/// plan.transform2D(&re, &im, inverse: false)
/// ```
/// A plan holds the bit-reversal table and the twiddle factors, so a run of
/// transforms of one size (a spectrum is about 54 of them) does not recompute them.
enum FFT {
    struct Plan: Sendable {
        let n: Int
        private let reversed: [Int]
        private let cosines: [Float], sines: [Float]

        init(n: Int) {
            precondition(n > 1 && n & (n - 1) == 0, "FFT size must be a power of two")
            self.n = n
            var rev = [Int](repeating: 0, count: n)
            var j = 0
            for i in 1..<n {
                var bit = n >> 1
                while j & bit != 0 { j ^= bit; bit >>= 1 }
                j |= bit
                rev[i] = j
            }
            reversed = rev
            cosines = (0..<(n / 2)).map { Float(cos(2 * Double.pi * Double($0) / Double(n))) }
            sines = (0..<(n / 2)).map { Float(sin(2 * Double.pi * Double($0) / Double(n))) }
        }

        /// One 1-D transform of `n` values at `re[offset + k·stride]`.
        func transform(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, stride s: Int, inverse: Bool) {
            reversed.withUnsafeBufferPointer { reversed in cosines.withUnsafeBufferPointer { cosines in sines.withUnsafeBufferPointer { sines in
            for i in 1..<n {
                let j = reversed[i]
                if i < j {
                    swap(&re[i * s], &re[j * s]); swap(&im[i * s], &im[j * s])
                }
            }
            let sign: Float = inverse ? 1 : -1
            var len = 2
            while len <= n {
                let half = len / 2, step = n / len
                var i = 0
                while i < n {
                    for k in 0..<half {
                        let cr = cosines[k * step], ci = sign * sines[k * step]
                        let a = (i + k) * s, b = (i + k + half) * s
                        let tr = re[b] * cr - im[b] * ci, ti = re[b] * ci + im[b] * cr
                        re[b] = re[a] - tr; im[b] = im[a] - ti
                        re[a] += tr; im[a] += ti
                    }
                    i += len
                }
                len <<= 1
            }
            } } }
            if inverse {
                let scale = 1 / Float(n)
                for i in 0..<n { re[i * s] *= scale; im[i * s] *= scale }
            }
        }

        /// 2-D transform of an n×n map, rows then columns.
        func transform2D(_ re: inout [Float], _ im: inout [Float], inverse: Bool) {
            precondition(re.count == n * n && im.count == n * n)
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { m in
                    let rp = r.baseAddress!, mp = m.baseAddress!
                    for y in 0..<n { transform(rp + y * n, mp + y * n, stride: 1, inverse: inverse) }
                    for x in 0..<n { transform(rp + x, mp + x, stride: n, inverse: inverse) }
                }
            }
        }
    }
}
