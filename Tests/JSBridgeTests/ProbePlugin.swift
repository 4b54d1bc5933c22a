import Foundation
import JSBridgeCore
import NIOCore
import NIOPosix
import Synchronization

/// A plugin that misbehaves on purpose, to test how the bridge copes.
struct ProbePlugin: BridgePlugin {
    static let name = "Probe"

    /// What the plugin observed, for assertions.
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    let log: Log

    struct Room: Codable, Sendable {
        var name: String
        var price: Double
    }

    struct Hotel: Codable, Sendable {
        var rooms: [Room]
    }

    struct Delay: Decodable, Sendable {
        var ms: Int
        var tag: String
    }

    func actions(_ a: inout ActionTable) {
        a.callback("dropReply") { _, _ in }
        a.callback("answerTwice") { _, reply in
            reply.resolve("first")
            reply.resolve("second")
        }
        a.async("hang") { [log] _ in
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                log.add("hang cancelled")
                throw error
            }
            return "woke"
        }
        a.async("needsNet", args: String.self) { context, host in
            try context.require(.net(host: host, port: 443))
            return "connected to \(host)"
        }
        a.async("throwPlain") { _ -> String in
            throw CocoaError(.fileNoSuchFile)
        }
        a.sync("syncThrow") { _ -> Int in
            throw BridgeError(code: "SYNC_BAD", message: "sync failed", data: ["why": "test"])
        }
        a.sync("configuration") { context in context.configuration }
        a.async("hotel", args: Hotel.self) { _, hotel in hotel.rooms.map(\.price).reduce(0, +) }
        a.async("serialDelay", args: Delay.self, on: .serial) { [log] _, delay in
            log.add("start \(delay.tag)")
            try await Task.sleep(for: .milliseconds(delay.ms))
            log.add("end \(delay.tag)")
            return delay.tag
        }
        // Lends the shared pool to each call and logs when the call gives it back.
        let lent = ActionTable.CustomExecutor(
            { [log] in
                log.add("lend")
                return ActionExecutor.shared
            },
            ended: { [log] executor in log.add(executor === ActionExecutor.shared ? "ended" : "ended elsewhere") })
        a.async("lent", args: Int.self, on: .custom(lent)) { [log] _, n in
            log.add("run \(n)")
            return n * 2
        }
        // Lends the JS thread's event loop (the bridge asks on the JS thread) to each call.
        let jsThread = ActionTable.CustomExecutor(
            { () -> any TaskExecutor in
                guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return ActionExecutor.shared }
                return LoopExecutor(loop)
            },
            ended: { _ in })
        a.sync("threadID") { _ -> Double in Self.threadID }
        a.async("onJSThread", args: Int.self, on: .custom(jsThread)) { _, ms -> JSONValue in
            guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return "not on an event loop" }
            // Waits on that loop: its own timer must wake it while the script awaits the answer.
            try await loop.scheduleTask(in: .milliseconds(Int64(ms))) {}.futureResult.get()
            return ["thread": .number(Self.threadID), "ms": .number(Double(ms))]
        }
        a.async("emit", args: Int.self) { context, count in
            for i in 0..<count { try context.emit("tick", ["i": JSONValue.number(Double(i))]) }
            return count
        }
        a.stream("forever") { [log] _, out in
            var i = 0
            do {
                while true {
                    try await out.yield(i)
                    i += 1
                    try await Task.sleep(for: .milliseconds(2))
                }
            } catch {
                log.add("forever cancelled")
                throw error
            }
        }
        a.async("length", args: String.self) { _, text in text.utf8.count }
    }

    /// The calling thread, as a JSON number.
    static var threadID: Double { Double(UInt(bitPattern: Int(bitPattern: pthread_self()))) }

    func shutdown() async {
        try? await Task.sleep(for: .milliseconds(20))
        log.add("shutdown")
    }
}

/// A plugin whose set-up fails.
struct BrokenPlugin: BridgePlugin {
    static let name = "Broken"
    func actions(_ a: inout ActionTable) {
        a.sync("ok") { _ in true }
    }
    func setUp(_ context: PluginContext) async throws {
        throw BridgeError(code: "BROKEN_SETUP", message: "the disk is on fire")
    }
}

/// Runs a task's jobs on one NIO event loop.
final class LoopExecutor: TaskExecutor {
    let loop: any EventLoop
    init(_ loop: any EventLoop) { self.loop = loop }
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
