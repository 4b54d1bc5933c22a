import Foundation
import JSBridgeBase
import JSBridgeCore
import JSBridgeTesting
import QueueCore
import Testing

@testable import QueuePlugin

/// The stored log behind cross-process channels, on both stores.
@Suite(.blocking) struct ChannelLogTests {
    @Test(arguments: StoreKind.allCases) func postsAreReadInOrderSkippingTheReadersOwn(kind: StoreKind) throws {
        let log = try #require(try kind.make() as? any ChannelLog)
        #expect(try log.lastSeq() == 0)
        let first = try log.post(channel: "c", sender: "a", data: "1", now: 0)
        _ = try log.post(channel: "other", sender: "a", data: "x", now: 0)
        _ = try log.post(channel: "c", sender: "b", data: "2", now: 0)
        let last = try log.post(channel: "c", sender: "a", data: "3", now: 0)
        #expect(try log.lastSeq() == last)
        let forB = try log.read(channel: "c", after: 0, excluding: "b", limit: 10)
        #expect(forB.messages.map(\.data) == ["1", "3"])
        #expect(forB.through == last)
        let forA = try log.read(channel: "c", after: first, excluding: "a", limit: 10)
        #expect(forA.messages.map(\.data) == ["2"])
        let limited = try log.read(channel: "c", after: 0, excluding: "z", limit: 2)
        #expect(limited.messages.map(\.data) == ["1", "2"])
        #expect(
            try log.read(channel: "c", after: limited.through, excluding: "z", limit: 2).messages.map(\.data) == ["3"])
    }
}

/// `BroadcastChannel` in one process: the web standard's behaviour.
@Suite(.blocking) struct BroadcastChannelScriptTests {
    @Test(arguments: StoreKind.allCases) func deliversClonesToTheOtherChannelsOfTheName(kind: StoreKind) async throws {
        let result = try await QueueScriptTests.run(
            kind,
            """
            const a = new BroadcastChannel("c"), b = new BroadcastChannel("c"), c = new BroadcastChannel("d");
            const closed = new BroadcastChannel("c");
            closed.close();
            closed.onmessage = () => console.log("closed channel got a message");
            a.onmessage = () => console.log("the sender got its own message");
            c.onmessage = () => console.log("another name got it");
            const cyclic = { name: "cycle" };
            cyclic.self = cyclic;
            const sent = new Map([["k", { d: new Date(5), u: new Uint8Array([1, 2]), big: 10n, z: -0, nan: NaN, u2: undefined }]]);
            let got = 0;
            b.addEventListener("message", (e) => {
              got++;
              if (got === 1) {
                const v = e.data.get("k");
                console.log(e instanceof MessageEvent, e.data !== sent, v.d.getTime(), v.u[1], v.big === 10n, Object.is(v.z, -0),
                  Number.isNaN(v.nan), "u2" in v && v.u2 === undefined);
              } else {
                console.log(e.data.self === e.data, e.data.name, String(b), b.name);
                a.close(); b.close(); c.close();
              }
            });
            a.postMessage(sent);
            a.postMessage(cyclic);
            for (const bad of [() => 1, Symbol("s")]) {
              try { a.postMessage(bad); } catch (e) { console.log(e.name); }
            }
            try { closed.postMessage(1); } catch (e) { console.log(e.name); }
            """)
        #expect(
            result.lines == [
                "DataCloneError", "DataCloneError", "InvalidStateError", "true true 5 2 true true true true",
                "true cycle [object BroadcastChannel] c",
            ], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }
}

/// 3 `jsbridge` processes × 200 messages on one channel (one SQLite file, or one PostgreSQL database as on
/// 3 hosts): each process gets every other process's messages once, in that sender's order.
@Suite(.serialized, .blocking) struct BroadcastProcessTests {
    @Test(arguments: StoreKind.allCases) func everyMessageReachesEveryOtherProcessOnceInOrder(kind: StoreKind)
        async throws
    {
        let processes = 3
        let count = 200
        let directory = TemporaryDirectory.make(prefix: "broadcast-procs")
        let appID = "bc-\(UUID().uuidString.prefix(8))"
        let url: String? = kind == .postgres ? try SharedQueuePostgres.url : nil
        var workers: [(Process, Pipe)] = []
        for index in 0..<processes {
            let script = broadcastParticipant(
                me: index, peers: processes, count: count, channel: "bench", timeoutMs: 60000)
            workers.append(try QueueProcess.start(script, appID: appID, directory: directory, url: url))
        }
        for (index, (process, pipe)) in workers.enumerated() {
            let (output, status) = try await QueueProcess.finish(process, pipe)
            #expect(status == 0, "\(output)")
            let others = (0..<processes).filter { $0 != index }.map { "[\($0),\(count)]" }.joined(separator: ",")
            #expect(output == "posting\n{\"me\":\(index),\"bad\":0,\"from\":[\(others)]}\n")
        }
    }
}

/// A BroadcastChannel participant for the multi-process tests: it says hello (again to every newcomer) and posts
/// `count` numbered messages once it knows every peer, so every peer's channel was open before the first; it
/// acks `posting` then, and at the end a JSON summary of what it received (`bad`: messages out of order), or
/// `timeout …` and exit code 3 after `timeoutMs`.
func broadcastParticipant(me: Int, peers: Int, count: Int, channel: String, timeoutMs: Int) -> String {
    """
    const me = \(me), peers = \(peers), count = \(count);
    const ch = new BroadcastChannel("\(channel)");
    const known = new Set([me]);
    const seen = new Map();
    let timer;
    let bad = 0, started = false;
    function check() {
      if (!started && known.size === peers) {
        started = true;
        ack("posting");
        for (let i = 0; i < count; i++) ch.postMessage({ from: me, i });
      }
      let total = 0;
      for (const n of seen.values()) total += n;
      if (started && total === (peers - 1) * count) {
        ack(JSON.stringify({ me, bad, from: [...seen.entries()].sort() }));
        clearTimeout(timer);
        ch.close();
      }
    }
    ch.onmessage = ({ data }) => {
      if (data.hello !== undefined) {
        if (!known.has(data.hello)) { known.add(data.hello); ch.postMessage({ hello: me }); }
      } else {
        const next = seen.get(data.from) ?? 0;
        if (data.i !== next) bad++;
        seen.set(data.from, next + 1);
      }
      check();
    };
    ch.postMessage({ hello: me });
    timer = setTimeout(() => { ack("timeout " + JSON.stringify([...seen.entries()])); process.exit(3); }, \(timeoutMs));
    """
}
