// swift-tools-version:6.1
// Micro-benchmarks (ordo-one/benchmark). A separate package so that `swift test`
// in the project never builds the benchmark framework.
//   cd Benchmarks && swift package benchmark
import PackageDescription

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
                .product(name: "PhotoCurate", package: "photocurate"),
                .product(name: "PhotoCurateBench", package: "photocurate"),
            ],
            path: "Benchmarks/PhotoCurateBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v5]
)
