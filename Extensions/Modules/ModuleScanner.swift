/// The ES module loader's scanner (js/esm.js loads the graph; this finds what each module declares).
///
/// JavaScriptCore's C API has no module loader, so the loader rewrites each module into a function body. This
/// tokenizer and analyser find a module's import and export declarations, `import.meta` and `import(`, and
/// the edits that turn it into that body keeping every line and column. It works on the UTF-16 code units
/// JavaScriptCore holds, so offsets are JS string indices. It lives in Swift because it runs once per module
/// at start-up, where interpreted JS is at its slowest.
struct ModuleScanner {
    /// What a token is; comments and whitespace make none.
    enum Kind: UInt8 {
        case name = 1, punctuator, string, template, regex, number
    }

    /// One token: its kind, its range of code units, and whether a line break came before it.
    struct Token {
        var kind: Kind
        var start: Int
        var end: Int
        var newlineBefore: Bool
    }

    /// A malformed module: `message` at code unit `offset` (the loader reports its line and column).
    struct ScanError: Error, Equatable {
        var message: String
        var offset: Int
    }

    let source: UnsafeBufferPointer<UInt16>
    private(set) var tokens: [Token] = []

    /// Whether `!` right after an operand is TypeScript's non-null assertion (`x! / 2` divides), not `!`.
    private let typeScript: Bool

    /// Tokenizes `source` (which must outlive the scanner); `typeScript` for TypeScript's text.
    init(_ source: UnsafeBufferPointer<UInt16>, typeScript: Bool = false) throws(ScanError) {
        self.source = source
        self.typeScript = typeScript
        tokens.reserveCapacity(source.count / 4)
        try tokenize()
    }

    /// The code unit at `index`, or 0 past the end (which matches no character class below).
    @inline(__always)
    private func unit(_ index: Int) -> UInt16 { index < source.count ? source[index] : 0 }

    /// The text of token `k`.
    func text(_ k: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: source[tokens[k].start..<tokens[k].end]), as: UTF16.self)
    }

    /// The text of token `k` when it is a name or punctuator (what a declaration's grammar looks at), else nil.
    func value(_ k: Int) -> String? {
        guard k < tokens.count, tokens[k].kind == .name || tokens[k].kind == .punctuator else { return nil }
        return text(k)
    }

    /// Whether token `k` is the name or punctuator `literal` (ASCII).
    func token(_ k: Int, is literal: StaticString) -> Bool {
        guard k >= 0, k < tokens.count else { return false }
        let token = tokens[k]
        guard token.kind == .name || token.kind == .punctuator,
            token.end - token.start == literal.utf8CodeUnitCount
        else { return false }
        return literal.withUTF8Buffer { bytes in
            for offset in 0..<bytes.count where source[token.start + offset] != UInt16(bytes[offset]) {
                return false
            }
            return true
        }
    }

    /// Whether token `k` is of `kind` (false past the end).
    func token(_ k: Int, isA kind: Kind) -> Bool { k < tokens.count && tokens[k].kind == kind }

    static func isNameChar(_ c: UInt16) -> Bool {
        (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c == 95 || c == 36 || c == 92
            || c >= 128
    }

    static func isNewline(_ c: UInt16) -> Bool { c == 10 || c == 13 || c == 0x2028 || c == 0x2029 }

    private static func isDigit(_ c: UInt16) -> Bool { c >= 48 && c <= 57 }

    /// Names after which a `/` starts a regular expression (after any other name it divides).
    private func regexMayFollowName(_ k: Int) -> Bool {
        switch tokens[k].end - tokens[k].start {
        case 2: return token(k, is: "in") || token(k, is: "of") || token(k, is: "do")
        case 3: return token(k, is: "new")
        case 4: return token(k, is: "void") || token(k, is: "case") || token(k, is: "else")
        case 5: return token(k, is: "throw") || token(k, is: "yield") || token(k, is: "await")
        case 6: return token(k, is: "return") || token(k, is: "typeof") || token(k, is: "delete")
        case 7: return token(k, is: "extends")
        case 10: return token(k, is: "instanceof")
        default: return false
        }
    }

    /// Whether token `k` can end an operand (a postfix `!` may follow it).
    private func endsOperand(_ k: Int) -> Bool {
        switch tokens[k].kind {
        case .name: return !regexMayFollowName(k)
        case .number, .string, .template, .regex: return true
        case .punctuator:
            let c = source[tokens[k].start]
            return tokens[k].end - tokens[k].start == 1 && (c == 41 || c == 93)
        }
    }

    // Template literals are TEMPLATE pieces around the tokens of their `${...}` substitutions (each opened by
    // a "${" and closed by a "}" punctuator).
    private mutating func tokenize() throws(ScanError) {
        let n = source.count
        var templateDepths: [Int] = []  // the brace depth at which each open `${` closes
        var depth = 0
        var i = 0
        var newline = false
        var regexAllowed = true

        func push(_ kind: Kind, _ start: Int, _ end: Int) {
            tokens.append(Token(kind: kind, start: start, end: end, newlineBefore: newline))
            newline = false
        }
        // Scans template characters from `from` (after "`" or a substitution's "}"); pushes the piece.
        func template(_ start: Int, _ from: Int) throws(ScanError) -> Int {
            var j = from
            while j < n {
                let c = source[j]
                if c == 92 {
                    j += 2
                    continue
                }
                if c == 96 {
                    push(.template, start, j + 1)
                    return j + 1
                }
                if c == 36 && unit(j + 1) == 123 {
                    push(.template, start, j)
                    push(.punctuator, j, j + 2)
                    depth += 1
                    templateDepths.append(depth)
                    return j + 2
                }
                j += 1
            }
            throw ScanError(message: "Unterminated template literal", offset: start)
        }

        if unit(0) == 35 && unit(1) == 33 {  // #!
            while i < n && !Self.isNewline(source[i]) { i += 1 }
        }
        while i < n {
            let c = source[i]
            if Self.isNewline(c) {
                newline = true
                i += 1
                continue
            }
            if c == 32 || c == 9 || c == 11 || c == 12 || c == 0xa0 || c == 0xfeff {
                i += 1
                continue
            }
            if c == 47 {  // /
                let d = unit(i + 1)
                if d == 47 {
                    while i < n && !Self.isNewline(source[i]) { i += 1 }
                    continue
                }
                if d == 42 {
                    var j = i + 2
                    while j + 1 < n && !(source[j] == 42 && source[j + 1] == 47) {
                        if Self.isNewline(source[j]) { newline = true }
                        j += 1
                    }
                    if j + 1 >= n { throw ScanError(message: "Unterminated comment", offset: i) }
                    i = j + 2
                    continue
                }
                if regexAllowed {
                    var j = i + 1
                    var inClass = false
                    while j < n {
                        let r = source[j]
                        if r == 92 {
                            j += 2
                            continue
                        }
                        if Self.isNewline(r) {
                            throw ScanError(message: "Invalid regular expression: missing /", offset: i)
                        }
                        if r == 91 {
                            inClass = true
                        } else if r == 93 {
                            inClass = false
                        } else if r == 47 && !inClass {
                            break
                        }
                        j += 1
                    }
                    j = min(j + 1, n)
                    while j < n && Self.isNameChar(source[j]) { j += 1 }
                    push(.regex, i, j)
                    i = j
                    regexAllowed = false
                    continue
                }
                let end = d == 61 ? i + 2 : i + 1
                push(.punctuator, i, end)
                i = end
                regexAllowed = true
                continue
            }
            if c == 39 || c == 34 {  // ' "
                var j = i + 1
                while j < n {
                    let s = source[j]
                    if s == 92 {
                        j += 2
                        continue
                    }
                    if s == c { break }
                    if s == 10 || s == 13 { throw ScanError(message: "Unterminated string literal", offset: i) }
                    j += 1
                }
                if j >= n { throw ScanError(message: "Unterminated string literal", offset: i) }
                push(.string, i, j + 1)
                i = j + 1
                regexAllowed = false
                continue
            }
            if c == 96 {  // `
                i = try template(i, i + 1)
                regexAllowed = false
                continue
            }
            if c == 125, let last = templateDepths.last, last == depth {
                templateDepths.removeLast()
                depth -= 1
                push(.punctuator, i, i + 1)
                i = try template(i + 1, i + 1)
                regexAllowed = false
                continue
            }
            if (Self.isNameChar(c) && !Self.isDigit(c)) || c == 35 {  // names, keywords, #private
                var j = i + 1
                while j < n && Self.isNameChar(source[j]) { j += 1 }
                push(.name, i, j)
                i = j
                regexAllowed = regexMayFollowName(tokens.count - 1)
                continue
            }
            if Self.isDigit(c) || (c == 46 && Self.isDigit(unit(i + 1))) {
                var j = i + 1
                while j < n {
                    let d = source[j]
                    if Self.isNameChar(d) || d == 46 {
                        j += 1
                    } else if (d == 43 || d == 45) && (source[j - 1] == 101 || source[j - 1] == 69) {
                        j += 1
                    } else {
                        break
                    }
                }
                push(.number, i, j)
                i = j
                regexAllowed = false
                continue
            }
            // Punctuators: the few multi-character ones that matter here, else one character.
            var end = i + 1
            let d = unit(i + 1)
            if c == 46 && d == 46 && unit(i + 2) == 46 {
                end = i + 3  // ...
            } else if c == 61 && d == 62 {
                end = i + 2  // =>
            } else if c == 63 && d == 46 && !Self.isDigit(unit(i + 2)) {
                end = i + 2  // ?.
            } else if (c == 43 || c == 45) && d == c {
                end = i + 2  // ++ --
            }
            push(.punctuator, i, end)
            if c == 123 {
                depth += 1
            } else if c == 125 {
                depth -= 1
            }
            // After `)` `]` `++` `--` a `/` divides; after `}` (a block's end, usually) a regular expression may
            // start.
            regexAllowed = !(c == 41 || c == 93 || ((c == 43 || c == 45) && end == i + 2))
            if typeScript && c == 33 && !tokens[tokens.count - 1].newlineBefore && tokens.count >= 2 {
                regexAllowed = !endsOperand(tokens.count - 2)
            }
            i = end
        }
        if !templateDepths.isEmpty { throw ScanError(message: "Unterminated template literal", offset: n) }
    }

    /// The value of string literal token `k`.
    func stringValue(_ k: Int) -> String {
        let token = tokens[k]
        var units: [UInt16] = []
        units.reserveCapacity(token.end - token.start)
        var j = token.start + 1
        let end = token.end - 1
        func hex(_ from: Int, _ to: Int) -> UInt32? {
            guard from < to, to <= end else { return nil }
            var value: UInt32 = 0
            for index in from..<to {
                let c = source[index]
                let digit: UInt16
                switch c {
                case 48...57: digit = c - 48
                case 65...70: digit = c - 55
                case 97...102: digit = c - 87
                default: return nil
                }
                value = value &* 16 &+ UInt32(digit)
                if value > 0x10FFFF { return nil }
            }
            return value
        }
        while j < end {
            let c = source[j]
            guard c == 92, j + 1 < end else {
                units.append(c)
                j += 1
                continue
            }
            let e = source[j + 1]
            j += 2
            switch e {
            case 117:  // u
                if unit(j) == 123, let close = (j..<end).first(where: { source[$0] == 125 }),
                    let scalar = hex(j + 1, close).flatMap(Unicode.Scalar.init)
                {
                    units.append(contentsOf: scalar.utf16)
                    j = close + 1
                } else if let value = hex(j, j + 4) {
                    units.append(UInt16(value))
                    j += 4
                } else {
                    units.append(e)
                }
            case 120:  // x
                if let value = hex(j, j + 2) {
                    units.append(UInt16(value))
                    j += 2
                } else {
                    units.append(e)
                }
            case 110: units.append(10)  // n
            case 116: units.append(9)  // t
            case 114: units.append(13)  // r
            case 98: units.append(8)  // b
            case 102: units.append(12)  // f
            case 118: units.append(11)  // v
            case 48: units.append(0)  // 0
            case 10: break  // a line continuation
            case 13: if unit(j) == 10 { j += 1 }
            default: units.append(e)
            }
        }
        return String(decoding: units, as: UTF16.self)
    }
}
