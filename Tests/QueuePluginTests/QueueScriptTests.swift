import Foundation
import JSBridgeCore
import JSBridgeTesting
import Testing

@testable import QueuePlugin

/// The JavaScript API (queue.js) against the real engine, on a temporary storage directory (SQLite) and on
/// the shared PostgreSQL database.
@Suite(.blocking) struct QueueScriptTests {
    static func run(_ kind: StoreKind, _ code: String) async throws -> ScriptResult {
        var options = BridgeHost.Options.testing()
        if kind == .postgres {
            options.configuration["Queue"] = .object(["url": .string(try SharedQueuePostgres.url)])
            options.storage = StorageLocation(appID: UUID().uuidString, directory: options.storage.directory)
        }
        return await ScriptRunner.run(code, plugins: [QueuePlugin()], options: options, timeout: .seconds(60))
    }

    @Test(arguments: StoreKind.allCases) func enqueueWorkAndStats(kind: StoreKind) async throws {
        let result = try await Self.run(
            kind,
            """
            (async () => {
              const a = await Queue.enqueue("q", { n: 1 });
              const b = await Queue.enqueue("q", { n: 2 }, { key: "k" });
              const c = await Queue.enqueue("q", { n: 3 }, { key: "k" });
              console.log(typeof a, a !== b, b === c);
              console.log(JSON.stringify(await Queue.stats("q")));
              const seen = [];
              const worker = Queue.work("q", async (job) => {
                seen.push(job.payload.n + "@" + job.attempt + "/" + job.maxAttempts);
                if (seen.length === 2) setTimeout(async () => {
                  // The second job is acknowledged after this handler returns: wait for it, not for a time.
                  while ((await Queue.stats("q")).done < 2) await new Promise((r) => setTimeout(r, 10));
                  console.log(seen.join(" "));
                  console.log(JSON.stringify(await Queue.stats("q")));
                  await worker.stop();
                  console.log("stopped", Queue.info().backend, await Queue.purge("q"), (await Queue.stats("q")).done);
                }, 0);
              });
            })();
            """)
        #expect(
            result.lines == [
                "number true true", #"{"ready":2,"delayed":0,"leased":0,"done":0,"dead":0}"#, "1@1/3 2@1/3",
                #"{"ready":0,"delayed":0,"leased":0,"done":2,"dead":0}"#, "stopped \(kind.rawValue) 2 0",
            ], "\(result.stderr)")
    }

    @Test(arguments: StoreKind.allCases) func aRejectingHandlerRetriesThenDies(kind: StoreKind) async throws {
        let result = try await Self.run(
            kind,
            """
            (async () => {
              await Queue.enqueue("q", "p", { attempts: 2, backoff: { type: "fixed", delayMs: 10 } });
              let runs = 0;
              const worker = Queue.work("q", (job) => {
                runs++;
                if (job.attempt === 1) throw new Error("first");
                return Promise.reject(new Error("second"));
              });
              while ((await Queue.stats("q")).dead === 0) await new Promise((r) => setTimeout(r, 20));
              await worker.stop();
              const dead = await Queue.dead("q");
              console.log(runs, dead.length, dead[0].payload, dead[0].attempts, dead[0].error);
            })();
            """)
        #expect(result.lines == ["2 1 p 2 second"], "\(result.stderr)")
    }

    @Test func badArgumentsRejectWithInvalidArgument() async throws {
        let result = try await Self.run(
            .sqlite,
            """
            (async () => {
              for (const f of [
                () => Queue.enqueue("", 1),
                () => Queue.enqueue("q", 1, { attempts: 0 }),
                () => Queue.enqueue("q", 1, { delayMs: -5 }),
                () => Queue.enqueue("q", 1, { backoff: { type: "linear" } }),
                () => Queue.stats(42),
              ]) {
                try { await f(); console.log("resolved"); } catch (e) { console.log(e.code, e.data.issues[0].path); }
              }
              try { Queue.work("q", null); } catch (e) { console.log(e.code); }
            })();
            """)
        #expect(
            result.lines == [
                "INVALID_ARGUMENT name", "INVALID_ARGUMENT attempts", "INVALID_ARGUMENT delayMs",
                "INVALID_ARGUMENT backoff.type", "INVALID_ARGUMENT name", "INVALID_ARGUMENT",
            ], "\(result.stderr)")
    }
}
