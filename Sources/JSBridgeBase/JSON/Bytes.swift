import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes that cross the bridge as a JavaScript `Uint8Array`, beside the JSON text rather than inside it.
///
/// Use it in an action's `Decodable` arguments and `Encodable` results (or a stream's values): a script's
/// `Uint8Array`, `ArrayBuffer`, `DataView` or other typed array arrives as `Bytes` (copied once, on the JS
/// thread), and `Bytes` in a result reaches the script as a `Uint8Array` over the same memory (no copy).
/// Where there is no bridge — plain JSON, `PluginTester`'s JSON calls, Foundation coders — the same value is a
/// base64 string, so an action answers the same bytes either way (docs/writing-a-plugin.md, "Bytes").
///
/// `Bytes` is an immutable value: copies share one buffer.
public struct Bytes: Sendable {
    @usableFromInline var storage: ByteStorage

    /// No bytes.
    public init() { storage = ByteStorage.empty }

    /// A copy of `bytes`.
    public init(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        storage = ByteStorage.allocate(array.count)
        array.withUnsafeBytes { source in
            if let base = storage.base, let from = source.baseAddress {
                base.copyMemory(from: from, byteCount: source.count)
            }
        }
    }

    /// Bytes written in place: `body` gets `capacity` bytes of uninitialised memory and returns how many of
    /// them it filled (a file read straight into the buffer, with no copy afterwards).
    public init(capacity: Int, initializingWith body: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        precondition(capacity >= 0, "Bytes capacity must not be negative")
        let storage = ByteStorage.allocate(capacity)
        let filled = try body(UnsafeMutableRawBufferPointer(start: storage.base, count: capacity))
        precondition((0...capacity).contains(filled), "Bytes initializer filled \(filled) of \(capacity) bytes")
        storage.count = filled
        self.storage = storage
    }

    /// A copy of the `count` bytes at `pointer` (hosts read a script's buffer this way, on the JS thread).
    public init(copying pointer: UnsafeRawPointer?, count: Int) {
        let storage = ByteStorage.allocate(pointer == nil ? 0 : count)
        if let pointer, let base = storage.base { base.copyMemory(from: pointer, byteCount: count) }
        self.storage = storage
    }

    /// Bytes over memory that someone else owns and keeps unchanged while this value (or a copy) lives; `release`
    /// runs, on whatever thread drops the last copy, when it may reclaim the memory. Hosts lend a script's large
    /// buffer to an action this way instead of copying it.
    public init(borrowing pointer: UnsafeRawPointer, count: Int, release: @escaping @Sendable () -> Void) {
        storage = ByteStorage(borrowing: UnsafeMutableRawPointer(mutating: pointer), count: count, release: release)
    }

    /// Bytes decoded from base64 (standard or URL alphabet, padding optional); nil when `text` is not base64
    /// (``Base64/decode(_:)``).
    public init?(base64Encoded text: String) {
        guard let bytes = Base64.decode(text) else { return nil }
        self.init(bytes)
    }

    /// The number of bytes.
    public var count: Int { storage.count }

    /// Runs `body` over the bytes (valid only during the call).
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
    }

    /// The bytes as standard base64 with padding: their form in plain JSON.
    public func base64EncodedString() -> String {
        withUnsafeBytes { Base64.encode($0) }
    }

    /// For hosts handing the bytes to JavaScript without a copy: the `malloc`ed buffer and its length, which
    /// the caller now owns (release it with `free`). The buffer is handed over when this value is the only
    /// holder of it, otherwise it is a fresh copy; this value is empty afterwards.
    public mutating func takeMallocedBuffer() -> (pointer: UnsafeMutableRawPointer?, count: Int) {
        let count = storage.count
        defer { self = Bytes() }
        if isKnownUniquelyReferenced(&storage), storage.owned, let base = storage.base {
            storage.base = nil
            storage.count = 0
            return (base, count)
        }
        let copy = count == 0 ? nil : malloc(count)
        if let copy, let base = storage.base { copy.copyMemory(from: base, byteCount: count) }
        return (copy, count)
    }
}

/// The buffer behind ``Bytes``: `malloc`ed memory, freed when the last ``Bytes`` sharing it goes.
///
/// Invariant: `base` and `count` change only while one ``Bytes`` holds the storage (its initialiser, or
/// ``Bytes/takeMallocedBuffer()`` on a uniquely referenced storage), hence `@unchecked Sendable`.
@usableFromInline
final class ByteStorage: @unchecked Sendable {
    @usableFromInline var base: UnsafeMutableRawPointer?
    @usableFromInline var count: Int
    /// Whether `base` was `malloc`ed here (else it is borrowed, or empty).
    let owned: Bool
    /// For borrowed memory: tells the owner it may reclaim it.
    private let release: (@Sendable () -> Void)?

    private init(base: UnsafeMutableRawPointer?, count: Int, owned: Bool) {
        self.base = base
        self.count = count
        self.owned = owned
        self.release = nil
    }

    init(borrowing base: UnsafeMutableRawPointer, count: Int, release: @escaping @Sendable () -> Void) {
        self.base = base
        self.count = count
        self.owned = false
        self.release = release
    }

    static let empty = ByteStorage(base: nil, count: 0, owned: false)

    /// Buffers from this size on are aligned for, and ask for, transparent huge pages: filling a fresh 100 MiB
    /// buffer then takes 50 page faults instead of 25,600 (Benchmarks/README.md, "Files").
    static let hugePageThreshold = 4 << 20

    static func allocate(_ count: Int) -> ByteStorage {
        guard count > 0 else { return ByteStorage(base: nil, count: 0, owned: true) }
        var base: UnsafeMutableRawPointer?
        if count >= hugePageThreshold {
            let huge = 2 << 20
            if posix_memalign(&base, huge, count) == 0, let base {
                _ = madvise(base, count, Int32(MADV_HUGEPAGE))
            }
        } else {
            base = malloc(count)
        }
        guard let base else { fatalError("out of memory allocating \(count) bytes") }
        return ByteStorage(base: base, count: count, owned: true)
    }

    deinit {
        if owned { free(base) } else { release?() }
    }
}

extension Bytes: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < storage.count, "Bytes index out of range")
        return storage.base!.load(fromByteOffset: position, as: UInt8.self)
    }

    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(start: storage.base?.assumingMemoryBound(to: UInt8.self), count: storage.count))
    }
}

extension Bytes: Hashable {
    public static func == (lhs: Bytes, rhs: Bytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.storage === rhs.storage || lhs.count == 0 { return true }
        return memcmp(lhs.storage.base!, rhs.storage.base!, lhs.count) == 0
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension Bytes: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: UInt8...) { self.init(elements) }
}

extension Bytes: CustomStringConvertible {
    public var description: String { "\(count) bytes" }
}

// MARK: - Coding

extension Bytes: Codable {
    /// Decodes the bytes a script sent beside the JSON (through ``JSONValueDecoder/decode(_:from:)-bridge``), or
    /// a base64 string, or an array of byte values.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueDecoderImpl {
            if let found = decoder.context.bytes(at: decoder.node) {
                self = found
                return
            }
            if case .string(let text) = decoder.value, let bytes = Bytes(base64Encoded: text) {
                self = bytes
                return
            }
            if case .array = decoder.value, let values = try? [UInt8](from: decoder) {
                self.init(values)
                return
            }
            throw DecodingError.typeMismatch(
                Bytes.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "expected bytes (a Uint8Array, an ArrayBuffer or a base64 string), got \(decoder.value.kindDescription)"
                ))
        }
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let bytes = Bytes(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected base64 bytes")
            }
            self = bytes
        } else {
            self.init(try container.decode([UInt8].self))
        }
    }

    /// Encodes the bytes beside the JSON (through ``JSONValueEncoder/encodeBridgeValue(_:)``), else as base64.
    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? JSONValueEncoderImpl, encoder.context.collectsBytes {
            encoder.context.collected.append(ByteAttachment(path: encoder.node.jsonPath, bytes: self))
            encoder.storage = .value(.null)
            return
        }
        var container = encoder.singleValueContainer()
        try container.encode(base64EncodedString())
    }
}

// MARK: - Values with bytes beside them

/// One step of a path into a JSON value: an object member or an array position.
public enum JSONPathComponent: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// Bytes travelling beside a JSON value, at `path` in it (where the JSON holds a placeholder).
public struct ByteAttachment: Sendable, Hashable {
    /// Where the bytes belong in the JSON value.
    public var path: [JSONPathComponent]
    /// The bytes.
    public var bytes: Bytes

    public init(path: [JSONPathComponent], bytes: Bytes) {
        self.path = path
        self.bytes = bytes
    }
}

/// A value as it crosses the bridge: JSON plus the bytes that travel beside it.
///
/// As an action's argument type it is the raw arguments with their bytes (read them with ``bytes(at:)``); as a
/// result it answers JSON with bytes in it. Its plain-JSON form (``plainJSON``) has each attachment as a
/// base64 string at its path.
public struct BridgeValue: Sendable, Hashable {
    /// The JSON; each attachment's path holds a placeholder there.
    public var json: JSONValue
    /// The bytes, each with its path in ``json``.
    public var bytes: [ByteAttachment]

    /// A value with `bytes` beside `json`.
    public init(_ json: JSONValue, bytes: [ByteAttachment] = []) {
        self.json = json
        self.bytes = bytes
    }

    /// A value that is only bytes.
    public init(bytes: Bytes) {
        self.json = .null
        self.bytes = [ByteAttachment(path: [], bytes: bytes)]
    }

    /// The value in plain JSON: each attachment written at its path as base64 text.
    public var plainJSON: JSONValue {
        var value = json
        for attachment in bytes {
            value.replace(at: attachment.path[...], with: .string(attachment.bytes.base64EncodedString()))
        }
        return value
    }

    /// The bytes at member `key`: an attachment there, or a base64 string (the plain lane); nil when the
    /// member is missing or null. Throws `DecodingError` for anything else.
    public func bytes(at key: String) throws -> Bytes? {
        if let found = bytes.first(where: { $0.path == [.key(key)] }) { return found.bytes }
        guard case .object(let object) = json, let value = object[key], value != .null else { return nil }
        if case .string(let text) = value, let decoded = Bytes(base64Encoded: text) { return decoded }
        throw DecodingError.typeMismatch(
            Bytes.self,
            DecodingError.Context(
                codingPath: [JSONCodingKey(stringValue: key)],
                debugDescription:
                    "expected bytes (a Uint8Array, an ArrayBuffer or a base64 string), got \(value.kindDescription)"))
    }
}

extension BridgeValue {
    /// Member `key` of the object with the bytes under it (their paths made relative to it); nil when it is
    /// absent or `null`.
    public func member(_ key: String) -> BridgeValue? {
        guard case .object(let object) = json, let value = object[key], value != .null else { return nil }
        guard !bytes.isEmpty else { return BridgeValue(value) }
        let step = JSONPathComponent.key(key)
        return BridgeValue(
            value,
            bytes: bytes.compactMap { attachment in
                guard attachment.path.first == step else { return nil }
                return ByteAttachment(path: Array(attachment.path.dropFirst()), bytes: attachment.bytes)
            })
    }

    /// The bytes at member `key` — beside the JSON (a script's `Uint8Array` or `ArrayBuffer`), or base64 text
    /// where there is no bridge (plain JSON) — or nil when it is absent or `null`; anything else is
    /// `INVALID_ARGUMENT` at `key`.
    public func bytesArgument(_ key: String) throws(BridgeError) -> Bytes? {
        do {
            return try bytes(at: key)
        } catch {
            let kind = json.objectValue?[key]?.kindDescription ?? "nothing"
            throw BridgeError.invalidArgument(at: key, "expected bytes (a Uint8Array or an ArrayBuffer), got \(kind)")
        }
    }
}

extension BridgeValue: Codable {
    /// The raw value with the attachments under the decoder's position (paths made relative to it).
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueDecoderImpl {
            self.init(decoder.value, bytes: decoder.context.bytes(under: decoder.node))
            return
        }
        self.init(try JSONValue(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? JSONValueEncoderImpl, encoder.context.collectsBytes {
            let prefix = encoder.node.jsonPath
            for attachment in bytes {
                encoder.context.collected.append(
                    ByteAttachment(path: prefix + attachment.path, bytes: attachment.bytes))
            }
            encoder.storage = .value(json)
            return
        }
        try plainJSON.encode(to: encoder)
    }
}

extension JSONValue {
    /// Replaces the value at `path` (missing containers are left alone).
    mutating func replace(at path: ArraySlice<JSONPathComponent>, with newValue: JSONValue) {
        guard let first = path.first else {
            self = newValue
            return
        }
        switch (first, self) {
        case (.key(let key), .object(var object)):
            guard var child = object[key] else { return }
            self = .null  // the object is held once while it changes
            child.replace(at: path.dropFirst(), with: newValue)
            object[key] = child
            self = .object(object)
        case (.index(let index), .array(var array)) where array.indices.contains(index):
            self = .null
            array[index].replace(at: path.dropFirst(), with: newValue)
            self = .array(array)
        default:
            return
        }
    }
}

extension CodingPathNode {
    /// The path as JSON path components.
    var jsonPath: [JSONPathComponent] {
        codingPath.map { key in
            if let index = key.intValue, key.stringValue == "Index \(index)" { return .index(index) }
            return .key(key.stringValue)
        }
    }
}

extension JSONDecodingContext {
    /// The attachment at exactly `node`.
    func bytes(at node: CodingPathNode) -> Bytes? {
        guard !attachments.isEmpty else { return nil }
        let path = node.jsonPath
        return attachments.first { $0.path == path }?.bytes
    }

    /// The attachments at or below `node`, with paths relative to it.
    func bytes(under node: CodingPathNode) -> [ByteAttachment] {
        guard !attachments.isEmpty else { return [] }
        let prefix = node.jsonPath
        return attachments.compactMap { attachment in
            guard attachment.path.starts(with: prefix) else { return nil }
            return ByteAttachment(path: Array(attachment.path.dropFirst(prefix.count)), bytes: attachment.bytes)
        }
    }
}

extension JSONValueDecoder {
    /// Decodes `T` from a value with bytes beside it: ``Bytes`` take the attachment at their position,
    /// ``BridgeValue`` the attachments below it, and a ``JSONValue`` sees each attachment under it as base64.
    public func decode<T: Decodable>(_ type: T.Type, from value: BridgeValue) throws -> T {
        guard !value.bytes.isEmpty else { return try decode(T.self, from: value.json) }
        if T.self == BridgeValue.self { return value as! T }
        if T.self == JSONValue.self { return value.plainJSON as! T }
        let context = JSONDecodingContext(userInfo: userInfo)
        context.attachments = value.bytes
        return try context.unwrap(value.json, as: T.self, at: .root)
    }
}

extension JSONValueEncoder {
    /// Encodes `value` with every ``Bytes`` in it beside the JSON (a placeholder at its path) rather than as
    /// base64 inside it.
    public func encodeBridgeValue<T: Encodable>(_ value: T) throws -> BridgeValue {
        if T.self == Bytes.self { return BridgeValue(bytes: value as! Bytes) }
        if T.self == BridgeValue.self { return value as! BridgeValue }
        if let boxed = try JSONBox.special(value, { [] }) { return BridgeValue(boxed) }
        let context = JSONEncodingContext(userInfo: userInfo)
        context.collectsBytes = true
        let encoder = JSONValueEncoderImpl(node: .root, context: context)
        try value.encode(to: encoder)
        guard let storage = encoder.storage else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(T.self) did not encode any values"))
        }
        return BridgeValue(storage.materialized, bytes: context.collected)
    }
}
