import CJavaScriptCore
import JSBridgeCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes lane: `ArrayBuffer`s and typed arrays cross the bridge beside the JSON text, as ``Bytes``
/// (docs/architecture.md, "Bytes beside the JSON"). JS thread only.
extension JSEngine {
    /// A copy of the bytes of `value` when it is an `ArrayBuffer` or a typed array (nil otherwise): the one copy
    /// on the way in, made here because the engine's pointer is valid only until the next engine call.
    ///
    /// With `lending`, a buffer of at least ``LentBuffers/threshold`` bytes is lent instead (an async call's
    /// argument, read on a worker later): the value stays protected from the collector until the last `Bytes`
    /// over it is released. Reading the pointer pins the buffer, so the engine never detaches or moves it
    /// (a transfer copies instead); resizable buffers are copied in JavaScript before they get here.
    func copiedBytes(_ value: JSValueRef, lending: Bool = false) -> Bytes? {
        guard JSValueIsObject(context, value) else { return nil }
        let type = JSValueGetTypedArrayType(context, value, nil)
        if type == kJSTypedArrayTypeNone { return nil }
        guard let object = JSValueToObject(context, value, nil) else { return nil }
        let pointer: UnsafeRawPointer?
        let count: Int
        if type == kJSTypedArrayTypeArrayBuffer {
            count = JSObjectGetArrayBufferByteLength(context, object, nil)
            pointer = count == 0 ? nil : UnsafeRawPointer(JSObjectGetArrayBufferBytesPtr(context, object, nil))
        } else {
            count = JSObjectGetTypedArrayByteLength(context, object, nil)
            // The pointer is the start of the underlying buffer, not of the view.
            let offset = JSObjectGetTypedArrayByteOffset(context, object, nil)
            pointer =
                count == 0
                ? nil : JSObjectGetTypedArrayBytesPtr(context, object, nil).map { UnsafeRawPointer($0) + offset }
        }
        if lending, count >= LentBuffers.threshold, let pointer {
            JSValueProtect(context, object)
            return lent.lend(pointer, count: count, value: object)
        }
        return Bytes(copying: pointer, count: count)
    }

    /// The bytes JavaScript sent beside a call's JSON: `paths` is JSON text (an array of paths, each an array
    /// of keys and indices) and `values` an array of the `ArrayBuffer`s or typed arrays, in the same order.
    func sentBytes(paths: JSValueRef, values: JSValueRef, lending: Bool = false) throws(NativeError)
        -> [ByteAttachment]
    {
        guard JSValueIsString(context, paths), let list = JSValueToObject(context, values, nil) else {
            throw .type("Bytes sent to a plugin came without their paths.")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: describe(paths))
        } catch {
            throw .type("Bytes sent to a plugin came with unreadable paths: \(error)")
        }
        guard case .array(let pathList) = parsed else { throw .type("Bytes sent to a plugin need a list of paths.") }
        var attachments: [ByteAttachment] = []
        attachments.reserveCapacity(pathList.count)
        for (index, path) in pathList.enumerated() {
            guard case .array(let components) = path else { throw .type("A path of bytes must be an array.") }
            let value = JSObjectGetPropertyAtIndex(context, list, UInt32(index), nil)!
            guard let bytes = copiedBytes(value, lending: lending) else {
                throw .type("Only an ArrayBuffer or a typed array can be sent as bytes (item \(index)).")
            }
            attachments.append(ByteAttachment(path: try components.map(Self.pathComponent), bytes: bytes))
        }
        return attachments
    }

    private static func pathComponent(_ value: JSONValue) throws(NativeError) -> JSONPathComponent {
        switch value {
        case .string(let key): return .key(key)
        case .number(let index) where index >= 0 && index == index.rounded() && index < 1e15: return .index(Int(index))
        default: throw .type("A path of bytes holds keys and indices, not \(value.kindDescription).")
        }
    }

    /// A `Uint8Array` over `bytes`: their memory handed to the engine without a copy when nothing else holds
    /// it (then freed by the engine's collector), else a copy.
    package func makeUint8Array(_ bytes: inout Bytes) -> JSValueRef {
        let (pointer, count) = bytes.takeMallocedBuffer()
        guard let pointer, count > 0 else {
            free(pointer)
            return JSObjectMakeTypedArray(context, kJSTypedArrayTypeUint8Array, 0, nil)
        }
        // The deallocator may run on any thread, in the middle of a collection: it only frees memory.
        let array = JSObjectMakeTypedArrayWithBytesNoCopy(
            context, kJSTypedArrayTypeUint8Array, pointer, count, { bytes, _ in free(bytes) }, nil, nil)
        return array ?? JSValueMakeNull(context)
    }

    /// The JS value of a sync action's answer: its JSON, then each of its bytes as a `Uint8Array` at its path.
    package func makeValue(_ value: BridgeValue) -> JSValueRef {
        guard !value.bytes.isEmpty else { return makeValue(value.json) }
        var root = makeValue(value.json)
        for var attachment in value.bytes {
            let array = makeUint8Array(&attachment.bytes)
            guard let last = attachment.path.last else {
                root = array
                continue
            }
            var holder = root
            for component in attachment.path.dropLast() {
                guard let object = JSValueToObject(context, holder, nil) else { break }
                holder = elementValue(object, component)
            }
            guard JSValueIsObject(context, holder), let object = JSValueToObject(context, holder, nil) else { continue }
            switch last {
            case .key(let key): setProperty(object, key, array)
            case .index(let index): JSObjectSetPropertyAtIndex(context, object, UInt32(index), array, nil)
            }
        }
        return root
    }

    private func elementValue(_ object: JSObjectRef, _ component: JSONPathComponent) -> JSValueRef {
        switch component {
        case .key(let key): property(object, key) ?? JSValueMakeUndefined(context)
        case .index(let index): JSObjectGetPropertyAtIndex(context, object, UInt32(index), nil)
        }
    }
}

/// Script buffers lent to actions without a copy (large arguments of async and stream calls). Each stays
/// protected from the collector until the last `Bytes` over it goes; that release may happen on any thread,
/// so it is queued here and the JS thread unprotects the values at its next loop turn (`drain`).
final class LentBuffers: Sendable {
    /// Buffers from this size on are lent; smaller ones are copied (a copy is cheaper than the bookkeeping).
    static let threshold = 1 << 20

    /// Released values (their bit patterns: JS values are not `Sendable`), waiting for the JS thread.
    private let released = Locked<[UInt]>([])
    private let pending = Atomic<Bool>(false)
    /// How many lent buffers some `Bytes` still holds.
    let outstanding = Atomic<Int>(0)

    /// `Bytes` over `count` bytes at `pointer` in the protected `value` (JS thread).
    func lend(_ pointer: UnsafeRawPointer, count: Int, value: JSObjectRef) -> Bytes {
        outstanding.add(1, ordering: .relaxed)
        let bits = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(value)))
        return Bytes(borrowing: pointer, count: count) { [self] in
            released.withLock { $0.append(bits) }
            pending.store(true, ordering: .releasing)
        }
    }

    /// Unprotects the values released since the last call (JS thread).
    func drain(_ context: JSContextRef) {
        guard pending.load(ordering: .acquiring) else { return }
        let values = released.withLock { list -> [UInt] in
            pending.store(false, ordering: .relaxed)
            defer { list.removeAll() }
            return list
        }
        for bits in values {
            if let raw = UnsafeRawPointer(bitPattern: bits) { JSValueUnprotect(context, OpaquePointer(raw)) }
        }
        outstanding.subtract(values.count, ordering: .relaxed)
    }
}
