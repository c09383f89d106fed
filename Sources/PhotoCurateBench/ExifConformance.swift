import Foundation
import PhotoCurate

/// Compares what the engine reads (capture time, GPS, orientation, make/model)
/// with `exiftool -json -n` on every file of a folder.
public enum ExifConformance {
    public struct FieldResult: Codable, Sendable {
        public var compared = 0
        public var agree = 0
        public var disagreements: [String] = []
    }

    public struct Report: Codable, Sendable {
        public var files = 0
        public var readByExiftool = 0
        public var engineErrors: [String] = []
        public var fields: [String: FieldResult] = [:]
        public var filesAllAgree = 0
    }

    public static func run(folder: String) throws -> Report {
        let scan = try FolderScanner().scan(folder)
        let paths = scan.files.map(\.path)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["exiftool", "-json", "-n", "-q", "-q", "-DateTimeOriginal", "-GPSLatitude", "-GPSLongitude", "-Orientation", "-Make", "-Model"] + paths
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw PhotoError.io(path: folder, reason: "exiftool gave no JSON (is libimage-exiftool-perl installed?)")
        }
        var byPath: [String: [String: Any]] = [:]
        for e in list { if let s = e["SourceFile"] as? String { byPath[s] = e } }

        var report = Report()
        report.files = scan.files.count
        let importer = PhotoImporter()
        for file in scan.files {
            guard let ref = byPath[file.path] else { continue }
            report.readByExiftool += 1
            let facts: PhotoFacts
            do { facts = try importer.facts(for: file) } catch {
                report.engineErrors.append("\(error)")
                continue
            }
            var allAgree = true
            func check(_ field: String, _ ok: Bool, _ detail: String) {
                report.fields[field, default: FieldResult()].compared += 1
                if ok { report.fields[field]!.agree += 1 } else { allAgree = false; report.fields[field]!.disagreements.append("\(file.path): \(detail)") }
            }
            let refTime = (ref["DateTimeOriginal"] as? String).flatMap { CaptureTime.parse($0, offset: nil, subSeconds: nil)?.iso }
            let ours = facts.timeSource == "exif" ? facts.captureTime.map { String($0.prefix(19)) } : nil
            check("captureTime", refTime == ours, "exiftool \(refTime ?? "none"), engine \(ours ?? "none")")
            let rla = ref["GPSLatitude"] as? Double, rlo = ref["GPSLongitude"] as? Double
            let refHasGPS = rla != nil && rlo != nil && !(rla == 0 && rlo == 0)
            let gpsOK = refHasGPS ? (facts.latitude.map { abs($0 - rla!) < 1e-6 } ?? false) && (facts.longitude.map { abs($0 - rlo!) < 1e-6 } ?? false) : !facts.hasGPS
            check("gps", gpsOK, "exiftool \(rla.map { "\($0)" } ?? "none"),\(rlo.map { "\($0)" } ?? "none"), engine \(facts.latitude.map { "\($0)" } ?? "none"),\(facts.longitude.map { "\($0)" } ?? "none")")
            let refOrientation = (ref["Orientation"] as? Int) ?? 1
            check("orientation", refOrientation == facts.orientation, "exiftool \(refOrientation), engine \(facts.orientation)")
            func norm(_ v: Any?) -> String? {
                let s = v.map { "\($0)" }?.trimmingCharacters(in: .whitespaces)
                return s?.isEmpty == false ? s : nil
            }
            check("make", norm(ref["Make"]) == facts.make, "exiftool \(norm(ref["Make"]) ?? "none"), engine \(facts.make ?? "none")")
            check("model", norm(ref["Model"]) == facts.model, "exiftool \(norm(ref["Model"]) ?? "none"), engine \(facts.model ?? "none")")
            if allAgree { report.filesAllAgree += 1 }
        }
        return report
    }
}
