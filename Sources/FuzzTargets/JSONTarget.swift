import JSBridgeBase

extension FuzzTargets {
    /// The JSON reader.
    ///
    /// - Parsing the bytes and parsing them decoded as a `String` agree (the bytes parser replaces invalid
    ///   UTF-8 inside strings as `String(decoding:)` does, and rejects it elsewhere, as the `String` parser
    ///   rejects U+FFFD there).
    /// - ``EncodedJSON/init(validating:)`` accepts exactly what the parser accepts, up to
    ///   ``EncodedJSON/maxDepth`` levels of nesting (the runtime hands deeper text to the parser).
    /// - Parse → serialise → parse gives the same value (non-finite numbers, which `JSON.stringify` writes as
    ///   `null`, excepted) and the same text again; `serializedUTF8()` is `serialized()`'s UTF-8.
    public static func json(_ bytes: [UInt8]) {
        let fromBytes = try? JSONValue(parsing: bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        let fromText = try? JSONValue(parsing: text)
        precondition(
            (fromBytes == nil) == (fromText == nil), "bytes and text parsing disagree on acceptance")
        if let fromBytes, let fromText { precondition(fromBytes == fromText, "bytes and text parsing disagree") }

        let validated = EncodedJSON(validating: text)
        guard let value = fromText else {
            precondition(validated == nil, "EncodedJSON accepts text the parser rejects")
            return
        }
        let shape = Shape(value)
        if shape.depth <= EncodedJSON.maxDepth {
            precondition(validated != nil, "EncodedJSON rejects valid JSON within its depth")
        } else {
            precondition(validated == nil, "EncodedJSON accepts JSON deeper than its depth")
        }

        let serialized = value.serialized()
        precondition(value.serializedUTF8() == Array(serialized.utf8), "serializedUTF8 differs from serialized")
        let reparsed: JSONValue
        do {
            reparsed = try JSONValue(parsing: serialized)
        } catch {
            preconditionFailure("the serializer wrote text the parser rejects: \(error)")
        }
        if !shape.hasNonFinite { precondition(reparsed == value, "parse → serialise → parse changed the value") }
        precondition(reparsed.serialized() == serialized, "serialising the reparsed value changed the text")
        if shape.depth <= EncodedJSON.maxDepth {
            precondition(EncodedJSON(validating: serialized) != nil, "EncodedJSON rejects the serializer's text")
        }
    }

    /// The nesting depth of a value (containers), and whether it holds a non-finite number; walked without
    /// recursion, since parsed values may nest ``JSONValue/maxParseDepth`` deep.
    struct Shape {
        var depth = 0
        var hasNonFinite = false

        init(_ value: JSONValue) {
            var stack: [(JSONValue, Int)] = [(value, 0)]
            while let (value, level) = stack.popLast() {
                switch value {
                case .array(let items):
                    depth = max(depth, level + 1)
                    for item in items { stack.append((item, level + 1)) }
                case .object(let object):
                    depth = max(depth, level + 1)
                    for (_, item) in object { stack.append((item, level + 1)) }
                case .number(let number):
                    if !number.isFinite { hasNonFinite = true }
                default: break
                }
            }
        }
    }
}
