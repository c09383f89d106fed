import Foundation

/// The photo at 100 %: grain and fine detail at the file's own resolution.
///
/// Input: `AnalysisImage` (its `native` measurement, taken during the JPEG
/// decode). Output: `DetailResult`.
///
/// ```swift
/// let r = DetailAnalyzer().analyze(image)
/// r.detail?.noiseLuma     // 9.1 levels of grain per pixel
/// r.detail?.sharpWidth    // 1.4 px edge spread in the sharpest tiles
/// ```
/// The analysis image (768 px) cannot show the faults a person rejects at
/// 100 %: 2 px of defocus or σ 8 grain in a 12 MP frame shrink to a few tenths
/// of a pixel and a level or two. The DCT coefficients the decoder reads anyway
/// still hold them, so the measurement costs a pass over them, not a decode.
/// Formats without DCT blocks (PNG, HEIC, TIFF) get no native detail and are
/// judged at the analysis scale only; `note` says so.
public struct DetailAnalyzer: Analyzer {
    public static let id = "detail"
    /// 1: luma and chroma grain from the flattest blocks, DCT power spectrum, tile edge spread.
    /// 2: about 6,000 luma and 3,000 chroma blocks a photo, whatever its size (was one in 8 and one in 4).
    /// 3: luma grain from the flattest 1 % of blocks at the finest frequencies the quantizer kept; none in thumbnails.
    /// 4: records whether the file stores the picture on its side (`transposed`), for blur against siblings.
    public static let version = 4
    public static let parameterSpecs: [ParameterSpec] = []
    public let parameters: Parameters
    public init(parameters: Parameters) { self.parameters = parameters }

    public func analyze(_ image: AnalysisImage) -> DetailResult {
        if let d = image.native { return DetailResult(detail: d, note: nil) }
        return DetailResult(detail: nil, note: "no native-resolution measure: not a baseline/progressive 8-bit JPEG")
    }
}

/// `DetailAnalyzer`'s output: the native measurement, or why there is none.
public struct DetailResult: Codable, Sendable, Equatable {
    public var detail: NativeDetail?
    public var note: String?
}
