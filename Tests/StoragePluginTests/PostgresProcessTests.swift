import Foundation
import JSBridgeTesting
import StoragePluginTesting
import Testing

@testable import StorageCore
@testable import StoragePlugin

// The built `jsbridge` binary on PostgreSQL: many processes (as on many hosts) sharing one app id, and the
// server killed under a write burst.

enum PostgresWorker {
    /// A `jsbridge` process running `script` (with `ack(text)` printing a line) with `--storage-url url`.
    static func start(_ script: String, appID: String, url: String, config: String? = nil) throws -> (Process, Pipe) {
        var arguments = ["--app-id", appID, "--storage-url", url]
        if let config {
            let file = TemporaryDirectory.make(prefix: "storage-config") + "/config.json"
            try config.write(toFile: file, atomically: true, encoding: .utf8)
            arguments += ["--config", file]
        }
        return try AckingProcess.start(script, arguments: arguments)
    }
}

@Suite(.serialized, .blocking) struct PostgresProcessTests {
    /// 8 processes × 500 `localStorage.setItem`s of 100 bytes against a quota that leaves 300 000 bytes
    /// once the 8 processes' 3-byte barrier entries are in: exactly 3000
    /// are accepted (the rest refused with a QuotaExceededError), every accepted write is stored, the quota is never
    /// exceeded, and each process's watcher sees all 3000 changes (its own as local, the others' as external).
    @Test func eightProcessesShareOneQuotaAndSeeEveryChange() async throws {
        let url = try SharedPostgres.url
        let app = "procs-\(UUID().uuidString)"
        var workers: [(Process, Pipe)] = []
        for worker in 0..<8 {
            let script = """
                const seen = new Map();
                let accepted = 0, refused = 0, other = 0;
                const w = Storage.watch(localStorage, (e) => {
                  seen.set(e.key, e.value);
                  if (seen.size === 3000) finish();
                });
                let finished = false;
                function finish() {
                  if (finished) return;
                  finished = true;
                  clearTimeout(timer);
                  let wrong = 0;
                  for (const [key, value] of seen) if (value !== key + ":" + "v".repeat(93 - key.length)) wrong++;
                  ack(JSON.stringify({ accepted, refused, other, seen: seen.size, wrong }));
                  w.remove();
                }
                const timer = setTimeout(finish, 60000);
                // A barrier: nobody writes before every process's watch is in place.
                const sync = Storage.group("sync");
                async function allReady() {
                  await sync.set("r\(worker)", 1);
                  while ((await sync.keys()).length < 8) await new Promise((r) => setTimeout(r, 20));
                }
                w.ready.then(allReady).then(() => {
                  for (let i = 0; i < 500; i++) {
                    const key = "w\(worker)-" + String(i).padStart(3, "0");
                    try {
                      localStorage.setItem(key, key + ":" + "v".repeat(93 - key.length));
                      accepted++;
                    } catch (e) {
                      if (e.name === "QuotaExceededError") refused++; else { other++; ack("error " + e.code + " " + e.message); }
                    }
                  }
                });
                """
            workers.append(
                try PostgresWorker.start(
                    script, appID: app, url: url, config: #"{"Storage": {"quotaBytes": 300024}}"#))
        }
        var accepted = 0
        var refused = 0
        for (process, pipe) in workers {
            let (output, status) = try await Worker.finish(process, pipe)
            #expect(status == 0, "\(output)")
            struct Report: Decodable { var accepted, refused, other, seen, wrong: Int }
            guard let line = output.split(separator: "\n").last,
                let report = try? JSONDecoder().decode(Report.self, from: Data(line.utf8))
            else {
                Issue.record("no report: \(output)")
                continue
            }
            accepted += report.accepted
            refused += report.refused
            #expect(report.other == 0, "\(output)")
            #expect(report.seen == 3000)
            #expect(report.wrong == 0)
        }
        #expect(accepted == 3000)
        #expect(refused == 1000)
        let store = try PostgresKeyValueStore(url: PostgresURL(url), appID: app, quotaBytes: 300_024)
        #expect(try store.count(in: "") == 3000)
        #expect(try store.usedBytes() == 300_024)
        let entries = try store.entries(in: "")
        #expect(entries.allSatisfy { $0.key.utf8.count + $0.value.utf8.count == 100 })
        #expect(entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } == 300_000)
    }

    /// The server is killed (SIGKILL) in the middle of a write burst and started again: writes made during
    /// the outage wait for it (within `unavailableWaitMs`), and every acknowledged write is in the database.
    @Test func killNineOfTheServerKeepsEveryAcknowledgedWrite() async throws {
        let cluster = try TestPostgresCluster.start()
        defer { try? cluster.stop() }
        let url = try cluster.createDatabase("burst")
        let script = """
            let i = 0;
            function burst() {
              for (let n = 0; n < 100; n++, i++) {
                try {
                  localStorage.setItem("k" + i, "value " + i);
                  ack("k" + i);
                } catch (e) {
                  ack("error " + e.code);
                }
              }
              setTimeout(burst, 0);
            }
            burst();
            """
        let (process, pipe) = try PostgresWorker.start(
            script, appID: "burst", url: url, config: #"{"Storage": {"unavailableWaitMs": 30000}}"#)
        let received = try await runBlocking { () -> Data in
            var received = Data()
            let handle = pipe.fileHandleForReading
            func lines() -> Int { received.split(separator: UInt8(ascii: "\n")).count }
            while lines() < 1000 {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
            }
            try cluster.kill9()
            // An outage of some length: writes made meanwhile wait (unavailableWaitMs) and must land once.
            // The result does not depend on how long it lasts.
            Thread.sleep(forTimeInterval: 1)
            try cluster.restart()
            let target = lines() + 2000
            while lines() < target {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
            }
            kill(process.processIdentifier, SIGKILL)
            received.append(handle.readDataToEndOfFile())
            process.waitUntilExit()
            return received
        }
        var text = String(decoding: received, as: UTF8.self)
        if !text.hasSuffix("\n"), let last = text.lastIndex(of: "\n") { text = String(text[...last]) }
        let lines = text.split(separator: "\n").map(String.init)
        let acknowledged = lines.filter { $0.hasPrefix("k") }
        #expect(lines.filter { $0.hasPrefix("error") } == [])
        #expect(acknowledged.count >= 3000)
        let store = try PostgresKeyValueStore(url: PostgresURL(url), appID: "burst")
        var missing: [String] = []
        for key in acknowledged where try store.get(key, in: "") != "value \(key.dropFirst())" { missing.append(key) }
        #expect(missing == [])
    }
}

/// Where the URL comes from, and what a refused one does to a run.
@Suite(.blocking) struct PostgresConfigurationTests {
    /// Runs `jsbridge arguments…` with `environment`, returning stdout, stderr and the exit status.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> (stdout: String, stderr: String, status: Int32)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AckingProcess.jsbridge)
        process.arguments = arguments
        process.environment = ["SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            .merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return try await runBlocking {
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self),
                process.terminationStatus
            )
        }
    }

    @Test func theFlagWinsOverTheEnvironmentWhichIsUsedAlone() async throws {
        let url = try SharedPostgres.url
        let cluster = try SharedPostgres.cluster
        let app = "env-\(UUID().uuidString)"
        let bad = cluster.url(database: "storage", password: "wrong-password-777")
        let viaEnvironment = try await Self.run(
            [
                "--app-id", app, "-e",
                #"localStorage.setItem("k", "from env"); console.log(bridge.plugins ? "ok" : "ok");"#,
            ],
            environment: [StoragePlugin.urlVariable: url])
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.stderr)")
        let viaFlag = try await Self.run(
            ["--app-id", app, "--storage-url", url, "-e", #"console.log(localStorage.getItem("k"));"#],
            environment: [StoragePlugin.urlVariable: bad])
        #expect(viaFlag.stdout == "from env\n", "\(viaFlag.stderr)")
        #expect(viaFlag.status == 0)
    }

    @Test func aRefusedLoginFailsTheRunWithoutShowingThePassword() async throws {
        let cluster = try SharedPostgres.cluster
        _ = try SharedPostgres.url
        let bad = cluster.url(database: "storage", password: "wrong-password-777")
        let result = try await Self.run(["--storage-url", bad, "-e", #"localStorage.getItem("k");"#])
        #expect(result.status == 1)  // an uncaught error
        #expect(result.stderr.contains("STORAGE_REJECTED"), "\(result.stderr)")
        #expect(result.stderr.contains("password authentication failed"), "\(result.stderr)")
        #expect(!result.stderr.contains("wrong-password-777"))
        let unknown = try await Self.run(
            ["--storage-url", cluster.url(database: "nope"), "-e", #"localStorage.getItem("k");"#])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("STORAGE_REJECTED") && unknown.stderr.contains("\"nope\""), "\(unknown.stderr)")
        let help = try await Self.run(["--help"])
        #expect(help.stdout.contains("--storage-url"))
        let malformed = try await Self.run(["--storage-url", "mysql://u:hunter2@h/db", "-e", "localStorage.length"])
        #expect(malformed.status != 0)
        #expect(!malformed.stderr.contains("hunter2"), "\(malformed.stderr)")
    }
}
