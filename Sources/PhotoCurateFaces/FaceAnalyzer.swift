import Foundation
import Logging
import PhotoCurate
import PhotoCurateModels

/// Faces on the analysis image: boxes, 5 landmarks and confidence, from CenterFace.
///
/// Input: `AnalysisImage` (768 px long edge, upright). Output: `FaceResult`.
///
/// ```swift
/// FacesFeature.register(sessions: ModelSessions(threads: 1))   // once, from the CLI
/// let r = FaceAnalyzer().analyze(image)
/// r.faces.first?.box          // [0.41, 0.22, 0.08, 0.11]: x, y, w, h as fractions of the frame
/// ```
/// At 768 px a face of 2 % of the frame width is 15 px, about the smallest CenterFace
/// finds (its outputs are at 1/4 of the input). The model runs once per process
/// (`ModelSessions`); when it is not installed the result says so and the cache key
/// changes once it is, so those photos are analysed then.
public struct FaceAnalyzer: Analyzer {
    public static let id = "faces"
    /// 1: CenterFace detection: boxes, landmarks, confidence.
    /// 2: a half-size first pass decides whether the full size runs.
    /// 3: … and when every face it finds is large, its own result stands.
    /// 4: the face mesh on each face: eyes, smile, yaw, roll, size, sharpness on the face.
    /// 5: sideways photos: faces found only turned give `suggestedRotation`.
    /// 6: a descriptor per face (dlib) for people across the trip.
    /// 7: the full-size look runs in tiles; faces too large for a tile's margin come from the half-size look.
    /// 8: the turned looks run only where the upright look stirred (`sidewaysHeat`).
    /// 9: tiles see 32 px past their core (was 64), and run only where the half-size look stirred (`tileHeat`).
    /// 10: the detector runs with 8-bit convolutions (`centerface-int8`, `int8`).
    public static let version = 10
    /// The detector: CenterFace with 8-bit convolutions, at half the float model's time.
    public static let model = "centerface-int8"
    /// CenterFace as shipped (float), with `--set faces.int8=0`.
    public static let floatModel = "centerface"
    public static let meshModel = "face-landmarks"
    public static let irisModel = "iris-landmarks"
    public static let parameterSpecs: [ParameterSpec] = [
        ParameterSpec("int8", 1, in: 0...1, integer: true, "detect with CenterFace's 8-bit convolutions (centerface-int8: half the time, the same faces on the face sets); 0: the float model (centerface)"),
        ParameterSpec("threshold", 0.5, in: 0.05...0.99, "heatmap confidence a face needs"),
        ParameterSpec("overlap", 0.3, in: 0.05...0.9, "boxes overlapping more than this (IoU) are one face"),
        ParameterSpec("minSize", 12, in: 4...200, "smallest face side kept, in analysis-image pixels"),
        ParameterSpec("firstPass", 1, in: 0...1, integer: true, "look at half size first and run the full size only where that finds a face (a quarter of the cost on photos without people; faces under about 4 % of the frame width are then missed where no larger face is)"),
        ParameterSpec("firstPassThreshold", 0.3, in: 0.05...0.99, "confidence at half size that sends a photo to the full-size pass"),
        ParameterSpec("fullSizeBelow", 32, in: 0...400, "the full size runs only when a face found at half size is smaller than this (px at half size); larger faces are measured well enough there"),
        ParameterSpec("fullSizeTile", 256, in: 0...4096, integer: true, "the full-size look (after the half-size one) runs in tiles of this side, each with a 32 px margin that holds whole any face it is for (under 64 px; larger ones are found at half size); the runtime's working memory grows with its largest input, so a run's memory peak with people in the photos follows the largest tile: at 256 no tile sees more than 320×320 px. 0: one look at the whole image (a 60 MB working block at 768×512)"),
        ParameterSpec("tileHeat", 0.1, in: 0...0.99, "a tile of the full-size look runs only where the half-size look's face response over what it sees reaches this (the photo went to the full size for a small face somewhere else); 0: every tile"),
        ParameterSpec("meshMinSize", 20, in: 8...400, "smallest face (px, shorter box side) whose eyes and smile are read; smaller faces say unknown"),
        ParameterSpec("eyesClosedBelow", 0.45, in: 0.05...1.5, "lid gap / iris diameter under which an eye is closed (iris model; the mesh alone uses lid gap / eye width under 0.16)"),
        ParameterSpec("eyesOpenAbove", 0.5, in: 0.05...1.5, "lid gap / iris diameter over which an eye is open (between the two: unknown)"),
        ParameterSpec("minEyeWidth", 5, in: 2...50, "eyes narrower than this (analysis-image px) are not read"),
        ParameterSpec("oneEyeYaw", 35, in: 10...90, "|yaw| in degrees over which only the eye nearer the camera is read"),
        ParameterSpec("smileAbove", 0.035, in: -0.5...0.5, "mouth corners above the lips' middle, over the eye span, over which a face smiles"),
        ParameterSpec("sideways", 1, in: 0...1, integer: true, "where no face is found upright, look for faces turned 90°, 180° and 270° (a photo stored on its side) and suggest a rotation"),
        ParameterSpec("sidewaysSize", 200, in: 100...2048, "long edge (px) at most of the turned looks for a sideways photo: halved from the analysis image until it fits"),
        ParameterSpec("sidewaysThreshold", 0.3, in: 0.3...0.99, "confidence a face turned on its side needs before the photo is called sideways"),
        ParameterSpec("sidewaysHeat", 0.05, in: 0...0.99, "the turned looks run only where the upright look's strongest face response reaches this: a face on its side still stirs it (0.09 or more on faces-dev's 36 turned copies), while half of the photos without people stay under it, and their three turned looks were two fifths of the face stage's time. 0: always look"),
        ParameterSpec("people", 0, in: 0...1, integer: true, "describe each face for grouping faces into people across the trip (dlib's face descriptor, about 13 ms a face; needs face-shape5 and face-embed). Off for a quick trip cull, on in pipelines/nightly.yml"),
        ParameterSpec("peopleMinSize", 40, in: 16...400, "smallest face (px, shorter box side) that is described for people"),
        ParameterSpec("peopleMaxYaw", 40, in: 0...90, "faces turned more than this (degrees) are not described: a profile's descriptor is close to anyone's profile"),
        ParameterSpec("turnedAway", 85, in: 10...90, "|yaw| in degrees over which eyes and smile are unknown"),
    ]
    public let parameters: Parameters
    public init(parameters: Parameters) { self.parameters = parameters }

    public var fingerprint: String {
        ([detector, Self.meshModel, Self.irisModel] + (parameters.int("people") == 1 ? FaceEmbedder.models : [])).map { id in
            guard let sessions = FacesFeature.sessions, let entry = try? sessions.store.entry(id),
                  sessions.store.installedPath(id) != nil else { return "\(id):none" }
            return "\(id):\(entry.installed.sha256)"
        }.joined(separator: "|")
    }

    public func analyze(_ image: AnalysisImage) -> FaceResult {
        guard let sessions = FacesFeature.sessions else { return FaceResult(faces: [], note: "not analysed: faces are not set up in this program") }
        let session: OnnxSession
        do { session = try sessions.session(for: detector) } catch {
            FacesFeature.reportOnce("faces: not analysed — \(error)")
            return FaceResult(faces: [], note: "not analysed: \(error)")
        }
        do {
            let (faces, strongest) = try detect(image, session)
            let asIs = describe(faces, in: image, sessions: sessions)
            guard parameters.int("sideways") == 1 else { return asIs }
            // Stored on its side without saying so: faces lie at ±90° or 180° (CenterFace finds
            // many faces on their side), or are found only once the image is turned.
            // Faces the mesh does not take for faces (presence under 0.9) do not count as upright ones.
            let clear = asIs.faces.contains { ($0.mesh?.presence ?? 1) >= 0.9 }
            let stirred = Double(strongest) >= parameters["sidewaysHeat"]
            let turn = clear ? Self.turnFromRoll(asIs.faces) : stirred ? try sideways(image, session) : nil
            guard let turn else { return asIs }
            let upright = Self.rotated(image, clockwise: turn)
            var r = describe(try detect(upright, session).faces, in: upright, sessions: sessions)
            // Turned, the faces must stand up: the mesh model sees a face, level within 30°.
            let confirmed = r.faces.contains { f in
                guard let m = f.mesh else { return false }
                return m.presence >= 0.9 && abs(f.roll ?? 90) <= 30
            }
            guard confirmed else { return asIs }
            r.suggestedRotation = turn
            return r
        } catch {
            return FaceResult(faces: [], note: "not analysed: \(error)")
        }
    }

    /// Faces on the image as it is: a half-size look first, the full size where that finds small faces;
    /// with them, the first look's strongest response (`CenterFaceDecoder.strongest`).
    func detect(_ image: AnalysisImage, _ session: OnnxSession) throws -> (faces: [Face], strongest: Float) {
        // A photo smaller than the analysis size is already small: its half would lose its faces.
        if parameters.int("firstPass") == 1 && max(image.width, image.height) >= 768 {
            let half = Self.halfSize(image)
            let maps = try Self.run(session, half)
            let strongest = CenterFaceDecoder.strongest(maps)
            let cheap = decoder(threshold: parameters["firstPassThreshold"], minSize: 4).faces(maps, width: half.width, height: half.height)
            if cheap.isEmpty { return ([], strongest) }
            // Faces this large are found and placed as well at half size: the full size would only cost.
            let small = Double(parameters["fullSizeBelow"])
            let atHalf = decoder(threshold: parameters["threshold"], minSize: parameters["minSize"] / 2)
            if cheap.allSatisfy({ min($0.box[2] * Double(half.width), $0.box[3] * Double(half.height)) >= small }) {
                return (atHalf.faces(maps, width: half.width, height: half.height), strongest)
            }
            let side = parameters.int("fullSizeTile")
            if side > 0 {
                // Half-size pixel (x, y) is the mean of full-size pixels 2x…2x+1, 2y…2y+1.
                let large = atHalf.candidates(maps, width: half.width, height: half.height)
                    .filter { Double(min($0.box[2] - $0.box[0], $0.box[3] - $0.box[1])) >= small }
                    .map { $0.placed(by: 2) }
                return (try tiled(image, session, side: side, large: atHalf.suppressed(large), halfHeat: maps), strongest)
            }
        }
        let maps = try Self.run(session, image)
        return (decoder(threshold: parameters["threshold"], minSize: parameters["minSize"]).faces(maps, width: image.width, height: image.height),
                CenterFaceDecoder.strongest(maps))
    }

    /// A tile of the full-size look: the part it owns (`core`) and the part it sees (`seen`),
    /// as (x0, y0, x1, y1) in image pixels.
    struct Tile: Equatable {
        var core: [Int]
        var seen: [Int]
    }

    /// Past its core, a tile sees this far into its neighbours: a face up to twice this side
    /// lies whole inside the tile that owns its centre. The full-size look is for faces under
    /// 64 px (`fullSizeBelow` at half size); larger ones are also found at half size. At 64 the
    /// six tiles of a 768×512 image saw 1.9 times its area; at 32, 1.5 times, and the same faces
    /// were found on every face set (boxes at IoU 0.86–1.00), for a tenth less time on photos of people.
    static let tileMargin = 32

    /// Tiles of at most `side` px (before margins) that cover a `width` × `height` image.
    static func tiles(width: Int, height: Int, side: Int) -> [Tile] {
        let nx = max(1, (width + side - 1) / side), ny = max(1, (height + side - 1) / side)
        let cw = (width + nx - 1) / nx, ch = (height + ny - 1) / ny, m = tileMargin
        var out: [Tile] = []
        for j in 0..<ny {
            for i in 0..<nx {
                let core = [i * cw, j * ch, min(width, (i + 1) * cw), min(height, (j + 1) * ch)]
                out.append(Tile(core: core, seen: [max(0, core[0] - m), max(0, core[1] - m), min(width, core[2] + m), min(height, core[3] + m)]))
            }
        }
        return out
    }

    /// The full-size look, tile by tile. The runtime's working memory grows with the input,
    /// and one look at the whole 768 px image was the peak of a run with faces (a 60 MB block
    /// that the runtime's arena then keeps). A tile keeps the faces whose centre it owns and
    /// that it sees whole; faces it cannot see whole are ones the half-size look found (`large`,
    /// in full-size pixels), and stand where no tile found them.
    func tiled(_ image: AnalysisImage, _ session: OnnxSession, side: Int, large: [CenterFaceDecoder.Candidate], halfHeat: [Tensor]) throws -> [Face] {
        let full = decoder(threshold: parameters["threshold"], minSize: parameters["minSize"])
        var found: [CenterFaceDecoder.Candidate] = []
        let stirs = Float(parameters["tileHeat"])
        for tile in Self.tiles(width: image.width, height: image.height, side: side) {
            // The photo came here for a small face somewhere; a tile over which the half-size look
            // did not stir at all holds none it could find (faces-dev's sets: the same faces at 0.2).
            if stirs > 0, let heat = CenterFaceDecoder.strongest(halfHeat, over: tile.seen, scale: 2), heat < stirs { continue }
            let maps = try Self.run(session, Self.crop(image, tile.seen))
            let w = tile.seen[2] - tile.seen[0], h = tile.seen[3] - tile.seen[1]
            found += full.candidates(maps, width: w, height: h)
                .map { $0.placed(dx: Float(tile.seen[0]), dy: Float(tile.seen[1])) }
                .filter { Self.owns(tile, $0.box, width: image.width, height: image.height) }
        }
        return CenterFaceDecoder.normalized(Self.merged(found, large: large, full), width: image.width, height: image.height)
    }

    /// The tiles' faces, suppressed, then each half-size face that none of them overlaps; best first.
    static func merged(_ found: [CenterFaceDecoder.Candidate], large: [CenterFaceDecoder.Candidate], _ d: CenterFaceDecoder) -> [CenterFaceDecoder.Candidate] {
        var kept = d.suppressed(found)
        for f in large where !kept.contains(where: { CenterFaceDecoder.iou($0.box, f.box) > d.overlap }) { kept.append(f) }
        return CenterFaceDecoder.ranked(kept)
    }

    /// Whether a face box (x0, y0, x1, y1) found in a tile is that tile's to give: its centre in
    /// the tile's core, and not cut by an edge the tile shares with a neighbour.
    static func owns(_ tile: Tile, _ box: [Float], width: Int, height: Int) -> Bool {
        let cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2
        guard cx >= Float(tile.core[0]), cx < Float(tile.core[2]), cy >= Float(tile.core[1]), cy < Float(tile.core[3]) else { return false }
        let s = tile.seen.map(Float.init)
        if tile.seen[0] > 0 && box[0] <= s[0] + 0.5 { return false }
        if tile.seen[1] > 0 && box[1] <= s[1] + 0.5 { return false }
        if tile.seen[2] < width && box[2] >= s[2] - 0.5 { return false }
        if tile.seen[3] < height && box[3] >= s[3] - 0.5 { return false }
        return true
    }

    /// The pixels of `box` (x0, y0, x1, y1) as an image of their own.
    static func crop(_ image: AnalysisImage, _ box: [Int]) -> AnalysisImage {
        let w = box[2] - box[0], h = box[3] - box[1]
        var out = [UInt8](repeating: 0, count: w * h * 3)
        image.rgb.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let from = 3 * ((box[1] + y) * image.width + box[0])
                    (dst.baseAddress! + 3 * y * w).update(from: src.baseAddress! + from, count: 3 * w)
                }
            }
        }
        return AnalysisImage(width: w, height: h, rgb: out)
    }

    /// The clockwise turn that stands the faces up, when the clear, main faces agree
    /// that they lie on their side (roll within 35° of ±90°) or upside down; nil otherwise.
    static func turnFromRoll(_ faces: [Face]) -> Int? {
        let rolls = faces.filter { ($0.mesh?.presence ?? 0) >= 0.9 && ($0.size ?? 0) >= 0.03 }.compactMap(\.roll)
        guard !rolls.isEmpty else { return nil }
        func snap(_ r: Double) -> Int? {
            for (centre, turn) in [(90.0, 270), (-90.0, 90), (180.0, 180), (-180.0, 180), (0.0, 0)] where abs(r - centre) <= 35 { return turn }
            return nil
        }
        let votes = rolls.compactMap(snap)
        let counts = Dictionary(grouping: votes, by: { $0 }).mapValues(\.count)
        guard let (turn, n) = counts.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }),
              turn != 0, 2 * n > rolls.count else { return nil }
        return turn
    }

    /// The clockwise turn (90, 180 or 270) at which a small look finds a face, or nil;
    /// the caller confirms it on the turned image. Sideways photos are nearly always
    /// portraits of near faces, so a quarter size (faces from about 6 % of the frame)
    /// is enough and costs little. A photo smaller than the analysis size is looked
    /// at as it is: it is cheap already, and its faces are few pixels.
    func sideways(_ image: AnalysisImage, _ session: OnnxSession) throws -> Int? {
        let limit = Int(parameters["sidewaysSize"])
        var small = image
        if max(image.width, image.height) >= 768 {
            while max(small.width, small.height) > limit { small = Self.halfSize(small) }
        }
        var best: (turn: Int, confidence: Double)? = nil
        for turn in [90, 270, 180] {
            let t = Self.rotated(small, clockwise: turn)
            let found = decoder(threshold: parameters["sidewaysThreshold"], minSize: 8).faces(try Self.run(session, t), width: t.width, height: t.height)
            if let c = found.map(\.confidence).max(), c > (best?.confidence ?? 0) { best = (turn, c) }
        }
        return best?.turn
    }

    /// The image turned clockwise by 90, 180 or 270 degrees.
    static func rotated(_ image: AnalysisImage, clockwise turn: Int) -> AnalysisImage {
        let w = image.width, h = image.height
        let (W, H) = turn == 180 ? (w, h) : (h, w)
        var out = [UInt8](repeating: 0, count: W * H * 3)
        image.rgb.withUnsafeBufferPointer { src in
            for y in 0..<H {
                for x in 0..<W {
                    // Where output pixel (x, y) comes from in the source.
                    let (sx, sy) = turn == 90 ? (y, h - 1 - x) : turn == 270 ? (w - 1 - y, x) : (w - 1 - x, h - 1 - y)
                    let o = 3 * (y * W + x), i = 3 * (sy * w + sx)
                    out[o] = src[i]; out[o + 1] = src[i + 1]; out[o + 2] = src[i + 2]
                }
            }
        }
        return AnalysisImage(width: W, height: H, rgb: out)
    }

    /// Each face read closer: mesh, eyes, smile, pose, size, sharpness. Without the
    /// mesh model the faces stand with their states unknown, and the note says why.
    func describe(_ faces: [Face], in image: AnalysisImage, sessions: ModelSessions) -> FaceResult {
        guard !faces.isEmpty else { return FaceResult(faces: [], note: nil) }
        let mesh: OnnxSession?, iris: OnnxSession?
        var note: String? = nil
        do { mesh = try sessions.session(for: Self.meshModel) } catch {
            FacesFeature.reportOnce("faces: eyes and smile not read — \(error)")
            mesh = nil
            note = "eyes and smile not read: \(error)"
        }
        do { iris = try sessions.session(for: Self.irisModel) } catch {
            if mesh != nil {
                FacesFeature.reportOnce("faces: eyes read from the face mesh only — \(error)")
                note = "eyes read from the face mesh only: \(error)"
            }
            iris = nil
        }
        let W = Double(image.width), H = Double(image.height)
        var out: [Face] = []
        for var f in faces {
            f.size = FaceMesh.round4(sqrt(f.box[2] * f.box[3]))
            f.sharpness = FaceSharpness.measure(f.box, in: image)
            let minSide = min(f.box[2] * W, f.box[3] * H)
            if let mesh, minSide >= parameters["meshMinSize"], let r = try? FaceMesh.read(f, in: image, session: mesh, iris: iris,
                                                                                          eyeRule: .init(oneEyeYaw: parameters["oneEyeYaw"], minWidth: parameters["minEyeWidth"])) {
                f.read(r, parameters)
            } else {
                f.eyes = .unknown; f.smile = .unknown
            }
            out.append(f)
        }
        if parameters.int("people") == 1 {
            // Profiles give descriptors that sit near anyone else's profile: only faces turned less are described.
            let wanted = out.indices.filter {
                min(out[$0].box[2] * W, out[$0].box[3] * H) >= parameters["peopleMinSize"] && abs(out[$0].yaw ?? 0) <= parameters["peopleMaxYaw"]
            }
            if !wanted.isEmpty {
                do {
                    let d = try FaceEmbedder.shared(store: sessions.store).describe(wanted.map { out[$0].box }, in: image)
                    for (k, i) in wanted.enumerated() { out[i].embedding = d[k].map { (Double($0) * 1e4).rounded() / 1e4 } }
                } catch {
                    FacesFeature.reportOnce("faces: people not grouped — \(error)")
                    note = note ?? "people not grouped: \(error)"
                }
            }
        }
        return FaceResult(faces: out, note: note)
    }

    /// The detector's model id, by `int8`. A store from before the 8-bit model (the float one
    /// installed, the 8-bit one not) keeps faces working on the float model, and says so once.
    var detector: String {
        guard parameters.int("int8") == 1 else { return Self.floatModel }
        if let store = FacesFeature.sessions?.store, store.installedPath(Self.model) == nil, store.installedPath(Self.floatModel) != nil {
            FacesFeature.reportOnce("faces: \(Self.model) is not installed, so faces use \(Self.floatModel) at twice the time: run photocurate models install \(Self.model)")
            return Self.floatModel
        }
        return Self.model
    }

    func decoder(threshold: Double, minSize: Double) -> CenterFaceDecoder {
        CenterFaceDecoder(threshold: Float(threshold), overlap: Float(parameters["overlap"]), minSize: Float(minSize))
    }

    /// CenterFace on one image: RGB 0–255, NCHW, sides padded (black) to multiples of 32.
    static func run(_ session: OnnxSession, _ image: AnalysisImage) throws -> [Tensor] {
        let w = image.width, h = image.height
        let pw = (w + 31) / 32 * 32, ph = (h + 31) / 32 * 32
        var input = [Float](repeating: 0, count: 3 * pw * ph)
        image.rgb.withUnsafeBufferPointer { rgb in
            input.withUnsafeMutableBufferPointer { t in
                for y in 0..<h {
                    for x in 0..<w {
                        let i = 3 * (y * w + x), o = y * pw + x
                        t[o] = Float(rgb[i]); t[pw * ph + o] = Float(rgb[i + 1]); t[2 * pw * ph + o] = Float(rgb[i + 2])
                    }
                }
            }
        }
        // Over `oneLookAbove`, one look at a time (see there).
        let gate = (ResidentMemory.bytes() ?? 0) > oneLookAbove ? lookGate : nil
        gate?.lock()
        defer { gate?.unlock() }
        return try session.run([Tensor(shape: [1, 3, ph, pw], data: input)])
    }

    /// Resident memory (bytes) over which the detector looks at one image at a time. Each look
    /// at once takes its own working block in the runtime's arena, which keeps what it once held:
    /// on 1,000 photos of people (12 MP, most sent to the full-size look) a run's peak rose to
    /// 280 MB in `bench speed` with two at once, 234 MB with one at a time; photos without people
    /// (m12) stay under this and keep both tasks' looks at once (one at a time from the start cost
    /// them 5 % of the cold throughput for 20 MB).
    static let oneLookAbove = 200 << 20
    static let lookGate = NSLock()

    /// The image at half size, each pixel the mean of a 2×2 block.
    static func halfSize(_ image: AnalysisImage) -> AnalysisImage {
        let w = image.width / 2, h = image.height / 2, W = image.width
        var out = [UInt8](repeating: 0, count: max(1, w * h * 3))
        image.rgb.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    let top = 3 * (2 * y) * W, bottom = top + 3 * W, row = 3 * y * w
                    for x in 0..<w {
                        for c in 0..<3 {
                            let a = Int(p[top + 6 * x + c]) + Int(p[top + 6 * x + 3 + c])
                            let b = Int(p[bottom + 6 * x + c]) + Int(p[bottom + 6 * x + 3 + c])
                            o[row + 3 * x + c] = UInt8((a + b + 2) / 4)
                        }
                    }
                }
            }
        }
        return AnalysisImage(width: max(1, w), height: max(1, h), rgb: out)
    }
}

extension Face {
    /// Eyes, smile and pose from the mesh and iris readings, by the analyzer's thresholds.
    mutating func read(_ r: FaceMesh.Reading, _ p: Parameters) {
        let q = FaceMesh.round4
        yaw = (r.yaw * 10).rounded() / 10
        roll = (r.roll * 10).rounded() / 10
        mesh = MeshMeasures(presence: q(r.presence), eyeOpenness: r.eyeOpenness.map(q), mouthWidth: q(r.mouthWidth),
                            cornerLift: q(r.cornerLift), mouthOpen: q(r.mouthOpen),
                            eyeIris: r.eyes.isEmpty ? nil : r.eyes.map { $0.map { q($0.iris) } ?? -1 },
                            eyeWidth: r.eyes.isEmpty ? nil : r.eyes.map { $0.map { (10 * $0.width).rounded() / 10 } ?? -1 }, points: r.points)
        if abs(r.yaw) > p["turnedAway"] { eyes = .unknown; smile = .unknown; return }
        smile = FaceMesh.smileScore(r) > p["smileAbove"] ? .yes : .no
        // The more closed eye decides: one closed eye spoils the photo as much as two.
        let o: Double, lo: Double, hi: Double
        if !r.eyes.isEmpty {
            // The iris model read the eyes that count (the nearer one of a turned face); none: too small.
            let read = r.eyes.compactMap { $0?.iris }
            guard let m = read.min() else { eyes = .unknown; eyesConfidence = 0; return }
            o = m
            lo = p["eyesClosedBelow"]; hi = p["eyesOpenAbove"]
        } else {
            var indices = [0, 1]
            if abs(r.yaw) > p["oneEyeYaw"] { indices = [r.eyeOpenness[0] >= r.eyeOpenness[1] ? 0 : 1] }
            o = indices.map { r.eyeOpenness[$0] }.min() ?? 0
            lo = 0.16; hi = 0.2
        }
        if o < lo { eyes = .closed; eyesConfidence = q(min(1, (lo - o) / lo)) }
        else if o > hi { eyes = .open; eyesConfidence = q(min(1, (o - hi) / hi)) }
        else { eyes = .unknown; eyesConfidence = 0 }
    }
}
