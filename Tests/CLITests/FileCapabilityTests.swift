import Foundation
import Testing

/// `--allow-read` / `--allow-write` on the command line: granted and denied paths, scopes resolved before the
/// check (symlinks, `..`, relative paths), `--allow-all`, `--config`'s `allow`.
@Suite("File capabilities") struct FileCapabilityTests {
    /// A scratch tree: `granted/file`, `secret/key`, `granted/escape` → `secret`; the path has no links.
    static func tree() throws -> String {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("jsbridge-fs-\(UUID().uuidString)")
        let root = made.path
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/granted", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/secret", withIntermediateDirectories: true)
        try "ok".write(toFile: root + "/granted/file", atomically: true, encoding: .utf8)
        try "s3cret".write(toFile: root + "/secret/key", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root + "/granted/escape", withDestinationPath: root + "/secret")
        return URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    }

    /// A script that tries each (label, path) read and one write, printing the result or the error code.
    static func script(reads: [String], write: String) -> String {
        let list = reads.map { String(reflecting: $0) }.joined(separator: ", ")
        return """
            const fs = require("jsbridge:node:fs");
            for (const path of [\(list)]) {
              try { console.log("read", fs.readFileSync(path, "utf8")); }
              catch (e) { console.log("read", e.code, e.message.match(/--allow-read(=[^ ]*)?/)?.[0] ?? ""); }
            }
            try { fs.writeFileSync(\(String(reflecting: write)), "w"); console.log("write ok"); }
            catch (e) { console.log("write", e.code, e.message.match(/--allow-write(=[^ ]*)?/)?.[0] ?? ""); }
            """
    }

    @Test func withoutAFlagFilesAreDeniedNamingTheFlag() async throws {
        let root = try Self.tree()
        let result = try await CLI.run(
            ["-e", Self.script(reads: [root + "/granted/file"], write: root + "/granted/new")])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.rawStdout == """
                read PERMISSION_DENIED --allow-read=\(root)/granted/file
                write PERMISSION_DENIED --allow-write=\(root)/granted/new

                """, "\(result.summary)")
    }

    @Test func aScopedGrantCoversItsDirectoryButNotLinksOrDotDotOutOfIt() async throws {
        let root = try Self.tree()
        let result = try await CLI.run([
            "--allow-read=\(root)/granted", "--allow-write=\(root)/granted",
            "-e",
            Self.script(
                reads: [
                    root + "/granted/file", root + "/granted/escape/key", root + "/granted/../secret/key",
                    root + "/granted/nope/../../secret/key",
                ], write: root + "/granted/escape/planted"),
        ])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.rawStdout == """
                read ok
                read PERMISSION_DENIED --allow-read=\(root)/secret/key
                read PERMISSION_DENIED --allow-read=\(root)/secret/key
                read PERMISSION_DENIED --allow-read=\(root)/secret/key
                write PERMISSION_DENIED --allow-write=\(root)/secret/planted

                """, "\(result.summary)")
        #expect(!FileManager.default.fileExists(atPath: root + "/secret/planted"))
    }

    @Test func relativeGrantsResolveAgainstTheWorkingDirectory() async throws {
        let root = try Self.tree()
        let result = try await CLI.run(
            [
                "--allow-read=./granted,other", "--allow-write=granted", "-e",
                Self.script(reads: ["granted/file", "secret/key"], write: "granted/new"),
            ],
            workingDirectory: root)
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.rawStdout == """
                read ok
                read PERMISSION_DENIED --allow-read=\(root)/secret/key
                write ok

                """, "\(result.summary)")
        #expect((try? String(contentsOfFile: root + "/granted/new", encoding: .utf8)) == "w")
    }

    @Test(arguments: [["--allow-all"], ["--allow-read", "--allow-write"]])
    func wholeGrantsAllowEverything(_ flags: [String]) async throws {
        let root = try Self.tree()
        let result = try await CLI.run(
            flags + ["-e", Self.script(reads: [root + "/granted/escape/key"], write: root + "/secret/new")])
        #expect(result.rawStdout == "read s3cret\nwrite ok\n", "\(result.summary)")
    }

    @Test func theConfigCanGrantPaths() async throws {
        let root = try Self.tree()
        let config = root + "/config.json"
        try #"{"allow": {"read": ["\#(root)/secret"]}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await CLI.run(
            [
                "--config", config, "-e",
                Self.script(reads: [root + "/secret/key", root + "/granted/file"], write: root + "/x"),
            ])
        #expect(
            result.rawStdout == """
                read s3cret
                read PERMISSION_DENIED --allow-read=\(root)/granted/file
                write PERMISSION_DENIED --allow-write=\(root)/x

                """, "\(result.summary)")
    }

    @Test func badScopesAreUsageErrorsAndHelpListsTheFlags() async throws {
        let empty = try await CLI.run(["--allow-read=", "-e", "0"])
        #expect(empty.exitCode == 2, "\(empty.summary)")
        #expect(empty.stderr.contains("--allow-read"), "\(empty.summary)")
        let help = try await CLI.run(["--help"])
        #expect(
            help.stdout.contains("--allow-read[=<paths>]") && help.stdout.contains("--allow-write[=<paths>]"),
            "\(help.summary)")
        // One row per capability, naming every plugin that asks for it.
        let readRows = help.stdout.split(separator: "\n").filter { $0.contains("--allow-read") }
        #expect(
            readRows.count == 1 && readRows[0].contains("FileSystem") && readRows[0].contains("HTTP"), "\(readRows)")
    }

    @Test func theNodeModulesAndTheGlobalWorkFromTheBinary() async throws {
        let root = try Self.tree()
        let result = try await CLI.run([
            "--allow-read=\(root)", "--allow-write=\(root)", "-e",
            """
            const fsp = require("jsbridge:node:fs/promises");
            (async () => {
              await fsp.writeFile("\(root)/granted/a.txt", "from promises");
              console.log(await FileSystem.readTextFile("\(root)/granted/a.txt"));
              console.log((await fsp.readdir("\(root)/granted")).join());
            })();
            """,
        ])
        #expect(result.rawStdout == "from promises\na.txt,escape,file\n", "\(result.summary)")
    }
}
