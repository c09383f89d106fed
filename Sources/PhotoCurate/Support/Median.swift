import Foundation

extension Array where Element == Double {
    /// The median (the mean of the middle two for an even count); `nil` when empty.
    ///
    /// ```swift
    /// [3, 1, 2, 10].median   // 2.5
    /// ```
    var median: Double? {
        guard !isEmpty else { return nil }
        let s = sorted(), mid = s.count / 2
        return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
    }
}
