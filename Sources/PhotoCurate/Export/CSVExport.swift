import Foundation

/// The manifest's photo rows as CSV (RFC 4180 quoting), one row per file.
public enum CSVExport {
    public static let header = ["path", "selected", "rank", "overall", "technical", "quality", "sharpness", "exposure", "noise", "composition",
                                "blur_vs_group", "exposure_vs_group", "grain_vs_group", "smear_vs_group", "grain_native", "moment", "cluster", "capture_time", "time_trusted", "latitude", "longitude", "error"]

    public static func render(_ m: Manifest) -> String {
        func q(_ s: String) -> String { s.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s }
        func d(_ v: Double?) -> String { v.map { String(format: "%.6f", $0) } ?? "" }
        var out = header.joined(separator: ",") + "\n"
        for p in m.photos {
            let row = [p.path, p.selected ? "1" : "0", p.rank.map(String.init) ?? "", d(p.score?.overall), d(p.score?.technical), d(p.quality?.overall),
                       d(p.quality?.sharpness), d(p.quality?.exposure), d(p.quality?.noise), d(p.quality?.composition),
                       d(p.score?.blurVsGroup), d(p.score?.exposureVsGroup), d(p.score?.grainVsGroup), d(p.score?.smearVsGroup),
                       d(p.quality?.measurements.grainNative),
                       p.moment.map(String.init) ?? "", p.cluster.map(String.init) ?? "", p.facts?.captureTime ?? "",
                       p.facts.map { $0.timeTrusted ? "1" : "0" } ?? "", d(p.facts?.latitude), d(p.facts?.longitude), p.error?.message ?? ""]
            out += row.map(q).joined(separator: ",") + "\n"
        }
        // Files the scan could not even list as photos (unreadable, vanished): a row each, so none is lost.
        let listed = Set(m.photos.map(\.path))
        for e in m.errors where e.kind != "sidecar" && !listed.contains(e.path) {
            var row = [String](repeating: "", count: header.count)
            row[0] = e.path; row[1] = "0"; row[header.count - 1] = e.message
            out += row.map(q).joined(separator: ",") + "\n"
        }
        return out
    }
}
