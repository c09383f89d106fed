import ArgumentParser
import Foundation
import PhotoCurate
import PhotoCurateExhibit
import PhotoCurateServer

/// `photocurate exhibit build|ask|serve`: the gallery made from a curated run, and its curator.
struct ExhibitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exhibit",
        abstract: "An offline gallery of a curated run, with a narrated tour and a curator that answers only from the facts.",
        discussion: """
        A run writes OUT/exhibit/ when its pipeline names the exhibit stage (pipelines/exhibit.yml). \
        Open OUT/exhibit/index.html in a browser: it needs no network.

        EXAMPLES:
          photocurate run ~/Trip --pipeline pipelines/exhibit.yml -o ~/Trip-best
          photocurate exhibit build ~/Trip-best/manifest.json --voice
          photocurate exhibit ask ~/Trip-best/exhibit "What camera was used for Harbour at dusk?"
          photocurate exhibit serve ~/Trip-best/exhibit --port 8080
        """,
        subcommands: [Build.self, Ask.self, Sentences.self, Serve.self]
    )

    /// The model-backed curator for `--llm-url`, if one was given (key from PHOTOCURATE_LLM_KEY, never a file).
    static func llm(_ urlText: String?, model: String, curator: Curator) throws -> LLMCurator? {
        guard let urlText else { return nil }
        guard let url = URL(string: urlText), url.scheme == "http" || url.scheme == "https" else {
            throw fail("--llm-url \(urlText): not an http(s) URL", code: ExitStatus.usage)
        }
        return LLMCurator(curator: curator, endpoint: url, model: model, apiKey: ProcessInfo.processInfo.environment["PHOTOCURATE_LLM_KEY"])
    }

    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write an exhibit from an existing run's manifest.json (no analysis).",
            discussion: """
            Facts come from the manifest, the photos' own metadata (XMP, IPTC, EXIF) and, if present, \
            artist.yml and works.yml in the curated folder (or given here). Nothing else is said.

            EXAMPLES:
              photocurate exhibit build out/manifest.json
              photocurate exhibit build out/manifest.json --out gallery --voice --works notes/works.yml
            """)
        @Argument(help: "manifest.json of a run.") var manifest: String
        @Option(help: "Exhibit folder to write (default: beside the manifest, exhibit/).") var out: String?
        @Flag(help: "Speak the narration to audio files (espeak-ng).") var voice = false
        @Option(help: "artist.yml (default: the curated folder's).") var artist: String?
        @Option(help: "works.yml (default: the curated folder's).") var works: String?
        @Option(name: .customLong("set"), help: ArgumentHelp("An exhibit parameter, e.g. --set maxWorks=12 (see `photocurate stages`).", valueName: "param=value"))
        var overrides: [String] = []

        func run() async throws {
            guard let data = FileManager.default.contents(atPath: manifest) else { throw fail("\(manifest): cannot be read") }
            let m: Manifest
            do { m = try JSONDecoder().decode(Manifest.self, from: data) } catch { throw fail("\(manifest): not a photocurate manifest (\(error))") }
            var params = try Parameters(ExhibitStage.parameterSpecs)
            do {
                for o in overrides {
                    let kv = o.split(separator: "=", maxSplits: 1).map(String.init)
                    guard kv.count == 2, let v = Double(kv[1]) else { throw ValidationError("--set \(o): expected param=number") }
                    try params.set(kv[0].replacingOccurrences(of: "exhibit.", with: ""), v)
                }
                if voice { try params.set("voice", 1) }
            } catch { throw fail("\(error)", code: ExitStatus.usage) }
            var stage = ExhibitStage(parameters: params)
            stage.artistFile = artist
            stage.worksFile = works
            func parent(_ p: String) -> String { let d = (p as NSString).deletingLastPathComponent; return d.isEmpty ? "." : d }
            let dest = out ?? parent(manifest) + "/exhibit"
            // Written beside, then swapped in: a failure leaves the previous exhibit whole.
            let staging = dest + ".staging-\(getpid())"
            try? FileManager.default.removeItem(atPath: staging)
            do {
                try FileManager.default.createDirectory(atPath: parent(dest), withIntermediateDirectories: true)
                let ex = try stage.write(OutputContext(manifest: m, root: m.summary.root), into: staging)
                let aside = dest + ".old-\(getpid())"
                if FileManager.default.fileExists(atPath: dest) { try FileManager.default.moveItem(atPath: dest, toPath: aside) }
                try FileManager.default.moveItem(atPath: staging, toPath: dest)
                try? FileManager.default.removeItem(atPath: aside)
                print("\(dest)/index.html: \(ex.works.count) works, \(ex.editorials.count) editorials\(ex.narration.contains { $0.audio != nil } ? ", narrated" : "")")
            } catch {
                try? FileManager.default.removeItem(atPath: staging)
                throw fail("exhibit not written to \(dest): \(error)")
            }
        }
    }

    struct Ask: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask the curator a question; it answers only from the exhibit's context packets.",
            discussion: """
            The answer quotes the supporting sentence and names its work. When nothing in the packets \
            supports an answer, it says "I don't know". With --llm-url an OpenAI-compatible endpoint \
            (llama.cpp, Ollama) writes the answer, which is still refused unless it cites the packets.

            EXAMPLES:
              photocurate exhibit ask out/exhibit "When was Harbour at dusk taken?"
              photocurate exhibit ask out/exhibit "What lens was used?" --work work-03 --json
              # one question per line in, one answer per line out (the model is loaded once)
              photocurate exhibit ask out/exhibit - < questions.txt
            """)
        @Argument(help: "Exhibit folder.") var exhibit: String
        @Argument(help: "The question, or - to read one question per line from standard input.") var question: String
        @Option(help: "The work on screen, for questions such as \"what lens was used here?\".") var work: String?
        @Flag(help: "Print the answer as JSON, with its sources (one line per answer with -).") var json = false
        @Option(help: "OpenAI-compatible endpoint (e.g. http://127.0.0.1:8081/v1).") var llmUrl: String?
        @Option(help: "Model name sent to --llm-url.") var llmModel: String = "local"

        func run() async throws {
            let ex: Exhibit
            do { ex = try Exhibit.load(folder: exhibit) } catch { throw fail("\(error)") }
            let curator = try Curator(exhibit: ex)
            let llm = try ExhibitCommand.llm(llmUrl, model: llmModel, curator: curator)
            let many = question == "-"
            let questions = many ? AnyIterator { readLine() } : AnyIterator([question].makeIterator())
            let e = JSONEncoder(); e.outputFormatting = many ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            for q in questions {
                let answer = await llm?.ask(q, workId: work, history: []) ?? curator.ask(q, workId: work)
                print(json ? String(decoding: try e.encode(answer), as: UTF8.self) : answer.answer)
            }
        }
    }

    struct Sentences: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every sentence the curator may quote, with its work and field, one per line (or JSON).",
            discussion: """
            The curator answers only with these sentences: this is the whole of what it knows.

            EXAMPLES:
              photocurate exhibit sentences out/exhibit
              photocurate exhibit sentences out/exhibit --json | jq '.[] | select(.field == "story")'
            """)
        @Argument(help: "Exhibit folder.") var exhibit: String
        @Flag(help: "Print JSON: [{workId, field, text}].") var json = false

        func run() throws {
            let ex: Exhibit
            do { ex = try Exhibit.load(folder: exhibit) } catch { throw fail("\(error)") }
            let rows = try Curator(exhibit: ex).sources
            if json {
                let e = JSONEncoder(); e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try e.encode(rows), as: UTF8.self))
            } else {
                for r in rows { print("\(r.workId ?? "exhibit")\t\(r.field)\t\(r.sentence)") }
            }
        }
    }

    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the gallery with the curator's question box (loopback by default).",
            discussion: """
            GET / is the gallery; POST /api/ask {question, workId?, history?} answers as `exhibit ask` does.

            EXAMPLES:
              photocurate exhibit serve out/exhibit
              photocurate exhibit serve out/exhibit --port 8080 --llm-url http://127.0.0.1:8081/v1
            """)
        @Argument(help: "Exhibit folder.") var exhibit: String
        @Option(help: "Address to listen on (default loopback; 0.0.0.0 exposes it to the network).") var host: String = "127.0.0.1"
        @Option(help: "Port.") var port: Int = 8080
        @Option(help: "OpenAI-compatible endpoint for the answers (still checked against the packets).") var llmUrl: String?
        @Option(help: "Model name sent to --llm-url.") var llmModel: String = "local"

        func run() async throws {
            let ex: Exhibit
            do { ex = try Exhibit.load(folder: exhibit) } catch { throw fail("\(error)") }
            let curator = try Curator(exhibit: ex)
            let llm = try ExhibitCommand.llm(llmUrl, model: llmModel, curator: curator)
            print("exhibit: http://\(host):\(port)/ (Ctrl-C stops)")
            try await ExhibitServer(folder: exhibit, curator: curator, llm: llm, host: host, port: port).run()
        }
    }
}
