import CBLAS
import Foundation

/// A sentence-embedding model of the BERT family (all-MiniLM-L6-v2), run by
/// photocurate's own code on OpenBLAS: no Python, no converted graph.
///
/// ```swift
/// let e = try SentenceEmbedder(store: ModelStore())        // checks both files' sha256
/// let a = e.embed("The weather is lovely today."), b = e.embed("It's so sunny outside!")
/// SentenceEmbedder.cosine(a, b)                          // 0.666, as sentence-transformers gives
/// ```
/// Input → output: text → WordPiece ids (at most 256) → 6 transformer layers →
/// the mean of the token states, scaled to unit length (384 floats).
/// The weights are read once and never written, so one embedder serves every
/// task; each call has its own buffers.
public final class SentenceEmbedder: @unchecked Sendable {
    /// The catalog ids of the weights and the vocabulary.
    public static let modelId = "minilm-l6", vocabularyId = "minilm-l6-vocab"

    public struct Shape: Equatable, Sendable {
        public var hidden = 384, heads = 12, intermediate = 1536, layers = 6, vocabulary = 30522, positions = 512
        public init(hidden: Int = 384, heads: Int = 12, intermediate: Int = 1536, layers: Int = 6, vocabulary: Int = 30522, positions: Int = 512) {
            self.hidden = hidden; self.heads = heads; self.intermediate = intermediate; self.layers = layers
            self.vocabulary = vocabulary; self.positions = positions
        }
    }

    struct Layer {
        var q, qb, k, kb, v, vb, o, ob, ln1, ln1b, up, upb, down, downb, ln2, ln2b: [Float]
    }

    public let shape: Shape
    public let tokenizer: WordPieceTokenizer
    public let maxTokens: Int
    let words, positions, types, lnE, lnEb: [Float]
    let layers: [Layer]

    private static let pinBLAS: Void = { openblas_set_num_threads(1) }()

    /// The installed model, refused if either file is not the catalog's bytes.
    public convenience init(store: ModelStore) throws {
        var paths: [String] = []
        for id in [Self.modelId, Self.vocabularyId] {
            let entry = try store.entry(id)
            guard let path = store.installedPath(id) else { throw ModelError.notInstalled(id) }
            let sha = try SHA256.file(path)
            guard sha == entry.installed.sha256 else { throw ModelError.checksumMismatch(path: path, expected: entry.installed.sha256, actual: sha) }
            paths.append(path)
        }
        try self.init(weights: SafeTensors(path: paths[0]), tokenizer: WordPieceTokenizer(vocabFile: paths[1]))
    }

    public init(weights st: SafeTensors, tokenizer: WordPieceTokenizer, shape: Shape = Shape(), maxTokens: Int = 256) throws {
        _ = Self.pinBLAS
        self.shape = shape; self.tokenizer = tokenizer; self.maxTokens = min(maxTokens, shape.positions)
        let h = shape.hidden, i = shape.intermediate
        words = try st.floats("embeddings.word_embeddings.weight", shape: [shape.vocabulary, h])
        positions = try st.floats("embeddings.position_embeddings.weight", shape: [shape.positions, h])
        types = try st.floats("embeddings.token_type_embeddings.weight", shape: [2, h])
        lnE = try st.floats("embeddings.LayerNorm.weight", shape: [h])
        lnEb = try st.floats("embeddings.LayerNorm.bias", shape: [h])
        layers = try (0..<shape.layers).map { n in
            let p = "encoder.layer.\(n)."
            func w(_ name: String, _ s: [Int]) throws -> [Float] { try st.floats(p + name, shape: s) }
            return Layer(q: try w("attention.self.query.weight", [h, h]), qb: try w("attention.self.query.bias", [h]),
                         k: try w("attention.self.key.weight", [h, h]), kb: try w("attention.self.key.bias", [h]),
                         v: try w("attention.self.value.weight", [h, h]), vb: try w("attention.self.value.bias", [h]),
                         o: try w("attention.output.dense.weight", [h, h]), ob: try w("attention.output.dense.bias", [h]),
                         ln1: try w("attention.output.LayerNorm.weight", [h]), ln1b: try w("attention.output.LayerNorm.bias", [h]),
                         up: try w("intermediate.dense.weight", [i, h]), upb: try w("intermediate.dense.bias", [i]),
                         down: try w("output.dense.weight", [h, i]), downb: try w("output.dense.bias", [h]),
                         ln2: try w("output.LayerNorm.weight", [h]), ln2b: try w("output.LayerNorm.bias", [h]))
        }
        guard shape.hidden % shape.heads == 0, Int(tokenizer.classify) < shape.vocabulary, Int(tokenizer.separator) < shape.vocabulary else {
            throw ModelError.badArchive(path: st.path, reason: "the vocabulary and the weights do not belong together")
        }
    }

    /// The unit-length embedding of `text`.
    public func embed(_ text: String) -> [Float] {
        embed(ids: tokenizer.encode(text, maxLength: maxTokens))
    }

    public func embed(ids raw: [Int32]) -> [Float] {
        let h = shape.hidden, n = shape.intermediate, heads = shape.heads, d = h / heads
        let ids = raw.prefix(maxTokens).map { Int($0) < shape.vocabulary && $0 >= 0 ? Int($0) : Int(tokenizer.unknown) }
        let t = ids.count
        var x = [Float](repeating: 0, count: t * h)
        for (r, id) in ids.enumerated() {
            for c in 0..<h { x[r * h + c] = words[id * h + c] + positions[r * h + c] + types[c] }
        }
        Self.layerNorm(&x, rows: t, width: h, gamma: lnE, beta: lnEb)
        var q = [Float](repeating: 0, count: t * h), k = q, v = q, ctx = q, out = q
        var scores = [Float](repeating: 0, count: t * t), mid = [Float](repeating: 0, count: t * n)
        let scale = 1 / Float(d).squareRoot()
        for L in layers {
            Self.linear(x, rows: t, inWidth: h, weight: L.q, bias: L.qb, outWidth: h, into: &q)
            Self.linear(x, rows: t, inWidth: h, weight: L.k, bias: L.kb, outWidth: h, into: &k)
            Self.linear(x, rows: t, inWidth: h, weight: L.v, bias: L.vb, outWidth: h, into: &v)
            for head in 0..<heads {
                q.withUnsafeBufferPointer { qp in k.withUnsafeBufferPointer { kp in
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(t), Int32(t), Int32(d), scale,
                                qp.baseAddress! + head * d, Int32(h), kp.baseAddress! + head * d, Int32(h), 0, &scores, Int32(t))
                } }
                for r in 0..<t {
                    var m = -Float.infinity
                    for c in 0..<t { m = max(m, scores[r * t + c]) }
                    var s: Float = 0
                    for c in 0..<t { let e = expf(scores[r * t + c] - m); scores[r * t + c] = e; s += e }
                    for c in 0..<t { scores[r * t + c] /= s }
                }
                v.withUnsafeBufferPointer { vp in ctx.withUnsafeMutableBufferPointer { cp in
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(t), Int32(d), Int32(t), 1,
                                scores, Int32(t), vp.baseAddress! + head * d, Int32(h), 0, cp.baseAddress! + head * d, Int32(h))
                } }
            }
            Self.linear(ctx, rows: t, inWidth: h, weight: L.o, bias: L.ob, outWidth: h, into: &out)
            for j in 0..<(t * h) { x[j] += out[j] }
            Self.layerNorm(&x, rows: t, width: h, gamma: L.ln1, beta: L.ln1b)
            Self.linear(x, rows: t, inWidth: h, weight: L.up, bias: L.upb, outWidth: n, into: &mid)
            // GELU as BERT defines it, with erf (not the tanh approximation).
            for j in 0..<(t * n) { let a = mid[j]; mid[j] = 0.5 * a * (1 + erff(a * 0.70710678)) }
            Self.linear(mid, rows: t, inWidth: n, weight: L.down, bias: L.downb, outWidth: h, into: &out)
            for j in 0..<(t * h) { x[j] += out[j] }
            Self.layerNorm(&x, rows: t, width: h, gamma: L.ln2, beta: L.ln2b)
        }
        var e = [Float](repeating: 0, count: h)
        for r in 0..<t { for c in 0..<h { e[c] += x[r * h + c] } }
        let norm = e.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? e.map { $0 / norm } : e
    }

    /// The cosine of two unit-length embeddings.
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 }
    }

    /// out = x · Wᵀ + b, with W stored [outWidth × inWidth] as PyTorch does.
    static func linear(_ x: [Float], rows: Int, inWidth: Int, weight: [Float], bias: [Float], outWidth: Int, into out: inout [Float]) {
        for r in 0..<rows { for c in 0..<outWidth { out[r * outWidth + c] = bias[c] } }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(outWidth), Int32(inWidth), 1,
                    x, Int32(inWidth), weight, Int32(inWidth), 1, &out, Int32(outWidth))
    }

    static func layerNorm(_ x: inout [Float], rows: Int, width: Int, gamma: [Float], beta: [Float]) {
        for r in 0..<rows {
            var mean: Double = 0, variance: Double = 0
            for c in 0..<width { mean += Double(x[r * width + c]) }
            mean /= Double(width)
            for c in 0..<width { let d = Double(x[r * width + c]) - mean; variance += d * d }
            let inv = 1 / (variance / Double(width) + 1e-12).squareRoot()
            for c in 0..<width { x[r * width + c] = Float((Double(x[r * width + c]) - mean) * inv) * gamma[c] + beta[c] }
        }
    }
}
