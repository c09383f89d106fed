import Foundation

/// Speaks narration to WAV files with espeak-ng (Debian `espeak-ng`).
///
/// ```swift
/// let seconds = try Voice().speak("Harbour at dusk.", to: "exhibit/audio/work-01.wav")
/// ```
/// The tour advances when the audio ends, so the length is read back from the
/// file's own header, not estimated.
public struct Voice: Sendable {
    public var executable: String
    public var voice: String
    public var wordsPerMinute: Int

    public init(executable: String? = nil, voice: String = "en", wordsPerMinute: Int = 160) {
        self.executable = executable ?? Voice.find() ?? "espeak-ng"
        self.voice = voice
        self.wordsPerMinute = wordsPerMinute
    }

    static func find() -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return dirs.map { $0 + "/espeak-ng" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Writes `path` (WAV) and returns its length in seconds.
    public func speak(_ text: String, to path: String) throws -> Double {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ExhibitError.voice("espeak-ng is not installed (apt-get install espeak-ng); the exhibit is written without audio")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        // The text goes on stdin: nothing in it is read as an option.
        p.arguments = ["-v", voice, "-s", String(wordsPerMinute), "-w", path, "--stdin"]
        let input = Pipe(), errors = Pipe()
        p.standardInput = input
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw ExhibitError.voice("espeak-ng failed (\(p.terminationStatus)): \(String(decoding: err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        guard let seconds = Self.wavSeconds(path) else { throw ExhibitError.voice("\(path): espeak-ng wrote no readable WAV") }
        return seconds
    }

    /// Length of a PCM WAV file from its `fmt ` and `data` chunks.
    public static func wavSeconds(_ path: String) -> Double? {
        guard let d = FileManager.default.contents(atPath: path), d.count >= 44 else { return nil }
        let b = [UInt8](d)
        func u32(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16 | Int(b[o + 3]) << 24 }
        guard b[0..<4].elementsEqual(Array("RIFF".utf8)), b[8..<12].elementsEqual(Array("WAVE".utf8)) else { return nil }
        var i = 12, byteRate = 0
        while i + 8 <= b.count {
            let id = String(decoding: b[i..<(i + 4)], as: UTF8.self)
            var size = u32(i + 4)
            if id == "fmt ", i + 16 <= b.count { byteRate = u32(i + 16) }
            if id == "data" {
                // espeak-ng writing to a file leaves the size it could not know as 0 or 0xFFFFFFFF.
                if size == 0 || size == 0xFFFF_FFFF || i + 8 + size > b.count { size = b.count - i - 8 }
                return byteRate > 0 ? Double(size) / Double(byteRate) : nil
            }
            i += 8 + size + (size % 2)
        }
        return nil
    }
}
