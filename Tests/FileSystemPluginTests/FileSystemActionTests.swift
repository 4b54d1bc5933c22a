import FileSystemPlugin
import Foundation
import JSBridgeTesting
import Testing

/// The plugin's actions from Swift (`PluginTester`): arguments, configuration, limits, what crosses.
@Suite struct FileSystemActionTests {
    let root = URL(fileURLWithPath: TemporaryDirectory.make(prefix: "fs-actions")).resolvingSymlinksInPath().path

    func tester(_ configuration: JSONObject = [:]) async throws -> PluginTester {
        try await PluginTester(
            FileSystemPlugin(),
            options: .testing(configuration: ["FileSystem": .object(configuration)], permissions: .all))
    }

    @Test func maxOpenFilesBoundsOpenHandles() async throws {
        let fs = try await tester(["maxOpenFiles": 1])
        let first = try await fs.call("open", ["path": root + "/a", "flags": "w"])
        await #expect(throws: BridgeError.self) { try await fs.call("open", ["path": root + "/b", "flags": "w"]) }
        do {
            _ = try await fs.call("open", ["path": root + "/b", "flags": "w"])
        } catch {
            #expect(error.code == "EMFILE" && error.data?["syscall"] == "open")
        }
        _ = try await fs.call("close", ["fd": first])
        let second = try await fs.call("open", ["path": root + "/b", "flags": "w"])
        #expect(second != first)
        await fs.shutdown()
    }

    @Test func aBadConfigurationFailsSetUp() async throws {
        await #expect(throws: BridgeError.self) { _ = try await tester(["maxOpenFiles": 0]) }
    }

    @Test func badArgumentsAreInvalidArgumentWithAPath() async throws {
        let fs = try await tester()
        let cases: [(JSONValue, String)] = [
            (["path": 3], "path"), (["path": "a\u{0}b"], "path"),
            (["path": .string(root + "/x"), "encoding": "utf16"], "encoding"),
        ]
        for (args, path) in cases {
            do {
                _ = try await fs.call("readFile", args)
                Issue.record("accepted \(args)")
            } catch {
                #expect(error.code == "INVALID_ARGUMENT")
                #expect(error.data?["issues"]?[0]?["path"] == .string(path), "\(error)")
            }
        }
        do {
            _ = try fs.callSync("writeFileSync", ["path": root + "/w", "data": "x", "flag": "r"])
            Issue.record("accepted flag r")
        } catch {
            #expect(error.code == "INVALID_ARGUMENT")
        }
        await #expect(throws: BridgeError.self) { try await fs.call("read", ["fd": 99]) }
    }

    @Test func contentsCrossInlineOrStagedAndSyncAnswersAreStrings() async throws {
        let fs = try await tester()
        let small = String(repeating: "a", count: 10)
        let large = String(repeating: "é", count: FileSystemPlugin.inlineLimit)
        try small.write(toFile: root + "/small", atomically: true, encoding: .utf8)
        try large.write(toFile: root + "/large", atomically: true, encoding: .utf8)
        #expect(
            try await fs.call("readFile", ["path": root + "/small", "encoding": "utf8"]) == ["data": .string(small)])
        let staged = try await fs.call("readFile", ["path": root + "/large", "encoding": "utf8"])
        let token = try #require(staged["token"])
        #expect(try fs.callSync("take", token) == .string(large))
        #expect(throws: BridgeError.self) { try fs.callSync("take", token) }
        #expect(try fs.callSync("readFileSync", ["path": root + "/large", "encoding": "utf8"]) == .string(large))
        // Bytes without an encoding: `Bytes` beside the JSON (scripts get a Uint8Array); base64 in plain JSON.
        let raw: [UInt8] = [0, 1, 0x7E, 0x7F, 0xFF]
        try Data(raw).write(to: URL(fileURLWithPath: root + "/bytes"))
        #expect(try fs.callSync("readFileSync", ["path": root + "/bytes"]) == .string(Data(raw).base64EncodedString()))
        let lane = try await fs.call("readFile", BridgeValue(["path": .string(root + "/bytes")]))
        #expect(lane.bytes == [ByteAttachment(path: [], bytes: Bytes(raw))])
        let written = try fs.callSync(
            "writeFileSync",
            BridgeValue(
                ["path": .string(root + "/b2"), "data": [:]],
                bytes: [ByteAttachment(path: [.key("data")], bytes: Bytes(raw.reversed()))]))
        #expect(written == BridgeValue(.null))
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/b2")) == Data(raw.reversed()))
        let stagedWrite = try fs.callSync("stage", "héllo")
        _ = try await fs.call("writeFile", ["path": .string(root + "/w"), "token": stagedWrite])
        #expect(try String(contentsOfFile: root + "/w", encoding: .utf8) == "héllo")
        _ = try fs.callSync("writeFileSync", [["path": .string(root + "/w2"), "encoding": "latin1"], "\u{0}\u{FF}"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/w2")) == Data([0, 0xFF]))
    }

    /// The typed answers are the JSON the plugin's JavaScript reads: Stats fields in order, entries as
    /// `[name, type]`, `null` for actions without an answer, numbers, booleans, `{data}` or the string itself.
    @Test func answersKeepTheShapesTheJavaScriptReads() async throws {
        let fs = try await tester()
        #expect(
            try await fs.call("mkdir", ["path": .string(root + "/d/e"), "recursive": true]) == .string(root + "/d"))
        #expect(try await fs.call("mkdir", ["path": .string(root + "/d/f")]) == .null)
        #expect(try await fs.call("writeFile", ["path": .string(root + "/d/t"), "data": "héllo"]) == .null)
        let stats = try await fs.call("stat", ["path": .string(root + "/d/t")])
        #expect(
            stats.objectValue?.keys == [
                "dev", "ino", "mode", "nlink", "uid", "gid", "rdev", "size", "blksize", "blocks", "atimeMs", "mtimeMs",
                "ctimeMs", "birthtimeMs", "type",
            ])
        #expect(stats["size"] == 6 && stats["type"] == "file")
        #expect(try fs.callSync("lstatSync", ["path": .string(root + "/d")])["type"] == "directory")
        #expect(
            try await fs.call("readdir", ["path": .string(root + "/d")]) == [
                ["e", "directory"], ["f", "directory"], ["t", "file"],
            ])
        #expect(try fs.callSync("existsSync", ["path": .string(root + "/d/t")]) == true)
        #expect(try await fs.call("exists", ["path": .string(root + "/d/none")]) == false)
        let fd = try await fs.call("open", ["path": .string(root + "/d/t"), "flags": "r+"])
        #expect(fd.doubleValue != nil)
        #expect(try await fs.call("write", ["fd": fd, "data": "H", "position": 0]) == 1)
        #expect(try fs.callSync("writeSync", [["fd": fd, "encoding": "hex", "position": 6], "2121"]) == 2)
        #expect(try await fs.call("read", ["fd": fd, "position": 0, "encoding": "utf8"]) == ["data": "Héllo!!"])
        #expect(try fs.callSync("readSync", ["fd": fd, "position": 1, "length": 2, "encoding": "latin1"]) == "Ã©")
        let raw = try await fs.call("read", BridgeValue(["fd": fd, "position": 0, "length": 1]))
        #expect(raw == BridgeValue(.null, bytes: [ByteAttachment(path: [], bytes: Bytes([0x48]))]))
        #expect(try await fs.call("fstat", ["fd": fd])["size"] == 8)
        #expect(try await fs.call("close", ["fd": fd]) == .null)
        #expect(try await fs.call("realpath", ["path": .string(root + "/d/e/..")]) == .string(root + "/d"))
        await fs.shutdown()
    }

    /// Bad values are `INVALID_ARGUMENT` at the argument's path, in the array form (`[options, text]`) too.
    @Test func badValuesAreReportedAtTheirArgument() async throws {
        let fs = try await tester()
        let fd = try await fs.call("open", ["path": .string(root + "/h"), "flags": "w"])
        let cases: [(String, JSONValue, String)] = [
            ("writeFileSync", [["path": .string(root + "/a\u{0}")], "x"], "[0].path"),
            ("writeFileSync", [["path": .string(root + "/a"), "flag": "r"], "x"], "[0].flag"),
            ("writeFileSync", [["path": .string(root + "/a")], 3], "[1]"),
            ("writeFileSync", ["path": .string(root + "/a"), "data": 5], "data"),
            ("writeFileSync", ["path": .string(root + "/a"), "token": 12345], "token"),
            ("writeFileSync", ["path": .string(root + "/a"), "data": "x", "mode": 0o10000], "mode"),
            ("writeSync", [["fd": fd, "position": -1], "x"], "[0].position"),
            ("writeSync", ["fd": fd, "data": "x", "encoding": "utf16"], "encoding"),
            ("readSync", ["fd": fd, "length": -1], "length"),
            ("openSync", ["path": .string(root + "/a"), "flags": "q"], "flags"),
            ("mkdirSync", ["path": .string(root + "/m"), "recursive": "yes"], "recursive"),
            ("accessSync", ["path": .string(root + "/h"), "mode": 8], "mode"),
            ("chmodSync", ["path": .string(root + "/h")], "mode"),
            ("closeSync", ["fd": "1"], "fd"),
        ]
        for (action, args, path) in cases {
            do {
                _ = try fs.callSync(action, args)
                Issue.record("\(action) accepted \(args)")
            } catch {
                #expect(error.code == "INVALID_ARGUMENT", "\(action) \(args): \(error)")
                #expect(error.data?["issues"]?[0]?["path"] == .string(path), "\(action) \(args): \(error)")
            }
        }
        await fs.shutdown()
    }
}
