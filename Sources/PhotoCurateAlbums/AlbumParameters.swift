import PhotoCurate

/// The albums layer's parameters, declared once: defaults, ranges and what each does.
/// The cover cache keys on the cover ones; `photocurate albums identify --help` lists them.
public enum AlbumParameters {
    /// Analyser id and version of cover features in the albums cache.
    public static let coverAnalyzer = "album-cover"
    public static let coverVersion = 1

    public static let cover: [ParameterSpec] = [
        ParameterSpec("coverSize", 512, in: 128...2048, integer: true, "long edge (px) a catalog cover is analysed at"),
        ParameterSpec("coverFeatures", 600, in: 50...5000, integer: true, "ORB points kept per cover"),
    ]

    public static let identify: [ParameterSpec] = [
        ParameterSpec("photoSize", 1280, in: 256...4096, integer: true, "long edge (px) a photo is analysed at"),
        ParameterSpec("photoFeatures", 2500, in: 100...20000, integer: true, "ORB points taken from a photo"),
        ParameterSpec("indexFeatures", 600, in: 20...5000, integer: true, "strongest points per cover in the shortlist's inverted file"),
        ParameterSpec("shortlist", 10, in: 1...100, integer: true, "covers verified geometrically per photo"),
        ParameterSpec("ratio", 0.8, in: 0.5...0.95, "Lowe's ratio test for a feature match"),
        ParameterSpec("ransacPixels", 5, in: 1...30, "RANSAC reprojection tolerance (px at photoSize)"),
        ParameterSpec("minInliers", 20, in: 6...500, integer: true, "matches consistent with one homography needed to name an album"),
    ]
}
