/// A JSON value as it crosses the bridge: what JavaScript's `JSON.stringify` can produce.
///
/// Objects keep their keys in insertion order, as JavaScript objects do, so values round-trip unchanged.
public enum JSONValue: Sendable, Hashable {
    /// JSON `null` (JavaScript `null`; `undefined` never crosses).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A JavaScript number (an IEEE 754 double).
    case number(Double)
    /// A string.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// An object with ordered keys.
    case object(JSONObject)
}

/// An ordered JSON object: unique string keys in insertion order.
///
/// Small objects (the common case on the bridge) are searched linearly; larger ones keep a hash index
/// of key positions. Keys compare with Swift `String` equality (canonical equivalence), so two keys that
/// differ only in Unicode normalization are treated as the same key.
/// Equality and hashing ignore key order, as for a dictionary.
public struct JSONObject: Sendable {
    /// The keys, in insertion order.
    public private(set) var keys: [String]
    /// The values, in the same order as `keys`.
    public private(set) var values: [JSONValue]
    /// Key → position; present only once the object has more than `indexThreshold` keys.
    private var positions: [String: Int]?

    /// Above this many keys a hash index is kept; below, a linear scan is faster.
    private static var indexThreshold: Int { 12 }

    /// Creates an empty object.
    public init() {
        keys = []
        values = []
        positions = nil
    }

    /// Creates an object from key-value pairs; a repeated key keeps its first position and its last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// Creates an object from parallel key and value arrays (used by the parser and encoder).
    ///
    /// Duplicate keys are resolved like `JSON.parse`: the first position, the last value.
    init(keys: [String], values: [JSONValue]) {
        precondition(keys.count == values.count)
        if keys.count <= Self.indexThreshold {
            var unique = true
            if keys.count > 1 {
                outer: for i in 1..<keys.count {
                    for j in 0..<i where keys[j] == keys[i] {
                        unique = false
                        break outer
                    }
                }
            }
            if unique {
                self.init(keys: keys, values: values, positions: nil)
                return
            }
        } else {
            var positions = [String: Int](minimumCapacity: keys.count)
            var unique = true
            for (i, key) in keys.enumerated() where positions.updateValue(i, forKey: key) != nil {
                unique = false
                break
            }
            if unique {
                self.init(keys: keys, values: values, positions: positions)
                return
            }
        }
        self.init()
        for i in keys.indices { self[keys[i]] = values[i] }
    }

    private init(keys: [String], values: [JSONValue], positions: [String: Int]?) {
        self.keys = keys
        self.values = values
        self.positions = positions
    }

    /// Creates an object from keys already known to be unique (used by the encoder).
    init(uniqueKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
        if keys.count > Self.indexThreshold {
            var index = [String: Int](minimumCapacity: keys.count)
            for (i, key) in keys.enumerated() { index[key] = i }
            positions = index
        } else {
            positions = nil
        }
    }

    /// The number of keys.
    public var count: Int { keys.count }

    /// Whether the object has no keys.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key` in `keys`, if present.
    @inline(__always)
    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        for i in keys.indices where keys[i] == key { return i }
        return nil
    }

    /// The value for `key`; assigning `nil` removes the key, assigning to a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = position(of: key) else { return nil }
            return values[i]
        }
        set {
            if let newValue {
                if let i = position(of: key) {
                    values[i] = newValue
                } else {
                    append(key, newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Removes `key` and returns its value, or returns `nil` when the key is absent.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let i = position(of: key) else { return nil }
        keys.remove(at: i)
        let old = values.remove(at: i)
        if positions != nil {
            if keys.count <= Self.indexThreshold {
                positions = nil
            } else {
                positions![key] = nil
                for j in i..<keys.count { positions![keys[j]] = j }
            }
        }
        return old
    }

    /// Appends a key known to be absent.
    private mutating func append(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if positions != nil {
            positions![key] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            var index = [String: Int](minimumCapacity: keys.count * 2)
            for (i, k) in keys.enumerated() { index[k] = i }
            positions = index
        }
    }
}

extension JSONObject: Hashable {
    /// Objects are equal when they have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for i in lhs.keys.indices {
            guard let other = rhs[lhs.keys[i]], other == lhs.values[i] else { return false }
        }
        return true
    }

    /// Hashes the key-value pairs independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for i in keys.indices {
            var pairHasher = Hasher()
            pairHasher.combine(keys[i])
            pairHasher.combine(values[i])
            combined = combined &+ pairHasher.finalize()
        }
        hasher.combine(keys.count)
        hasher.combine(combined)
    }
}

extension JSONObject: Sequence {
    /// Iterates the key-value pairs of a `JSONObject` in insertion order.
    public struct Iterator: IteratorProtocol {
        private let keys: [String]
        private let values: [JSONValue]
        private var index = 0

        init(_ object: JSONObject) {
            keys = object.keys
            values = object.values
        }

        /// The next pair, or `nil` at the end.
        public mutating func next() -> (key: String, value: JSONValue)? {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return (keys[index], values[index])
        }
    }

    /// Returns an iterator over the pairs in insertion order.
    public func makeIterator() -> Iterator { Iterator(self) }

    /// The number of pairs.
    public var underestimatedCount: Int { keys.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object from a dictionary literal, keeping the literal's key order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
