import Foundation
import JSBridgeCore
import JSBridgeTesting
import Testing

@testable import StoragePlugin

// Reliability with real processes on one database: concurrent writers, kill -9 mid-stream.
//
// A worker runs a script with the Storage plugin against a given app id and storage directory. When the
// built `jsbridge` binary next to the test binary has the Storage plugin, the worker is that binary;
// otherwise (the `jsbridge` target does not link StoragePlugin yet) it is this test binary running
// `StorageWorker.run` below, which runs the same script through ScriptRunner with the Storage plugin and an
// `Ack` plugin. Either way the script calls `ack(key)` after each acknowledged write, which reaches stdout
// at once (unbuffered for the test-binary worker).

/// Writes each acknowledged key to stdout immediately (fd 1, no buffering), for the worker scripts.
struct AckPlugin: BridgePlugin {
    static let name = "Ack"
    func actions(_ a: inout ActionTable) {
        a.sync("ack", args: String.self) { _, key -> JSONValue in
            var line = key + "\n"
            line.withUTF8 { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            return .null
        }
    }
}

enum Worker {
    static let environmentKey = "JSBRIDGE_STORAGE_WORKER"

    /// The test binary (`/proc/self/exe`).
    static let selfExecutable: String =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""

    /// The `jsbridge` binary next to the test binary, if it has the Storage plugin.
    static let jsbridge: String? = {
        let directory = URL(fileURLWithPath: selfExecutable).deletingLastPathComponent()
        for candidate in [
            directory.appendingPathComponent("jsbridge").path,
            directory.deletingLastPathComponent().appendingPathComponent("jsbridge").path,
        ]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: candidate)
            probe.arguments = [
                "--storage-dir", NSTemporaryDirectory(), "--app-id", "probe", "-e",
                "console.log(typeof bridge.plugins.Storage.getItem === 'function' && 'Storage' in bridge.plugins)",
            ]
            probe.environment = ["SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin"]
            let pipe = Pipe()
            probe.standardOutput = pipe
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { continue }
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            probe.waitUntilExit()
            if String(decoding: output, as: UTF8.self).hasPrefix("true") { return candidate }
        }
        return nil
    }()

    /// A process running `script` (with `ack(key)` defined) on `appID` in `directory`, stdout to a pipe.
    static func start(_ script: String, appID: String, directory: String) throws -> (Process, Pipe) {
        let process = Process()
        var environment = ["SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        if let jsbridge {
            process.executableURL = URL(fileURLWithPath: jsbridge)
            process.arguments = [
                "--app-id", appID, "--storage-dir", directory, "-e",
                "const ack = (key) => console.log(key);\n" + script,
            ]
        } else {
            process.executableURL = URL(fileURLWithPath: selfExecutable)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "StorageWorker"]
            environment[environmentKey] = "1"
            environment["WORKER_APP_ID"] = appID
            environment["WORKER_DIR"] = directory
            environment["WORKER_SCRIPT"] = "const ack = (key) => bridge.execSync('Ack', 'ack', [key]);\n" + script
        }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, pipe)
    }
}

/// The worker side (runs only in a child process started by `Worker.start`).
@Suite struct StorageWorker {
    @Test func run() async {
        let environment = ProcessInfo.processInfo.environment
        guard environment[Worker.environmentKey] == "1", let script = environment["WORKER_SCRIPT"],
            let appID = environment["WORKER_APP_ID"], let directory = environment["WORKER_DIR"]
        else { return }
        let result = await ScriptRunner.run(
            script, plugins: [StoragePlugin(), AckPlugin()],
            options: BridgeHost.Options(storage: StorageLocation(appID: appID, directory: directory)))
        if result.exitCode != 0 { FileHandle.standardError.write(Data(result.stderr.utf8)) }
        exit(result.exitCode)
    }
}

@Suite(.serialized) struct StorageProcessTests {
    @Test func fourProcessesWritingConcurrentlyLoseNothing() async throws {
        let directory = TemporaryDirectory.make(prefix: "storage-procs")
        var workers: [(Process, Pipe)] = []
        for worker in 0..<4 {
            // Half through localStorage (sync), half through the Promise API, all to one app id.
            let script = """
                for (let i = 0; i < 250; i++) localStorage.setItem("w\(worker)-" + i, String(i));
                (async () => {
                  for (let i = 250; i < 500; i++) await Storage.set("w\(worker)-" + i, { i, worker: \(worker) });
                  ack("done");
                })();
                """
            workers.append(try Worker.start(script, appID: "shared", directory: directory))
        }
        for (process, pipe) in workers {
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(output == "done\n")
        }
        let store = try SQLiteKeyValueStore(directory: directory, appID: "shared")
        #expect(try store.count(in: StoragePlugin.localGroup) == 1000)
        #expect(try store.count(in: StoragePlugin.defaultGroup) == 1000)
        var wrong: [String] = []
        for worker in 0..<4 {
            for i in 0..<250 where try store.get("w\(worker)-\(i)", in: "") != String(i) {
                wrong.append("w\(worker)-\(i)")
            }
            for i in 250..<500
            where try store.get("w\(worker)-\(i)", in: "default") != "{\"i\":\(i),\"worker\":\(worker)}" {
                wrong.append("default/w\(worker)-\(i)")
            }
        }
        #expect(wrong == [])
    }

    @Test func killNineKeepsEveryAcknowledgedWrite() async throws {
        let directory = TemporaryDirectory.make(prefix: "storage-kill")
        let script = """
            let i = 0;
            function burst() {
              for (let n = 0; n < 200; n++, i++) {
                localStorage.setItem("k" + i, "value " + i);
                ack("k" + i);
              }
              setTimeout(burst, 0);
            }
            burst();
            """
        let (process, pipe) = try Worker.start(script, appID: "killed", directory: directory)
        // Read acknowledgements until enough arrived, then kill -9 mid-stream.
        var received = Data()
        let handle = pipe.fileHandleForReading
        while received.split(separator: UInt8(ascii: "\n")).count < 2000 {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        received.append(handle.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        // Only complete lines count as acknowledged.
        var text = String(decoding: received, as: UTF8.self)
        if !text.hasSuffix("\n"), let last = text.lastIndex(of: "\n") { text = String(text[...last]) }
        let acknowledged = text.split(separator: "\n").map(String.init)
        #expect(acknowledged.count >= 2000)

        let store = try SQLiteKeyValueStore(directory: directory, appID: "killed")
        var missing: [String] = []
        for key in acknowledged where try store.get(key, in: "") != "value \(key.dropFirst())" { missing.append(key) }
        #expect(missing == [])
        try store.set("after", "reopened", in: "")
    }

    @Test func watchSeesWritesFromAnotherProcess() async throws {
        let directory = TemporaryDirectory.make(prefix: "storage-watch")
        // The watcher: reports the external change, then exits.
        let watcherScript = """
            const w = Storage.watch(Storage.group("prefs"), (e) => {
              ack(JSON.stringify([e.group, e.key, e.value, e.origin]));
              w.remove();
              clearTimeout(stop);
            });
            w.ready.then(() => ack("ready"));
            const stop = setTimeout(() => ack("timeout"), 20000);
            """
        let (watcher, pipe) = try Worker.start(watcherScript, appID: "watched", directory: directory)
        var output = Data()
        while !String(decoding: output, as: UTF8.self).contains("ready\n") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
        }
        let writer = try Worker.start(
            #"Storage.group("prefs").set("theme", { dark: true }).then(() => ack("written"));"#,
            appID: "watched", directory: directory)
        _ = writer.1.fileHandleForReading.readDataToEndOfFile()
        writer.0.waitUntilExit()
        output.append(pipe.fileHandleForReading.readDataToEndOfFile())
        watcher.waitUntilExit()
        #expect(
            String(decoding: output, as: UTF8.self) == "ready\n[\"prefs\",\"theme\",{\"dark\":true},\"external\"]\n")
    }
}
