import CInspector
import CJavaScriptCore
import JSBridge
import Synchronization

/// The debugger behind `--inspect`, `--inspect-wait` and `--inspect-brk` (docs/debugging.md): JavaScriptCore's
/// own Web Inspector backend, reached through its RemoteInspector, which connects to a relay on an inspector
/// thread (CInspector's relay.c); the relay serves the WebKit Inspector Protocol at `ws://host:port/<uuid>`.
///
/// Made only when one of those flags is given: without them, no thread starts and no symbol is looked up.
public final class Inspector: EngineDebugger {
    /// Why the inspector cannot start.
    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    let request: InspectRequest
    /// The WebSocket URL a debugger connects to.
    public let webSocketURL: String
    private let waker = Waker()

    /// Starts the relay thread and prepares the engine; call on the JS thread before the runtime is made.
    /// `title` and `url` describe the target in `/json/list`.
    public init(_ request: InspectRequest, title: String, url: String, version: String) throws(Unavailable) {
        if let missing = jsb_inspector_missing_symbol() {
            throw Unavailable(
                message: "the inspector is unavailable: this JavaScriptCore library lacks '\(String(cString: missing))'"
            )
        }
        self.request = request
        jsb_cdp_set_source(String(decoding: PackageResources.cdp_js, as: UTF8.self))
        var relay = [CChar](repeating: 0, count: 64)
        var message = [CChar](repeating: 0, count: 512)
        let status = jsb_inspector_start(
            request.host, Int32(request.port), request.start.rawValue, title, url, version, &relay, relay.count,
            &message, message.count)
        guard status == 0 else {
            let text = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            throw Unavailable(message: "the inspector cannot start: \(String(decoding: text, as: UTF8.self))")
        }
        webSocketURL = String(cString: jsb_inspector_websocket_url())
        jsb_inspector_prepare_engine(relay)
        let box = Unmanaged.passRetained(waker).toOpaque()
        jsb_inspector_set_waker(
            { context in Unmanaged<Waker>.fromOpaque(context!).takeUnretainedValue().wake() }, box)
    }

    public func attach(_ context: JSGlobalContextRef) {
        jsb_inspector_attach(context)
        jsb_inspector_pump(false)
    }

    public func waitBeforeMain() {
        while !jsb_inspector_may_run() { jsb_inspector_pump(true) }
        jsb_inspector_pump(false)
    }

    public func pump() { jsb_inspector_pump(false) }

    public func interrupt() {
        if jsb_inspector_take_pause_request() { jsb_inspector_pump(false) }
    }

    public func setWaker(_ wake: (@Sendable () -> Void)?) { waker.set(wake) }

    /// The loop's wake-up function, called from the relay thread.
    private final class Waker: Sendable {
        private let function = Mutex<(@Sendable () -> Void)?>(nil)
        func set(_ wake: (@Sendable () -> Void)?) { function.withLock { $0 = wake } }
        func wake() { function.withLock { $0 }?() }
    }
}
