// swift-tools-version:6.1
// Micro-benchmarks (ordo-one/benchmark). A separate package so that `swift test`
// in the project never builds the benchmark framework.
//   cd Benchmarks && swift package benchmark
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, whatever the clone is called.
let engine = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "PhotoCurateBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PhotoCurateBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PhotoCurate", package: engine),
                .product(name: "PhotoCurateBench", package: engine),
            ],
            path: "Benchmarks/PhotoCurateBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v5]
)
