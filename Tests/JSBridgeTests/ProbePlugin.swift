import Foundation
import JSBridgeCore
import JSBridgeTesting
import NIOCore
import NIOPosix

/// A plugin that misbehaves on purpose, to test how the bridge copes.
struct ProbePlugin: BridgePlugin {
    static let name = "Probe"
    typealias Configuration = JSONValue

    /// What the plugin observed, for assertions.
    final class Log: Sendable {
        let entries = Locked<[String]>([])
        /// Fired on every entry: what ``wait(until:)`` waits on.
        private let added = TestSignal()
        func add(_ entry: String) {
            entries.withLock { $0.append(entry) }
            added.fire()
        }
        var all: [String] { entries.withLock { $0 } }

        /// Returns once `condition` holds of the entries.
        func wait(until condition: ([String]) -> Bool) async {
            while true {
                let seen = added.count
                if condition(all) { return }
                await added.wait(count: seen + 1)
            }
        }
    }

    let log: Log

    /// The log of the `lent` action's executor (declared once for every Probe, so one log for all of them).
    static let lentLog = Log()

    func setUp(_ context: SetUpContext<Self>) async throws -> Log { log }

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

    static func declare(_ a: inout PluginDeclaration<Self>) {
        a.callback("dropReply") { _, _ in }
        a.callback("answerTwice") { _, reply in
            reply.resolve("first")
            reply.resolve("second")
        }
        a.async("hang") { context in
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                context.state.add("hang cancelled")
                throw error
            }
            return "woke"
        }
        a.async("needsNet", args: String.self) { context, host in
            try context.require(.net, scope: "\(host):443")
            return "connected to \(host)"
        }
        a.async("throwPlain") { _ -> String in
            throw CocoaError(.fileNoSuchFile)
        }
        a.sync("syncThrow") { _ -> Int in
            throw BridgeError(code: "SYNC_BAD", message: "sync failed", data: ["why": "test"])
        }
        a.sync("configuration") { context in context.configuration }
        // Answers once the log has `entry`: a script awaits it to outlive work it cancelled (the runtime ends
        // once nothing is pending, and a cancelled call's task may not have started by then).
        a.async("logged", args: String.self) { context, entry in
            await context.state.wait { $0.contains(entry) }
            return true
        }
        a.async("hotel", args: Hotel.self) { _, hotel in hotel.rooms.map(\.price).reduce(0, +) }
        a.async("serialDelay", args: Delay.self, on: .serial) { context, delay in
            context.state.add("start \(delay.tag)")
            try await Task.sleep(for: .milliseconds(delay.ms))
            context.state.add("end \(delay.tag)")
            return delay.tag
        }
        // Lends the shared pool to each call and logs when the call gives it back.
        let lent = CustomExecutor(
            {
                lentLog.add("lend")
                return ActionExecutor.shared
            },
            ended: { executor in lentLog.add(executor === ActionExecutor.shared ? "ended" : "ended elsewhere") })
        a.async("lent", args: Int.self, on: .custom(lent)) { _, n in
            lentLog.add("run \(n)")
            return n * 2
        }
        // Lends the JS thread's event loop (the bridge asks on the JS thread) to each call.
        let jsThread = CustomExecutor(
            { () -> any TaskExecutor in
                guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return ActionExecutor.shared }
                return LoopExecutor(loop)
            },
            ended: { _ in })
        a.sync("threadID") { _ -> Double in Self.threadID }
        a.sync("echoSync", args: JSONValue.self) { _, value in value }
        a.async("onJSThread", args: Int.self, on: .custom(jsThread)) { _, ms -> JSONValue in
            guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return "not on an event loop" }
            // Waits on that loop: its own timer must wake it while the script awaits the answer.
            try await loop.scheduleTask(in: .milliseconds(Int64(ms))) {}.futureResult.get()
            return ["thread": .number(Self.threadID), "ms": .number(Double(ms))]
        }
        a.event("tick")
        a.async("emit", args: Int.self) { context, count in
            for i in 0..<count { try context.emit("tick", ["i": JSONValue.number(Double(i))]) }
            return count
        }
        a.stream("forever", of: Int.self) { context, out in
            var i = 0
            do {
                while true {
                    try await out.yield(i)
                    i += 1
                    try await Task.sleep(for: .milliseconds(2))
                }
            } catch {
                context.state.add("forever cancelled")
                throw error
            }
        }
        a.async("length", args: String.self) { _, text in text.utf8.count }
    }

    /// The calling thread, as a JSON number.
    static var threadID: Double { Double(UInt(bitPattern: Int(bitPattern: pthread_self()))) }

    func shutdown(_ log: Log) async {
        try? await Task.sleep(for: .milliseconds(20))
        log.add("shutdown")
    }
}

/// A plugin whose set-up fails.
struct BrokenPlugin: BridgePlugin {
    static let name = "Broken"
    static func declare(_ a: inout PluginDeclaration<Self>) {
        a.sync("ok") { _ in true }
    }
    func setUp(_ context: SetUpContext<Self>) async throws {
        throw BridgeError(code: "BROKEN_SETUP", message: "the disk is on fire")
    }
}

/// A plugin whose first set-up fails; `ok` answers the number of the set-up that made its state.
struct FlakySetUpPlugin: BridgePlugin {
    static let name = "Flaky"
    let attempts = Locked(0)
    static func declare(_ a: inout PluginDeclaration<Self>) {
        a.async("ok") { context in context.state }
    }
    func setUp(_ context: SetUpContext<Self>) async throws -> Int {
        let attempt = attempts.withLock { value in
            value += 1
            return value
        }
        if attempt == 1 { throw BridgeError(code: "FLAKY_SETUP", message: "not yet") }
        return attempt
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
