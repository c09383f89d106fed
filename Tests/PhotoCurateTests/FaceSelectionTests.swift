import Foundation
@testable import PhotoCurate
import XCTest

/// People in selection: face score and photo type, and bursts where someone blinks.
final class FaceSelectionTests: XCTestCase {
    func face(x: Double = 0.4, size: Double = 0.2, eyes: Face.State = .open, smile: Face.Smile = .yes,
              yaw: Double = 0, sharpness: Double = 1) -> Face {
        var f = Face(box: [x, 0.3, size, size * 1.3], confidence: 0.9, landmarks: [])
        f.size = size; f.eyes = eyes; f.smile = smile; f.yaw = yaw; f.sharpness = sharpness
        return f
    }

    func input(_ path: String, quality: Double, faces: [Face]?, noiseSigma: Double = 0.5) -> SelectInput {
        let t = TechnicalQualityScore(sharpness: quality, exposure: 1, noise: 1, composition: 0.5, overall: quality,
                                      measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                          noiseSigma: noiseSigma, meanLuma: 0.5, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                          whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1))
        return SelectInput(path: path, technical: t, localHour: 12, timeLabel: "12:00", print: FeaturePrint(vector: [1]), faces: faces)
    }

    /// One burst (one visual group, one moment) of the given frames.
    func selectBurst(_ frames: [SelectInput]) throws -> Selection {
        let inputs = frames.enumerated().map { k, f in
            ClusterInput(epoch: Double(k), latitude: nil, longitude: nil, print: f.print, quality: f.technical.overall, path: f.path)
        }
        let c = try ClusterStage(parameters: try Parameters(ClusterStage.parameterSpecs)).run(inputs)
        XCTAssertEqual(c.clusters.count, 1)
        return try SelectStage(parameters: try Parameters(SelectStage.parameterSpecs, overrides: ["top": 5])).run((frames, c))
    }

    func testTypeAndScoreFollowTheMainFaces() {
        XCTAssertEqual(FaceQualityScore(faces: [], mainSize: 0.05).type, .landscape)
        XCTAssertEqual(FaceQualityScore(faces: [face(size: 0.02)], mainSize: 0.05).type, .landscape, "a face in the background is not a portrait")
        let one = FaceQualityScore(faces: [face(), face(x: 0.8, size: 0.02)], mainSize: 0.05)
        XCTAssertEqual(one.type, .portrait)
        XCTAssertEqual(one.faceCount, 1)
        XCTAssertEqual(one.score, 1, accuracy: 1e-9)
        let group = FaceQualityScore(faces: [face(x: 0.1), face(x: 0.4, eyes: .closed), face(x: 0.7, smile: .no)], mainSize: 0.05)
        XCTAssertEqual(group.type, .multipleFaces)
        XCTAssertFalse(group.eyesOpen)
        XCTAssertEqual(group.eyesClosed, 1)
        XCTAssertEqual(group.goodExpressions, 2)
        XCTAssertEqual(group.optimalSizes, 3)
        XCTAssertLessThan(group.score, 0.5 * one.score, "someone's eyes are closed: the face score at least halves")
        XCTAssertEqual(PhotoType.multipleFaces.weights.1, 0.5)
    }

    func testABurstNeverPicksTheFrameWhereSomeoneBlinksEvenWhenItIsSharper() throws {
        let open = [face(x: 0.1), face(x: 0.4), face(x: 0.7)]
        var blink = open
        blink[1].eyes = .closed; blink[2].eyes = .closed
        let frames = [input("a-blink.jpg", quality: 0.9, faces: blink), input("b-open.jpg", quality: 0.85, faces: open),
                      input("c-open-soft.jpg", quality: 0.6, faces: open)]
        let s = try selectBurst(frames)
        XCTAssertEqual(s.picks.map { frames[$0].path }, ["b-open.jpg"])
        XCTAssertTrue(s.reasons[0].contains { $0.contains("eyes closed: 2 of 3 faces") }, "\(s.reasons[0])")
        XCTAssertTrue(s.reasons[1].contains { $0.contains("everyone's eyes open") }, "\(s.reasons[1])")
        XCTAssertEqual(s.scores[1].type, .multipleFaces)
        XCTAssertNotNil(s.scores[0].faceQuality)
    }

    func testASofterOrTurnedFaceLosesToItsSibling() throws {
        let frames = [input("a.jpg", quality: 0.9, faces: [face(sharpness: 0.6)]), input("b.jpg", quality: 0.87, faces: [face(sharpness: 1.0)])]
        let s = try selectBurst(frames)
        XCTAssertEqual(s.picks.map { frames[$0].path }, ["b.jpg"])
        XCTAssertTrue(s.reasons[0].contains { $0.contains("softer face") }, "\(s.reasons[0])")
        XCTAssertTrue(s.reasons[1].contains { $0.contains("sharpest face") }, "\(s.reasons[1])")

        let turned = [input("a.jpg", quality: 0.9, faces: [face(yaw: 70)]), input("b.jpg", quality: 0.87, faces: [face(yaw: 5)])]
        let t = try selectBurst(turned)
        XCTAssertEqual(t.picks.map { turned[$0].path }, ["b.jpg"])
        XCTAssertTrue(t.reasons[0].contains { $0.contains("turned away") }, "\(t.reasons[0])")
    }

    /// Grain passes for a face's detail: a grainy sibling's faces are no measure of how sharp
    /// the same faces could be, while a steady sharper sibling's still are.
    func testAGrainySiblingsFaceIsNoMeasureOfSharpness() {
        let frames = [input("a-clean.jpg", quality: 0.9, faces: [face(sharpness: 0.9)]),
                      input("b-grainy.jpg", quality: 0.3, faces: [face(sharpness: 2.5)], noiseSigma: 4.1),
                      input("c-clean.jpg", quality: 0.9, faces: [face(sharpness: 1.0)])]
        let v = GroupFaces.measure(members: [0, 1, 2], photos: frames, mainSize: 0.05, turnedAway: 45)
        XCTAssertEqual(try XCTUnwrap(v[0]).faceBlur, 0.9, accuracy: 1e-9, "measured against the steady sibling, not the grainy one")
        XCTAssertEqual(try XCTUnwrap(v[2]).faceBlur, 1, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(v[1]).faceBlur, 1, accuracy: 1e-9, "the grainy frame pays for its grain elsewhere")
        // Without the steady sibling, the clean frame is the sharpest its burst shows.
        let two = GroupFaces.measure(members: [0, 1], photos: frames, mainSize: 0.05, turnedAway: 45)
        XCTAssertEqual(try XCTUnwrap(two[0]).faceBlur, 1, accuracy: 1e-9)
        // Nor is a sibling a stop or more apart in exposure (select v44): its faces read sharper
        // for the light alone (up to 1.35× on the trips, 1.7–2.3 stops over or under).
        var bright = input("d-bright.jpg", quality: 0.4, faces: [face(sharpness: 1.3)])
        bright.technical.measurements.medianLuma = 0.9
        bright.technical.measurements.meanLuma = 0.9
        let lit = GroupFaces.measure(members: [0, 2, 3], photos: frames + [bright], mainSize: 0.05, turnedAway: 45)
        XCTAssertEqual(try XCTUnwrap(lit[0]).faceBlur, 0.9, accuracy: 1e-9, "measured against the clean sibling, not the brighter one")
        XCTAssertEqual(try XCTUnwrap(lit[2]).faceBlur, 1, accuracy: 1e-9)
    }

    /// A person laughing with eyes shut in every clean frame tells no frame apart, even when a
    /// misexposed sibling reads that squint as open (select v45): closed eyes count beyond the
    /// fewest of the comparable siblings only, and not of a frame blurred by a fault's measure (select
    /// v46). A blink beside an open, softer frame still counts.
    func testAMisfiresOpenReadingMakesNoCleanFrameABlink() {
        let laughing = [face(x: 0.1), face(x: 0.4, eyes: .closed)], open = [face(x: 0.1), face(x: 0.4)]
        var pushed = input("c-pushed.jpg", quality: 0.3, faces: open)
        pushed.technical.measurements.medianLuma = 0.9
        pushed.technical.measurements.meanLuma = 0.9
        let frames = [input("a.jpg", quality: 0.95, faces: laughing), input("b.jpg", quality: 0.9, faces: laughing), pushed]
        let v = GroupFaces.measure(members: [0, 1, 2], photos: frames, mainSize: 0.05, turnedAway: 45)
        XCTAssertEqual(v[0]?.extraClosed, 0)
        XCTAssertEqual(v[1]?.extraClosed, 0)
        let blink = [input("a-blink.jpg", quality: 0.95, faces: laughing), input("b-open-soft.jpg", quality: 0.7, faces: open)]
        XCTAssertEqual(GroupFaces.measure(members: [0, 1], photos: blink, mainSize: 0.05, turnedAway: 45)[0]?.extraClosed, 1)
        // Nor does a frame blurred or smeared by a fault's measure (select v46): beside a smeared
        // frame that read the laugh as open, every clean frame of a group photo counted a blink.
        let smeared = [input("a.jpg", quality: 0.95, faces: laughing), input("b.jpg", quality: 0.9, faces: laughing),
                       input("c-smeared.jpg", quality: 0.9, faces: open)]
        XCTAssertEqual(GroupFaces.measure(members: [0, 1, 2], photos: smeared, mainSize: 0.05, turnedAway: 45)[0]?.extraClosed, 1,
                       "an open reading counts when nothing says its frame is faulty")
        let trusted = GroupFaces.measure(members: [0, 1, 2], photos: smeared, mainSize: 0.05, turnedAway: 45, blurred: [2])
        XCTAssertEqual(trusted[0]?.extraClosed, 0)
        XCTAssertEqual(trusted[1]?.extraClosed, 0)
    }

    func testWithoutFaceAnalysisNothingChanges() throws {
        let frames = [input("a.jpg", quality: 0.9, faces: nil), input("b.jpg", quality: 0.85, faces: nil)]
        let s = try selectBurst(frames)
        XCTAssertEqual(s.picks.map { frames[$0].path }, ["a.jpg"])
        XCTAssertNil(s.scores[0].faces)
        XCTAssertEqual(s.scores[0].type, .landscape)
    }
}

/// People across a trip from face descriptors.
final class PeopleTests: XCTestCase {
    /// A descriptor near `centre` (a unit axis scaled to 0.6 apart from other centres), nudged by `jitter`.
    func descriptor(_ centre: Int, _ jitter: Int) -> [Double] {
        var v = [Double](repeating: 0, count: 128)
        v[centre] = 0.6 / 2.squareRoot() * 1.2
        v[100 + jitter % 20] += 0.05 * Double(1 + jitter % 3)
        return v
    }

    func photo(_ path: String, _ people: [(Int, Int)]) -> SelectInput {
        let t = TechnicalQualityScore(sharpness: 0.8, exposure: 1, noise: 1, composition: 0.5, overall: 0.8,
                                      measurements: .init(edgeWidth: 1, edgeWidthGlobal: 1, motionRatio: 1, edgeCount: 100, laplacianVariance: 0,
                                                          noiseSigma: 0.5, meanLuma: 0.5, clippedHighlights: 0, clippedShadows: 0, dynamicRange: 0.8,
                                                          whitePoint: 0.9, blackPoint: 0.1, saliencyX: 0.5, saliencyY: 0.5, subjectSize: 0.1))
        let faces = people.enumerated().map { k, p -> Face in
            var f = Face(box: [0.1 + 0.3 * Double(k), 0.3, 0.15, 0.2], confidence: 0.9, landmarks: [])
            f.size = 0.17; f.eyes = .open; f.embedding = descriptor(p.0, p.1)
            return f
        }
        return SelectInput(path: path, technical: t, localHour: nil, timeLabel: nil, print: FeaturePrint(vector: [1]), faces: faces)
    }

    func testFacesBecomePeopleWithoutBeingToldHowMany() {
        // Anna (0) in 4 photos, Ben (1) in 3, Cleo (2) once: a passer-by gets no album.
        let photos = [photo("1", [(0, 1), (1, 2)]), photo("2", [(0, 3)]), photo("3", [(1, 4), (0, 5)]),
                      photo("4", [(2, 6)]), photo("5", [(0, 7), (1, 8)]), photo("6", [])]
        let people = People.group(photos, distance: 0.5, minPhotos: 2)
        XCTAssertEqual(people.map(\.id), ["person-1", "person-2"])
        XCTAssertEqual(people[0].photos, [0, 1, 2, 4], "Anna, most photographed, is person-1")
        XCTAssertEqual(people[1].photos, [0, 2, 4])
        XCTAssertEqual(People.group(photos, distance: 0.5, minPhotos: 2), people, "the same faces give the same people")
        XCTAssertEqual(People.group(photos, distance: 0.5, minPhotos: 1).count, 3)
        XCTAssertTrue(People.group(photos.map { var p = $0; p.faces = p.faces?.map { var f = $0; f.embedding = nil; return f }; return p },
                                   distance: 0.5, minPhotos: 2).isEmpty, "no descriptors, no people")
    }

    func testTwoFacesOfOnePhotoAreNeverOnePerson() {
        // Twins: descriptors alike, but side by side in the same photos.
        let photos = [photo("1", [(0, 1), (0, 2)]), photo("2", [(0, 3), (0, 4)])]
        for p in People.group(photos, distance: 0.5, minPhotos: 1) {
            XCTAssertEqual(Set(p.photos).count, p.photos.count, "one face per photo in a person")
        }
    }
}

/// libheif's bare error codes become words a user can act on.
final class DecodeMessageTests: XCTestCase {
    func testHeifCodesAreExplained() {
        XCTAssertEqual(VipsError.explainHeif(" (2.100)"), "the file ends before its image data (truncated) (libheif error 2.100)")
        XCTAssertTrue(VipsError.explainHeif("No ftyp box (2.102)").contains("a part every HEIF file needs is missing"))
        XCTAssertTrue(VipsError.explainHeif("No ftyp box (2.102)").contains("(No ftyp box)"))
        XCTAssertEqual(VipsError.explainHeif("Premature end of JPEG file"), "Premature end of JPEG file", "other messages pass through")
    }
}
