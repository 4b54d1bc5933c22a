// The raw peer of the HTTP benchmark: what a Swift program does without jsbridge. AsyncHTTPClient
// (`HTTPClient.execute`, configured as the HTTP plugin configures its client: redirects off, decompression
// off, no connection-establishment retries, the `.singleton` event-loop group, default pool) collects each
// body and decodes it with Foundation's JSONDecoder into a Codable struct — the same fields and key mapping
// as the `User` model that Benchmarks/http/client.js defines for the jsbridge side.
//
//   http-peer <url> seq  <n> <runs> <warm-up>        n requests one after another
//   http-peer <url> conc <n> <k> <runs> <warm-up>    n requests, k in flight (k workers)
// Prints one JSON line: {"mode", "n", "k", "ms" (best run), "perSec", "runsMs"}.
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import Synchronization

struct User: Codable {
    let id: Int
    let login: String
    let name: String
    let email: String
    let company: String?
    let location: String
    let bio: String
    let publicRepos: Int
    let followers: Int
    let siteAdmin: Bool
    let score: Double
    let createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, login, name, email, company, location, bio, followers, score
        case publicRepos = "public_repos"
        case siteAdmin = "site_admin"
        case createdAt = "created_at"
    }
}

struct PeerError: Error, CustomStringConvertible {
    let description: String
}

@main
struct Peer {
    static func main() async {
        let args = CommandLine.arguments
        func int(_ i: Int) -> Int? { i < args.count ? Int(args[i]) : nil }
        guard args.count >= 6, let n = int(3), n > 0 else {
            fail("usage: http-peer <url> seq <n> <runs> <warm-up> | http-peer <url> conc <n> <k> <runs> <warm-up>")
        }
        let url = args[1], mode = args[2]
        let k: Int, runs: Int, warm: Int
        switch mode {
        case "seq":
            k = 1
            guard let r = int(4), let w = int(5) else { fail("bad arguments") }
            runs = r; warm = w
        case "conc":
            guard args.count >= 7, let kk = int(4), let r = int(5), let w = int(6) else { fail("bad arguments") }
            k = kk; runs = r; warm = w
        default: fail("unknown mode \(mode)")
        }

        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout.connect = .seconds(10)
        configuration.decompression = .disabled
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.tracing.tracer = nil
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let bench = Bench(client: client, url: url)
        do {
            // Warm-up: connections, the pool, first-use paths (both shapes, as the jsbridge side does).
            try await bench.run(n: warm, k: 1)
            if k > 1 { try await bench.run(n: warm, k: k) }
            var times: [Double] = []
            for _ in 0..<max(1, runs) {
                let start = ContinuousClock.now
                try await bench.run(n: n, k: k)
                let elapsed = ContinuousClock.now - start
                times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            }
            try? await client.shutdown()
            let best = times.min()!
            let runsMs = times.map { String(format: "%.2f", $0) }.joined(separator: ",")
            print(
                #"{"mode":"\#(mode)","n":\#(n),"k":\#(k),"ms":\#(String(format: "%.3f", best)),"perSec":\#(String(format: "%.1f", Double(n) / best * 1000)),"runsMs":[\#(runsMs)]}"#
            )
        } catch {
            try? await client.shutdown()
            fail("\(error)")
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("http-peer: \(message)\n".utf8))
        exit(1)
    }
}

final class Bench: Sendable {
    let client: HTTPClient
    let url: String
    let decoder = JSONDecoder()

    init(client: HTTPClient, url: String) {
        self.client = client
        self.url = url
    }

    /// One GET, the body collected and decoded into a `User`.
    func one() async throws -> User {
        let request = HTTPClientRequest(url: url)
        let response = try await client.execute(request, timeout: .seconds(300))
        let body = try await response.body.collect(upTo: 256 * 1024 * 1024)
        guard response.status == .ok else { throw PeerError(description: "HTTP \(response.status.code) from \(url)") }
        return try decoder.decode(User.self, from: body)
    }

    /// n requests with k in flight (k workers taking the next request number until n are done).
    func run(n: Int, k: Int) async throws {
        guard n > 0 else { return }
        if k <= 1 {
            for _ in 0..<n {
                let user = try await one()
                guard user.id == 1296269 else { throw PeerError(description: "unexpected user id \(user.id)") }
            }
            return
        }
        let next = Counter()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<min(k, n) {
                group.addTask {
                    var done = 0
                    while next.take() < n {
                        let user = try await self.one()
                        guard user.id == 1296269 else { throw PeerError(description: "unexpected user id \(user.id)") }
                        done += 1
                    }
                    return done
                }
            }
            var total = 0
            for try await done in group { total += done }
            guard total == n else { throw PeerError(description: "\(total) of \(n) requests completed") }
        }
    }
}

/// The next request number, shared by the workers.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}
