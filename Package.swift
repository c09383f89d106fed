// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "photocurate",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "photocurate", targets: ["photocurate"]),
        .library(name: "PhotoCurate", targets: ["PhotoCurate"]),
        .library(name: "PhotoCurateBench", targets: ["PhotoCurateBench"]),
        .library(name: "PhotoCurateModels", targets: ["PhotoCurateModels"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    ],
    targets: [
        // C bindings: each holds only what Swift cannot reach by itself.
        .systemLibrary(name: "CVips", pkgConfig: "vips",
                       providers: [.apt(["libvips-dev"])]),
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        // libjpeg(-turbo): a scaled decode that shows each block's coefficients (native-resolution detail).
        .target(name: "CJpegShim", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif",
                       providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CBLAS", pkgConfig: "openblas",
                       providers: [.apt(["libopenblas-dev"])]),
        // zlib: inflating the members of wheels (models come inside Python packages).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // ONNX Runtime's C API through dlopen (the library comes from the model catalog).
        .target(name: "COnnxRuntime", linkerSettings: [.linkedLibrary("dl")]),
        // dlib (Debian libdlib-dev): face landmarks and the face-embedding network, behind a C interface.
        // Optimised even in debug builds: dlib's network at -O0 is many times slower.
        .target(name: "CDlibShim", cxxSettings: [.unsafeFlags(["-O2"])], linkerSettings: [.linkedLibrary("dlib")]),

        // OpenCV 4 (Debian libopencv-features2d-dev, libopencv-calib3d-dev): ORB, RANSAC homographies and warps, behind a C interface.
        .target(name: "COpenCVShim", cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4", "-O2"])],
                linkerSettings: ["opencv_core", "opencv_imgproc", "opencv_features2d", "opencv_calib3d"].map { .linkedLibrary($0) }),

        // The engine: one folder per pipeline stage.
        .target(
            name: "PhotoCurate",
            dependencies: [
                "CVipsShim", "CJpegShim", "CExif", "CBLAS",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Export/manifest.schema.json"]
        ),
        // Model catalog, install and checks: its own layer; the engine builds without it.
        .target(name: "PhotoCurateModels", dependencies: ["CZlib", "COnnxRuntime", .product(name: "Logging", package: "swift-log")]),
        // Faces: an optional analyzer that runs models; registers itself into the engine.
        .target(name: "PhotoCurateFaces", dependencies: ["PhotoCurate", "PhotoCurateModels", "CDlibShim", "CBLAS", .product(name: "Logging", package: "swift-log")]),
        // Exhibit: a curated run → offline gallery, narrated tour and a curator that answers from facts.
        .target(name: "PhotoCurateExhibit", dependencies: [
            "PhotoCurate", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Yams", package: "Yams"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Albums: record covers in photos → catalog album, context card, scan history.
        .target(name: "PhotoCurateAlbums", dependencies: [
            "PhotoCurate", "COpenCVShim", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Art match: an artwork catalog analysed (colours, light, texture, style) and searched by words or a room photo.
        .target(name: "PhotoCurateArt", dependencies: ["PhotoCurate"]),
        // The HTTP layer (Hummingbird): the only target that depends on a server framework.
        .target(name: "PhotoCurateServer", dependencies: [
            "PhotoCurateExhibit", "PhotoCurateArt", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Labelled trip generator, scorer and throughput harness.
        .target(name: "PhotoCurateBench", dependencies: ["PhotoCurate", "PhotoCurateAlbums", "PhotoCurateArt", "COpenCVShim"]),
        .executableTarget(
            name: "photocurate",
            dependencies: [
                "PhotoCurate", "PhotoCurateBench", "PhotoCurateModels", "PhotoCurateFaces",
                "PhotoCurateExhibit", "PhotoCurateServer", "PhotoCurateAlbums", "PhotoCurateArt",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fixture builders shared by the tests (JPEGs with chosen EXIF, corrupt files).
        .target(name: "PhotoCurateTestSupport", dependencies: ["PhotoCurate", "PhotoCurateBench"]),
        .testTarget(
            name: "PhotoCurateTests",
            dependencies: ["PhotoCurate", "PhotoCurateBench", "PhotoCurateTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "PhotoCurateModelsTests", dependencies: ["PhotoCurateModels", "CZlib"]),
        .testTarget(name: "PhotoCurateExhibitTests", dependencies: ["PhotoCurateExhibit", "PhotoCurate", "PhotoCurateTestSupport"]),
        .testTarget(name: "PhotoCurateAlbumsTests", dependencies: ["PhotoCurateAlbums", "PhotoCurate", "PhotoCurateBench", "PhotoCurateTestSupport"]),
        .testTarget(name: "PhotoCurateArtTests", dependencies: ["PhotoCurateArt", "PhotoCurate", "PhotoCurateBench"]),
        .testTarget(name: "PhotoCurateFacesTests", dependencies: ["PhotoCurateFaces", "PhotoCurate", "PhotoCurateModels", "PhotoCurateTestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)