import Foundation
import HTTPPluginTesting
import JSBridgeTesting
import StoragePluginTesting
import Testing

/// The shared HTTP cache across hosts: `jsbridge` processes in network namespaces made by the test, each its
/// own address, on a PostgreSQL cluster and an origin server of the test's own listening on their bridge.
@Suite(
    .serialized, .blocking,
    .enabled(if: TestHosts.available, "needs root and iproute2 to make network namespaces (hosts)"))
struct SharedCacheHostsTests {
    /// Host A fetches a cacheable URL and host B is served from the entry A stored (the origin counts one
    /// request); then 8 hosts ask at once for another, uncached URL that the origin answers slowly: one
    /// request reaches it, one host gets the network's answer and seven the stored entry.
    @Test func hostsShareOneFetchOfAURL() async throws {
        let hosts = try TestHosts.make(count: 8)
        defer { hosts.remove() }
        let cluster = try TestPostgresCluster.start(fsync: false, network: (hosts.routerAddress, hosts.subnet))
        defer { try? cluster.stop() }
        _ = try cluster.createDatabase("cache")
        let url = cluster.url(database: "cache", host: hosts.routerAddress)
        let server = try await TestHTTPServer.start(host: hosts.routerAddress)
        server.route("/shared") { _ in .json(#"{"v":1}"#, headers: [.init("Cache-Control", "max-age=600")]) }
        server.route("/once") { _ in
            .bytes(
                Array(#"{"v":2}"#.utf8), contentType: "application/json",
                headers: [.init("Cache-Control", "max-age=600")], delay: .seconds(2))
        }
        let appID = "hosts-cache-\(UUID().uuidString.prefix(8))"
        func start(_ path: String, on host: Int) throws -> (Process, Pipe) {
            let script = """
                HTTP.dao({ name: "Doc", baseURL: "\(server.baseURL)", path: "\(path)", cache: "http" }).request()
                  .then((r) => ack(r.source + " " + r.data.v), (e) => ack("error " + e.code + " " + e.message));
                """
            return try AckingProcess.start(
                script,
                arguments: [
                    "--app-id", appID, "--storage-dir", TemporaryDirectory.make(prefix: "hosts-cache"),
                    "--storage-url", url, "--allow-net",
                ], launcher: [TestHosts.ip] + hosts.exec(host, []))
        }
        func answer(_ started: (Process, Pipe)) async throws -> String {
            let (output, status) = try await AckingProcess.finish(started.0, started.1)
            #expect(status == 0, "\(output)")
            return output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        #expect(try await answer(start("/shared", on: 0)) == "network 1")
        #expect(try await answer(start("/shared", on: 1)) == "cache 1")
        #expect(server.requests.filter { $0.path == "/shared" }.count == 1)

        let all = try (0..<8).map { try start("/once", on: $0) }
        var answers: [String] = []
        for started in all { answers.append(try await answer(started)) }
        #expect(
            answers.sorted() == [
                "cache 2", "cache 2", "cache 2", "cache 2", "cache 2", "cache 2", "cache 2", "network 2",
            ])
        #expect(server.requests.filter { $0.path == "/once" }.count == 1)
        try await server.stop()
    }
}
