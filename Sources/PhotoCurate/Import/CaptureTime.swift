import Foundation

/// EXIF date strings ("2021:04:11 15:47:53", offset "-05:00", sub-seconds "054")
/// to an ISO 8601 string and an epoch.
public enum CaptureTime {
    public static func parse(_ raw: String, offset: String?, subSeconds: String?) -> (iso: String, epoch: Double)? {
        let digits = raw.unicodeScalars.filter { CharacterSet.decimalDigits.contains($0) }.map { Int($0.value) - 48 }
        guard digits.count >= 14 else { return nil }
        func num(_ a: Int, _ n: Int) -> Int { digits[a..<(a + n)].reduce(0) { $0 * 10 + $1 } }
        let y = num(0, 4), mo = num(4, 2), d = num(6, 2), h = num(8, 2), mi = num(10, 2), s = num(12, 2)
        guard y >= 1800, (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        var epoch = Double(daysFromCivil(y, mo, d)) * 86400 + Double(h * 3600 + mi * 60 + s)
        var frac = ""
        if let sub = subSeconds?.trimmingCharacters(in: .whitespaces), !sub.isEmpty, sub.allSatisfy(\.isNumber) {
            frac = "." + sub
            epoch += Double("0." + sub) ?? 0
        }
        var zone = ""
        if let off = offset?.trimmingCharacters(in: .whitespaces), let minutes = parseOffset(off) {
            epoch -= Double(minutes * 60)
            zone = minutes == 0 ? "Z" : String(format: "%@%02d:%02d", minutes < 0 ? "-" : "+", abs(minutes) / 60, abs(minutes) % 60)
        }
        let iso = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s) + frac + zone
        return (iso, epoch)
    }

    static func parseOffset(_ s: String) -> Int? {
        let chars = Array(s)
        guard chars.count == 6, chars[0] == "+" || chars[0] == "-", chars[3] == ":",
              let hh = Int(String(chars[1...2])), let mm = Int(String(chars[4...5])), hh <= 14, mm < 60 else { return nil }
        return (chars[0] == "-" ? -1 : 1) * (hh * 60 + mm)
    }

    public static func iso(epoch: Double) -> String {
        let secs = Int(floor(epoch))
        let days = Int(floor(Double(secs) / 86400))
        let rem = secs - days * 86400
        let (y, m, d) = civilFromDays(days)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, d, rem / 3600, rem % 3600 / 60, rem % 60)
    }

    /// Hinnant's days-from-civil: proleptic Gregorian, no time zone database needed.
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Hour of day (0–24, fractional) in the photo's own wall clock, for time-of-day context.
    /// The wall-clock "HH:MM" a reason shows, marked when the camera recorded no
    /// UTC offset, so that a reader knows the zone is the camera's guess.
    ///
    ///     CaptureTime.clockLabel(iso: "2024-06-01T16:07:12+02:00") // "16:07"
    ///     CaptureTime.clockLabel(iso: "2024-06-01T16:07:12")       // "16:07 (time zone unknown)"
    public static func clockLabel(iso: String) -> String? {
        guard localHour(iso: iso) != nil else { return nil }
        let hhmm = String(iso.dropFirst(11).prefix(5))
        return hasOffset(iso: iso) ? hhmm : hhmm + " (time zone unknown)"
    }

    /// Whether an ISO time from `parse` carries a UTC offset ("Z" or ±HH:MM).
    public static func hasOffset(iso: String) -> Bool {
        let time = iso.dropFirst(19)  // after "YYYY-MM-DDTHH:MM:SS"
        return time.hasSuffix("Z") || time.contains("+") || time.contains("-")
    }

    public static func localHour(iso: String) -> Double? {
        let c = Array(iso)
        guard c.count >= 16, let h = Int(String(c[11...12])), let m = Int(String(c[14...15])) else { return nil }
        return Double(h) + Double(m) / 60
    }
}
