import CJavaScriptCore
import CProcess
import Foundation
import JSBridgeCore

/// The plugins' actions by the index JavaScript uses, and the calls in flight (JS thread only).
struct CallTable {
    /// Actions by index (the manifest's order), and each sync action's invoker at the same index.
    let actions: [ResolvedAction]
    let syncInvokers: [(@Sendable (BridgeValue) throws(BridgeError) -> BridgeValue)?]
    /// Calls in flight, by id; they keep the process alive, except background watches past their first value.
    private(set) var inFlight: [UInt64: InFlightCall] = [:]
    /// How many calls in ``inFlight`` no longer hold the run (background watches that have answered once).
    private(set) var released = 0
    /// Calls made by JS during the current turn, started together when the turn ends.
    var submissions: [PreparedCall] = []

    /// A call in flight: its handle, its action's index (-1: `bridge.ready`) and, with `--trace`, its start.
    struct InFlightCall {
        let handle: CallHandle
        let action: Int
        let start: UInt64
        /// A background watch's call (``PluginDeclaration/background(_:)``): it holds the run until its first value.
        var background = false
        /// Whether it has stopped holding the run.
        var isReleased = false
    }

    /// Whether a call in flight holds the run.
    var holdRun: Bool { inFlight.count > released }

    /// Adds a call in flight.
    mutating func add(_ id: UInt64, _ call: InFlightCall) {
        if let old = inFlight.updateValue(call, forKey: id), old.isReleased { released -= 1 }
    }

    /// Removes a call in flight (it ended or was cancelled).
    mutating func remove(_ id: UInt64) -> InFlightCall? {
        guard let call = inFlight.removeValue(forKey: id) else { return nil }
        if call.isReleased { released -= 1 }
        return call
    }

    /// A value of call `id` arrived: a background watch stops holding the run.
    mutating func answered(_ id: UInt64) {
        guard let call = inFlight[id], call.background, !call.isReleased else { return }
        inFlight[id]?.isReleased = true
        released += 1
    }

    init(registry: PluginRegistry) {
        var actions: [ResolvedAction] = []
        var invokers: [(@Sendable (BridgeValue) throws(BridgeError) -> BridgeValue)?] = []
        for plugin in registry.plugins {
            for (name, _) in plugin.actionKinds {
                let resolved = try! registry.resolve(plugin: plugin.name, action: name)
                actions.append(resolved)
                invokers.append(registry.syncInvoker(for: resolved))
            }
        }
        self.actions = actions
        syncInvokers = invokers
    }

    /// `plugin → action → [index, kind]` for `bridge.js`, in the order of ``actions`` (`[index, kind, 1]` for a
    /// private action: only its plugin's own JavaScript may call it).
    func manifest(_ registry: PluginRegistry) -> JSONValue {
        var manifest = JSONObject()
        var index = 0
        for plugin in registry.plugins {
            var table = JSONObject()
            for (name, action) in plugin.sortedActions {
                var entry: [JSONValue] = [.number(Double(index)), .number(action.kind.wireCode)]
                if action.isPrivate { entry.append(1) }
                table[name] = .array(entry)
                index += 1
            }
            manifest[plugin.name] = .object(table)
        }
        return .object(manifest)
    }

    /// Drops the calls not started and cancels the ones in flight (the run ended).
    mutating func cancelAll() {
        submissions.removeAll()
        for call in inFlight.values { call.handle.cancel() }
        inFlight.removeAll()
        released = 0
    }
}

/// The command queue: JS → native calls, and native outcomes delivered back to JS in batches.
extension EngineExtension {
    static func declareCallNatives(_ ext: inout ExtensionDeclaration<ExtensionHost>) {
        // syncFunctions[actionIndex](args) → value: one native function per sync action (no lookup per call).
        ext.value("syncFunctions", type: "ReadonlyArray<((args: unknown) => any) | null>") { engine, host in
            let runtime = host.runtime
            let invokers = runtime.calls.syncInvokers
            return engine.makeArray(count: invokers.count) { index in
                guard let invoke = invokers[index] else { return JSValueMakeNull(engine.context) }
                return engine.makeFunction(runtime.syncCall(index, invoke))
            }
        }
        // callAsync(actionIndex, id, argsJSON, bytesPaths?, bytes?): starts an async or stream action; bytes
        // (ArrayBuffers, typed arrays) go beside the JSON, each at its path (JSON text of an array of paths).
        ext.native(
            "callAsync",
            "(action: number, id: number, json: string, bytesPaths?: string, bytes?: ArrayLike<ArrayBuffer | ArrayBufferView>): void"
        ) { call, host throws(NativeError) in
            try host.runtime.callAsync(call)
            return nil
        }
        // setUpAll(id): sets every plugin up (`bridge.ready`); call `id` answers with the failures.
        ext.native("setUpAll", "(id: number): void") { call, host throws(NativeError) in
            let runtime = host.runtime
            try runtime.ensureRunning()
            let id = UInt64(call.number(0))
            let reply = CallReply(callID: id, plugin: "bridge", action: "ready", sink: InboxSink(inbox: runtime.inbox))
            let registry = runtime.registry
            let task = Task(executorPreference: ActionExecutor.shared) {
                reply.resolve(.array(await registry.setUpAll().map(\.jsonValue)))
            }
            runtime.calls.add(
                id,
                CallTable.InFlightCall(handle: .running(task, reply: reply), action: -1, start: runtime.traceStart()))
            return nil
        }
        // notFound(plugin, action): throws the PLUGIN_NOT_FOUND / ACTION_NOT_FOUND error, with a suggestion.
        ext.native("notFound", "(plugin: string, action: string): never") { call, host throws(NativeError) in
            let (plugin, action) = (call.string(0), call.string(1))
            throw .bridge(
                host.runtime.registry.notFound(plugin: plugin, action: action), plugin: plugin, action: action)
        }
        // traceNote(text): with `--trace`, a line for a call that never reached a plugin (an exec to a service
        // nobody answers), so the trace shows every call a script made.
        ext.native("traceNote", "(text: string): void") { call, host throws(NativeError) in
            if host.options.trace { host.runtime.traceLine(call.string(0)) }
            return nil
        }
        // cancel(id): the call no longer keeps the process alive; cancellation reaches the Swift task.
        ext.native("cancel", "(id: number): void") { call, host throws(NativeError) in
            let runtime = host.runtime
            let id = UInt64(call.number(0))
            if let entry = runtime.calls.remove(id) {
                entry.handle.cancel()
                runtime.trace(entry.action, id: "\(id)", start: entry.start, outcome: "cancelled")
            }
            return nil
        }
    }
}

extension JSRuntime {
    fileprivate func callAsync(_ call: NativeCall) throws(NativeError) {
        try ensureRunning()
        let index = Int(call.number(0))
        guard index >= 0, index < calls.actions.count else { throw .type("Unknown action index \(call.number(0)).") }
        let resolved = calls.actions[index]
        let id = UInt64(call.number(1))
        var arguments: BridgeValue
        do {
            arguments = BridgeValue(try call.json(2))
        } catch {
            throw .type("Arguments could not be read as JSON: \(error)")
        }
        if call.count > 4, !JSValueIsUndefined(call.context, call[3]) {
            arguments.bytes = try engine.sentBytes(paths: call[3], values: call[4], lending: true)
        }
        let reply = CallReply(
            callID: id, plugin: resolved.plugin.name, action: resolved.name, sink: InboxSink(inbox: inbox))
        if options.trace { traceLine("call \(resolved.plugin.name).\(resolved.name) id=\(id)") }
        let prepared = PreparedCall(resolved: resolved, arguments: arguments, reply: reply)
        calls.add(
            id,
            CallTable.InFlightCall(
                handle: prepared.handle, action: index, start: traceStart(), background: resolved.action.isBackground))
        // Started in a batch when control returns to the loop (one executor wake-up per batch).
        calls.submissions.append(prepared)
    }

    /// The body of the native function for sync action `index`: `(args) → value`, throwing a BridgeError.
    fileprivate func syncCall(
        _ index: Int, _ invoke: @escaping @Sendable (BridgeValue) throws(BridgeError) -> BridgeValue
    ) -> (NativeCall) throws(NativeError) -> JSValueRef? {
        let resolved = calls.actions[index]
        let (plugin, action) = (resolved.plugin.name, resolved.name)
        return { [unowned(unsafe) self] call throws(NativeError) in
            try ensureRunning()
            let arguments = try engine.bridgeArgument(call[0])
            if options.trace { return try tracedSyncCall(index, invoke, arguments) }
            do throws(BridgeError) {
                return engine.makeValue(try invoke(arguments))
            } catch {
                throw .bridge(error, plugin: plugin, action: action)
            }
        }
    }

    private func tracedSyncCall(
        _ index: Int, _ invoke: (BridgeValue) throws(BridgeError) -> BridgeValue, _ arguments: BridgeValue
    ) throws(NativeError) -> JSValueRef {
        let resolved = calls.actions[index]
        let start = jsb_monotonic_ns()
        traceLine("call \(resolved.plugin.name).\(resolved.name) id=sync")
        do throws(BridgeError) {
            let result = try invoke(arguments)
            trace(index, id: "sync", start: start, outcome: "ok")
            return engine.makeValue(result)
        } catch {
            trace(index, id: "sync", start: start, outcome: "error \(error.code)")
            throw .bridge(error, plugin: resolved.plugin.name, action: resolved.name)
        }
    }

    /// When a traced call starts (0 without `--trace`).
    func traceStart() -> UInt64 { options.trace ? jsb_monotonic_ns() : 0 }

    /// `[<runtime>] <text>` on stderr (`--trace`).
    func traceLine(_ text: String) {
        output.write("[\(options.runtime.name)] \(text)\n", to: .stderr)
    }

    /// With `--trace`, the line that ends call `id` of action `index` (-1: `bridge.ready`).
    func trace(_ index: Int, id: String, start: UInt64, outcome: String) {
        guard options.trace else { return }
        let name = index < 0 ? "bridge.ready" : "\(calls.actions[index].plugin.name).\(calls.actions[index].name)"
        let ms = Double(jsb_monotonic_ns() - start) / 1_000_000
        traceLine("done \(name) id=\(id) \(outcome) \(String(format: "%.3fms", ms))")
    }

    /// Starts the calls JavaScript made since the last flush.
    func flushSubmissions() {
        guard !calls.submissions.isEmpty else { return }
        PreparedCall.startAll(calls.submissions)
        calls.submissions.removeAll(keepingCapacity: true)
    }

    /// Hands a batch of inbox messages to JS in one call (`internal.dispatch(json, bytes)`): the messages'
    /// bytes, as `Uint8Array`s over the same memory, go in one array beside the text, in message order.
    func deliver(_ batch: inout [InboxMessage]) {
        var text = "["
        var first = true
        var bytes: [JSValueRef?] = []
        for i in batch.indices {
            // The message's bytes are moved out first, so that this batch holds them once (handed over uncopied).
            var taken = batch[i].bytes
            if !taken.isEmpty { batch[i].bytes = [] }
            let message = batch[i]
            switch message.kind {
            case .diagnostic:
                output.write("\(options.runtime.name): warning: \(message.text)\n", to: .stderr)
                continue
            case .signal:
                signals.queued.append(Int32(message.callID))
                continue
            case .event, .item:
                break
            case .value, .finished, .failed:
                // A final outcome ends the call; answers to cancelled calls are dropped here on purpose.
                guard let entry = calls.remove(message.callID) else { continue }
                let outcome = message.kind == .failed ? "error \(message.errorCode ?? "")" : "ok"
                trace(entry.action, id: "\(message.callID)", start: entry.start, outcome: outcome)
            }
            if message.kind == .item {
                guard let entry = calls.inFlight[message.callID] else { continue }
                entry.handle.acknowledge()
                calls.answered(message.callID)
            }
            if !first { text += "," }
            first = false
            text += message.text
            for j in taken.indices {
                let array = engine.makeUint8Array(&taken[j])
                JSValueProtect(engine.context, array)  // a Swift array is no root for the collector
                bytes.append(array)
            }
        }
        defer { for array in bytes { JSValueUnprotect(engine.context, array) } }
        // Only calls bridge.js made (or events its listeners wait for) are answered: without it, nothing waits.
        guard !first, let dispatch = hook(\.dispatch, "dispatch", "bridge.js") else { return }
        text += "]"
        // The byte array first: the text is made last, so nothing is allocated while only a Swift array holds it.
        let byteArray = bytes.isEmpty ? nil : JSObjectMakeArray(engine.context, bytes.count, bytes, nil)
        // JSON text: control characters (NUL included) are escaped, so the C-string constructor is exact.
        let ref = makeJSStringFromNULFreeUTF8(text)
        defer { JSStringRelease(ref) }
        let batchText = JSValueMakeString(engine.context, ref)
        callJS(dispatch, byteArray.map { [batchText, $0] } ?? [batchText])
    }
}

/// Posts call outcomes to the runtime's inbox, serialising them on the calling (worker) thread.
struct InboxSink: CallOutcomeSink {
    let inbox: Inbox

    func deliver(_ outcome: consuming CallOutcome, callID: UInt64) {
        inbox.post(InboxMessage(callID: callID, outcome: consume outcome))
    }

    func reportMisuse(_ message: String) {
        inbox.post(InboxMessage(callID: 0, kind: .diagnostic, text: message))
    }
}

extension Action.Kind {
    /// The kind's code in the JS manifest.
    var wireCode: Double {
        switch self {
        case .sync: 0
        case .async: 1
        case .stream: 2
        }
    }
}
