import CJpegShim
import Foundation

/// Decodes a JPEG at 1/2, 1/4 or 1/8 scale with libjpeg, showing every block's
/// DCT coefficients to a `NativeDetailProbe` on the way: the photo at 100 % for
/// the price of the scaled decode.
///
/// ```swift
/// let probe = NativeDetailProbe()
/// let d = try JpegDecoder.decode("/photos/a.jpg", scale: 4, probe: probe)
/// d.width; d.bands; d.damage   // 1000, 3, nil
/// ```
/// Files libjpeg decodes only with warnings (corrupt data) come back with the
/// first warning as `damage`; a truncated file is an error, as it is for the
/// libvips path. CMYK, YCCK and 12-bit JPEGs are `.unsupported`: the caller
/// decodes them with libvips instead.
public enum JpegDecoder {
    public struct Decoded {
        public var width: Int, height: Int, bands: Int
        public var pixels: [UInt8]
        public var damage: String?
    }

    public enum Failure: Error {
        case unsupported(String)
        case failed(String)
    }

    final class Context {
        let probe: NativeDetailProbe
        let info: UnsafeMutablePointer<pcj_info>
        var ready = false
        init(probe: NativeDetailProbe, info: UnsafeMutablePointer<pcj_info>) { self.probe = probe; self.info = info }

        /// Reads the layout the decoder found (known before the first block arrives).
        func prepare() {
            let i = info.pointee
            let h = [Int(i.h_samp.0), Int(i.h_samp.1), Int(i.h_samp.2)], v = [Int(i.v_samp.0), Int(i.v_samp.1), Int(i.v_samp.2)]
            probe.setLayout(width: Int(i.width), height: Int(i.height), lumaBlocksWide: Int(i.blocks_wide.0),
                            imcuRows: Int(i.imcu_rows), subsampled: (0..<3).map { h[$0] < h[0] || v[$0] < v[0] })
            ready = true
        }
    }

    public static func decode(_ path: String, scale: Int, probe: NativeDetailProbe?) throws -> Decoded {
        let info = UnsafeMutablePointer<pcj_info>.allocate(capacity: 1)
        defer { info.deallocate() }
        let context = probe.map { Context(probe: $0, info: info) }
        let callback: pcj_block_fn = { ctx, component, column, row, coef, quant in
            guard let ctx, let coef, let quant else { return }
            let c = Unmanaged<Context>.fromOpaque(ctx).takeUnretainedValue()
            if !c.ready { c.prepare() }
            c.probe.add(component: Int(component), column: Int(column), imcuRow: Int(row), coef: coef, quant: quant)
        }
        let raw: UnsafeMutablePointer<UInt8>? = withExtendedLifetime(context) {
            let ctx = context.map { Unmanaged.passUnretained($0).toOpaque() }
            return RawPath.with(path) { p in
                pcj_decode(p, Int32(scale), context == nil ? nil : callback, ctx,
                           Int32(NativeDetailProbe.lumaBlocks), Int32(NativeDetailProbe.chromaBlocks), info)
            }
        }
        let message = withUnsafeBytes(of: info.pointee.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let raw else {
            if info.pointee.unsupported != 0 { throw Failure.unsupported(message) }
            throw Failure.failed(message.isEmpty ? "libjpeg could not decode it" : message)
        }
        defer { pcj_free(raw) }
        if info.pointee.truncated != 0 { throw Failure.failed("truncated: \(message)") }
        let w = Int(info.pointee.out_width), h = Int(info.pointee.out_height), b = Int(info.pointee.out_components)
        let pixels = Array(UnsafeBufferPointer(start: raw, count: w * h * b))
        return Decoded(width: w, height: h, bands: b, pixels: pixels, damage: info.pointee.warnings > 0 ? message : nil)
    }
}
