import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Bytes → typed model without building the whole JSON tree.
//
// `ModelConvertible.init(jsonBytes:)` first tries `ModelMapping.decodeBytes`: one pass over the top-level
// object that matches each key against the mapping's candidate keys, stores exact-type scalars straight into
// the model and keeps every other value (parsed with `JSONValue(parsing:)` on its own bytes) for the field's
// ordinary decoder. Anything it does not replicate exactly — a syntax error, an escaped or non-ASCII key, a
// repeated key, a candidate overriding a value already stored, very deep values — makes it return nil, and
// the caller runs the tree path (`parseJSON` + `decode`), which then produces the same result or issues as
// it always did. Invalid UTF-8 and escaped lone surrogates are still reported by `checkUnicode`, before any
// field issue, exactly as on the tree path.

/// How the JSON keys of a typed mapping's top-level object map to its fields (for ``ModelMapping``'s direct
/// bytes path); nil when the mapping has a key the direct path does not handle.
@usableFromInline
final class DirectKeys: Sendable {
    /// Key length → slots with a key of that length.
    @usableFromInline let byLength: [[Int]]
    /// Slot → the key's UTF-8 bytes.
    @usableFromInline let keys: [[UInt8]]
    /// Slot → field index.
    @usableFromInline let field: [Int]
    /// Slot → candidate index in that field's keys.
    @usableFromInline let candidate: [Int]

    /// Candidate keys per field; nil unless every key is plain ASCII (no dots, quotes, backslashes or control
    /// characters) and no key is a candidate of two fields.
    init?(_ fieldKeys: [[String]]) {
        var keys: [[UInt8]] = []
        var field: [Int] = []
        var candidate: [Int] = []
        var seen = Set<String>()
        for (f, ks) in fieldKeys.enumerated() {
            for (c, k) in ks.enumerated() {
                let bytes = Array(k.utf8)
                guard !bytes.isEmpty,
                    bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x2E && $0 != 0x22 && $0 != 0x5C }),
                    seen.insert(k).inserted
                else { return nil }
                keys.append(bytes)
                field.append(f)
                candidate.append(c)
            }
        }
        var byLength = [[Int]](repeating: [], count: (keys.map(\.count).max() ?? 0) + 1)
        for (slot, k) in keys.enumerated() { byLength[k.count].append(slot) }
        self.byLength = byLength
        self.keys = keys
        self.field = field
        self.candidate = candidate
    }

    /// The slot of the key `p[0..<n]`, or -1.
    @usableFromInline
    func slot(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        guard n > 0 && n < byLength.count else { return -1 }
        let first = p[0]
        let last = p[n - 1]
        for s in byLength[n] {
            let same = keys[s].withUnsafeBufferPointer {
                $0[0] == first && $0[n - 1] == last && memcmp($0.baseAddress!, p, n) == 0
            }
            if same { return s }
        }
        return -1
    }
}

/// A cursor over JSON bytes for the direct path; every method returns nil (or false) on anything it does not
/// handle, so that the caller falls back to the tree path.
@usableFromInline
struct DirectCursor {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    @usableFromInline var i = 0
    /// Set when a string holds a non-ASCII byte or a `\u` escape: `checkUnicode` must run over the input.
    @usableFromInline var needsUnicodeCheck = false

    /// Deeper nested values go to the tree path: a cutoff of this fast form, within the one nesting limit
    /// (``JSONValue/maxParseDepth``, which the tree path enforces).
    static let maxDepth = min(5_000, JSONValue.maxParseDepth)

    @inlinable
    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        end = buffer.count
    }

    @usableFromInline
    mutating func skipWhitespace() {
        while i < end {
            let c = base[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            i += 1
        }
    }

    /// At `"`: moves past the closing quote; returns the content range and whether it has escapes or
    /// non-ASCII bytes.
    @usableFromInline
    mutating func scanString() -> (start: Int, end: Int, escaped: Bool)? {
        i += 1
        let start = i
        var escaped = false
        while i < end {
            // Eight plain bytes (none of `"`, `\`, < 0x20, ≥ 0x80) at a time.
            while end - i >= 8 {
                let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let quote = x ^ (ones &* 0x22)
                let backslash = x ^ (ones &* 0x5C)
                let special =
                    ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (x &- ones &* 0x20) | x
                if special & highs != 0 { break }
                i += 8
            }
            guard i < end else { break }
            let c = base[i]
            if c == 0x22 {
                i += 1
                return (start, i - 1, escaped)
            }
            if c == 0x5C {
                escaped = true
                i += 1
                guard i < end else { return nil }
                if base[i] == 0x75 { needsUnicodeCheck = true }
            } else if c < 0x20 {
                return nil
            } else if c >= 0x80 {
                needsUnicodeCheck = true
                escaped = true
            }
            i += 1
        }
        return nil
    }

    /// A number (RFC 8259 grammar); integers of up to 15 digits are converted here, others by the JSON parser.
    @usableFromInline
    mutating func number() -> Double? {
        let start = i
        var negative = false
        if base[i] == 0x2D {
            negative = true
            i += 1
            guard i < end else { return nil }
        }
        var value = 0
        var digits = 0
        var simple = true
        let first = base[i]
        if first == 0x30 {
            i += 1
            digits = 1
        } else if first >= 0x31 && first <= 0x39 {
            while i < end, base[i] >= 0x30 && base[i] <= 0x39 {
                value = value &* 10 &+ Int(base[i] &- 0x30)
                digits += 1
                i += 1
            }
        } else {
            return nil
        }
        if i < end && base[i] == 0x2E {
            simple = false
            i += 1
            let digitsStart = i
            while i < end, base[i] >= 0x30 && base[i] <= 0x39 { i += 1 }
            guard i > digitsStart else { return nil }
        }
        if i < end && (base[i] == 0x65 || base[i] == 0x45) {
            simple = false
            i += 1
            if i < end && (base[i] == 0x2B || base[i] == 0x2D) { i += 1 }
            let digitsStart = i
            while i < end, base[i] >= 0x30 && base[i] <= 0x39 { i += 1 }
            guard i > digitsStart else { return nil }
        }
        if simple && digits <= 15 {
            if negative { return value == 0 ? -0.0 : -Double(value) }
            return Double(value)
        }
        guard case .number(let n)? = parseSlice(start, i) else { return nil }
        return n
    }

    /// At `[` or `{`: moves past the matching bracket (strings skipped, depth bounded); returns the start.
    @usableFromInline
    mutating func skipContainer() -> Int? {
        let start = i
        var depth = 0
        while i < end {
            let c = base[i]
            switch c {
            case 0x22:
                guard scanString() != nil else { return nil }
                continue
            case 0x5B, 0x7B:
                depth += 1
                guard depth <= DirectCursor.maxDepth else { return nil }
            case 0x5D, 0x7D:
                depth -= 1
                if depth == 0 {
                    i += 1
                    return start
                }
            default:
                if c >= 0x80 { return nil }
            }
            i += 1
        }
        return nil
    }

    /// `base[start..<end]` parsed on its own.
    @usableFromInline
    func parseSlice(_ start: Int, _ stop: Int) -> JSONValue? {
        try? JSONValue(parsing: UnsafeBufferPointer(start: base + start, count: stop - start))
    }

    /// A literal (`true`, `false`, `null`) at `i`.
    @usableFromInline
    mutating func literal(_ bytes: StaticString) -> Bool {
        let n = bytes.utf8CodeUnitCount
        guard end - i >= n, memcmp(base + i, bytes.utf8Start, n) == 0 else { return false }
        i += n
        return true
    }

    /// The value at `i`, parsed (nil: not handled).
    @usableFromInline
    mutating func value() -> JSONValue? {
        guard i < end else { return nil }
        switch base[i] {
        case 0x22:
            guard let (s, e, escaped) = scanString() else { return nil }
            if escaped { return parseSlice(s - 1, e + 1) }
            return .string(String(decoding: UnsafeBufferPointer(start: base + s, count: e - s), as: UTF8.self))
        case 0x74: return literal("true") ? .bool(true) : nil
        case 0x66: return literal("false") ? .bool(false) : nil
        case 0x6E: return literal("null") ? .null : nil
        case 0x5B, 0x7B:
            guard let start = skipContainer() else { return nil }
            return parseSlice(start, i)
        default:
            return number().map(JSONValue.number)
        }
    }

    /// Moves past the value at `i`, checking it is valid JSON (false: not handled).
    @usableFromInline
    mutating func skipValue() -> Bool {
        guard i < end else { return false }
        switch base[i] {
        case 0x22:
            guard let (s, e, escaped) = scanString() else { return false }
            return !escaped || parseSlice(s - 1, e + 1) != nil
        case 0x74: return literal("true")
        case 0x66: return literal("false")
        case 0x6E: return literal("null")
        case 0x5B, 0x7B:
            guard let start = skipContainer() else { return false }
            return parseSlice(start, i) != nil
        default:
            return number() != nil
        }
    }
}

/// The state of one field while the direct path reads the top-level object.
@usableFromInline
struct DirectFieldState {
    /// The candidate key whose value was taken (-1: none yet).
    @usableFromInline var candidate: Int
    /// Whether that value is null or null-like.
    @usableFromInline var nullish: Bool
    /// Whether it was already stored in the model (otherwise `raw` holds it).
    @usableFromInline var stored: Bool
    @usableFromInline var raw: JSONValue?

    @inlinable
    init(candidate: Int = -1, nullish: Bool = false, stored: Bool = false, raw: JSONValue? = nil) {
        self.candidate = candidate
        self.nullish = nullish
        self.stored = stored
        self.raw = raw
    }
}

extension ModelMapping {
    /// Converts UTF-8 JSON bytes directly (see the top of this file); nil when the tree path must run instead.
    @inlinable
    func decodeBytes(_ buffer: UnsafeBufferPointer<UInt8>, options: ConversionOptions) -> Result<M, ModelError>? {
        guard let direct, before == nil, buffer.count > 0 else { return nil }
        var ctx = ConversionContext(options: options)
        let savedStrict = ctx.strict
        if let strict { ctx.strict = strict }
        var cursor = DirectCursor(buffer)
        var model = M()
        let fieldCount = fields.count
        return withUnsafeTemporaryAllocation(of: DirectFieldState.self, capacity: fieldCount) {
            states -> Result<M, ModelError>? in
            states.initialize(repeating: DirectFieldState())
            defer { states.deinitialize() }
            return withUnsafeTemporaryAllocation(of: Bool.self, capacity: direct.keys.count) {
                seen -> Result<M, ModelError>? in
                seen.initialize(repeating: false)
                guard readObject(&cursor, direct, states, seen, &model, &ctx) else { return nil }
                if cursor.needsUnicodeCheck, let issue = checkUnicode(buffer) {
                    return .failure(ModelError(model: name, issues: [issue]))
                }
                // The fields in order, as `decodeObject` converts them.
                guard ctx.checkDepth() else { return .failure(ModelError(model: name, issues: ctx.issues)) }
                ctx.depth += 1
                for index in 0..<fieldCount {
                    let field = fields[index]
                    let state = states[index]
                    if state.stored { continue }
                    guard let raw = state.raw else {
                        if field.rule.required { field.rule.failMissing(&ctx) }
                        continue
                    }
                    convertFound(field, raw, state.candidate, &model, &ctx)
                }
                ctx.depth -= 1
                ctx.strict = savedStrict
                if ctx.issues.isEmpty, let after { after(&model, &ctx) }
                guard ctx.issues.isEmpty else { return .failure(ModelError(model: name, issues: ctx.issues)) }
                return .success(model)
            }
        }
    }

    /// Reads the top-level object into `states` (and exact-type scalars into `model`); false: not handled.
    @inlinable
    func readObject(
        _ cursor: inout DirectCursor, _ direct: DirectKeys, _ states: UnsafeMutableBufferPointer<DirectFieldState>,
        _ seen: UnsafeMutableBufferPointer<Bool>, _ model: inout M, _ ctx: inout ConversionContext
    ) -> Bool {
        cursor.skipWhitespace()
        guard cursor.i < cursor.end, cursor.base[cursor.i] == 0x7B else { return false }
        cursor.i += 1
        cursor.skipWhitespace()
        if cursor.i < cursor.end, cursor.base[cursor.i] == 0x7D {
            cursor.i += 1
        } else {
            while true {
                // Escaped and non-ASCII keys go to the tree path (keys compare by canonical equivalence there).
                guard cursor.i < cursor.end, cursor.base[cursor.i] == 0x22,
                    let (ks, ke, escaped) = cursor.scanString(), !escaped
                else { return false }
                let slot = direct.slot(cursor.base + ks, ke - ks)
                if slot >= 0 {
                    guard !seen[slot] else { return false }  // a repeated key: the tree path resolves it
                    seen[slot] = true
                }
                cursor.skipWhitespace()
                guard cursor.i < cursor.end, cursor.base[cursor.i] == 0x3A else { return false }
                cursor.i += 1
                cursor.skipWhitespace()
                if slot < 0 {
                    guard cursor.skipValue() else { return false }
                } else {
                    guard let value = cursor.value(),
                        take(value, field: direct.field[slot], candidate: direct.candidate[slot], states, &model, ctx)
                    else { return false }
                }
                cursor.skipWhitespace()
                guard cursor.i < cursor.end else { return false }
                let c = cursor.base[cursor.i]
                cursor.i += 1
                if c == 0x7D { break }
                guard c == 0x2C else { return false }
                cursor.skipWhitespace()
            }
        }
        cursor.skipWhitespace()
        return cursor.i == cursor.end
    }

    /// Records `value` for candidate `candidate` of field `index` when it beats the value taken so far (the
    /// first non-null candidate wins, else the first present); false when the result would depend on a value
    /// already stored in the model.
    @inlinable @inline(__always)
    func take(
        _ value: JSONValue, field index: Int, candidate: Int, _ states: UnsafeMutableBufferPointer<DirectFieldState>,
        _ model: inout M, _ ctx: ConversionContext
    ) -> Bool {
        let nullLike: Bool
        if case .string(let s) = value { nullLike = ctx.isNullLike(s) } else { nullLike = false }
        let nullish: Bool
        if case .null = value { nullish = true } else { nullish = nullLike }
        let state = states[index]
        if state.candidate >= 0 {
            let better =
                state.nullish ? (!nullish || candidate < state.candidate) : (!nullish && candidate < state.candidate)
            guard better else { return true }
            if state.stored { return false }
        }
        let field = fields[index]
        let kind = field.fastKind
        if kind != .none && !nullLike {
            let offset = field.fastOffset
            let done = withUnsafeMutableBytes(of: &model) { p in decodeFast(kind, value, p.baseAddress! + offset) }
            if done {
                states[index] = DirectFieldState(candidate: candidate, nullish: nullish, stored: true, raw: nil)
                return true
            }
        }
        states[index] = DirectFieldState(candidate: candidate, nullish: nullish, stored: false, raw: value)
        return true
    }
}
