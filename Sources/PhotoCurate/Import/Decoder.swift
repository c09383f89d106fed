import Foundation

/// Decodes a photo once, to the analysis size, through libvips shrink-on-load.
///
/// ```swift
/// let image = try Decoder(longEdge: 768).decode("/photos/a.jpg")
/// ```
/// JPEGs are opened with the largest `shrink` (2, 4, 8) that keeps the long edge
/// at or above the target, then resized with Lanczos3: cheaper than
/// `vips_thumbnail`, which pre-shrinks a 12 MP file by only 2×. The image is then
/// rotated upright by its EXIF Orientation. Photos smaller than the target are
/// analysed at their own size, never upscaled.
public struct Decoder: Sendable {
    public var longEdge: Int
    public var maxPixels: Int

    /// The analysis scale every score is measured at.
    public static let defaultLongEdge = 768

    public init(longEdge: Int = Decoder.defaultLongEdge, maxPixels: Int = 200_000_000) {
        self.longEdge = longEdge
        self.maxPixels = maxPixels
    }

    /// Opens only the header and checks it is an image we are willing to decode.
    public func openHeader(_ path: String) throws -> (VImage, loader: String) {
        try Vips.start()
        guard let loader = VImage.loader(for: path) else {
            throw PhotoError.notAnImage(path: path)
        }
        let header: VImage
        do { header = try VImage.open(path) } catch let e as VipsError {
            throw PhotoError.corrupt(path: path, reason: e.description)
        }
        let px = header.width * header.height
        if px > maxPixels { throw PhotoError.tooLarge(path: path, pixels: px, limit: maxPixels) }
        if header.width < 1 || header.height < 1 { throw PhotoError.corrupt(path: path, reason: "image has no pixels") }
        return (header, Self.shortName(loader))
    }

    public func decode(_ path: String) throws -> AnalysisImage {
        let (header, loader) = try openHeader(path)
        return try decode(path, header: header, loader: loader).image
    }

    /// Decodes strictly; if that fails on corrupt data but a lenient decode
    /// succeeds, returns the image with the strict error as `damage`, so the
    /// photo is kept (and reported) but never picked.
    ///
    /// JPEGs go through `JpegDecoder`, which reads the same data once and also
    /// measures the photo at 100 % (`AnalysisImage.native`); libjpeg's warnings
    /// there are the damage. Other formats, and JPEGs libjpeg leaves to others
    /// (CMYK, 12-bit), are decoded by libvips.
    public func decode(_ path: String, header: VImage, loader: String) throws -> (image: AnalysisImage, damage: String?) {
        if loader == "jpegload", let jpeg = try decodeJpeg(path, header: header) { return jpeg }
        do {
            return (try decodeOnce(path, header: header, loader: loader, strict: true), nil)
        } catch let strictError as PhotoError {
            guard case .corrupt(_, let reason) = strictError else { throw strictError }
            let lenient = try VImage.open(path)
            return (try decodeOnce(path, header: lenient, loader: loader, strict: false), reason)
        }
    }

    /// The largest JPEG shrink-on-load (2, 4, 8) that keeps the long edge at or above `longEdge`.
    func jpegShrink(_ w: Int, _ h: Int) -> Int {
        for s in [8, 4, 2] where max(w, h) / s >= longEdge { return s }
        return 1
    }

    /// `nil` when libjpeg leaves this file to libvips.
    func decodeJpeg(_ path: String, header: VImage) throws -> (image: AnalysisImage, damage: String?)? {
        let probe = NativeDetailProbe()
        let decoded: JpegDecoder.Decoded
        do {
            decoded = try JpegDecoder.decode(path, scale: jpegShrink(header.width, header.height), probe: probe)
        } catch JpegDecoder.Failure.unsupported {
            return nil
        } catch JpegDecoder.Failure.failed(let reason) {
            throw PhotoError.corrupt(path: path, reason: reason)
        }
        let orientation = header.int("orientation") ?? 1
        do {
            func image(_ pixels: [UInt8], _ width: Int, _ height: Int) throws -> VImage {
                let image = try VImage.from(pixels: pixels, width: width, height: height, bands: decoded.bands)
                if (2...8).contains(orientation) { image.setInt("orientation", orientation) }
                return image
            }
            // The resize libvips would make, made on the pixels in hand (`Lanczos3Reducer`, byte-identical);
            // libvips resizes what it declines.
            let (tw, th) = target(decoded.width, decoded.height)
            var analysis: AnalysisImage
            if let small = Lanczos3Reducer.resize(decoded.pixels, width: decoded.width, height: decoded.height, bands: decoded.bands,
                                                  hscale: Double(tw) / Double(decoded.width), vscale: Double(th) / Double(decoded.height)) {
                analysis = try upright(path, image(small.pixels, small.width, small.height))
            } else {
                analysis = try finish(path, image(decoded.pixels, decoded.width, decoded.height))
            }
            analysis.native = probe.finish(orientation: orientation)
            return (analysis, decoded.damage)
        } catch let e as VipsError {
            throw PhotoError.corrupt(path: path, reason: e.description)
        }
    }

    func decodeOnce(_ path: String, header: VImage, loader: String, strict: Bool) throws -> AnalysisImage {
        do {
            let shrink = loader == "jpegload" ? jpegShrink(header.width, header.height) : 1
            // Failure modes are fixed when a file is opened, so strict decoding reopens it.
            let image = shrink > 1 || strict ? try VImage.open(path, shrink: shrink, strict: strict) : header
            return try finish(path, image)
        } catch let e as VipsError {
            throw PhotoError.corrupt(path: path, reason: e.description)
        }
    }

    /// Resize to the analysis size, turn upright, 8-bit sRGB, pixels out.
    func finish(_ path: String, _ image: VImage) throws -> AnalysisImage {
        let (tw, th) = target(image.width, image.height)
        var resized = try image.resize(h: Double(tw) / Double(image.width), v: Double(th) / Double(image.height))
        // Pixels are small now: copy them out of the sequential pipeline so a
        // 90° rotation can read them in any order.
        resized = try resized.copyMemory()
        return try upright(path, resized)
    }

    /// The analysis size of a `width` × `height` image.
    func target(_ width: Int, _ height: Int) -> (width: Int, height: Int) {
        // Never upscale: it adds no detail and blurs grain into smooth
        // patches the noise estimate cannot see. Photos at or above
        // `longEdge` (every camera photo) are all measured at the same scale.
        let scale = min(1, Double(longEdge) / Double(max(width, height)))
        // Round the target size, then derive per-axis scales from it, so the
        // output size is exact and the same for every decode of the file.
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// An image at the analysis size, in memory: turned upright, 8-bit sRGB, pixels out.
    func upright(_ path: String, _ resized: VImage) throws -> AnalysisImage {
        let upright = try resized.autorotated().srgb8()
        let bytes = try upright.bytes()
        guard bytes.count == upright.width * upright.height * 3 else {
            throw PhotoError.corrupt(path: path, reason: "decoder returned \(bytes.count) bytes for \(upright.width)×\(upright.height)")
        }
        return AnalysisImage(width: upright.width, height: upright.height, rgb: bytes)
    }

    /// "VipsForeignLoadJpegFile" → "jpegload".
    static func shortName(_ loader: String) -> String {
        var s = loader
        if s.hasPrefix("VipsForeignLoad") { s.removeFirst("VipsForeignLoad".count) }
        for suffix in ["File", "Source", "Buffer"] where s.hasSuffix(suffix) { s.removeLast(suffix.count) }
        // "JpegFile" → "jpeg", "Heif" → "heif", "Png" / "Pngload" ...
        return s.lowercased().replacingOccurrences(of: "load", with: "") + "load"
    }
}
