import CBLAS
import Foundation

/// Cosine similarities between feature prints, in blocks, through OpenBLAS sgemm.
///
/// ```swift
/// let m = SimilarityMatrix(prints)
/// m.block(rows: 0..<512, cols: 0..<512)  // 512×512 similarities, row-major
/// ```
public struct SimilarityMatrix {
    public let count: Int
    public let dimension: Int
    private let data: [Float]   // count × dimension, row-major

    public init(_ prints: [FeaturePrint]) {
        count = prints.count
        dimension = prints.first?.vector.count ?? 0
        var d = [Float]()
        d.reserveCapacity(count * dimension)
        for p in prints { d += p.vector }
        data = d
        SimilarityMatrix.pinBLAS
    }

    /// OpenBLAS on one thread: the pipeline's own tasks keep the cores busy.
    private static let pinBLAS: Void = { openblas_set_num_threads(1) }()

    /// Similarities of `rows` against `cols`, row-major (rows.count × cols.count).
    public func block(rows: Range<Int>, cols: Range<Int>) -> [Float] {
        guard !rows.isEmpty, !cols.isEmpty, dimension > 0 else { return [] }
        var out = [Float](repeating: 0, count: rows.count * cols.count)
        data.withUnsafeBufferPointer { p in
            let a = p.baseAddress! + rows.lowerBound * dimension
            let b = p.baseAddress! + cols.lowerBound * dimension
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows.count), Int32(cols.count), Int32(dimension),
                        1, a, Int32(dimension), b, Int32(dimension), 0, &out, Int32(cols.count))
        }
        return out
    }

    /// Similarities among the listed rows only (m × m, row-major), gathered first
    /// so a small group costs m² and not m × count.
    public func among(_ indices: [Int]) -> [Float] {
        let m = indices.count
        guard m > 0, dimension > 0 else { return [] }
        var g = [Float](repeating: 0, count: m * dimension)
        for (r, i) in indices.enumerated() {
            for k in 0..<dimension { g[r * dimension + k] = data[i * dimension + k] }
        }
        var out = [Float](repeating: 0, count: m * m)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(m), Int32(dimension),
                    1, g, Int32(dimension), g, Int32(dimension), 0, &out, Int32(m))
        return out
    }
}
