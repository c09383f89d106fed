import Foundation

/// A colour in CIELAB (D65), where distances follow what people see.
///
/// ```swift
/// let blue = Lab(hex: "#1f4fbf")!
/// blue.deltaE2000(Lab(r: 30, g: 80, b: 190))   // ≈ 1.5: the same blue to the eye
/// blue.hue                                      // ≈ 290°
/// ```
public struct Lab: Codable, Sendable, Equatable {
    public var l: Double, a: Double, b: Double

    public init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }

    /// From 8-bit sRGB.
    public init(r: Double, g: Double, b: Double) {
        func lin(_ c: Double) -> Double { let v = c / 255; return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let R = lin(r), G = lin(g), B = lin(b)
        let x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047
        let y = 0.2126729 * R + 0.7151522 * G + 0.0721750 * B
        let z = (0.0193339 * R + 0.1191920 * G + 0.9503041 * B) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        self.l = 116 * fy - 16; self.a = 500 * (fx - fy); self.b = 200 * (fy - fz)
    }

    public init?(hex: String) {
        var s = hex.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("#") { s.removeFirst() }
        guard s.count == 6, let v = Int(s, radix: 16) else { return nil }
        self.init(r: Double((v >> 16) & 255), g: Double((v >> 8) & 255), b: Double(v & 255))
    }

    public var chroma: Double { (a * a + b * b).squareRoot() }
    /// Hue angle in degrees, 0–360 (0 red-magenta, 90 yellow, 180 green-cyan, 270 blue).
    public var hue: Double { let h = atan2(b, a) * 180 / .pi; return h < 0 ? h + 360 : h }

    /// CIEDE2000 colour difference (Sharma, Wu & Dalal 2005).
    public func deltaE2000(_ o: Lab) -> Double {
        let c1 = chroma, c2 = o.chroma, cBar = (c1 + c2) / 2
        let c7 = pow(cBar, 7), g = 0.5 * (1 - (c7 / (c7 + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * a, a2 = (1 + g) * o.a
        let C1 = (a1 * a1 + b * b).squareRoot(), C2 = (a2 * a2 + o.b * o.b).squareRoot()
        func hp(_ bb: Double, _ aa: Double) -> Double {
            if bb == 0 && aa == 0 { return 0 }
            let h = atan2(bb, aa) * 180 / .pi
            return h < 0 ? h + 360 : h
        }
        let h1 = hp(b, a1), h2 = hp(o.b, a2)
        let dL = o.l - l, dC = C2 - C1
        var dh = 0.0
        if C1 * C2 != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (C1 * C2).squareRoot() * sin(dh * .pi / 360)
        let lBar = (l + o.l) / 2, CBar = (C1 + C2) / 2
        var hBar = h1 + h2
        if C1 * C2 != 0 {
            if abs(h1 - h2) <= 180 { hBar = (h1 + h2) / 2 } else if h1 + h2 < 360 { hBar = (h1 + h2 + 360) / 2 } else { hBar = (h1 + h2 - 360) / 2 }
        }
        let rad = Double.pi / 180
        let t = 1 - 0.17 * cos((hBar - 30) * rad) + 0.24 * cos(2 * hBar * rad) + 0.32 * cos((3 * hBar + 6) * rad) - 0.20 * cos((4 * hBar - 63) * rad)
        let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let C7 = pow(CBar, 7), rc = 2 * (C7 / (C7 + pow(25, 7))).squareRoot()
        let sl = 1 + 0.015 * pow(lBar - 50, 2) / (20 + pow(lBar - 50, 2)).squareRoot()
        let sc = 1 + 0.045 * CBar, sh = 1 + 0.015 * CBar * t
        let rt = -sin(2 * dTheta * rad) * rc
        return (pow(dL / sl, 2) + pow(dC / sc, 2) + pow(dH / sh, 2) + rt * (dC / sc) * (dH / sh)).squareRoot()
    }

    /// Smallest angle between two hues, 0–180°.
    public static func hueDistance(_ h1: Double, _ h2: Double) -> Double {
        let d = abs(h1 - h2).truncatingRemainder(dividingBy: 360)
        return d > 180 ? 360 - d : d
    }
}
