import Foundation

/// The score factor for a fault of size `x` whose line is `ref`: 1 / (1 + (x / ref)⁴).
///
/// ```swift
/// falloff(0.45, ref: 0.45)   // 0.5: at its line, a fault halves the score
/// falloff(0.1, ref: 0.45)    // 0.998: well under it, next to nothing
/// ```
/// The fourth power keeps small readings (shifts, zoom, a sensor's own noise) nearly free and
/// halves the score at the line, so every fault measure of quality and selection shares one shape.
@inline(__always)
func falloff(_ x: Double, ref: Double) -> Double {
    1 / (1 + pow(x / ref, 4))
}
