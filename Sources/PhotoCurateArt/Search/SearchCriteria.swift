import Foundation

/// What a search asks for, parsed from words (`QueryParser`) or read from a room photo (`RoomAnalyzer`).
///
/// ```swift
/// let c = QueryParser().parse("large abstract blue artwork for a bright office under 500")
/// c.colours          // [ColourWish(family: "blue", names: ["sky blue", "cobalt blue", "navy"], word: "blue")]
/// c.sizes            // ["large", "oversized"]
/// c.priceMax         // 500
/// c.room             // "office"
/// ```
/// It is returned as the response's `criteria`, so a client sees how its words were read.
public struct SearchCriteria: Codable, Sendable, Equatable {
    public struct ColourWish: Codable, Sendable, Equatable {
        /// The word as typed ("light blue").
        public var word: String
        public var family: String
        /// The named colours that satisfy it.
        public var names: [String]
    }
    public var colours: [ColourWish] = []
    public var excludedColours: [ColourWish] = []
    /// "bright" or "dark".
    public var brightness: String?
    /// "vibrant" or "muted".
    public var saturation: String?
    /// "warm" or "cool".
    public var temperature: String?
    /// Size classes that satisfy ("small", "medium", "large", "oversized").
    public var sizes: [String] = []
    /// "landscape", "portrait" or "square".
    public var orientation: String?
    /// "abstract", "representational", "geometric", "minimalist", "colour field", "expressive".
    public var styles: [String] = []
    /// "calm", "energetic".
    public var moods: [String] = []
    public var priceMin: Double?
    public var priceMax: Double?
    /// "office", "bedroom", "living room", "kitchen", "dining room".
    public var room: String?
    /// From a room photo: the wall to harmonise with.
    public var wall: RoomAnalysis?
    /// Words the parser did not understand (they do not affect the ranking).
    public var unrecognised: [String] = []
    /// "text", "image" or "combined".
    public var source: String = "text"

    public init() {}

    /// True when nothing in it ranks artworks.
    public var isEmpty: Bool {
        colours.isEmpty && excludedColours.isEmpty && brightness == nil && saturation == nil && temperature == nil && sizes.isEmpty
            && orientation == nil && styles.isEmpty && moods.isEmpty && priceMin == nil && priceMax == nil && room == nil && wall == nil
    }

    /// Both sets of wishes; where both name the same kind (a size), the text's words win.
    public func merged(with room: SearchCriteria) -> SearchCriteria {
        var c = self
        c.source = "combined"
        c.wall = room.wall
        if c.sizes.isEmpty { c.sizes = room.sizes }
        for s in room.styles where !c.styles.contains(s) && c.styles.isEmpty { c.styles.append(s) }
        if c.brightness == nil { c.brightness = room.brightness }
        return c
    }
}
