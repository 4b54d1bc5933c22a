import CJavaScriptCore
import JSBridgeCore

/// The command queue: JS → native calls, and native outcomes delivered back to JS in batches.
extension JSRuntime {
    func installBridgeNatives() {
        // syncFunctions[actionIndex](args) → value: one native function per sync action (no lookup per call).
        let functions = syncInvokers.indices.map { index -> JSValueRef? in
            guard let invoke = syncInvokers[index] else { return JSValueMakeNull(context) }
            return makeNativeFunction(syncCall(index, invoke))
        }
        setProperty(internalObject, "syncFunctions", JSObjectMakeArray(context, functions.count, functions, nil))
        // callAsync(actionIndex, id, argsJSON, bytesPaths?, bytes?): starts an async or stream action; bytes
        // (ArrayBuffers, typed arrays) go beside the JSON, each at its path (JSON text of an array of paths).
        defineNative("callAsync") { [unowned(unsafe) self] call throws(NativeError) in
            try ensureRunning()
            let index = Int(call.number(0))
            let resolved = try action(at: call.number(0))
            let id = UInt64(call.number(1))
            var arguments: BridgeValue
            do {
                arguments = BridgeValue(try call.json(2))
            } catch {
                throw .type("Arguments could not be read as JSON: \(error)")
            }
            if call.count > 4, !JSValueIsUndefined(context, call[3]) {
                arguments.bytes = try sentBytes(paths: call[3], values: call[4], lending: true)
            }
            let reply = CallReply(
                callID: id, plugin: resolved.plugin.name, action: resolved.name, sink: InboxSink(inbox: inbox))
            let start = options.trace ? jsb_monotonic_ns() : 0
            if options.trace {
                output.write("[jsbridge] call \(resolved.plugin.name).\(resolved.name) id=\(id)\n", to: .stderr)
            }
            let prepared = PreparedCall(resolved: resolved, arguments: arguments, reply: reply)
            inFlight[id] = InFlightCall(handle: prepared.handle, action: index, start: start)
            // Started in a batch when control returns to the loop (one executor wake-up per batch).
            submissions.append(prepared)
            return nil
        }
        // setUpAll(id): sets every plugin up (`bridge.ready`); call `id` answers with the failures.
        defineNative("setUpAll") { [unowned(unsafe) self] call throws(NativeError) in
            try ensureRunning()
            let id = UInt64(call.number(0))
            let reply = CallReply(callID: id, plugin: "bridge", action: "ready", sink: InboxSink(inbox: inbox))
            let registry = self.registry
            let task = Task(executorPreference: ActionExecutor.shared) {
                reply.resolve(.array(await registry.setUpAll().map(\.jsonValue)))
            }
            let handle = CallHandle.running(task, reply: reply)
            inFlight[id] = InFlightCall(handle: handle, action: -1, start: options.trace ? jsb_monotonic_ns() : 0)
            return nil
        }
        // notFound(plugin, action): throws the PLUGIN_NOT_FOUND / ACTION_NOT_FOUND error, with a suggestion.
        defineNative("notFound") { [unowned(unsafe) self] call throws(NativeError) in
            let (plugin, action) = (call.string(0), call.string(1))
            throw .bridge(registry.notFound(plugin: plugin, action: action), plugin: plugin, action: action)
        }
        // cancel(id): the call no longer keeps the process alive; cancellation reaches the Swift task.
        defineNative("cancel") { [unowned(unsafe) self] call throws(NativeError) in
            let id = UInt64(call.number(0))
            if let entry = inFlight.removeValue(forKey: id) {
                entry.handle.cancel()
                if options.trace {
                    trace(traceName(entry.action), id: "\(id)", start: entry.start, outcome: "cancelled")
                }
            }
            return nil
        }
    }

    /// The body of the native function for sync action `index`: `(args) → value`, throwing a BridgeError.
    private func syncCall(
        _ index: Int, _ invoke: @escaping @Sendable (BridgeValue) throws(BridgeError) -> BridgeValue
    ) -> (NativeCall) throws(NativeError) -> JSValueRef? {
        let resolved = actions[index]
        let (plugin, action) = (resolved.plugin.name, resolved.name)
        return { [unowned(unsafe) self] call throws(NativeError) in
            try ensureRunning()
            let arguments = try bridgeArgument(call[0])
            if options.trace { return try tracedSyncCall(index, invoke, arguments) }
            do throws(BridgeError) {
                return makeValue(try invoke(arguments))
            } catch {
                throw .bridge(error, plugin: plugin, action: action)
            }
        }
    }

    private func tracedSyncCall(
        _ index: Int, _ invoke: (BridgeValue) throws(BridgeError) -> BridgeValue, _ arguments: BridgeValue
    ) throws(NativeError) -> JSValueRef {
        let resolved = actions[index]
        let start = jsb_monotonic_ns()
        output.write("[jsbridge] call \(resolved.plugin.name).\(resolved.name) id=sync\n", to: .stderr)
        do throws(BridgeError) {
            let result = try invoke(arguments)
            trace(resolved, id: "sync", start: start, outcome: "ok")
            return makeValue(result)
        } catch {
            trace(resolved, id: "sync", start: start, outcome: "error \(error.code)")
            throw .bridge(error, plugin: resolved.plugin.name, action: resolved.name)
        }
    }

    private func action(at index: Double) throws(NativeError) -> ResolvedAction {
        let i = Int(index)
        guard index >= 0, i < actions.count else { throw .type("Unknown action index \(index).") }
        return actions[i]
    }

    private func trace(_ resolved: ResolvedAction, id: String, start: UInt64, outcome: String) {
        trace("\(resolved.plugin.name).\(resolved.name)", id: id, start: start, outcome: outcome)
    }

    private func trace(_ name: String, id: String, start: UInt64, outcome: String) {
        let ms = Double(jsb_monotonic_ns() - start) / 1_000_000
        let duration = String(format: "%.3fms", ms)
        output.write("[jsbridge] done \(name) id=\(id) \(outcome) \(duration)\n", to: .stderr)
    }

    /// The name a traced call of action `index` goes by (-1: `bridge.ready`).
    private func traceName(_ index: Int) -> String {
        index < 0 ? "bridge.ready" : "\(actions[index].plugin.name).\(actions[index].name)"
    }

    /// Starts the calls JavaScript made since the last flush.
    func flushSubmissions() {
        guard !submissions.isEmpty else { return }
        PreparedCall.startAll(submissions)
        submissions.removeAll(keepingCapacity: true)
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
                output.write("jsbridge: warning: \(message.text)\n", to: .stderr)
                continue
            case .signal:
                queuedSignals.append(Int32(message.callID))
                continue
            case .event, .item:
                break
            case .value, .finished, .failed:
                // A final outcome ends the call; answers to cancelled calls are dropped here on purpose.
                guard let entry = inFlight.removeValue(forKey: message.callID) else { continue }
                if options.trace {
                    let outcome = message.kind == .failed ? "error \(message.errorCode ?? "")" : "ok"
                    trace(traceName(entry.action), id: "\(message.callID)", start: entry.start, outcome: outcome)
                }
            }
            if message.kind == .item {
                guard let entry = inFlight[message.callID] else { continue }
                entry.handle.acknowledge()
            }
            if !first { text += "," }
            first = false
            text += message.text
            for j in taken.indices {
                let array = makeUint8Array(&taken[j])
                JSValueProtect(context, array)  // a Swift array is no root for the collector
                bytes.append(array)
            }
        }
        defer { for array in bytes { JSValueUnprotect(context, array) } }
        guard !first, let dispatch = hooks.dispatch else { return }
        text += "]"
        // JSON text: control characters (NUL included) are escaped, so the C-string constructor is exact.
        let ref = makeJSStringFromNULFreeUTF8(text)
        defer { JSStringRelease(ref) }
        if bytes.isEmpty {
            callJS(dispatch, [JSValueMakeString(context, ref)])
        } else {
            let list = JSObjectMakeArray(context, bytes.count, bytes, nil)
            callJS(dispatch, [JSValueMakeString(context, ref), list])
        }
    }
}

/// Posts call outcomes to the runtime's inbox, serialising them on the calling (worker) thread.
struct InboxSink: CallOutcomeSink {
    let inbox: Inbox

    func deliver(_ outcome: CallOutcome, callID: UInt64) {
        inbox.post(InboxMessage(callID: callID, outcome: outcome))
    }

    func reportMisuse(_ message: String) {
        inbox.post(InboxMessage(callID: 0, kind: .diagnostic, text: message))
    }
}
