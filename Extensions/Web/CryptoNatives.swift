import CJavaScriptCore
import CProcess
import Foundation
import JSBridge
import JSBridgeBase
import Synchronization

/// The natives behind `crypto.js` (`crypto.subtle`, `getRandomValues`) and node:crypto's hashes: random bytes
/// from the kernel, and ``CryptoRequest``s run at once or, for large inputs, on a worker thread.
extension WebExtension {
    static func declareCryptoNatives(_ ext: inout ExtensionDeclaration<WebState>) {
        ext.native("randomFill", "(buffer: ArrayBuffer, offset: number, length: number): void") {
            call, _ throws(NativeError) in
            // Cryptographically secure bytes from the kernel.
            guard let range = call.arrayBuffer(0) else { throw .type("randomFill needs an ArrayBuffer.") }
            var filled = 0
            while filled < range.count {
                let got = getrandom(range.baseAddress! + filled, range.count - filled, 0)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw .plain("getrandom failed (errno \(errno))", code: "ERR_CRYPTO_OPERATION_FAILED")
                }
                filled += got
            }
            return nil
        }
        // cryptoRun(operation, name, first, second, ...inputs): the request's outputs, or an Error whose
        // `code` is the DOMException name to throw.
        ext.native(
            "cryptoRun",
            "(operation: string, name: string, first: number, second: number, ...inputs: ArrayBuffer[]): ArrayBuffer[]"
        ) { call, _ throws(NativeError) in
            let request = cryptoRequest(call)
            do throws(CryptoFailure) {
                return makeOutputs(call.engine, try request.run())
            } catch {
                throw .plain(error.message, code: error.name)
            }
        }
        // cryptoStart(...same arguments): runs the request on a worker thread and answers its id; the native
        // event "crypto" with `{id}` says it ended, and cryptoTake(id) answers its outputs or throws.
        ext.native(
            "cryptoStart",
            "(operation: string, name: string, first: number, second: number, ...inputs: ArrayBuffer[]): number"
        ) { call, state throws(NativeError) in
            JSValueMakeNumber(call.context, Double(state.crypto.start(cryptoRequest(call), events: state.host.events)))
        }
        ext.native("cryptoTake", "(id: number): ArrayBuffer[]") { call, state throws(NativeError) in
            guard let result = state.crypto.take(Int(call.number(0))) else {
                throw .type("No crypto operation has that id")
            }
            switch result {
            case .success(let outputs): return makeOutputs(call.engine, outputs)
            case .failure(let error): throw .plain(error.message, code: error.name)
            }
        }
    }

    /// The request a `cryptoRun`/`cryptoStart` call describes, its inputs copied (the script may change its
    /// buffers while a worker reads them).
    private static func cryptoRequest(_ call: NativeCall) -> CryptoRequest {
        var inputs: [[UInt8]] = []
        for index in 4..<max(4, call.count) {
            let value = call[index]
            guard JSValueGetTypedArrayType(call.context, value, nil) == kJSTypedArrayTypeArrayBuffer,
                let object = JSValueToObject(call.context, value, nil)
            else {
                inputs.append([])
                continue
            }
            let size = JSObjectGetArrayBufferByteLength(call.context, object, nil)
            guard size > 0, let base = JSObjectGetArrayBufferBytesPtr(call.context, object, nil) else {
                inputs.append([])
                continue
            }
            inputs.append(Array(UnsafeRawBufferPointer(start: base, count: size)))
        }
        return CryptoRequest(
            operation: call.string(0), name: call.string(1), first: integer(call.number(2)),
            second: integer(call.number(3)), inputs: inputs)
    }

    /// A JavaScript number as an `Int` without trapping: NaN is 0, the rest clamped to ±2⁵³.
    private static func integer(_ number: Double) -> Int {
        guard number.isFinite else { return number.isNaN ? 0 : number > 0 ? 1 << 53 : -(1 << 53) }
        return Int(max(min(number, 0x1p53), -0x1p53))
    }

    private static func makeOutputs(_ engine: JSEngine, _ outputs: [[UInt8]]) -> JSValueRef {
        engine.makeArray(count: outputs.count) { index in
            let bytes = outputs[index]
            let pointer = malloc(max(1, bytes.count))!
            bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            return engine.makeArrayBuffer(pointer, count: bytes.count)
        }
    }
}

/// The web extension's part of a run: the crypto operations on worker threads.
final class WebState {
    let host: ExtensionHost
    let crypto = CryptoWorkers()

    init(host: ExtensionHost) {
        self.host = host
        // A script awaiting a digest of a large buffer must not end before it settles.
        host.keepAlive { [crypto] in crypto.hasPending }
    }
}

/// Crypto requests running off the JS thread and their results until JavaScript takes them.
final class CryptoWorkers: Sendable {
    private struct Table {
        var nextID = 1
        /// Started and not taken: nil while running.
        var entries: [Int: Result<[[UInt8]], CryptoFailure>?] = [:]
    }
    private let table = Mutex(Table())

    /// Whether a request has not been taken yet (JavaScript takes each as its event arrives).
    var hasPending: Bool { table.withLock { !$0.entries.isEmpty } }

    func start(_ request: CryptoRequest, events: NativeEvents) -> Int {
        let id = table.withLock { table in
            let id = table.nextID
            table.nextID += 1
            table.entries[id] = .some(nil)
            return id
        }
        DispatchQueue.global().async { [self] in
            let result: Result<[[UInt8]], CryptoFailure>
            do throws(CryptoFailure) {
                result = .success(try request.run())
            } catch {
                result = .failure(error)
            }
            table.withLock { $0.entries[id] = .some(result) }
            events.post("crypto", BridgeValue(["id": .number(Double(id))]))
        }
        return id
    }

    func take(_ id: Int) -> Result<[[UInt8]], CryptoFailure>? {
        table.withLock { table in
            guard case .some(.some(let result)) = table.entries[id] else { return nil }
            table.entries[id] = nil
            return result
        }
    }
}
