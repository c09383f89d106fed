import Foundation
import PhotoCurate

/// The art stage: a run's picks → an artwork catalog that `photocurate art search|serve` read.
///
/// ```yaml
/// # pipelines/art.yml
/// stages:
///   art: { imageSize: 1024, printLongEdge: 60, price: 0 }
/// ```
/// Input: `OutputContext` (the manifest's picks, in rank order). Output, in `art/`:
/// `artworks.json` (one `Artwork` per pick: `pick-01`…, the photo's file name as
/// title, its camera as studio, the year it was taken, the print size and price
/// the parameters give), `images/` (display derivatives, orientation applied;
/// the photos are never touched) and `analysis.json` (each pick's `ArtAnalysis`,
/// by objectID). Nothing is invented: a pick without a capture date has no year,
/// and with `printLongEdge` 0 no dimensions (its size class is "unknown").
public struct ArtStage: Sendable {
    public static let id = "art"
    public static let version = 1
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("imageSize", 1024, in: 256...4096, integer: true, "long edge (px) of the catalog's images (never enlarged)"),
        ParameterSpec("printLongEdge", 0, in: 0...1000, "long edge (cm) the picks would be printed at: their dimensions (0: none)"),
        ParameterSpec("price", 0, in: 0...1_000_000, "price of every print, in `currency` units (0: not for sale)"),
    ] + ArtAnalyzer.parameterSpecs

    public static let plugin = OutputStagePlugin(id: id, version: version, summary: "the picks as an artwork catalog, analysed for art search",
                                                 parameterSpecs: parameterSpecs, outputs: ["art"]) { parameters, context, dir in
        try ArtStage().write(parameters, context, into: dir + "/art")
    }

    public init() {}

    public func write(_ p: Parameters, _ context: OutputContext, into folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/images", withIntermediateDirectories: true)
        var ap = try Parameters(ArtAnalyzer.parameterSpecs)
        for s in ArtAnalyzer.parameterSpecs { try ap.set(s.name, p[s.name]) }
        let analyzer = try ArtAnalyzer(parameters: ap)
        let byPath = Dictionary(context.manifest.photos.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var records: [Artwork] = [], analyses: [String: ArtAnalysis] = [:]
        for (k, pick) in context.manifest.picks.enumerated() {
            let id = String(format: "pick-%02d", k + 1)
            let photo = byPath[pick.path]
            let image = try Decoder(longEdge: p.int("imageSize")).decode(pick.path)
            let jpeg = try VImage.from(pixels: image.rgb, width: image.width, height: image.height, bands: 3).jpeg(quality: 90)
            try AtomicFile.write(Data(jpeg), to: "\(folder)/images/\(id).jpg")
            let aspect = Double(image.width) / Double(max(1, image.height))
            let long = p["printLongEdge"]
            let dims = long > 0 ? Artwork.Dimensions(widthCm: (aspect >= 1 ? long : long * aspect).rounded(),
                                                      heightCm: (aspect >= 1 ? long / aspect : long).rounded()) : nil
            let facts = photo?.facts
            let camera = [facts?.make, facts?.model].compactMap { $0 }.joined(separator: " ")
            let year = facts?.captureTime.flatMap { Int($0.prefix(4)) }
            let a = Artwork(objectID: id, title: ((pick.path as NSString).lastPathComponent as NSString).deletingPathExtension,
                            studioName: camera, price: p["price"], currency: "EUR", imageUrls: ["images/\(id).jpg"], dimensions: dims,
                            techniques: ["photograph"], year: year, infoText: pick.reasons.joined(separator: "; "),
                            status: p["price"] > 0 ? "available" : "not for sale")
            records.append(a)
            analyses[id] = analyzer.analyze(rgb: image.rgb, width: image.width, height: image.height, artwork: a)
        }
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(try e.encode(records), to: folder + "/artworks.json")
        try AtomicFile.write(try e.encode(analyses), to: folder + "/analysis.json")
    }
}

/// Adds the art stage to the engine's catalog; the CLI calls this once at start-up.
public enum ArtFeature {
    public static func register() { OutputStageRegistry.register(ArtStage.plugin) }
}
