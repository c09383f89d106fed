import Foundation
import PhotoCurate
import PhotoCurateBench

/// Builds test photos from nothing: procedural scenes with real texture and
/// edges, encoded by libvips, with EXIF written by `ExifWriter`.
///
/// ```swift
/// let dir = try FixtureFactory.temporaryDirectory()
/// let jpeg = try FixtureFactory.jpeg(scene: 3, width: 640, height: 480, exif: fields)
/// ```
public enum FixtureFactory {
    /// A JPEG of a procedural scene, optionally with EXIF and stored rotated by
    /// `exif.orientation` (so that, turned upright, it shows the same scene).
    public static func jpeg(scene: Int, width: Int = 640, height: Int = 480, exif: ExifWriter.Fields? = nil,
                            shiftX: Double = 0, blur: Double = 0, gain: Double = 1, noise: Double = 0, quality: Int = 92,
                            smear: Int = 0, smearAngle: Double = 0, storedTurned: Int = 0, grey: Bool = false, noiseSeed: Int? = nil,
                            whiteBalance: (red: Double, blue: Double) = (1, 1)) throws -> [UInt8] {
        try Vips.start()
        var pixels = ProceduralScene.pixels(scene: scene, width: width, height: height, shiftX: shiftX)
        // A black-and-white photo stored as RGB, as a camera's monochrome mode writes it.
        if grey {
            for i in stride(from: 0, to: pixels.count, by: 3) {
                let r = 0.299 * Double(pixels[i]), g = 0.587 * Double(pixels[i + 1]), b = 0.114 * Double(pixels[i + 2])
                let y = UInt8((r + g + b).rounded())
                pixels[i] = y; pixels[i + 1] = y; pixels[i + 2] = y
            }
        }
        var img = try VImage.from(pixels: pixels, width: width, height: height, bands: 3)
        if gain != 1 || whiteBalance != (1, 1) {
            img = try img.linear().linear(a: [gain * whiteBalance.red, gain, gain * whiteBalance.blue], b: [0, 0, 0]).fromLinear().castUChar()
        }
        if blur > 0 { img = try img.gaussblur(blur).castUChar() }
        // A smear of `smear` px at `smearAngle` degrees: a shake (as `bench make-trip` makes one).
        if smear > 1 {
            let turned = smearAngle == 0 ? img : try img.similarity(scale: 1, angle: smearAngle)
            let smeared = try turned.convolve(mask: [Double](repeating: 1 / Double(smear), count: smear), width: smear, height: 1)
            let back = smearAngle == 0 ? smeared : try smeared.similarity(scale: 1, angle: -smearAngle)
            img = try back.crop(x: (back.width - width) / 2, y: (back.height - height) / 2, width: width, height: height).castUChar()
        }
        if noise > 0 {
            let n = try (0..<3).map { try VImage.noise(width: width, height: height, sigma: noise, seed: (noiseSeed ?? scene) * 3 + $0) }
            img = try img.adding(VImage.bandjoin(n[0], n[1], n[2])).castUChar()
        }
        // Pixels stored on their side with no tag to say so (a camera without an orientation sensor, an app that dropped it).
        if storedTurned != 0 { img = try img.rotated(quarterTurns: storedTurned) }
        switch exif?.orientation ?? 1 {
        case 6: img = try img.rotated(quarterTurns: 3)
        case 8: img = try img.rotated(quarterTurns: 1)
        case 3: img = try img.rotated(quarterTurns: 2)
        default: break
        }
        let bytes = try img.jpeg(quality: quality)
        return exif.map { ExifWriter.insert($0, into: bytes) } ?? bytes
    }

    public static func exif(time: String?, offset: String? = "+01:00", lat: Double? = nil, lon: Double? = nil, orientation: Int? = nil) -> ExifWriter.Fields {
        var f = ExifWriter.Fields()
        f.make = "Fixture"
        f.model = "Factory 1"
        f.dateTimeOriginal = time
        f.offsetTimeOriginal = time == nil ? nil : offset
        f.latitude = lat
        f.longitude = lon
        f.orientation = orientation
        return f
    }

    public static func temporaryDirectory(_ name: String = "photocurate-test") throws -> String {
        let dir = NSTemporaryDirectory() + "\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A folder of procedural "source photos" for the trip generator.
    public static func sources(count: Int, in dir: String, width: Int = 800, height: Int = 600) throws {
        try ProceduralScene.writeSources(count: count, to: dir, width: width, height: height)
    }
}
