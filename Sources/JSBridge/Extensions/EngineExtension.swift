import CJavaScriptCore
import JSBridgeCore

/// One of the runtime's own subsystems — web APIs, Node's built-ins, the module loaders, Cordova, the REPL —
/// declared in one place, as a plugin is: its JavaScript files, the natives they call, the `internal` names
/// they provide, the extensions whose names they use, and its options (docs/architecture.md, "Engine
/// extensions").
///
/// A runtime is the host plus a list of extensions plus a list of plugins. The extensions live in their own
/// modules (`JSBridgeWeb`'s ``web``, `JSBridgeNode`'s `node`, …); `jsbridge` has all of them:
///
/// ```swift
/// let runtime = JSRuntime(host: host, extensions: [.web], options: RuntimeOptions())
/// ```
public struct EngineExtension: Sendable {
    /// The extension's name (`web`, `node`, …): its folder, its declarations' file, its section in errors.
    public let name: String
    /// The extensions whose natives and `internal` names this one uses: a runtime must have them too.
    public let requires: [String]
    /// The command-line switches it contributes (`--cordova`), each also a key of `--config`.
    public let options: [ExtensionOption]
    /// The capabilities its natives check (the node extension's `run`), granted as plugins' are: a flag
    /// `--allow-<name>`, `--allow-all`, `--config`'s `"allow"`.
    public let capabilities: [Capability]
    /// Its JavaScript files, in the order the eager ones run.
    package let scripts: [ExtensionScript]
    /// Its natives' names and TypeScript signatures (for its `natives.d.ts`).
    package let natives: [NativeSignature]
    /// `internal` names a plugin's JavaScript reads as `runtime.<name>` (the web APIs as the runtime loaded them).
    package let pluginRuntimeNames: [String]
    /// Makes the extension's state for one runtime and its natives' bodies over that state, handing each to
    /// `define` as soon as it is made (a value held only in a Swift array is no root for the collector, and
    /// making the next one may collect).
    let install: @Sendable (ExtensionHost, _ define: (_ name: String, _ value: JSValueRef) -> Void) -> Void

    /// Declares an extension whose natives share a `State` made once per runtime by `state` (on the JS thread,
    /// when the runtime starts).
    package init<State>(
        _ name: String, requires: [EngineExtension] = [], state: @escaping @Sendable (ExtensionHost) -> State,
        declare: (inout ExtensionDeclaration<State>) -> Void
    ) {
        var declaration = ExtensionDeclaration<State>()
        declare(&declaration)
        self.name = name
        self.requires = requires.map(\.name)
        options = declaration.options
        capabilities = declaration.capabilities
        scripts = declaration.scripts
        natives = declaration.natives.map { NativeSignature(name: $0.name, signature: $0.signature) }
        pluginRuntimeNames = declaration.pluginRuntimeNames
        let bodies = declaration.natives
        install = { host, define in
            let state = state(host)
            for native in bodies {
                switch native.body {
                case .function(let body):
                    define(native.name, host.engine.makeFunction { call throws(NativeError) in try body(call, state) })
                case .value(let make):
                    define(native.name, make(host.engine, state))
                }
            }
        }
    }

    /// Whether one of its files provides `internal.<name>` (a lazy file declares what it provides).
    package func provides(_ name: String) -> Bool {
        scripts.contains {
            guard case .lazy(_, let internals) = $0.loading else { return false }
            return internals.contains(name)
        }
    }

    /// Declares an extension without state of its own.
    package init(
        _ name: String, requires: [EngineExtension] = [], declare: (inout ExtensionDeclaration<Void>) -> Void
    ) {
        self.init(name, requires: requires, state: { _ in () }, declare: declare)
    }
}

/// A command-line switch an engine extension contributes: `--<name>` on the command line, `"<name>": true` in
/// `--config`. Its value reaches the extension as ``ExtensionHost/option(_:)`` and its JavaScript as
/// `internal.startup.options[name]`.
public struct ExtensionOption: Sendable, Equatable {
    /// The switch's name, without the dashes.
    public let name: String
    /// One line for `--help`.
    public let help: String

    /// A switch that is off unless given.
    package static func flag(_ name: String, help: String) -> Self { Self(name: name, help: help) }
}

/// A native's name and its TypeScript signature as a member of `internal`: a method's (`"(id: number): void"`)
/// or a value's type (`": JSBridgeStartup"`).
package struct NativeSignature: Sendable, Equatable {
    package let name: String
    package let signature: String
}

/// One JavaScript file of an engine extension: the body of a function `(internal) => { … }`.
package struct ExtensionScript: Sendable {
    /// When the file runs.
    package enum Loading: Sendable, Equatable {
        /// At start-up, in the order the runtime's extensions and their files are declared.
        case eager
        /// The first time one of these globals or `internal` names is read (each is an accessor until then).
        case lazy(globals: [String], internals: [String])
        /// When another file loads it by name (`internal.load(name)`).
        case onDemand
    }

    /// The file's name, unique in a runtime (its `jsbridge:internal/<name>` source URL).
    package let name: String
    package let loading: Loading
    /// The extension's switch this entry needs on (``ExtensionOption``), or nil: always.
    package let condition: String?
    /// The file's UTF-8 text (read only when the file runs).
    package let source: @Sendable () -> [UInt8]

    /// A file that runs at start-up.
    package static func eager(_ name: String, _ source: @autoclosure @escaping @Sendable () -> [UInt8]) -> Self {
        Self(name: name, loading: .eager, condition: nil, source: source)
    }

    /// A file that runs when a script first reads one of `globals`, or another file one of `internals`.
    package static func lazy(
        _ name: String, _ source: @autoclosure @escaping @Sendable () -> [UInt8], globals: [String] = [],
        internals: [String] = []
    ) -> Self {
        Self(name: name, loading: .lazy(globals: globals, internals: internals), condition: nil, source: source)
    }

    /// A file that runs when another file loads it by name.
    package static func onDemand(_ name: String, _ source: @autoclosure @escaping @Sendable () -> [UInt8]) -> Self {
        Self(name: name, loading: .onDemand, condition: nil, source: source)
    }

    /// This entry only when the extension's switch `option` is on.
    package func when(_ option: String) -> Self {
        Self(name: name, loading: loading, condition: option, source: source)
    }
}

/// What an engine extension declares (``EngineExtension/init(_:requires:state:declare:)``).
package struct ExtensionDeclaration<State> {
    /// A native of the extension: a function on `internal`, given the extension's state, or a value made once
    /// per runtime.
    package struct Native {
        enum Body {
            case function(@Sendable (NativeCall, State) throws(NativeError) -> JSValueRef?)
            case value(@Sendable (JSEngine, State) -> JSValueRef)
        }
        let name: String
        let signature: String
        let body: Body
    }

    package private(set) var scripts: [ExtensionScript] = []
    package private(set) var natives: [Native] = []
    /// The names declared so far, for the debug builds' check of repeats.
    private var nativeNames: Set<String> = []
    package private(set) var options: [ExtensionOption] = []
    package private(set) var capabilities: [Capability] = []
    package private(set) var pluginRuntimeNames: [String] = []

    /// Declares a JavaScript file.
    package mutating func script(_ script: ExtensionScript) {
        scripts.append(script)
    }

    /// Declares native `name`: `internal.<name>`, typed `signature` for the extension's JavaScript (its
    /// `natives.d.ts` is written from these).
    package mutating func native(
        _ name: String, _ signature: String,
        _ body: @escaping @Sendable (NativeCall, State) throws(NativeError) -> JSValueRef?
    ) {
        add(Native(name: name, signature: signature, body: .function(body)))
    }

    /// Declares native value `name` of TypeScript type `type`, made once per runtime (`internal.<name>`).
    package mutating func value(
        _ name: String, type: String, _ make: @escaping @Sendable (JSEngine, State) -> JSValueRef
    ) {
        add(Native(name: name, signature: ": " + type, body: .value(make)))
    }

    private mutating func add(_ native: Native) {
        // A mistake in the package's own extensions (this API is `package`), caught in debug builds, where the
        // test suite runs: the check cost every release start-up ~1M instructions of hashing for ~400 names.
        assert(nativeNames.insert(native.name).inserted, "native '\(native.name)' is declared twice")
        natives.append(native)
    }

    /// Declares a command-line switch (``ExtensionOption``).
    package mutating func option(_ option: ExtensionOption) {
        options.append(option)
    }

    /// Declares a capability the extension's natives check (``ExtensionHost/permissions``); the command line
    /// offers its flag as it does the plugins'.
    package mutating func capability(_ capability: Capability) {
        if !capabilities.contains(capability) { capabilities.append(capability) }
    }

    /// Offers `internal` names to plugins' JavaScript as `runtime.<name>` (read when first used).
    package mutating func exposeToPlugins(_ names: String...) {
        pluginRuntimeNames += names
    }
}
