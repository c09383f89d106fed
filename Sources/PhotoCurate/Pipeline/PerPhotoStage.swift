/// A stage that handles one photo at a time, independently of the others;
/// the runner runs several at once (bounded by `--jobs`).
///
/// ```swift
/// struct IdentifyStage: PerPhotoStage {
///     func process(_ file: PhotoFile) async throws -> IdentifiedPhoto
/// }
/// ```
public protocol PerPhotoStage: Sendable {
    associatedtype Input: Sendable
    associatedtype Output: Sendable
    static var id: String { get }
    func process(_ input: Input) async throws -> Output
}

/// A stage that needs every photo at once (clustering, selection).
public protocol BarrierStage: Sendable {
    associatedtype Input: Sendable
    associatedtype Output: Sendable
    static var id: String { get }
    func run(_ input: Input) throws -> Output
}
