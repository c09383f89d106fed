import Foundation

/// In-place radix-2 complex FFT for the small square maps saliency needs (64×64).
enum FFT {
    static func transform(_ re: inout [Float], _ im: inout [Float], inverse: Bool) {
        let n = re.count
        precondition(n > 0 && n & (n - 1) == 0, "FFT size must be a power of two")
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var len = 2
        while len <= n {
            let ang = 2 * Float.pi / Float(len) * (inverse ? 1 : -1)
            let wr = cos(ang), wi = sin(ang)
            var i = 0
            while i < n {
                var cr: Float = 1, ci: Float = 0
                for k in 0..<(len / 2) {
                    let a = i + k, b = i + k + len / 2
                    let tr = re[b] * cr - im[b] * ci, ti = re[b] * ci + im[b] * cr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                    let ncr = cr * wr - ci * wi
                    ci = cr * wi + ci * wr
                    cr = ncr
                }
                i += len
            }
            len <<= 1
        }
        if inverse { for i in 0..<n { re[i] /= Float(n); im[i] /= Float(n) } }
    }

    /// 2-D transform of an n×n map, rows then columns.
    static func transform2D(_ re: inout [Float], _ im: inout [Float], n: Int, inverse: Bool) {
        var rr = [Float](repeating: 0, count: n), ri = [Float](repeating: 0, count: n)
        for y in 0..<n {
            for x in 0..<n { rr[x] = re[y * n + x]; ri[x] = im[y * n + x] }
            transform(&rr, &ri, inverse: inverse)
            for x in 0..<n { re[y * n + x] = rr[x]; im[y * n + x] = ri[x] }
        }
        for x in 0..<n {
            for y in 0..<n { rr[y] = re[y * n + x]; ri[y] = im[y * n + x] }
            transform(&rr, &ri, inverse: inverse)
            for y in 0..<n { re[y * n + x] = rr[y]; im[y * n + x] = ri[y] }
        }
    }
}
