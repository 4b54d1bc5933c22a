/// Everything a plugin declares: its actions, events, capabilities, command-line options, JavaScript
/// files and TypeScript declarations (see ``BridgePlugin/declare(_:)``).
///
/// ```swift
/// static func declare(_ plugin: inout PluginDeclaration<Self>) {
///     plugin.sync("ping", args: Double.self) { _, n in n + 1 }
///     plugin.async("read", args: ReadArguments.self, requires: .sensors) { context, args in
///         try await context.state.read(args.zone)
///     }
///     plugin.stream("watch", args: WatchArguments.self, of: Reading.self) { context, args, out in … }
///     plugin.event("reading", of: Reading.self)
/// }
/// ```
public struct PluginDeclaration<Plugin: BridgePlugin>: Sendable {
    /// The actions by name.
    public internal(set) var actions: [String: ActionDeclaration<Plugin>] = [:]
    /// The events the plugin may emit, by name, with their payload types.
    public internal(set) var events: [String: TypeDescription] = [:]
    /// The capabilities the plugin's actions ask for (declared with ``capability(_:)`` or `requires:`).
    public internal(set) var capabilities: [Capability] = []
    /// The command-line options the plugin contributes.
    public internal(set) var options: [CommandLineOption] = []
    /// The plugin's JavaScript API files.
    public internal(set) var scripts: [PluginScript] = []
    /// Values the plugin's JavaScript reads as `plugin.constants` (``constant(_:_:)``).
    public internal(set) var constants: JSONObject = [:]
    /// TypeScript declarations of the plugin's JavaScript API (written by hand beside its JS files).
    public var typeScript: [String] { typeScriptSources.map { $0() } }
    private var typeScriptSources: [@Sendable () -> String] = []
    /// Mistakes found while declaring (a name used twice, a bad capability name): registration fails.
    public internal(set) var problems: [String] = []
    /// What the plugin does at the run's lifecycle events (``onLifecycle(_:)``).
    public internal(set) var lifecycle: (@Sendable (PluginContext<Plugin>, LifecycleEvent) async -> Void)?

    init() {}

    /// Declares the plugin (``BridgePlugin/declare(_:)``).
    static func of(_ plugin: Plugin.Type) -> Self {
        var declaration = Self()
        Plugin.declare(&declaration)
        return declaration
    }

    // MARK: Capabilities, options, scripts, typings

    /// Declares a capability the plugin checks itself (``PluginContext/require(_:scope:)``), e.g. a scoped one.
    public mutating func capability(_ capability: Capability) {
        guard !capabilities.contains(capability) else { return }
        if !Capability.isValidName(capability.name) {
            problems.append("capability name '\(capability.name)' must be lowercase letters, digits and '-'")
        }
        capabilities.append(capability)
    }

    /// Declares a command-line option whose value sets `setting` in the plugin's configuration section (so
    /// the flag and `--config` share one set of rules): `--sensors-root /x` sets `{"Sensors": {"root": "/x"}}`.
    public mutating func option(
        _ name: String, value valueName: String, setting: String, help: String
    ) {
        if options.contains(where: { $0.name == name }) { problems.append("option '--\(name)' is declared twice") }
        options.append(CommandLineOption(name: name, valueName: valueName, setting: setting, help: help))
    }

    /// Declares a JavaScript API file (see ``PluginScript``).
    public mutating func script(_ script: PluginScript) {
        if scripts.contains(where: { $0.name == script.name }) {
            problems.append("script '\(script.name)' is declared twice")
        }
        scripts.append(script)
    }

    /// Keeps actions `names` for the plugin's own JavaScript (glue its API files call through their `plugin`
    /// handle): they are left out of its typings and of `bridge.plugins`, and a script that calls one by name
    /// gets `ACTION_NOT_FOUND`. ``PluginTester`` still calls them, for the plugin's own tests.
    public mutating func keepPrivate(_ names: String...) {
        for name in names {
            guard actions[name] != nil else {
                problems.append("keepPrivate: no action named '\(name)' is declared (declare it first)")
                continue
            }
            actions[name]?.isPrivate = true
        }
    }

    /// Marks stream actions `names` as background watches: a call holds the run (keeps the process alive) until
    /// its first value, then no longer, as an unref'd timer; when nothing else is left the run ends and the call
    /// is cancelled. For a watch a library starts on its own at start-up (cordova-plugin-network-information's
    /// `getConnectionInfo`), which must neither end before its first answer nor keep every script running.
    public mutating func background(_ names: String...) {
        for name in names {
            guard let action = actions[name] else {
                problems.append("background: no action named '\(name)' is declared (declare it first)")
                continue
            }
            guard action.kind == .stream else {
                problems.append("background: '\(name)' is not a stream action")
                continue
            }
            actions[name]?.isBackground = true
        }
    }

    /// Hears the run's lifecycle events (a CDVPlugin's `onPause`, `onResume`, and the host's hooks around
    /// `deviceready`): ``LifecycleEvent``. `deviceready` waits until every plugin's `beforeDeviceReady` returns
    /// (a plugin with a handler is set up for it, as a Cordova plugin with `onload`); `pause` and `resume` reach
    /// the plugins already set up, before the process stops and after it continues.
    public mutating func onLifecycle(
        _ handler: @escaping @Sendable (PluginContext<Plugin>, LifecycleEvent) async -> Void
    ) {
        if lifecycle != nil { problems.append("onLifecycle is declared twice") }
        lifecycle = handler
    }

    /// Declares a value the plugin's JavaScript files read as `plugin.constants.<name>`: a limit or default
    /// that both sides apply is then written once, in Swift.
    public mutating func constant(_ name: String, _ value: JSONValue) {
        if constants[name] != nil { problems.append("constant '\(name)' is declared twice") }
        constants[name] = value
    }

    /// Adds TypeScript declarations of the plugin's JavaScript API to its typings (`jsbridge --typings`); the
    /// text is read only when typings are written.
    public mutating func typeScript(_ declarations: @autoclosure @escaping @Sendable () -> String) {
        typeScriptSources.append(declarations)
    }

    /// Adds TypeScript declarations given as UTF-8 (an embedded `.d.ts` resource).
    public mutating func typeScript(utf8 declarations: @autoclosure @escaping @Sendable () -> [UInt8]) {
        typeScriptSources.append { String(decoding: declarations(), as: UTF8.self) }
    }

    /// Declares an event the plugin emits (``PluginContext/emit(_:_:)``), with its payload type.
    public mutating func event<E: Encodable & Sendable>(_ name: String, of payload: E.Type = JSONValue.self) {
        if events[name] != nil { problems.append("event '\(name)' is declared twice") }
        events[name] = TypeDescription(E.self)
    }

    // MARK: Actions

    /// A synchronous action: runs on the JS thread and must be cheap.
    @inlinable
    public mutating func sync<A: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String, args: A.Type, requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>, A) throws -> R
    ) {
        add(
            name,
            ActionDeclaration(
                kind: .sync, executor: .concurrent, requires: capability, arguments: A.self, result: R.self,
                body: .sync { cell, json in
                    let context = try cell.now(requiring: capability)
                    return try encodeBridgeResult(try body(context, try decodeArguments(A.self, from: json)))
                }))
    }

    /// An asynchronous action: `async throws` Swift on the executor it declares.
    @inlinable
    public mutating func async<A: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String, args: A.Type, on executor: ActionExecutorChoice = .concurrent,
        requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>, A) async throws -> R
    ) {
        add(
            name,
            ActionDeclaration(
                kind: .async, executor: executor, requires: capability, arguments: A.self, result: R.self,
                body: .replying(A.self, requires: capability) { context, args, reply in
                    // Two statements: the result is gone before the answer is posted, so bytes in it are held
                    // by the answer alone and reach JavaScript without a copy (``Bytes``).
                    let value = try encodeBridgeResult(try await body(context, args))
                    reply.resolve(value)
                }))
    }

    /// A stream action: yields values until it returns, throws, or JavaScript cancels it.
    @inlinable
    public mutating func stream<A: Decodable & Sendable, E: Encodable & Sendable>(
        _ name: String, args: A.Type, of element: E.Type = E.self, on executor: ActionExecutorChoice = .concurrent,
        requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>, A, StreamWriter<E>) async throws -> Void
    ) {
        add(
            name,
            ActionDeclaration(
                kind: .stream, executor: executor, requires: capability, arguments: A.self, result: E.self,
                body: .replying(A.self, requires: capability) { context, args, reply in
                    try await body(context, args, StreamWriter(reply: reply))
                    reply.finish()
                }))
    }

    /// A Cordova-style action that answers through `reply` whenever it likes, with a value of type `R`.
    ///
    /// Releasing `reply` without answering ends the call with `DROPPED`; answering twice is reported
    /// and ignored.
    @inlinable
    public mutating func callback<A: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String, args: A.Type, answers result: R.Type = JSONValue.self,
        on executor: ActionExecutorChoice = .concurrent, requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>, A, CallReply) async -> Void
    ) {
        add(
            name,
            ActionDeclaration(
                kind: .async, executor: executor, requires: capability, arguments: A.self, result: R.self,
                body: .replying(A.self, requires: capability) { context, args, reply in
                    await body(context, args, reply)
                }))
    }

    /// An action that starts on the calling thread as soon as it is called — in a script, the JS thread — and
    /// answers later through `reply`, from any thread: for actions over callback-based I/O (SwiftNIO futures,
    /// C callbacks), which then cost no Swift task per call.
    ///
    /// `body` must return quickly and never block. Cancellation reaches it through ``CallReply/onCancel(_:)``;
    /// releasing `reply` without answering ends the call with `DROPPED`. Scripts call it like an async action.
    @inlinable
    public mutating func start<A: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String, args: A.Type, answers result: R.Type = JSONValue.self, requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>, A, CallReply) -> Void
    ) {
        add(
            name,
            ActionDeclaration(
                kind: .async, executor: .start, requires: capability, arguments: A.self, result: R.self,
                body: .start { cell, json, reply in
                    let context: PluginContext<Plugin>
                    let args: A
                    do {
                        context = try cell.now(requiring: capability)
                        args = try decodeArguments(A.self, from: json)
                    } catch {
                        reply.reject(error)
                        return
                    }
                    body(context, args, reply)
                }))
    }

    @usableFromInline
    mutating func add(_ name: String, _ action: ActionDeclaration<Plugin>) {
        if actions.updateValue(action, forKey: name) != nil { problems.append("action '\(name)' is declared twice") }
        if let capability = action.requires { self.capability(capability) }
    }
}

extension PluginDeclaration {
    /// A synchronous action without arguments.
    @inlinable
    public mutating func sync<R: Encodable & Sendable>(
        _ name: String, requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>) throws -> R
    ) {
        sync(name, args: NoArguments.self, requires: capability) { context, _ in try body(context) }
    }

    /// An asynchronous action without arguments.
    @inlinable
    public mutating func async<R: Encodable & Sendable>(
        _ name: String, on executor: ActionExecutorChoice = .concurrent, requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>) async throws -> R
    ) {
        async(name, args: NoArguments.self, on: executor, requires: capability) { context, _ in
            try await body(context)
        }
    }

    /// A Cordova-style action without arguments.
    @inlinable
    public mutating func callback<R: Encodable & Sendable>(
        _ name: String, answers result: R.Type = JSONValue.self, on executor: ActionExecutorChoice = .concurrent,
        requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>, CallReply) async -> Void
    ) {
        callback(name, args: NoArguments.self, answers: result, on: executor, requires: capability) {
            context, _, reply in await body(context, reply)
        }
    }

    /// A stream action without arguments.
    @inlinable
    public mutating func stream<E: Encodable & Sendable>(
        _ name: String, of element: E.Type = E.self, on executor: ActionExecutorChoice = .concurrent,
        requires capability: Capability? = nil,
        _ body: @escaping @Sendable (PluginContext<Plugin>, StreamWriter<E>) async throws -> Void
    ) {
        stream(name, args: NoArguments.self, of: element, on: executor, requires: capability) { context, _, out in
            try await body(context, out)
        }
    }
}

extension ActionDeclaration.Body {
    /// A body answered through a ``CallReply``: reads the plugin's context (checking `capability`), decodes
    /// the arguments, and rejects the call with whatever either step or `run` throws.
    @inlinable
    static func replying<A: Decodable & Sendable>(
        _ arguments: A.Type, requires capability: Capability?,
        _ run: @escaping @Sendable (PluginContext<Plugin>, A, CallReply) async throws -> Void
    ) -> Self {
        .reply { cell, json, reply in
            do {
                let context = try await cell.awaited(requiring: capability)
                try await run(context, try decodeArguments(A.self, from: json), reply)
            } catch {
                reply.reject(error)
            }
        }
    }
}

/// One declared action of plugin `Plugin`.
public struct ActionDeclaration<Plugin: BridgePlugin>: Sendable {
    /// The action's body, given its plugin's ``ContextCell`` (the context is read there, in code specialised
    /// for the plugin: a call pays no generic lookups).
    @usableFromInline
    enum Body: Sendable {
        case sync(@Sendable (ContextCell<Plugin>, BridgeValue) throws -> BridgeValue)
        case reply(@Sendable (ContextCell<Plugin>, BridgeValue, CallReply) async -> Void)
        /// Runs where the call starts; answers through the reply later (``PluginDeclaration/start(_:args:answers:requires:_:)``).
        case start(@Sendable (ContextCell<Plugin>, BridgeValue, CallReply) -> Void)
    }

    /// How scripts call it.
    public let kind: Action.Kind
    /// Where it runs.
    public let executor: ActionExecutorChoice
    /// The capability checked before it runs.
    public let requires: Capability?
    /// The types of its arguments and of its result (a stream's values).
    public let arguments: TypeDescription, result: TypeDescription
    /// Whether it is glue for the plugin's own JavaScript only (``PluginDeclaration/keepPrivate(_:)``).
    public internal(set) var isPrivate = false
    /// Whether its calls stop holding the run after their first value (``PluginDeclaration/background(_:)``).
    public internal(set) var isBackground = false
    @usableFromInline let body: Body

    @usableFromInline
    init<A: Decodable, R: Encodable>(
        kind: Action.Kind, executor: ActionExecutorChoice, requires: Capability?, arguments: A.Type,
        result: R.Type, body: Body
    ) {
        self.kind = kind
        self.executor = executor
        self.requires = requires
        self.arguments = TypeDescription(arguments: A.self)
        self.result = TypeDescription(R.self)
        self.body = body
    }
}

/// Where an async or stream action runs.
public enum ActionExecutorChoice: Sendable, Hashable {
    /// The shared concurrent pool (default): calls run in parallel.
    case concurrent
    /// The plugin's own serial queue: calls run one at a time, in the order they were made.
    case serial
    /// Executors of the plugin's choosing — e.g. the event loops of the I/O library the action awaits,
    /// so that its completions resume without a thread hop. Each call asks for one; calls run concurrently.
    case custom(CustomExecutor)
    /// Where the call starts (``PluginDeclaration/start(_:args:answers:requires:_:)`` actions).
    case start
}

/// The executors of ``ActionExecutorChoice/custom(_:)``: `next()` gives the one for a new call, and `ended`
/// hears of every such call once it has answered — so a plugin can lend an executor to one call at a time
/// (compared by identity).
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

/// A command-line option contributed by a plugin: `--<name> <value>` sets `setting` in its configuration.
public struct CommandLineOption: Sendable, Hashable {
    /// The long name, without dashes.
    public let name: String
    /// The value's placeholder in `--help`.
    public let valueName: String
    /// The key of the plugin's configuration section that the value sets (a string); a dotted path
    /// (`cache.url`) sets a key of a nested object.
    public let setting: String
    /// One line of `--help`.
    public let help: String
}

/// A JavaScript file of a plugin's API, embedded in the plugin's module and run lazily.
///
/// The file is the body of a function `(runtime, plugin) => { … }`:
/// - `runtime` has what the engine offers plugin code: `defineGlobal(name, value)`, `reportError(error)`,
///   `BridgeError`, `serialize(value)`, `utf8Encode`/`utf8Decode`, `version`;
/// - `plugin` is the plugin's own handle: `name`, `call(action, args, options)`, `execSync(action, args)`,
///   `syncAction(action)` (a fast function of the argument), `subscribe(…)`, `on(event, listener)`, and
///   `shared`, an object the plugin's files share (names listed in ``shares`` are loaded on first read).
///
/// A file that lists ``globals`` runs the first time a script reads one of them and defines them with
/// `runtime.defineGlobal`. A ``module`` file returns its exports, which scripts get with
/// `require("jsbridge:<module>")`.
public struct PluginScript: Sendable {
    /// The file name (in stack traces: `jsbridge:plugin/<Plugin>/<name>`).
    public let name: String
    /// Globals the file defines.
    public let globals: [String]
    /// Names the file adds to `plugin.shared`.
    public let shares: [String]
    /// The module name (`require("jsbridge:<module>")`), when the file is a module.
    public let module: String?
    private let text: @Sendable () -> [UInt8]

    /// The file's UTF-8 text (read when the file first runs, not at start-up).
    public var source: [UInt8] { text() }

    /// A file that defines `globals` (and `shares` names for the plugin's other files) when first read.
    public static func global(
        _ name: String, source: @autoclosure @escaping @Sendable () -> [UInt8], defines globals: [String],
        shares: [String] = []
    ) -> Self {
        Self(name: name, globals: globals, shares: shares, module: nil, text: source)
    }

    /// A file that only adds `shares` names to `plugin.shared`, for the plugin's other files.
    public static func shared(_ name: String, source: @autoclosure @escaping @Sendable () -> [UInt8], shares: [String])
        -> Self
    {
        Self(name: name, globals: [], shares: shares, module: nil, text: source)
    }

    /// A module: the file returns its exports, reachable as `require("jsbridge:<module>")`.
    public static func module(
        _ module: String, file name: String, source: @autoclosure @escaping @Sendable () -> [UInt8]
    )
        -> Self
    {
        Self(name: name, globals: [], shares: [], module: module, text: source)
    }
}
