import Foundation
import JSBridgeTesting
import Testing

// node:net and node:dns through the built binary: a server and a client in one script on loopback, each step
// started by the event before it (no timers), and the `--allow-net` refusals.

@Suite("node:net and node:dns") struct NodeNetTests {
    /// Runs `script` with `grant` (nil: no --allow-net); answers its result, asserting exit code 0.
    private func run(_ script: String, grant: String? = "127.0.0.1") async throws -> RunResult {
        let result = try await CLI.run((grant.map { ["--allow-net=\($0)"] } ?? []) + ["-e", script], timeLimit: 60)
        #expect(result.exitCode == 0, "\(result.summary)")
        return result
    }

    @Test func anEchoServerAndAClientMakeARoundTrip() async throws {
        let result = try await run(
            """
            const net = require("node:net");
            const events = [];
            const server = net.createServer((socket) => {
              events.push(`accepted ${socket.remoteAddress} ${socket.localPort === server.address().port}`);
              socket.on("data", (chunk) => socket.write(chunk));
              socket.on("end", () => events.push("server end"));
              socket.on("close", () => events.push("server close"));
            });
            server.listen(0, "127.0.0.1", () => {
              const { port, family, address } = server.address();
              const client = net.connect(port, "127.0.0.1", () => {
                events.push(`connected ${client.remotePort === port} ${client.remoteAddress} ${typeof client.localPort}`);
                client.setNoDelay(true).setKeepAlive(true);
                client.write("hello ");
                client.end("world");
              });
              let text = "";
              client.setEncoding("utf8");
              client.on("data", (chunk) => text += chunk);
              client.on("end", () => events.push(`client got ${text}`));
              client.on("close", (hadError) => {
                events.push(`client close ${client.bytesWritten} ${client.bytesRead}`);
                server.close(() => {
                  console.log(family, address);
                  console.log(events.join("\\n"));
                });
              });
            });
            """)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "IPv4 127.0.0.1", "\(result.summary)")
        for expected in [
            "accepted 127.0.0.1 true", "connected true 127.0.0.1 number", "client got hello world", "server end",
            "client close 11 11",
        ] {
            #expect(lines.contains(expected), "\(expected): \(result.summary)")
        }
        // The server's 'close' waits for its connection to close.
        #expect(lines.contains("server close"), "\(result.summary)")
    }

    @Test func aSocketThatCannotTakeMoreAnswersFalseAndDrainsWhenThePeerReads() async throws {
        // The server reads nothing until the client's writes are held back; then it reads everything.
        let result = try await run(
            """
            const net = require("node:net");
            let received = 0;
            let written = 0;
            let resumed = false;
            let peer;
            let client;
            let connected = false;
            const server = net.createServer({ pauseOnConnect: true }, (socket) => {
              socket.on("data", (chunk) => received += chunk.length);
              socket.on("end", () => {
                console.log(`received ${received === written}`);
                server.close();
              });
              peer = socket;
              start();
            });
            // Once both ends are there: write until the socket holds the writes back, then let the server read.
            function start() {
              if (peer === undefined || !connected) return;
              const chunk = Buffer.alloc(1024, 120);
              let accepted = true;
              while (accepted) {
                accepted = client.write(chunk);
                written += chunk.length;
              }
              console.log(`false after ${written > 65536 ? "more than 64 KiB" : written} ${client.writableLength >= 16384}`);
              client.once("drain", () => {
                console.log(`drain resumed=${resumed}`);
                client.end();
              });
              resumed = true;
              peer.resume();
            }
            server.listen(0, "127.0.0.1", () => {
              client = net.connect(server.address().port, "127.0.0.1", () => {
                connected = true;
                start();
              });
            });
            """)
        #expect(
            result.stdout == "false after more than 64 KiB true\ndrain resumed=true\nreceived true\n",
            "\(result.summary)")
    }

    @Test func aRefusedConnectionIsECONNREFUSED() async throws {
        let result = try await run(
            """
            const net = require("node:net");
            const probe = net.createServer().listen(0, "127.0.0.1", () => {
              const port = probe.address().port;
              probe.close(() => {
                const socket = net.createConnection({ port, host: "127.0.0.1" });
                socket.on("connect", () => console.log("connected?"));
                socket.on("error", (error) => {
                  console.log(error.code, error.syscall, error.address, error.port === port, error.errno);
                  console.log(error.message === `connect ECONNREFUSED 127.0.0.1:${port}`, socket.destroyed);
                });
              });
            });
            """)
        #expect(result.stdout == "ECONNREFUSED connect 127.0.0.1 true -111\ntrue true\n", "\(result.summary)")
    }

    @Test func listenAndConnectAreRefusedWithoutTheGrant() async throws {
        let script = """
            const net = require("node:net");
            net.createServer().listen(0, "127.0.0.1").on("error", (error) => {
              console.log("listen", error.code);
              net.connect(8, "127.0.0.1").on("error", (error) => console.log("connect", error.code, error.message));
            });
            """
        let none = try await run(script, grant: nil)
        #expect(none.stdout.hasPrefix("listen PERMISSION_DENIED\nconnect PERMISSION_DENIED "), "\(none.summary)")
        #expect(none.stdout.contains("--allow-net=127.0.0.1:8"), "\(none.summary)")
        // A grant for another port covers neither.
        let other = try await run(script, grant: "127.0.0.1:9")
        #expect(other.stdout.hasPrefix("listen PERMISSION_DENIED\nconnect PERMISSION_DENIED "), "\(other.summary)")
    }

    @Test func halfOpenSocketsWriteAfterTheirPeerEnded() async throws {
        // allowHalfOpen: the server answers after the client's end; without it, the server's side ends at once.
        let result = try await run(
            """
            const net = require("node:net");
            function trial(allowHalfOpen, next) {
              const server = net.createServer({ allowHalfOpen }, (socket) => {
                socket.on("end", () => {
                  console.log(`${allowHalfOpen} server end, writable ${socket.writable}`);
                  if (allowHalfOpen) socket.end("late reply");
                });
                socket.resume();
              });
              server.listen(0, "127.0.0.1", () => {
                const client = net.connect({ port: server.address().port, host: "127.0.0.1", allowHalfOpen: true });
                let text = "";
                client.on("data", (chunk) => text += chunk);
                client.on("end", () => {
                  console.log(`${allowHalfOpen} client got [${text}]`);
                  client.end();
                });
                client.on("close", () => server.close(next));
                client.end("ping");
              });
            }
            trial(true, () => trial(false, () => {}));
            """)
        #expect(
            result.stdout
                == "true server end, writable true\ntrue client got [late reply]\nfalse server end, writable true\nfalse client got []\n",
            "\(result.summary)")
    }

    @Test func anIdleSocketTimesOutAndItsPeerHearsTheClose() async throws {
        // The server never reads nor writes: its socket hears the client's destroy as an end, then closes.
        let result = try await run(
            """
            const net = require("node:net");
            const server = net.createServer((socket) => {
              socket.on("close", () => server.close(() => console.log("server closed")));
            });
            server.listen(0, "127.0.0.1", () => {
              // Idle from the connection on: a slow connect on a loaded machine must not count as idle time.
              const client = net.connect(server.address().port, "127.0.0.1", () => {
                client.setTimeout(30, () => {
                  console.log("timeout", client.timeout, client.destroyed, client.readyState);
                  client.destroy();
                });
              });
              client.on("close", () => console.log("close", client.destroyed, client.readyState));
            });
            """)
        // The two sides' closes are separate events, in no fixed order (Node 20 printed the server's first).
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "timeout 30 false open", "\(result.summary)")
        #expect(Set(lines) == ["timeout 30 false open", "close true closed", "server closed"], "\(result.summary)")
    }

    @Test func dnsLooksUpLocalhostAndRefusesANameNotGranted() async throws {
        let result = try await run(
            """
            const dns = require("node:dns");
            dns.lookup("localhost", (error, address, family) => {
              console.log(error, ["127.0.0.1", "::1"].includes(address), family === 4 || family === 6);
              require("dns/promises").lookup("localhost", { all: true, family: 4 }).then((all) => {
                console.log(JSON.stringify(all));
                dns.lookup("example.com", (error) => {
                  console.log(error.code);
                  dns.lookup("10.1.2.3", (error, address, family) => console.log(address, family));
                });
              });
            });
            """, grant: "localhost")
        #expect(
            result.stdout
                == "null true true\n[{\"address\":\"127.0.0.1\",\"family\":4}]\nPERMISSION_DENIED\n10.1.2.3 4\n",
            "\(result.summary)")
    }

    @Test func isIPTellsTheFamilies() async throws {
        let result = try await run(
            """
            const { isIP, isIPv4, isIPv6 } = require("node:net");
            const inputs = ["127.0.0.1", "256.1.1.1", "01.2.3.4", "::1", "::", "fe80::1%eth0", "1:2:3:4:5:6:7:8",
              "1:2:3:4:5:6:7:8:9", "::ffff:1.2.3.4", "1::2::3", "example.com", ""];
            console.log(inputs.map(isIP).join(" "), isIPv4("1.2.3.4"), isIPv6("1.2.3.4"));
            """, grant: nil)
        #expect(result.stdout == "4 0 0 6 6 6 6 0 6 0 0 0 true false\n", "\(result.summary)")
    }
}
