import Foundation

/// A photo's luma power spectrum, averaged over windows, by orientation sector
/// and radial frequency: enough to tell how much more blurred one frame of a
/// burst is than another, whatever the scene.
///
/// ```swift
/// let extra = burstFrame.extraBlur(comparedWith: sharpestSibling)   // Δσ², px²
/// ```
/// Two frames of one scene differ, in the frequency domain, by their blur:
/// P₁(f)/P₂(f) = |H₁(f)|²/|H₂(f)|². For gaussian blur ln(P₁/P₂) falls on a line
/// in f² whose slope is −4π²(σ₁² − σ₂²), so a fit gives the extra blur
/// directly, with the scene's content cancelled. Small shifts do not change a
/// power spectrum, and a small rotation or zoom barely does. Motion blur is
/// blur along one direction, so the fit is per sector (`sectorBlur`).
public struct PowerSpectrum: Codable, Sendable, Equatable {
    /// Orientation sectors over 0–180°.
    public var sectors: Int
    /// Radial bins from 0 to 0.5 cycles per pixel.
    public var bins: Int
    /// Mean power, `sectors × bins`, sector-major.
    public var power: [Float]

    public init(sectors: Int, bins: Int, power: [Float]) {
        precondition(power.count == sectors * bins, "power spectrum does not match its shape")
        self.sectors = sectors; self.bins = bins; self.power = power
    }

    /// Centre frequency of radial bin `b`, in cycles per pixel.
    public func frequency(_ b: Int) -> Double { Self.frequency(b, of: bins) }

    /// Centre frequency of radial bin `b` of `bins`, in cycles per pixel.
    static func frequency(_ b: Int, of bins: Int) -> Double { (Double(b) + 0.5) / Double(bins) * 0.5 }

    /// Mean power of one orientation sector above 0.42 cycles/px: that sector's noise floor.
    func noiseFloor(sector: Int) -> Double {
        var s = 0.0, n = 0
        for b in 0..<bins where frequency(b) > 0.42 { s += Double(power[sector * bins + b]); n += 1 }
        return n > 0 ? s / Double(n) : 0
    }

    /// The noise floor: mean power above 0.42 cycles/px, where an analysis image
    /// (downscaled from the sensor) holds little but grain.
    public var noiseFloor: Double {
        var s = 0.0, n = 0
        for sector in 0..<sectors {
            for b in 0..<bins where frequency(b) > 0.42 { s += Double(power[sector * bins + b]); n += 1 }
        }
        return n > 0 ? s / Double(n) : 0
    }

    /// How much more blurred this photo is than `other`, as Δσ² (px², at the
    /// analysis scale): one fit over the power summed across orientations, so
    /// each frequency counts by its power. Negative when this one is the sharper.
    /// Waves, railings and stripes hold almost no power on some orientations, and
    /// there the little that is there differs a lot between two clean frames (a
    /// handheld turn of a degree or two, the resampling of a shift). The mean of
    /// the per-sector fits (select v9) gave those sectors equal say: clean frames
    /// of a harbour read 0.6–0.8 px blurred against their siblings, more than a
    /// mildly defocused frame: within-scene AUC for blur on three held-out trips
    /// was 0.88–0.92; summed, 0.94–1.0 (select v10). A smear counts less
    /// here (the orientations it spares keep the sum up: a 9 px smear at 768 px
    /// reads σ 0.5); the quality analyzer's direction ratio and the comparison
    /// at 100 % (`NativeDetail.blurDifference`, per DCT sector) measure it.
    ///
    /// Only frequencies between `band` where both spectra stand `signalToNoise`×
    /// above their own noise floor are fitted, after that floor is subtracted:
    /// grain is not detail, and a frame whose detail is gone below its grain
    /// shows it by having fewer such frequencies. `nil` when the spectra are not
    /// comparable (another shape) or fewer than 4 frequencies qualify.
    public func extraBlur(comparedWith other: PowerSpectrum, band: ClosedRange<Double> = 0.04...0.3, signalToNoise: Double = 3) -> Double? {
        guard sectors == other.sectors else { return nil }
        return isotropic.sectorBlur(comparedWith: other.isotropic, band: band, signalToNoise: signalToNoise).first ?? nil
    }

    /// The spectrum of the photo turned by `quarterTurns` × 90°: a quarter turn moves every
    /// orientation by 90°, half of the 0–180° the sectors cover. For a photo found stored on
    /// its side, so its sectors compare with its upright siblings'. An odd number of sectors
    /// cannot be turned; it is returned as it is.
    public func turned(quarterTurns: Int) -> PowerSpectrum {
        guard quarterTurns % 2 != 0, sectors % 2 == 0 else { return self }
        var p = power
        for sector in 0..<sectors {
            let to = (sector + sectors / 2) % sectors
            for b in 0..<bins { p[to * bins + b] = power[sector * bins + b] }
        }
        return PowerSpectrum(sectors: sectors, bins: bins, power: p)
    }

    /// Each orientation's blur against the orientation across it, within this photo (Δσ²,
    /// px²; `nil` where too little power): a smear along one orientation reads positive there.
    /// Gain and grain cancel, so frames of one scene compare whatever their exposure
    /// (`GroupSmear`). Each orientation is fitted above its own noise floor: JPEG blocking and
    /// aliasing differ between orientations, and one floor for both read clean frames of one
    /// scene 0.7–2.9 px² apart. Empty for an odd number of sectors.
    public var anisotropy: [Double?] {
        guard sectors % 2 == 0 else { return [] }
        return (0..<sectors).map { sector in
            let across = (sector + sectors / 2) % sectors
            return Self.fit(power[(sector * bins)..<((sector + 1) * bins)], noiseFloor(sector: sector),
                            power[(across * bins)..<((across + 1) * bins)], noiseFloor(sector: across))
        }
    }

    /// All orientations in one sector: power summed over the sectors.
    public var isotropic: PowerSpectrum {
        var p = [Float](repeating: 0, count: bins)
        for sector in 0..<sectors { for b in 0..<bins { p[b] += power[sector * bins + b] } }
        return PowerSpectrum(sectors: 1, bins: bins, power: p)
    }

    /// Δσ² per orientation sector (`nil` where fewer than 4 frequencies qualify); see `extraBlur`.
    public func sectorBlur(comparedWith other: PowerSpectrum, band: ClosedRange<Double> = 0.04...0.3, signalToNoise: Double = 3) -> [Double?] {
        guard sectors == other.sectors, bins == other.bins else { return [] }
        let na = noiseFloor, nb = other.noiseFloor
        return (0..<sectors).map { sector -> Double? in
            Self.fit(power[(sector * bins)..<((sector + 1) * bins)], na, other.power[(sector * bins)..<((sector + 1) * bins)], nb,
                     band: band, signalToNoise: signalToNoise)
        }
    }

    /// Δσ² of radial profile `a` against `c` (floors `na`, `nc` subtracted): the slope of
    /// ln(a/c) over −4π²f², on the frequencies in `band` where both stand `signalToNoise`× over
    /// their floor; `nil` under 4 such frequencies.
    static func fit(_ a: ArraySlice<Float>, _ na: Double, _ c: ArraySlice<Float>, _ nc: Double,
                    band: ClosedRange<Double> = 0.04...0.3, signalToNoise: Double = 3) -> Double? {
        let bins = a.count
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, n = 0.0
        for b in 0..<bins {
            let f = frequency(b, of: bins)
            guard band.contains(f) else { continue }
            let pa = Double(a[a.startIndex + b]) - na, pc = Double(c[c.startIndex + b]) - nc
            guard pa > signalToNoise * na, pc > signalToNoise * nc, pa > 0, pc > 0 else { continue }
            let x = -4 * Double.pi * Double.pi * f * f, y = log(pa / pc)
            sx += x; sy += y; sxx += x * x; sxy += x * y; n += 1
        }
        let den = n * sxx - sx * sx
        guard n >= 4, den > 0 else { return nil }
        return (n * sxy - sx * sy) / den
    }
}
