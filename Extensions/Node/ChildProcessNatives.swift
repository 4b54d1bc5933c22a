import CJavaScriptCore
import Foundation
import JSBridge
import JSBridgeBase
import JSBridgeCore

/// The natives behind `node:child_process` (node-child-process.js), behind the `run` capability
/// (`--allow-run[=programs]`): `childSpawn` starts a ``ChildProcess`` and answers its handle, `childSpawnSync`
/// runs a ``SyncChild`` to its end on the JS thread. The program is checked before anything starts: a refusal
/// is a `PERMISSION_DENIED` BridgeError naming the flag.
extension NodeExtension {
    static func declareChildProcessNatives(_ ext: inout ExtensionDeclaration<NodeState>) {
        ext.capability(.run)
        // childSpawn(id, request): [handle, pid], or [undefined, errno name, negative errno] when the program
        // could not start (the script gets an 'error' event, as Node's spawn).
        ext.native(
            "childSpawn", "(id: number, request: string): [JSBridgeChildHandle, number] | [undefined, string, number]"
        ) { call, state throws(NativeError) in
            let request = try spawnRequest(call, 1)
            let started = try request.resolve(state.host.permissions, syscall: "spawn").flatMap {
                Spawner.spawn(request, path: $0)
            }
            let engine = call.engine
            switch started {
            case .failure(let failure):
                return engine.makeArray(count: 3) { index in
                    index == 0 ? nil : index == 1 ? engine.makeString(failure.name) : number(engine, -failure.errno)
                }
            case .success(let spawned):
                let child = ChildProcess(
                    id: Int(call.number(0)), spawned: spawned, detached: request.detached, events: state.host.events)
                state.children.add(child)
                child.start()
                return engine.makeArray(count: 2) { index in
                    index == 0 ? makeHandle(engine, state, child) : number(engine, spawned.pid)
                }
            }
        }
        // childSpawnSync(request, input, offset, length, timeoutMs, maxBuffer, killSignal):
        // [pid, status, signal, stdout, stderr, errno name, negative errno], nulls where absent.
        ext.native(
            "childSpawnSync",
            "(request: string, input: ArrayBuffer | undefined, offset: number, length: number, timeout: number, maxBuffer: number, killSignal: number): [number, number | null, number | null, ArrayBuffer | null, ArrayBuffer | null, string | null, number | null]"
        ) { call, state throws(NativeError) in
            let request = try spawnRequest(call, 0)
            let input = call.arrayBuffer(1).map { Array($0) } ?? []
            let engine = call.engine
            let null = JSValueMakeNull(call.context)
            let started = try request.resolve(state.host.permissions, syscall: "spawnSync").flatMap {
                Spawner.spawn(request, path: $0)
            }
            guard case .success(let spawned) = started else {
                guard case .failure(let failure) = started else { return nil }
                return engine.makeArray(count: 7) { index in
                    switch index {
                    case 0: number(engine, 0)
                    case 5: engine.makeString(failure.name)
                    case 6: number(engine, -failure.errno)
                    default: null
                    }
                }
            }
            let child = SyncChild(
                spawned: spawned, input: input, timeoutMs: call.number(4), maxBuffer: call.number(5),
                killSignal: Int32(call.number(6)), deadline: state.host.deadline)
            let outcome = child.run()
            // After the answer is made: once the run stops, the engine makes no more values.
            defer { if outcome.reachedDeadline { state.host.reachedDeadline() } }
            return engine.makeArray(count: 7) { index in
                switch index {
                case 0: return number(engine, spawned.pid)
                case 1: return outcome.status.map { number(engine, $0) } ?? null
                case 2: return outcome.signal.map { number(engine, $0) } ?? null
                case 3, 4:
                    guard let output = outcome.outputs[index - 2] else { return null }
                    let pointer = malloc(max(1, output.count))!
                    output.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                    return engine.makeArrayBuffer(pointer, count: output.count)
                case 5: return outcome.error.map { engine.makeString($0.name) } ?? null
                default: return outcome.error.map { number(engine, -$0.errno) } ?? null
                }
            }
        }
    }

    private static func spawnRequest(_ call: NativeCall, _ index: Int) throws(NativeError) -> SpawnRequest {
        let json: JSONValue
        do throws(JSONParseError) {
            json = try call.json(index)
        } catch {
            throw .type("Malformed spawn request")
        }
        return try SpawnRequest(json)
    }

    private static func number(_ engine: JSEngine, _ value: Int32) -> JSValueRef {
        JSValueMakeNumber(engine.context, Double(value))
    }

    /// A child's handle: `(0, fd)` wants the next chunk of stdout or stderr, `(1, buffer, offset, length)`
    /// writes to stdin (an errno name when it is closed), `(2)` ends stdin, `(3, signo)` signals it (0 or an
    /// errno), `(4, referenced)` says whether it keeps the loop alive, `(5, fd)` closes an output, `(6)`
    /// forgets it (after its 'close').
    private static func makeHandle(_ engine: JSEngine, _ state: NodeState, _ child: ChildProcess) -> JSValueRef {
        engine.makeFunction { call throws(NativeError) in
            switch Int(call.number(0)) {
            case 0:
                child.want(Int(call.number(1)))
            case 1:
                let bytes = call.arrayBuffer(1).map { Array($0) } ?? []
                if let failure = child.write(bytes) { return call.engine.makeString(failure) }
            case 2:
                child.endStdin()
            case 3:
                return JSValueMakeNumber(call.context, Double(child.kill(Int32(call.number(1)))))
            case 4:
                state.children.reference(child.id, call.bool(1))
            case 5:
                child.closeOutput(Int(call.number(1)))
            default:
                state.children.remove(child.id)
            }
            return nil
        }
    }
}

/// The children a run started and which of them keep its loop alive (JS thread only). When the run ends, the
/// children still running that were not started `detached` are killed (SIGKILL): a script stopped by
/// `--timeout`, an uncaught error or `process.exit()` leaves no process of its own behind.
final class ChildRegistry {
    private var live: [Int: ChildProcess] = [:]
    private var referenced: Set<Int> = []

    var keepsAlive: Bool { !referenced.isEmpty }

    func add(_ child: ChildProcess) {
        live[child.id] = child
        referenced.insert(child.id)
    }

    func reference(_ id: Int, _ on: Bool) {
        guard live[id] != nil else { return }
        if on { referenced.insert(id) } else { referenced.remove(id) }
    }

    func remove(_ id: Int) {
        live[id] = nil
        referenced.remove(id)
    }

    func killAll() {
        for child in live.values where !child.detached && !child.hasExited { _ = child.kill(SIGKILL) }
        live = [:]
        referenced = []
    }
}
