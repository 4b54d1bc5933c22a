import CCompression
import CJavaScriptCore
import Dispatch
import Foundation
import JSBridge
import JSBridgeBase
import Synchronization

/// The natives behind `node:zlib` (node-zlib.js): an engine per stream (CCompression's `jsb_zengine`, the zlib
/// and brotli libraries the web extension's compression streams use), driven one library call at a time as
/// Node's binding drives it, and zlib's CRC-32.
///
/// An engine is a native function, `handle(op, …)`, that owns its ``ZlibEngine`` (freed when the function is
/// collected, or at `close`). A write on the JS thread answers `[availOutAfter, availInAfter, output?,
/// message?, code?, errno?]`; an asynchronous write whose input is large (or any brotli compression, which is
/// slow per byte) runs on a worker thread instead and answers undefined: the native event "zlib" with the
/// stream's `id` says it ended, and `handle(2)` takes the same array. Each write produces at most `outLength`
/// bytes, so memory stays bounded by the stream's chunk size whatever the input inflates to.
extension NodeExtension {
    static func declareZlibNatives(_ ext: inout ExtensionDeclaration<NodeState>) {
        ext.native(
            "zlibOpen",
            "(id: number, mode: number, windowBits: number, level: number, memLevel: number, strategy: number, dictionary?: ArrayBuffer, offset?: number, length?: number): JSBridgeZlibHandle"
        ) { call, state throws(NativeError) in
            guard let raw = jsb_zengine_create(Int32(call.number(1))) else {
                throw .plain("Initialization failed", code: "ERR_ZLIB_INITIALIZATION_FAILED")
            }
            let dictionary = call.arrayBuffer(6).map { Array($0) } ?? []
            let ok = dictionary.withUnsafeBufferPointer { bytes in
                jsb_zengine_init_zlib(
                    raw, Int32(call.number(2)), Int32(call.number(3)), Int32(call.number(4)), Int32(call.number(5)),
                    bytes.baseAddress, bytes.count)
            }
            guard ok == 1 else {
                jsb_zengine_free(raw)
                throw .plain("Initialization failed", code: "ERR_ZLIB_INITIALIZATION_FAILED")
            }
            return makeHandle(call, state, ZlibEngine(raw, id: Int(call.number(0)), slow: false))
        }
        // params: JSON text of an array, one entry per brotli parameter (0xFFFFFFFF: not given); undefined when the
        // library refuses one.
        ext.native("brotliOpen", "(id: number, mode: number, params: string): JSBridgeZlibHandle | undefined") {
            call, state throws(NativeError) in
            let mode = Int32(call.number(1))
            guard mode == Int32(JSB_ZE_BROTLI_DECODE) || mode == Int32(JSB_ZE_BROTLI_ENCODE),
                let raw = jsb_zengine_create(mode)
            else { throw .plain("Initialization failed", code: "ERR_ZLIB_INITIALIZATION_FAILED") }
            var params: [UInt32] = []
            if case .array(let values)? = try? call.json(2) {
                for value in values {
                    guard case .number(let number) = value, number >= 0, number <= Double(UInt32.max) else { break }
                    params.append(UInt32(number))
                }
            }
            guard jsb_zengine_init_brotli(raw, params, params.count) == 1 else {
                // A parameter the library refuses: node:zlib's constructor throws ERR_ZLIB_INITIALIZATION_FAILED.
                jsb_zengine_free(raw)
                return nil
            }
            let engine = ZlibEngine(raw, id: Int(call.number(0)), slow: mode == Int32(JSB_ZE_BROTLI_ENCODE))
            return makeHandle(call, state, engine)
        }
        ext.native("zlibCrc32", "(crc: number, buffer: ArrayBuffer, offset: number, length: number): number") {
            call, _ throws(NativeError) in
            let bytes = call.arrayBuffer(1) ?? UnsafeMutableBufferPointer(start: nil, count: 0)
            let crc = jsb_crc32(UInt32(truncatingIfNeeded: Int64(call.number(0))), bytes.baseAddress, bytes.count)
            return JSValueMakeNumber(call.context, Double(crc))
        }
        ext.native("zlibVersionNumber", "(): number") { call, _ throws(NativeError) in
            JSValueMakeNumber(call.context, Double(jsb_zlib_vernum()))
        }
    }

    private static func makeHandle(_ call: NativeCall, _ state: NodeState, _ engine: ZlibEngine) -> JSValueRef {
        let events = state.host.events
        let jobs = state.zlibJobs
        return call.engine.makeFunction { call throws(NativeError) in
            switch Int(call.number(0)) {
            case 0, 1:
                let input = call.arrayBuffer(2)
                let write = ZlibEngine.Write(
                    flush: Int32(call.number(1)), outLength: max(0, Int(min(call.number(5), 0x7fff_ffff))))
                if call.number(0) == 1, engine.runsOnWorker(input: input) {
                    engine.hold(input)
                    jobs.add(1)
                    engine.markRunning()
                    DispatchQueue.global().async {
                        engine.runOnWorker(write)
                        events.post("zlib", BridgeValue(["id": .number(Double(engine.id))]))
                    }
                    return nil
                }
                return engine.run(write, input: input).make(call.engine)
            case 2:
                guard let outcome = engine.take() else { throw .type("No zlib write has ended") }
                jobs.add(-1)
                return outcome.make(call.engine)
            case 3:
                return engine.params(level: Int32(call.number(1)), strategy: Int32(call.number(2)))?.make(call.engine)
            case 4:
                return engine.reset()?.make(call.engine)
            default:
                engine.close()
                return nil
            }
        }
    }
}

/// How many zlib writes run on workers or wait to be taken (the loop stays alive for them).
final class ZlibJobs: Sendable {
    private let count = Mutex(0)
    func add(_ delta: Int) { count.withLock { $0 += delta } }
    var pending: Bool { count.withLock { $0 > 0 } }
}

/// One `jsb_zengine` and the input it holds between writes. Used by one thread at a time: JavaScript does
/// not write again before a write ended (node-zlib.js waits for it), and `close` during a worker's write
/// frees the engine when that write ends.
final class ZlibEngine: @unchecked Sendable {
    struct Write: Sendable {
        var flush: Int32
        var outLength: Int
    }

    /// What a write answers: what is left of the input and of the output space, the output, and the error.
    struct Outcome: @unchecked Sendable {
        var inputLeft = 0
        var outLeft = 0
        var output: UnsafeMutableRawPointer?
        var produced = 0
        var error: ZlibFailure?

        func make(_ engine: JSEngine) -> JSValueRef? {
            engine.makeArray(count: error == nil ? 3 : 6) { index in
                switch index {
                case 0: JSValueMakeNumber(engine.context, Double(outLeft))
                case 1: JSValueMakeNumber(engine.context, Double(inputLeft))
                case 2: output.map { engine.makeArrayBuffer($0, count: produced) }
                case 3: error.map { engine.makeString($0.message) }
                case 4: error.map { engine.makeString($0.code) }
                default: error.map { JSValueMakeNumber(engine.context, Double($0.errno)) }
                }
            }
        }
    }

    /// A failure as node:zlib reports it: message, code, errno.
    struct ZlibFailure: Sendable {
        var message: String
        var code: String
        var errno: Int32

        func make(_ engine: JSEngine) -> JSValueRef? {
            engine.makeArray(count: 3) { index in
                switch index {
                case 0: engine.makeString(message)
                case 1: engine.makeString(code)
                default: JSValueMakeNumber(engine.context, Double(errno))
                }
            }
        }
    }

    /// Input above this runs on a worker thread (asynchronous writes only).
    static let workerThreshold = 64 << 10

    let id: Int
    /// Brotli compression: on a worker whatever the input's size (its cost per byte is high, and it compresses
    /// what it buffered when flushed).
    private let slow: Bool
    private var raw: OpaquePointer?
    private var held: [UInt8] = []
    private var heldOffset = 0
    private let lock = Mutex(State())

    private struct State {
        var running = false
        var closeRequested = false
        var finished: Outcome?
    }

    init(_ raw: OpaquePointer, id: Int, slow: Bool) {
        self.raw = raw
        self.id = id
        self.slow = slow
    }

    deinit {
        jsb_zengine_free(raw)
        lock.withLock { if let output = $0.finished?.output { free(output) } }
    }

    func runsOnWorker(input: UnsafeMutableBufferPointer<UInt8>?) -> Bool {
        slow || (input?.count ?? held.count - heldOffset) > Self.workerThreshold
    }

    /// Keeps a copy of `input` (nil: the input held from the previous write goes on).
    func hold(_ input: UnsafeMutableBufferPointer<UInt8>?) {
        guard let input else { return }
        held = Array(input)
        heldOffset = 0
    }

    /// One library call over `input` (nil: the held input) on this thread; the input it leaves is held.
    func run(_ write: Write, input: UnsafeMutableBufferPointer<UInt8>?) -> Outcome {
        guard let raw else { return Outcome(error: ZlibFailure(message: "zlib binding closed", code: "", errno: 0)) }
        var outcome = Outcome()
        let capacity = max(1, write.outLength)
        guard let output = malloc(capacity) else {
            return Outcome(error: ZlibFailure(message: "Out of memory", code: "Z_MEM_ERROR", errno: -4))
        }
        var inputLeft = 0
        var outLeft = 0
        func step(_ bytes: UnsafeBufferPointer<UInt8>) {
            jsb_zengine_write(
                raw, write.flush, bytes.baseAddress, bytes.count, output.assumingMemoryBound(to: UInt8.self),
                write.outLength, &inputLeft, &outLeft)
            outcome.inputLeft = inputLeft
            outcome.outLeft = outLeft
        }
        if let input {
            step(UnsafeBufferPointer(input))
            // Only what a later write goes on with is copied.
            held = outcome.inputLeft > 0 ? Array(input.suffix(outcome.inputLeft)) : []
            heldOffset = 0
        } else {
            held.withUnsafeBufferPointer { step(UnsafeBufferPointer(rebasing: $0[heldOffset...])) }
            heldOffset = held.count - outcome.inputLeft
        }
        outcome.produced = write.outLength - outcome.outLeft
        if outcome.produced > 0 {
            outcome.output = outcome.produced < capacity / 2 ? realloc(output, outcome.produced) ?? output : output
        } else {
            free(output)
        }
        var message: UnsafePointer<CChar>?
        var code: UnsafePointer<CChar>?
        var errno: Int32 = 0
        if jsb_zengine_error(raw, &message, &code, &errno) == 1 {
            outcome.error = ZlibFailure(
                message: message.map { String(cString: $0) } ?? "", code: code.map { String(cString: $0) } ?? "",
                errno: errno)
        }
        return outcome
    }

    /// The engine is the worker's from now (JS thread, before the worker is started): `close`, `reset` and
    /// `params` wait for it or do nothing.
    func markRunning() {
        lock.withLock { $0.running = true }
    }

    /// `run` on a worker thread (after ``markRunning()``); the outcome waits for ``take()``.
    func runOnWorker(_ write: Write) {
        let outcome = run(write, input: nil)
        let close = lock.withLock { state in
            state.running = false
            state.finished = outcome
            return state.closeRequested
        }
        if close { freeEngine() }
    }

    /// The outcome of the worker's write, once (nil while it runs or when taken).
    func take() -> Outcome? {
        lock.withLock { state in
            defer { state.finished = nil }
            return state.running ? nil : state.finished
        }
    }

    /// Whether a worker's write runs: the engine is the worker's until it ends (a `reset()` or `params()` meanwhile
    /// does nothing, where it would race with the library; node-zlib.js changes parameters only after a flush).
    private var busy: Bool { lock.withLock { $0.running } }

    func params(level: Int32, strategy: Int32) -> ZlibFailure? {
        guard let raw, !busy else { return nil }
        return failure { jsb_zengine_params(raw, level, strategy, &$0, &$1, &$2) }
    }

    func reset() -> ZlibFailure? {
        guard let raw, !busy else { return nil }
        held = []
        heldOffset = 0
        return failure { jsb_zengine_reset(raw, &$0, &$1, &$2) }
    }

    private func failure(
        _ body: (inout UnsafePointer<CChar>?, inout UnsafePointer<CChar>?, inout Int32) -> Int32
    ) -> ZlibFailure? {
        var message: UnsafePointer<CChar>?
        var code: UnsafePointer<CChar>?
        var errno: Int32 = 0
        guard body(&message, &code, &errno) == 1 else { return nil }
        return ZlibFailure(
            message: message.map { String(cString: $0) } ?? "", code: code.map { String(cString: $0) } ?? "",
            errno: errno)
    }

    /// Frees the engine now, or when the worker's write ends.
    func close() {
        let now = lock.withLock { state in
            state.closeRequested = true
            return !state.running
        }
        if now { freeEngine() }
    }

    private func freeEngine() {
        jsb_zengine_free(raw)
        raw = nil
        held = []
        heldOffset = 0
    }
}
