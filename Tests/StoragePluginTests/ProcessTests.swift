import Foundation
import JSBridgeCore
import JSBridgeTesting
import Testing

@testable import StorageCore
@testable import StoragePlugin

// Reliability with real processes on one database: concurrent writers, kill -9 mid-stream.
//
// A worker is the built `jsbridge` binary (``BuiltBinary``; it registers the Storage plugin) running a
// script against a given app id and storage directory. The script calls `ack(key)` after each acknowledged
// write, which prints the key on stdout.

enum Worker {
    /// A process running `script` (with `ack(key)` defined) on `appID` in `directory`, stdout to a pipe.
    static func start(_ script: String, appID: String, directory: String) throws -> (Process, Pipe) {
        try AckingProcess.start(script, arguments: ["--app-id", appID, "--storage-dir", directory])
    }

    /// Waits (off the cooperative pool) for the rest of `pipe`'s output and the process's exit.
    static func finish(_ process: Process, _ pipe: Pipe) async throws -> (output: String, status: Int32) {
        try await AckingProcess.finish(process, pipe)
    }
}

@Suite(.serialized, .blocking) struct StorageProcessTests {
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
            let (output, status) = try await Worker.finish(process, pipe)
            #expect(status == 0)
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
        // Read acknowledgements until enough arrived, then kill -9 mid-stream (all off the cooperative pool).
        let received = try await runBlocking { () -> Data in
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
            return received
        }
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
        let ready = try await runBlocking { () -> String in
            var output = Data()
            while !String(decoding: output, as: UTF8.self).contains("ready\n") {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                output.append(chunk)
            }
            return String(decoding: output, as: UTF8.self)
        }
        let writer = try Worker.start(
            #"Storage.group("prefs").set("theme", { dark: true }).then(() => ack("written"));"#,
            appID: "watched", directory: directory)
        _ = try await Worker.finish(writer.0, writer.1)
        let (rest, _) = try await Worker.finish(watcher, pipe)
        #expect(ready + rest == "ready\n[\"prefs\",\"theme\",{\"dark\":true},\"external\"]\n")
    }
}
