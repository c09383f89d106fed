import Foundation
import PhotoCurate

/// One artwork of a catalog, in the product's `AlgoliaArtwork` shape.
///
/// ```json
/// {"objectID": "aw-001", "title": "Blue Field", "studioName": "Studio Ana",
///  "price": 450, "currency": "EUR", "imageUrls": ["images/aw-001.jpg"],
///  "dimensions": {"widthCm": 90, "heightCm": 60}, "techniques": ["acrylic"], "year": 2021}
/// ```
/// Fields the engine does not know (`status`, an artist URL, anything else) are
/// kept as they came in `extra` and written back unchanged, so a client that
/// reads them still finds them.
public struct Artwork: Codable, Sendable, Equatable {
    public var objectID: String
    public var title: String
    public var studioName: String
    public var price: Double
    public var currency: String
    /// Local paths (relative to the catalog file) or `file://` URLs; the first is the one analysed.
    public var imageUrls: [String]?
    public var dimensions: Dimensions?
    public var techniques: [String]
    public var year: Int?
    public var infoText: String?
    public var status: String?
    /// Every other field of the record, untouched.
    public var extra: [String: JSONValue]

    public struct Dimensions: Codable, Sendable, Equatable {
        public var widthCm: Double
        public var heightCm: Double
        public init(widthCm: Double, heightCm: Double) { self.widthCm = widthCm; self.heightCm = heightCm }
    }

    public init(objectID: String, title: String, studioName: String, price: Double, currency: String = "EUR",
                imageUrls: [String]? = nil, dimensions: Dimensions? = nil, techniques: [String] = [], year: Int? = nil,
                infoText: String? = nil, status: String? = nil, extra: [String: JSONValue] = [:]) {
        self.objectID = objectID; self.title = title; self.studioName = studioName; self.price = price; self.currency = currency
        self.imageUrls = imageUrls; self.dimensions = dimensions; self.techniques = techniques; self.year = year
        self.infoText = infoText; self.status = status; self.extra = extra
    }

    static let known: Set<String> = ["objectID", "title", "studioName", "price", "currency", "imageUrls", "dimensions",
                                     "techniques", "year", "infoText", "status"]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Swift.Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func req<T: Decodable>(_ t: T.Type, _ k: String) throws -> T {
            guard c.contains(Key(k)) else { throw ArtCatalogError.field(k, "is missing") }
            do { return try c.decode(T.self, forKey: Key(k)) } catch { throw ArtCatalogError.field(k, "is not a \(Self.typeName(T.self))") }
        }
        func opt<T: Decodable>(_ t: T.Type, _ k: String) throws -> T? {
            guard c.contains(Key(k)), !((try? c.decodeNil(forKey: Key(k))) ?? false) else { return nil }
            do { return try c.decode(T.self, forKey: Key(k)) } catch { throw ArtCatalogError.field(k, "is not a \(Self.typeName(T.self))") }
        }
        objectID = try req(String.self, "objectID")
        title = try req(String.self, "title")
        studioName = try req(String.self, "studioName")
        price = try req(Double.self, "price")
        currency = try opt(String.self, "currency") ?? "EUR"
        imageUrls = try opt([String].self, "imageUrls")
        dimensions = try opt(Dimensions.self, "dimensions")
        techniques = try opt([String].self, "techniques") ?? []
        year = try opt(Int.self, "year")
        infoText = try opt(String.self, "infoText")
        status = try opt(String.self, "status")
        var extra: [String: JSONValue] = [:]
        for k in c.allKeys where !Self.known.contains(k.stringValue) {
            extra[k.stringValue] = try? c.decode(JSONValue.self, forKey: k)
        }
        self.extra = extra
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (k, v) in extra where !Self.known.contains(k) { try c.encode(v, forKey: Key(k)) }
        try c.encode(objectID, forKey: Key("objectID"))
        try c.encode(title, forKey: Key("title"))
        try c.encode(studioName, forKey: Key("studioName"))
        try c.encode(price, forKey: Key("price"))
        try c.encode(currency, forKey: Key("currency"))
        try c.encode(imageUrls ?? [], forKey: Key("imageUrls"))
        try c.encodeIfPresent(dimensions, forKey: Key("dimensions"))
        try c.encode(techniques, forKey: Key("techniques"))
        try c.encodeIfPresent(year, forKey: Key("year"))
        try c.encodeIfPresent(infoText, forKey: Key("infoText"))
        try c.encode(status ?? "available", forKey: Key("status"))
    }

    static func typeName<T>(_ t: T.Type) -> String {
        switch t {
        case is String.Type: return "string"
        case is Double.Type: return "number"
        case is Int.Type: return "whole number"
        case is [String].Type: return "list of strings"
        case is Dimensions.Type: return "{widthCm, heightCm} object of numbers"
        default: return "\(t)"
        }
    }
}
