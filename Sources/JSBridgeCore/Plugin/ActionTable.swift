/// The explicit table of a plugin's actions: each sync, async or stream (DESIGN §4).
public struct ActionTable: Sendable {
    /// Where an async or stream action runs.
    public enum Executor: Sendable, Hashable {
        /// The shared concurrent pool (default): calls run in parallel.
        case concurrent
        /// The plugin's own serial queue: calls run one at a time, in the order they were made.
        case serial
        /// Executors of the plugin's choosing — e.g. the event loops of the I/O library the action awaits,
        /// so that its completions resume without a thread hop. Each call asks for one; calls run concurrently.
        case custom(CustomExecutor)
    }

    /// The executors of ``Executor/custom(_:)``: `next()` gives the one for a new call, and `ended` hears of
    /// every such call once it has answered — so a plugin can lend an executor to one call at a time (compared
    /// by identity).
    public final class CustomExecutor: Sendable, Hashable {
        public let next: @Sendable () -> any TaskExecutor
        public let ended: @Sendable (any TaskExecutor) -> Void

        public init(
            _ next: @escaping @Sendable () -> any TaskExecutor,
            ended: @escaping @Sendable (any TaskExecutor) -> Void = { _ in }
        ) {
            self.next = next
            self.ended = ended
        }

        public static func == (lhs: CustomExecutor, rhs: CustomExecutor) -> Bool { lhs === rhs }
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    @usableFromInline private(set) var entries: [String: Action] = [:]
    @usableFromInline private(set) var duplicates: [String] = []

    init() {}

    /// A synchronous action: runs on the JS thread and must be cheap.
    @inlinable
    public mutating func sync<A: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String, args: A.Type,
        _ body: @escaping @Sendable (PluginContext, A) throws -> R
    ) {
        add(
            name,
            Action(
                kind: .sync, executor: .concurrent,
                body: .sync { context, json in
                    try encodeResult(try body(context, try decodeArguments(A.self, from: json)))
                }))
    }

    /// An asynchronous action: `async throws` Swift on the executor it declares.
    @inlinable
    public mutating func async<A: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String, args: A.Type, on executor: Executor = .concurrent,
        _ body: @escaping @Sendable (PluginContext, A) async throws -> R
    ) {
        add(
            name,
            Action(
                kind: .async, executor: executor,
                body: .reply { context, json, reply in
                    do {
                        let args = try decodeArguments(A.self, from: json)
                        reply.resolve(try encodeResult(try await body(context, args)))
                    } catch {
                        reply.reject(error)
                    }
                }))
    }

    /// A stream action: yields values until it returns, throws, or JavaScript cancels it.
    @inlinable
    public mutating func stream<A: Decodable & Sendable, E: Encodable & Sendable>(
        _ name: String, args: A.Type, of element: E.Type = E.self,
        on executor: Executor = .concurrent,
        _ body: @escaping @Sendable (PluginContext, A, StreamWriter<E>) async throws -> Void
    ) {
        add(
            name,
            Action(
                kind: .stream, executor: executor,
                body: .reply { context, json, reply in
                    do {
                        let args = try decodeArguments(A.self, from: json)
                        try await body(context, args, StreamWriter(reply: reply))
                        reply.finish()
                    } catch {
                        reply.reject(error)
                    }
                }))
    }

    /// A Cordova-style action that answers through `reply` whenever it likes.
    ///
    /// Releasing `reply` without answering ends the call with `DROPPED`; answering twice is reported
    /// and ignored.
    @inlinable
    public mutating func callback<A: Decodable & Sendable>(
        _ name: String, args: A.Type, on executor: Executor = .concurrent,
        _ body: @escaping @Sendable (PluginContext, A, CallReply) async -> Void
    ) {
        add(
            name,
            Action(
                kind: .async, executor: executor,
                body: .reply { context, json, reply in
                    do {
                        await body(context, try decodeArguments(A.self, from: json), reply)
                    } catch {
                        reply.reject(error)
                    }
                }))
    }

    /// An action that starts on the calling thread as soon as it is called — in a script, the JS thread — and
    /// answers later through `reply`, from any thread: for actions over callback-based I/O (SwiftNIO futures,
    /// C callbacks), which then cost no Swift task per call.
    ///
    /// `body` must return quickly and never block. Cancellation reaches it through ``CallReply/onCancel(_:)``;
    /// releasing `reply` without answering ends the call with `DROPPED`. Scripts call it like an async action.
    @inlinable
    public mutating func start<A: Decodable & Sendable>(
        _ name: String, args: A.Type, _ body: @escaping @Sendable (PluginContext, A, CallReply) -> Void
    ) {
        add(
            name,
            Action(
                kind: .async, executor: .concurrent,
                body: .start { context, json, reply in
                    let args: A
                    do {
                        args = try decodeArguments(A.self, from: json)
                    } catch {
                        reply.reject(error)
                        return
                    }
                    body(context, args, reply)
                }))
    }

    @usableFromInline
    mutating func add(_ name: String, _ action: Action) {
        if entries.updateValue(action, forKey: name) != nil { duplicates.append(name) }
    }
}

extension ActionTable {
    /// A synchronous action without arguments.
    @inlinable
    public mutating func sync<R: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (PluginContext) throws -> R
    ) {
        sync(name, args: NoArguments.self) { context, _ in try body(context) }
    }

    /// An asynchronous action without arguments.
    @inlinable
    public mutating func async<R: Encodable & Sendable>(
        _ name: String, on executor: Executor = .concurrent,
        _ body: @escaping @Sendable (PluginContext) async throws -> R
    ) {
        async(name, args: NoArguments.self, on: executor) { context, _ in try await body(context) }
    }

    /// A stream action without arguments.
    @inlinable
    public mutating func stream<E: Encodable & Sendable>(
        _ name: String, of element: E.Type = E.self, on executor: Executor = .concurrent,
        _ body: @escaping @Sendable (PluginContext, StreamWriter<E>) async throws -> Void
    ) {
        stream(name, args: NoArguments.self, of: element, on: executor) { context, _, out in
            try await body(context, out)
        }
    }

    /// A Cordova-style action without arguments.
    @inlinable
    public mutating func callback(
        _ name: String, on executor: Executor = .concurrent,
        _ body: @escaping @Sendable (PluginContext, CallReply) async -> Void
    ) {
        callback(name, args: NoArguments.self, on: executor) { context, _, reply in await body(context, reply) }
    }
}

/// One type-erased action of a plugin.
public struct Action: Sendable {
    /// How an action is called.
    public enum Kind: String, Sendable {
        case sync, async, stream
    }

    @usableFromInline
    enum Body: Sendable {
        case sync(@Sendable (PluginContext, JSONValue) throws -> JSONValue)
        case reply(@Sendable (PluginContext, JSONValue, CallReply) async -> Void)
        /// Runs where the call starts; answers through the reply later (``ActionTable/start(_:args:_:)``).
        case start(@Sendable (PluginContext, JSONValue, CallReply) -> Void)
    }

    public let kind: Kind
    public let executor: ActionTable.Executor
    @usableFromInline let body: Body

    @usableFromInline
    init(kind: Kind, executor: ActionTable.Executor, body: Body) {
        self.kind = kind
        self.executor = executor
        self.body = body
    }
}

/// Where a stream action writes its values.
public struct StreamWriter<Element: Encodable & Sendable>: Sendable {
    @usableFromInline let reply: CallReply

    @usableFromInline
    init(reply: CallReply) { self.reply = reply }

    /// Sends one value to JavaScript; throws `CancellationError` once the stream was cancelled.
    ///
    /// When the script is ``CallState/window`` values behind, this waits for it to catch up, so a fast
    /// producer cannot fill memory.
    public func yield(_ value: Element) async throws {
        while reply.state.isBehind {
            if reply.isCancelled { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
        if reply.isCancelled || Task.isCancelled { throw CancellationError() }
        reply.yield(try encodeResult(value))
    }

    /// Whether JavaScript cancelled the stream.
    public var isCancelled: Bool { reply.isCancelled || Task.isCancelled }
}
