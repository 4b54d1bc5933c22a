import Foundation
import Testing

// CLI spec tests: each `Specs/<name>.expected` runs the built `jsbridge` binary on a script and checks its
// exit code and output. Fixture files that are not specs live under `Specs/fixtures/`.
//
// Expected-result format (`Specs/<name>.expected`):
//
//     # comment (header only)
//     script: fixtures/context.js    the script, relative to Specs/ (default: <name>.js); `-` for none
//     args: --allow-net=a.com:80      jsbridge's options, placed before the script (shell-like quoting)
//     script-args: a --b "x y"       arguments placed after the script
//     env: NAME=value                 an environment variable (repeatable)
//     unset: NAME                     removes a variable of the controlled environment (repeatable)
//     exit: 0                         the expected exit code (default 0)
//     time-limit: 20                  seconds before the harness kills the run (default 20)
//     --- stdout                      the exact stdout: every line up to the next `--- ` line
//     --- stderr                      the exact stderr
//     --- stdout contains             each line must appear in stdout (as a substring)
//     --- stderr contains             each line must appear in stderr
//     --- stderr contains once        each line must appear in stderr exactly once
//     --- stdout matches              each line is a regular expression that must match some line of stdout
//     --- stderr matches              … of stderr
//     --- stdout lacks                no line of this section may appear in stdout
//     --- stderr lacks                … in stderr
//
// Header lines may use `$SPECS` (the Specs directory) and `$TMP` (the run's sandbox: a fresh temporary
// working directory; HOME is `$TMP/home`, XDG_DATA_HOME `$TMP/xdg`). In the output, those paths and the
// binary's path are replaced by `$SPECS`, `$TMP` and `$BIN` before comparing, so expectations do not
// depend on the checkout location. A section that is absent is not checked, except that a spec with no
// stderr section at all and exit code 0 expects an empty stderr.

/// A parsed `.expected` file.
struct Spec {
    var name: String
    var script: String?
    var options: [String] = []
    var scriptArguments: [String] = []
    var environment: [String: String?] = [:]
    var exitCode: Int32 = 0
    var timeLimit: Double = 20
    var sections: [(kind: String, lines: [String])] = []

    static let sectionKinds: Set<String> = [
        "stdout", "stderr", "stdout contains", "stderr contains", "stderr contains once", "stdout contains once",
        "stdout matches", "stderr matches", "stdout lacks", "stderr lacks",
    ]

    /// The names of all specs (`Specs/*.expected`), sorted.
    static var all: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: CLIPaths.specs)) ?? []
        let names = files.filter { $0.hasSuffix(".expected") }.map { String($0.dropLast(".expected".count)) }.sorted()
        return names.isEmpty ? ["(no specs found in \(CLIPaths.specs))"] : names
    }

    init(name: String) throws {
        self.name = name
        let path = CLIPaths.specs + "/\(name).expected"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HarnessError(description: "Cannot read the spec \(path).")
        }
        script = "\(name).js"
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        var current: (kind: String, lines: [String])?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .enumerated()
        {
            if line.hasPrefix("--- ") {
                if let current { sections.append(current) }
                let kind = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
                guard Self.sectionKinds.contains(kind) else {
                    throw HarnessError(description: "\(name).expected:\(number + 1): unknown section '\(kind)'.")
                }
                current = (kind, [])
                continue
            }
            if current != nil {
                current!.lines.append(line)
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                throw HarnessError(description: "\(name).expected:\(number + 1): expected 'key: value', got '\(line)'.")
            }
            let key = trimmed[..<colon].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "script": script = value == "-" ? nil : value
            case "args": options += try Self.words(value)
            case "script-args": scriptArguments += try Self.words(value)
            case "exit":
                guard let code = Int32(value) else {
                    throw HarnessError(description: "\(name).expected: bad exit code '\(value)'.")
                }
                exitCode = code
            case "time-limit":
                guard let seconds = Double(value) else {
                    throw HarnessError(description: "\(name).expected: bad time-limit '\(value)'.")
                }
                timeLimit = seconds
            case "env":
                guard let equals = value.firstIndex(of: "=") else {
                    throw HarnessError(description: "\(name).expected: env needs NAME=value.")
                }
                environment[String(value[..<equals])] = String(value[value.index(after: equals)...])
            case "unset": environment[value] = .some(nil)
            default: throw HarnessError(description: "\(name).expected:\(number + 1): unknown key '\(key)'.")
            }
        }
        if let current { sections.append(current) }
    }

    /// The command line: options, the script, its arguments.
    var arguments: [String] {
        options + (script.map { ["$SPECS/" + $0] } ?? []) + scriptArguments
    }

    /// Splits `text` into words: whitespace separates, '…' and "…" quote, \ escapes outside single quotes.
    static func words(_ text: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                word.append(character)
                escaped = false
            } else if let q = quote {
                if character == q {
                    quote = nil
                } else if character == "\\" && q == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { throw HarnessError(description: "Unterminated quote in '\(text)'.") }
        if inWord { words.append(word) }
        return words
    }
}

/// Compares `actual` with `expected` and records a readable failure.
func expectSame(
    _ actual: String, _ expected: String, _ what: String, _ result: RunResult,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual != expected else { return }
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    var first = 0
    while first < min(actualLines.count, expectedLines.count), actualLines[first] == expectedLines[first] { first += 1 }
    let expectedLine = first < expectedLines.count ? String(expectedLines[first]) : "(end)"
    let actualLine = first < actualLines.count ? String(actualLines[first]) : "(end)"
    Issue.record(
        """
        \(what) differs at line \(first + 1):
          expected: \(expectedLine.debugDescription)
          actual:   \(actualLine.debugDescription)
        --- expected \(what)
        \(expected)
        \(result.summary)
        """, sourceLocation: sourceLocation)
}

@Suite("CLI specs") struct CLISpecTests {
    @Test("spec", arguments: Spec.all)
    func spec(_ name: String) async throws {
        let spec = try Spec(name: name)
        let result = try await CLI.run(spec.arguments, environment: spec.environment, timeLimit: spec.timeLimit)
        try #require(!result.timedOut, "the run did not finish within \(spec.timeLimit) s\n\(result.summary)")
        #expect(result.exitCode == spec.exitCode, "exit code\n\(result.summary)")

        var checkedStderr = false
        for (kind, lines) in spec.sections {
            let parts = kind.split(separator: " ", maxSplits: 1).map(String.init)
            let stream = parts[0]
            let mode = parts.count > 1 ? parts[1] : "exact"
            let output = stream == "stdout" ? result.stdout : result.stderr
            if stream == "stderr" { checkedStderr = true }
            switch mode {
            case "exact":
                let expected = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
                expectSame(output, expected, stream, result)
            case "contains":
                for line in lines where !line.isEmpty {
                    #expect(output.contains(line), "\(stream) lacks \(line.debugDescription)\n\(result.summary)")
                }
            case "contains once":
                for line in lines where !line.isEmpty {
                    let count = output.components(separatedBy: line).count - 1
                    #expect(
                        count == 1,
                        "\(stream) should contain \(line.debugDescription) once, found \(count) times\n\(result.summary)"
                    )
                }
            case "matches":
                let outputLines = output.split(separator: "\n").map(String.init)
                for pattern in lines where !pattern.isEmpty {
                    let regex = try Regex(pattern)
                    #expect(
                        outputLines.contains { $0.wholeMatch(of: regex) != nil },
                        "no line of \(stream) matches /\(pattern)/\n\(result.summary)")
                }
            case "lacks":
                for line in lines where !line.isEmpty {
                    #expect(
                        !output.contains(line),
                        "\(stream) should not contain \(line.debugDescription)\n\(result.summary)")
                }
            default:
                Issue.record("unknown section \(kind)")
            }
        }
        if !checkedStderr, spec.exitCode == 0 {
            expectSame(result.stderr, "", "stderr", result)
        }
    }
}
