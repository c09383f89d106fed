import Foundation
import Logging
import PhotoCurate

/// The exhibit stage: a curated run → `exhibit/`, an offline gallery with a narrated tour.
///
/// ```yaml
/// # pipelines/exhibit.yml
/// stages:
///   exhibit: { maxWorks: 20, voice: 0 }
/// ```
/// Input: `OutputContext` (the manifest and the folder). Output, in `exhibit/`:
/// `artist.json`, `works.json`, `editorials.json`, `editorials/<id>.json` (the
/// product's schema), `narration.json`, `context/<work>.txt` (the packets),
/// images at display size (`work-NN.jpg`, `thumbs/`, `editorials/<id>/`),
/// `audio/` with a voice, and `index.html` + `data.js`, which open from `file://`.
/// Originals are only read; images are libvips derivatives with the orientation applied.
public struct ExhibitStage: Sendable {
    public static let id = "exhibit"
    public static let version = 1
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("maxWorks", 20, in: 1...200, integer: true, "works in the exhibit: the best picks, shown in time order"),
        ParameterSpec("imageSize", 1600, in: 320...4096, integer: true, "long edge of the viewer's images, in pixels (never enlarged)"),
        ParameterSpec("thumbnailSize", 480, in: 96...1024, integer: true, "long edge of the grid's thumbnails, in pixels"),
        ParameterSpec("byDay", 0, in: 0...1, integer: true, "1: one editorial per day instead of one per moment"),
        ParameterSpec("voice", 0, in: 0...1, integer: true, "1: speak the narration to audio files (espeak-ng); the tour advances when each ends"),
        ParameterSpec("pause", 2, in: 0...30, "seconds between the end of a work's narration and the next work"),
        ParameterSpec("wordsPerMinute", 170, in: 60...600, "reading speed that times the tour when there is no audio"),
    ]

    public var builder: ExhibitBuilder
    public var imageSize: Int
    public var thumbnailSize: Int
    public var voice: Voice?
    public var artistFile: String?
    public var worksFile: String?

    public init(parameters p: Parameters) {
        builder = ExhibitBuilder(maxWorks: p.int("maxWorks"), editorialsByDay: p.int("byDay") == 1,
                                 pauseSeconds: p["pause"], wordsPerMinute: p["wordsPerMinute"])
        imageSize = p.int("imageSize")
        thumbnailSize = p.int("thumbnailSize")
        voice = p.int("voice") == 1 ? Voice() : nil
    }

    /// The plugin the CLI registers; `pipelines/exhibit.yml` names it.
    public static let plugin = OutputStagePlugin(id: id, version: version, summary: "offline gallery, narrated tour and curator context",
                                                 parameterSpecs: parameterSpecs, outputs: ["exhibit"],
                                                 check: { _, root in _ = try UserFacts.load(folder: root) }) { parameters, context, dir in
        _ = try ExhibitStage(parameters: parameters).write(context, into: dir + "/exhibit")
    }

    /// Writes the exhibit folder (created; its parent must exist) and returns what it holds.
    @discardableResult
    public func write(_ context: OutputContext, into folder: String) throws -> Exhibit {
        try Vips.start()
        let user = try UserFacts.load(folder: context.root, artistFile: artistFile, worksFile: worksFile)
        var plan = builder.build(context.manifest, metadata: PhotoMetadata.read, user: user)
        for (file, instead) in plan.unusedNotes {
            let why = instead.map { "\($0) was picked from its burst instead" } ?? "it is not among the picks"
            Logger(label: "stage").warning("exhibit: the notes for \(file) in works.yml are not used: \(why)", metadata: ["event": "notes-unused"])
        }
        let fm = FileManager.default
        for sub in ["", "/thumbs", "/context", "/editorials"] { try fm.createDirectory(atPath: folder + sub, withIntermediateDirectories: true) }

        // Images: independent, two at a time (each task its own libvips images).
        let works = plan.exhibit.works
        let photos = Dictionary(context.manifest.photos.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        let failures = FailureList()
        DispatchQueue.concurrentPerform(iterations: works.count) { k in
            let w = works[k], src = plan.sources[w.id]!
            do {
                let facts = photos[src.path]?.facts
                let long = max(facts?.pixelWidth ?? imageSize, facts?.pixelHeight ?? imageSize)
                try Self.derivative(src.path, rotation: src.rotation, longEdge: min(imageSize, long), to: folder + "/" + w.imageName)
                try Self.derivative(src.path, rotation: src.rotation, longEdge: min(thumbnailSize, long), to: folder + "/thumbs/" + w.imageName)
            } catch { failures.add("\(src.path): \(error)") }
        }
        if let first = failures.first { throw PhotoError.io(path: folder, reason: "image derivative not written: \(first)") }

        if let voice {
            try fm.createDirectory(atPath: folder + "/audio", withIntermediateDirectories: true)
            do {
                for k in plan.exhibit.narration.indices {
                    let n = plan.exhibit.narration[k], name = "audio/\(n.workId).wav"
                    let seconds = try voice.speak(n.text, to: folder + "/" + name)
                    plan.exhibit.narration[k].audio = name
                    plan.exhibit.narration[k].seconds = (seconds * 1000).rounded() / 1000
                }
            } catch {
                // The gallery is still whole without audio: said once, and the tour reads instead.
                Logger(label: "stage").warning("exhibit: \(error)", metadata: ["event": "voice-failed"])
                try? fm.removeItem(atPath: folder + "/audio")
                for k in plan.exhibit.narration.indices { plan.exhibit.narration[k].audio = nil; plan.exhibit.narration[k].seconds = nil }
            }
        }

        let ex = plan.exhibit
        try Self.writeJSON(Exhibit.Settings(schema: Exhibit.schemaId, pauseSeconds: ex.pauseSeconds, wordsPerMinute: ex.wordsPerMinute), to: folder + "/exhibit.json")
        try Self.writeJSON(ex.artist, to: folder + "/artist.json")
        try Self.writeJSON(ex.works, to: folder + "/works.json")
        try Self.writeJSON(ex.editorials, to: folder + "/editorials.json")
        try Self.writeJSON(ex.narration, to: folder + "/narration.json")
        let byId = Dictionary(ex.works.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for e in ex.editorials {
            let dir = folder + "/editorials/" + e.id
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try Self.place(folder + "/" + byId[plan.covers[e.id]!]!.imageName, at: dir + "/cover.jpg")
            var detail = EditorialDetail(id: e.id, title: e.title, theme: e.theme, summary: e.summary, cover: e.cover, works: [])
            for wid in e.works {
                var w = byId[wid]!
                try Self.place(folder + "/" + w.imageName, at: dir + "/" + w.imageName)
                w.imageName = e.id + "/" + w.imageName
                detail.works.append(w)
            }
            try Self.writeJSON(detail, to: folder + "/editorials/\(e.id).json")
        }
        for p in plan.packets { try AtomicFile.write(Data(p.text.utf8), to: folder + "/context/\(p.workId).txt") }
        // The page reads its data from a script, since browsers refuse fetch() from file://.
        let data = try Self.encoder.encode(ex)
        try AtomicFile.write(Data("window.EXHIBIT = ".utf8) + data + Data(";\n".utf8), to: folder + "/data.js")
        try AtomicFile.write(Data(GalleryPage.html.utf8), to: folder + "/index.html")
        return ex
    }

    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return e
    }

    static func writeJSON<T: Encodable>(_ value: T, to path: String) throws {
        try AtomicFile.write(try encoder.encode(value) + Data("\n".utf8), to: path)
    }

    /// A display-size JPEG: shrink-on-load, EXIF orientation applied, then any suggested quarter turn.
    static func derivative(_ path: String, rotation: Int?, longEdge: Int, to dest: String) throws {
        var img = try VImage.thumbnail(path, width: longEdge).srgb8()
        if let turn = rotation, turn % 360 != 0 { img = try img.rotated(quarterTurns: turn / 90) }
        try AtomicFile.write(Data(try img.jpeg(quality: 85)), to: dest)
    }

    /// A second name for an image (a hard link; a copy where links are refused).
    static func place(_ src: String, at dest: String) throws {
        try? FileManager.default.removeItem(atPath: dest)
        if link(src, dest) == 0 { return }
        guard let d = FileManager.default.contents(atPath: src) else { throw PhotoError.io(path: src, reason: "cannot be read") }
        try AtomicFile.write(d, to: dest)
    }

}
