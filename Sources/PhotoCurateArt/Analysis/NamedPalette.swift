import Foundation

/// The named colours artworks are described in, each with the family a query word names.
///
/// ```swift
/// let p = NamedPalette.standard
/// p.nearest(Lab(r: 30, g: 80, b: 190)).name     // "cobalt blue"
/// p.family(forWord: "blue")                       // "blue"
/// ```
/// Pixels are named by the nearest colour in CIEDE2000. The palette is the
/// vocabulary of reasons ("dominant colour cobalt blue (38 %)"), of the
/// `dominantColors` field and of the colour filter.
public struct NamedPalette: Sendable {
    public struct Colour: Sendable, Equatable {
        public let name: String
        public let hex: String
        /// The word a person would search with: "blue" covers navy, cobalt and sky blue.
        public let family: String
        public let lab: Lab
        /// Neutral colours (black to white, beige) have no hue to harmonise by.
        public var isNeutral: Bool { ["black", "grey", "white", "beige", "brown"].contains(family) && lab.chroma < 25 }
    }

    public let colours: [Colour]

    public init(_ entries: [(String, String, String)]) {
        colours = entries.map { Colour(name: $0.0, hex: $0.1, family: $0.2, lab: Lab(hex: $0.1)!) }
    }

    public static let standard = NamedPalette([
        ("black", "#141414", "black"), ("charcoal", "#3b3b3b", "grey"), ("grey", "#808080", "grey"),
        ("silver", "#c4c4c4", "grey"), ("white", "#f7f7f5", "white"), ("cream", "#f2e8cf", "beige"),
        ("beige", "#d8c3a0", "beige"), ("brown", "#75482a", "brown"), ("terracotta", "#c4603f", "orange"),
        ("red", "#d42a2a", "red"), ("crimson", "#8e1420", "red"), ("pink", "#f2a5c0", "pink"),
        ("magenta", "#c21a7d", "pink"), ("coral", "#fa7f5a", "orange"), ("orange", "#f08a24", "orange"),
        ("ochre", "#c9962c", "yellow"), ("gold", "#d8b23a", "yellow"), ("yellow", "#f6d630", "yellow"),
        ("olive", "#6f7d33", "green"), ("sage", "#9db08a", "green"), ("green", "#3c9a42", "green"),
        ("forest green", "#1e4b2a", "green"), ("teal", "#1d7676", "teal"), ("turquoise", "#3fc3c0", "teal"),
        ("sky blue", "#86bde6", "blue"), ("cobalt blue", "#1f4fbf", "blue"), ("navy", "#1a2853", "blue"),
        ("lavender", "#b6a5d8", "purple"), ("purple", "#6a3b98", "purple"),
    ])

    public func nearest(_ c: Lab) -> Colour {
        var best = colours[0], bestD = Double.infinity
        for p in colours {
            let d = c.deltaE2000(p.lab)
            if d < bestD { bestD = d; best = p }
        }
        return best
    }

    public func colour(named name: String) -> Colour? { colours.first { $0.name == name } }

    public var families: [String] {
        var seen: [String] = []
        for c in colours where !seen.contains(c.family) { seen.append(c.family) }
        return seen
    }

    /// Words people use for each family (and for single named colours).
    static let familyWords: [String: String] = [
        "blue": "blue", "blues": "blue", "azure": "blue", "indigo": "blue",
        "red": "red", "reds": "red", "scarlet": "red", "burgundy": "red", "maroon": "red",
        "green": "green", "greens": "green", "emerald": "green",
        "yellow": "yellow", "yellows": "yellow", "golden": "yellow", "mustard": "yellow",
        "orange": "orange", "oranges": "orange", "rust": "orange", "peach": "orange",
        "pink": "pink", "pinks": "pink", "rose": "pink", "fuchsia": "pink",
        "purple": "purple", "violet": "purple", "mauve": "purple", "plum": "purple",
        "teal": "teal", "turquoise": "teal", "aqua": "teal", "cyan": "teal",
        "black": "black", "white": "white", "grey": "grey", "gray": "grey", "greys": "grey",
        "beige": "beige", "cream": "beige", "ivory": "beige", "tan": "beige", "sand": "beige",
        "brown": "brown", "chocolate": "brown",
    ]

    /// The family a word names, or nil.
    public func family(forWord w: String) -> String? { Self.familyWords[w.lowercased()] }
}
