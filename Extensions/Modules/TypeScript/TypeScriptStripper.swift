/// TypeScript's erasable syntax replaced by whitespace, as Node's type stripping does (docs/running-scripts.md,
/// "TypeScript").
///
/// Types, interfaces, type aliases, `as`/`satisfies`, non-null `!`, generics, `declare`, overloads, access
/// modifiers and type-only imports and exports become spaces; line breaks stay, so every line and column of
/// the output is the source's and stack traces point at the `.ts` text without a source map. Syntax that
/// has run-time meaning in TypeScript (enums, namespaces with values, parameter properties, `import x =`,
/// `export =`) cannot be erased and is a ``StripError``. Nothing is type-checked.
///
/// It reads the tokens of ``ModuleScanner`` (one lexer for JavaScript's lexical grammar: strings, templates,
/// regular expressions, comments) and recognises the TypeScript constructs with a small recursive walk over
/// them: statements and expressions are not parsed, only the places where types can appear.
struct TypeScriptStripper {
    /// Syntax that cannot be stripped: `message` at UTF-16 offset `offset`, with Node's error `code`.
    struct StripError: Error, Equatable {
        var message: String
        var offset: Int
        var code: String

        static let unsupported = "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX"
        static let invalid = "ERR_INVALID_TYPESCRIPT_SYNTAX"
    }

    /// The stripped text of `source`, or nil when it has nothing to erase (use `source` as it is). Text the
    /// lexer rejects (an unterminated string, say) is returned as it is too: the engine reports it as the
    /// JavaScript syntax error it is.
    static func strip(_ source: UnsafeBufferPointer<UInt16>) throws(StripError) -> [UInt16]? {
        let scanner: ModuleScanner
        do throws(ModuleScanner.ScanError) {
            scanner = try ModuleScanner(source, typeScript: true)
        } catch {
            return nil
        }
        var stripper = TypeScriptStripper(scanner)
        _ = try stripper.scan(0, stripper.count, until: .end)
        return stripper.output
    }

    /// The stripped text of `source` (the text itself when nothing is erased).
    static func strip(_ source: String) throws(StripError) -> String {
        let units = Array(source.utf16)
        let stripped = try units.withUnsafeBufferPointer { buffer throws(StripError) in try strip(buffer) }
        return stripped.map { String(decoding: $0, as: UTF16.self) } ?? source
    }

    // MARK: - State

    private let scanner: ModuleScanner
    private let tokens: [ModuleScanner.Token]
    private let count: Int
    /// For each opening bracket token (`(`, `[`, `{`, `${`), the index of its closing token; else -1.
    private var match: [Int]
    /// The source with the erasures so far, made on the first one.
    private var output: [UInt16]?

    private init(_ scanner: ModuleScanner) {
        self.scanner = scanner
        self.tokens = scanner.tokens
        self.count = tokens.count
        var match = [Int](repeating: -1, count: tokens.count)
        var open: [Int] = []
        for k in tokens.indices where tokens[k].kind == .punctuator {
            let length = tokens[k].end - tokens[k].start
            let c = scanner.source[tokens[k].start]
            if (length == 1 && (c == 40 || c == 91 || c == 123)) || (length == 2 && c == 36) {
                open.append(k)
            } else if length == 1 && (c == 41 || c == 93 || c == 125), let opener = open.popLast() {
                match[opener] = k
            }
        }
        // An unclosed bracket runs to the end (the engine reports it).
        for opener in open { match[opener] = tokens.count }
        self.match = match
    }

    // MARK: - Tokens

    private func `is`(_ k: Int, _ literal: StaticString) -> Bool { scanner.token(k, is: literal) }

    private func isName(_ k: Int) -> Bool { k >= 0 && k < count && tokens[k].kind == .name }

    private func newline(_ k: Int) -> Bool { k < count && tokens[k].newlineBefore }

    /// The closing token of the bracket at `k` (the end for an unclosed one).
    private func close(_ k: Int) -> Int { min(match[k] < 0 ? k : match[k], count) }

    /// Names after which an expression starts rather than ends (`return (a: T) => a`, `typeof x`).
    private func isOperatorKeyword(_ k: Int) -> Bool {
        switch tokens[k].end - tokens[k].start {
        case 2: return `is`(k, "in") || `is`(k, "of") || `is`(k, "do")
        case 3: return `is`(k, "new")
        case 4: return `is`(k, "void") || `is`(k, "case") || `is`(k, "else")
        case 5: return `is`(k, "throw") || `is`(k, "yield") || `is`(k, "await")
        case 6: return `is`(k, "return") || `is`(k, "typeof") || `is`(k, "delete")
        case 7: return `is`(k, "extends") || `is`(k, "default")
        case 10: return `is`(k, "instanceof")
        default: return false
        }
    }

    /// Whether the token before `k` ends an operand, so that `k` continues an expression (`x!`, `x as T`,
    /// `f<T>(…)`) rather than starting one.
    private func afterOperand(_ k: Int) -> Bool {
        let p = k - 1
        guard p >= 0 else { return false }
        switch tokens[p].kind {
        case .name: return !isOperatorKeyword(p)
        case .number, .string, .regex, .template: return true
        case .punctuator: return `is`(p, ")") || `is`(p, "]") || `is`(p, "}")
        }
    }

    // MARK: - Erasing

    /// Replaces tokens `first...last` (and what lies between them) by spaces, keeping line breaks.
    private mutating func erase(_ first: Int, _ last: Int) {
        guard first <= last, first < count else { return }
        let from = tokens[first].start
        let to = tokens[min(last, count - 1)].end
        if output == nil { output = Array(scanner.source) }
        for offset in from..<to where !ModuleScanner.isNewline(output![offset]) { output![offset] = 32 }
    }

    /// Erases a whole statement or class member, leaving a `;` where it began: the code before it may rely on
    /// a line break that no longer ends a statement (`a = b` then `interface I {}` then `(c)`).
    private mutating func eraseStatement(_ first: Int, _ last: Int) {
        erase(first, last)
        if first < count { output![tokens[first].start] = 59 }
    }

    /// The index after `k` when `k` is a `;`, else `k`.
    private func semicolon(_ k: Int) -> Int { `is`(k, ";") ? k + 1 : k }

    private func unsupported(_ what: String, at k: Int) -> StripError {
        StripError(
            message: "TypeScript \(what) is not supported in strip-only mode",
            offset: k < count ? tokens[k].start : scanner.source.count, code: StripError.unsupported)
    }

    private func invalid(_ message: String, at k: Int) -> StripError {
        StripError(
            message: message, offset: k < count ? tokens[k].start : scanner.source.count, code: StripError.invalid)
    }

    // MARK: - Types (skipped, never rewritten inside)

    /// The index after the type starting at `k`, or nil when none starts there.
    private func skipType(_ k: Int, conditional: Bool = true) -> Int? {
        var j = k
        if `is`(j, "abstract") && `is`(j + 1, "new") { j += 1 }
        let constructor = `is`(j, "new")
        if constructor { j += 1 }
        var generic = false
        if `is`(j, "<") {
            guard let end = angleEnd(j) else { return nil }
            j = end + 1
            generic = true
        }
        // A function type's return type is read as its context reads types (no conditional inside `extends`).
        if `is`(j, "("), `is`(close(j) + 1, "=>"), generic || looksLikeParameters(j) {
            return skipType(close(j) + 2, conditional: conditional)
        }
        if constructor || generic { return nil }
        guard var end = union(j) else { return nil }
        if conditional && `is`(end, "extends") && !newline(end) {
            guard let test = skipType(end + 1, conditional: false), `is`(test, "?"), let yes = skipType(test + 1),
                `is`(yes, ":"),
                let no = skipType(yes + 1)
            else { return nil }
            end = no
        }
        return end
    }

    /// Whether the `(` at `k` opens a function type's parameters rather than a parenthesised type (`(|A)`), as
    /// TypeScript tells them: empty, a rest, a pattern, `this`, or a name followed by `:`, `?`, `,`, `=` or `)`.
    private func looksLikeParameters(_ k: Int) -> Bool {
        let j = k + 1
        if j == close(k) || `is`(j, "...") || `is`(j, "{") || `is`(j, "[") { return true }
        guard isName(j) else { return false }
        return `is`(j + 1, ":") || `is`(j + 1, "?") || `is`(j + 1, ",") || `is`(j + 1, "=") || j + 1 == close(k)
    }

    private func union(_ k: Int) -> Int? {
        var j = k
        if `is`(j, "|") || `is`(j, "&") { j += 1 }
        while true {
            guard let end = operand(j) else { return nil }
            j = end
            guard `is`(j, "|") || `is`(j, "&") else { return j }
            j += 1
        }
    }

    private func operand(_ k: Int) -> Int? {
        var j = k
        while (`is`(j, "keyof") || `is`(j, "unique") || `is`(j, "readonly")) && startsType(j + 1) { j += 1 }
        if `is`(j, "infer") && isName(j + 1) {
            j += 2
            if `is`(j, "extends"), let constraint = skipType(j + 1, conditional: false), !`is`(constraint, "?") {
                j = constraint
            }
            return postfix(j)
        }
        guard j < count else { return nil }
        switch tokens[j].kind {
        case .name:
            if `is`(j, "asserts") && isName(j + 1) && !newline(j + 1) && !`is`(j + 1, "is") {
                j += 2
                return `is`(j, "is") ? skipType(j + 1) : j
            }
            if `is`(j, "typeof") {
                j += 1
                if `is`(j, "import") && `is`(j + 1, "(") { j = close(j + 1) + 1 } else { j += 1 }
            } else if `is`(j, "import") && `is`(j + 1, "(") {
                j = close(j + 1) + 1
            } else {
                j += 1
            }
            while `is`(j, ".") && isName(j + 1) { j += 2 }
            if `is`(j, "<"), let end = typeArguments(j) { j = end + 1 }
            if `is`(j, "is") && !newline(j) { return skipType(j + 1) }
        case .string, .number:
            j += 1
        case .template:
            while `is`(j + 1, "${") && tokens[j + 1].start == tokens[j].end { j = close(j + 1) + 1 }
            j += 1
        case .punctuator:
            if `is`(j, "-") && j + 1 < count && tokens[j + 1].kind == .number {
                j += 2
            } else if `is`(j, "(") || `is`(j, "[") || `is`(j, "{") {
                j = close(j) + 1
            } else {
                return nil
            }
        case .regex:
            return nil
        }
        return postfix(j)
    }

    /// Array and indexed-access suffixes (`T[]`, `T["k"]`), which may not start a new line.
    private func postfix(_ k: Int) -> Int {
        var j = k
        while `is`(j, "[") && !newline(j) { j = close(j) + 1 }
        return j
    }

    private func startsType(_ k: Int) -> Bool {
        guard k < count else { return false }
        switch tokens[k].kind {
        case .name, .string, .number, .template: return true
        case .punctuator: return `is`(k, "(") || `is`(k, "[") || `is`(k, "{") || `is`(k, "-")
        case .regex: return false
        }
    }

    /// The closing `>` of type arguments `<A, B>` opening at `k`, or nil when they are not types
    /// (`a < b && c > d`).
    private func typeArguments(_ k: Int) -> Int? {
        var j = k + 1
        while true {
            guard let end = skipType(j) else { return nil }
            if `is`(end, ">") { return end }
            guard `is`(end, ",") else { return nil }
            j = end + 1
        }
    }

    /// The closing `>` of type parameters `<T extends U = V, const W>` opening at `k`, counted leniently.
    private func angleEnd(_ k: Int) -> Int? {
        var depth = 0
        var j = k
        while j < count {
            if `is`(j, "<") {
                depth += 1
            } else if `is`(j, ">") {
                depth -= 1
                if depth == 0 { return j }
            } else if `is`(j, "(") || `is`(j, "[") || `is`(j, "{") || `is`(j, "${") {
                j = close(j)
            } else if `is`(j, ";") || `is`(j, ")") || `is`(j, "]") || `is`(j, "}") {
                return nil
            }
            j += 1
        }
        return nil
    }

    /// A type that must be at `k` (after an annotation's `:`): the index after it.
    private func requiredType(_ k: Int) throws(StripError) -> Int {
        guard let end = skipType(k) else { throw invalid("Type expected", at: k) }
        return end
    }

    // MARK: - Walking code

    /// Where a walk stops early: at the end of its range only, at a `,` (a parameter's default value, an
    /// object literal's entry), or at the end of a declaration or class field (`,`/`;`, or a line break that
    /// ends it).
    private enum Stop { case end, comma, declaration, member }

    /// Walks tokens `k..<end` (code: statements or an expression), erasing what is TypeScript's; returns
    /// where it stopped.
    private mutating func scan(_ start: Int, _ end: Int, until stop: Stop) throws(StripError) -> Int {
        var k = start
        while k < end {
            switch stop {
            case .end: break
            case .comma: if `is`(k, ",") { return k }
            case .declaration:
                if `is`(k, ",") || `is`(k, ";") { return k }
                if newline(k) && k > start && afterOperand(k) && tokens[k].kind != .punctuator { return k }
            case .member:
                if `is`(k, ";") { return k }
                if newline(k) && k > start && afterOperand(k) && (tokens[k].kind != .punctuator || `is`(k, "@")) {
                    return k
                }
            }
            let token = tokens[k]
            switch token.kind {
            case .name:
                k = try name(k, end)
            case .punctuator:
                k = try punctuator(k, end)
            default:
                k += 1
            }
        }
        return k
    }

    /// A name in code: declarations and the TypeScript operators (`as`, `satisfies`, `f<T>(…)`).
    private mutating func name(_ k: Int, _ end: Int) throws(StripError) -> Int {
        let property = k > 0 && (`is`(k - 1, ".") || `is`(k - 1, "?."))
        let sameLine = !newline(k + 1)
        if !property {
            switch tokens[k].end - tokens[k].start {
            case 2:
                if `is`(k, "as") && afterOperand(k) && !newline(k) { return try erasedOperator(k) }
            case 3:
                if `is`(k, "let") || `is`(k, "var") { return try declaration(k, end) }
            case 4:
                if `is`(k, "type") && isName(k + 1) && sameLine && (`is`(k + 2, "=") || `is`(k + 2, "<")) {
                    let last = try typeAlias(k)
                    eraseStatement(k, last)
                    return last + 1
                }
                if `is`(k, "enum") && isName(k + 1) && sameLine { throw unsupported("enum", at: k) }
            case 5:
                if `is`(k, "const") {
                    if `is`(k + 1, "enum") && sameLine { throw unsupported("enum", at: k) }
                    return try declaration(k, end)
                }
                if `is`(k, "class") { return try classDeclaration(k) }
            case 6:
                if `is`(k, "import") && !`is`(k + 1, "(") && !`is`(k + 1, ".") { return try importDeclaration(k) }
                if `is`(k, "export") { return try exportDeclaration(k, end) }
                if `is`(k, "module") && sameLine && (isName(k + 1) || token(k + 1, .string)) && !newline(k + 1) {
                    return try namespace(k, start: k)
                }
            case 7:
                if `is`(k, "declare") && sameLine && isDeclarationKeyword(k + 1) {
                    let last = try declare(k)
                    eraseStatement(k, last)
                    return last + 1
                }
            case 8:
                if `is`(k, "function") { return try function(k, start: k) }
                if `is`(k, "abstract") && `is`(k + 1, "class") && sameLine {
                    erase(k, k)
                    return try classDeclaration(k + 1)
                }
            case 9:
                if `is`(k, "interface") && isName(k + 1) && sameLine {
                    let last = try interface(k)
                    eraseStatement(k, last)
                    return last + 1
                }
                if `is`(k, "namespace") && isName(k + 1) && sameLine { return try namespace(k, start: k) }
                if `is`(k, "satisfies") && afterOperand(k) && !newline(k) { return try erasedOperator(k) }
            default: break
            }
        }
        // Type arguments of a call or an instantiation: `f<T>(x)`, `new Map<K, V>()`, but not `a < b > c`.
        if `is`(k + 1, "<") && !isOperatorKeyword(k), let last = typeArguments(k + 1), followsTypeArguments(last + 1) {
            // `async <T>(x: T) =>` is a generic arrow function (the `<` is read as its type parameters).
            let arrow = `is`(last + 1, "(") && (`is`(close(last + 1) + 1, "=>") || `is`(close(last + 1) + 1, ":"))
            if !(`is`(k, "async") && arrow) {
                erase(k + 1, last)
                return last + 1
            }
        }
        return k + 1
    }

    private func token(_ k: Int, _ kind: ModuleScanner.Kind) -> Bool { k < count && tokens[k].kind == kind }

    private func isDeclarationKeyword(_ k: Int) -> Bool {
        guard isName(k) else { return false }
        for keyword: StaticString in [
            "const", "let", "var", "function", "class", "enum", "namespace", "module", "global", "abstract",
            "interface", "type", "async",
        ] where `is`(k, keyword) {
            return true
        }
        return false
    }

    /// Whether `k` may follow type arguments in an expression (as TypeScript decides it).
    private func followsTypeArguments(_ k: Int) -> Bool {
        guard k < count else { return true }
        if tokens[k].kind == .template || `is`(k, "(") { return true }
        if newline(k) { return true }
        return `is`(k, ")") || `is`(k, "]") || `is`(k, ";") || `is`(k, ",") || `is`(k, "}") || `is`(k, "?.")
            || `is`(k, "=")
    }

    /// `x as T`, `x satisfies T` at the operator `k`: erases the operator and the type.
    private mutating func erasedOperator(_ k: Int) throws(StripError) -> Int {
        let end = try requiredType(k + 1)
        erase(k, end - 1)
        return end
    }

    private mutating func punctuator(_ k: Int, _ end: Int) throws(StripError) -> Int {
        let c = scanner.source[tokens[k].start]
        let single = tokens[k].end - tokens[k].start == 1
        if single && c == 40 { return try parenthesis(k) }  // (
        if single && c == 91 || !single && c == 36 {  // [ ${
            _ = try scan(k + 1, close(k), until: .end)
            return close(k) + 1
        }
        if single && c == 123 {  // {
            if opensObjectLiteral(k) {
                try objectLiteral(k)
            } else {
                _ = try scan(k + 1, close(k), until: .end)
            }
            return close(k) + 1
        }
        // Not the second `<` of `<<`, nor after a postfix `++`/`--`.
        let shift = `is`(k - 1, "<") && tokens[k - 1].end == tokens[k].start
        let startsOperand = !afterOperand(k) && !`is`(k - 1, "++") && !`is`(k - 1, "--") && !shift
        if single && c == 60 && (startsOperand || `is`(k - 1, "async")) {  // < starting an operand
            guard let last = angleEnd(k), `is`(last + 1, "(") else {
                throw unsupported("type assertion with angle brackets (use 'as')", at: k)
            }
            let closing = close(last + 1)
            guard `is`(closing + 1, "=>") || `is`(closing + 1, ":") else {
                throw unsupported("type assertion with angle brackets (use 'as')", at: k)
            }
            erase(k, last)
            // `async <\n T\n>(x) =>` and `return <\n T\n>(x) =>`: a line break may not follow `async` (or
            // `return`), so the parameters' `(` moves to where the `<` was.
            if (k + 1...last + 1).contains(where: { tokens[$0].newlineBefore }) {
                output![tokens[k].start] = 40
                output![tokens[last + 1].start] = 32
            }
            return try parenthesis(last + 1, arrow: true)
        }
        // Type arguments after a parenthesised or indexed operand: `(f!)<T>(x)`, `fs[0]<T>()`.
        if single && c == 60 && (`is`(k - 1, ")") || `is`(k - 1, "]")), let last = typeArguments(k),
            followsTypeArguments(last + 1)
        {
            erase(k, last)
            return last + 1
        }
        // Non-null `x!` (not `x != y`, not `!x` at the start of a line).
        if single && c == 33 && afterOperand(k) && !`is`(k - 1, "}") && !tokens[k].newlineBefore {
            let next = tokens[k].end
            if next >= scanner.source.count || scanner.source[next] != 61 {
                erase(k, k)
            }
        }
        return k + 1
    }

    /// A parenthesised group at `k`: an arrow function's parameters (`(a: T): R =>`), `catch (e: unknown)`, or
    /// an expression / a call's arguments.
    private mutating func parenthesis(_ k: Int, arrow: Bool = false) throws(StripError) -> Int {
        let closing = close(k)
        let call = afterOperand(k) && !`is`(k - 1, "async") && !`is`(k - 1, "catch")
        if !call || arrow {
            if `is`(closing + 1, "=>") || `is`(k - 1, "catch") {
                try parameters(k)
                return closing + 1
            }
            if `is`(closing + 1, ":"), let end = skipType(closing + 2), `is`(end, "=>") {
                try parameters(k)
                erase(closing + 1, end - 1)
                // A return type over several lines would leave a line break before `=>`, which an arrow
                // function may not have: the `)` moves to the type's last character.
                if (closing + 1...end).contains(where: { tokens[$0].newlineBefore }) {
                    output![tokens[closing].start] = 32
                    output![tokens[end - 1].end - 1] = 41
                }
                return end
            }
        }
        _ = try scan(k + 1, closing, until: .end)
        return closing + 1
    }

    /// Whether the `{` at `k` opens an object literal (else a block).
    private func opensObjectLiteral(_ k: Int) -> Bool {
        let p = k - 1
        guard p >= 0 else { return false }
        if tokens[p].kind == .punctuator {
            if `is`(p, ")") || `is`(p, "]") || `is`(p, "}") || `is`(p, "{") || `is`(p, ";") || `is`(p, "=>") {
                return false
            }
            if `is`(p, ":") { return looksLikeObject(k) }
            return true
        }
        if tokens[p].kind == .name { return isOperatorKeyword(p) && !`is`(p, "else") && !`is`(p, "do") }
        return false
    }

    /// After a `:` (a property's value, or a `case`/label's statement): whether the braces' first entry reads
    /// as an object literal's.
    private func looksLikeObject(_ k: Int) -> Bool {
        let closing = close(k)
        var j = k + 1
        if j >= closing || `is`(j, "...") { return true }
        if (`is`(j, "get") || `is`(j, "set") || `is`(j, "async")) && !`is`(j + 1, "(") && !`is`(j + 1, ":") {
            j += 1
        }
        if `is`(j, "*") { j += 1 }
        if `is`(j, "[") {
            j = close(j)
        } else if !(isName(j) || token(j, .string) || token(j, .number)) {
            return false
        }
        j += 1
        if `is`(j, "(") { return `is`(close(j) + 1, "{") || `is`(close(j) + 1, ":") }
        return `is`(j, ":") || `is`(j, ",") || j == closing || `is`(j, "<")
    }

    /// An object literal (or object pattern) `{…}` at `k`: methods with typed parameters and return types.
    private mutating func objectLiteral(_ k: Int) throws(StripError) {
        let closing = close(k)
        var j = k + 1
        while j < closing {
            if `is`(j, ",") {
                j += 1
                continue
            }
            if `is`(j, "...") {
                j = try scan(j + 1, closing, until: .comma)
                continue
            }
            let start = j
            while (`is`(j, "get") || `is`(j, "set") || `is`(j, "async")) && isKey(j + 1) { j += 1 }
            if `is`(j, "*") { j += 1 }
            if `is`(j, "[") {
                _ = try scan(j + 1, close(j), until: .end)
                j = close(j) + 1
            } else {
                j += 1
            }
            if `is`(j, "(") || `is`(j, "<") {
                j = try functionRest(j, body: true) ?? j
            } else if `is`(j, ":") || `is`(j, "=") {
                j = try scan(j + 1, closing, until: .comma)
            } else {
                j = try scan(start, closing, until: .comma)
                if j == start { j += 1 }
            }
        }
    }

    /// Whether a property or member key can start at `k` (after `get`, `static`, a modifier…).
    private func isKey(_ k: Int) -> Bool {
        guard k < count, !newline(k) else { return false }
        switch tokens[k].kind {
        case .name, .string, .number: return true
        case .punctuator: return `is`(k, "[") || `is`(k, "*")
        default: return false
        }
    }

    /// `let`/`const`/`var` at `k`: each binding's `!` and type annotation.
    private mutating func declaration(_ k: Int, _ end: Int) throws(StripError) -> Int {
        var j = k + 1
        guard isName(j) || `is`(j, "{") || `is`(j, "[") else { return j }
        while true {
            if `is`(j, "{") {
                try objectLiteral(j)
                j = close(j) + 1
            } else if `is`(j, "[") {
                _ = try scan(j + 1, close(j), until: .end)
                j = close(j) + 1
            } else if isName(j) {
                j += 1
            } else {
                return j
            }
            if `is`(j, "!") && `is`(j + 1, ":") {
                erase(j, j)
                j += 1
            }
            if `is`(j, ":") {
                let typeEnd = try requiredType(j + 1)
                erase(j, typeEnd - 1)
                j = typeEnd
            }
            if `is`(j, "=") { j = try scan(j + 1, end, until: .declaration) }
            guard `is`(j, ",") else { return j }
            j += 1
        }
    }

    /// The parameter list `(…)` at `k`: annotations, `?`, `this` parameters; parameter properties are errors.
    private mutating func parameters(_ k: Int) throws(StripError) {
        let closing = close(k)
        var j = k + 1
        while j < closing {
            if `is`(j, ",") {
                j += 1
                continue
            }
            while `is`(j, "@") {  // decorators stay (they are JavaScript)
                j = decoratorName(j + 1)
                if `is`(j, "(") {
                    _ = try scan(j + 1, close(j), until: .end)
                    j = close(j) + 1
                }
            }
            if isAccessModifier(j) || `is`(j, "readonly") || `is`(j, "override"),
                isName(j + 1) || `is`(j + 1, "{") || `is`(j + 1, "[")
            {
                throw unsupported("parameter property", at: j)
            }
            if `is`(j, "this") && `is`(j + 1, ":") {
                let typeEnd = try requiredType(j + 2)
                erase(j, `is`(typeEnd, ",") ? typeEnd : typeEnd - 1)
                j = typeEnd + (`is`(typeEnd, ",") ? 1 : 0)
                continue
            }
            if `is`(j, "...") { j += 1 }
            if `is`(j, "{") {
                try objectLiteral(j)
                j = close(j) + 1
            } else if `is`(j, "[") {
                _ = try scan(j + 1, close(j), until: .end)
                j = close(j) + 1
            } else if isName(j) {
                j += 1
            } else {
                j = try scan(j, closing, until: .comma)
                continue
            }
            if `is`(j, "?") {
                erase(j, j)
                j += 1
            }
            if `is`(j, ":") {
                let typeEnd = try requiredType(j + 1)
                erase(j, typeEnd - 1)
                j = typeEnd
            }
            if `is`(j, "=") { j = try scan(j + 1, closing, until: .comma) }
            if j < closing && !`is`(j, ",") { j = try scan(j, closing, until: .comma) }
        }
    }

    /// The index after a decorator's dotted name starting at `k`.
    private func decoratorName(_ k: Int) -> Int {
        var j = k + 1
        while `is`(j, ".") && isName(j + 1) { j += 2 }
        return j
    }

    private func isAccessModifier(_ k: Int) -> Bool {
        `is`(k, "public") || `is`(k, "private") || `is`(k, "protected")
    }

    /// A function's rest from `k` (its type parameters or `(`): parameters, return type and body. Returns the
    /// index after the body, or nil for a signature without one (an overload, an abstract method) when
    /// `body` is false; the signature's last token is then in `signatureEnd`.
    private mutating func functionRest(_ k: Int, body: Bool) throws(StripError) -> Int? {
        var j = k
        if `is`(j, "<") {
            guard let last = angleEnd(j) else { throw invalid("'>' expected", at: j) }
            erase(j, last)
            j = last + 1
        }
        guard `is`(j, "(") else { return j }
        let closing = close(j)
        try parameters(j)
        j = closing + 1
        if `is`(j, ":") {
            let typeEnd = try requiredType(j + 1)
            erase(j, typeEnd - 1)
            j = typeEnd
        }
        if `is`(j, "{") {
            _ = try scan(j + 1, close(j), until: .end)
            return close(j) + 1
        }
        signatureEnd = j - 1
        return body ? j : nil
    }

    /// The last token of the signature `functionRest` returned nil for.
    private var signatureEnd = 0

    /// `function` at `k` (declared from `start`: `export`, `export default`, `async`): an overload signature
    /// is erased whole.
    private mutating func function(_ k: Int, start: Int) throws(StripError) -> Int {
        var j = k + 1
        if `is`(j, "*") { j += 1 }
        if isName(j) { j += 1 }
        if let end = try functionRest(j, body: false) { return end }
        let last = `is`(signatureEnd + 1, ";") ? signatureEnd + 1 : signatureEnd
        eraseStatement(start, last)
        return last + 1
    }

    // MARK: - Classes

    /// `class` at `k`: type parameters, type arguments of `extends`, `implements`, and the members.
    private mutating func classDeclaration(_ k: Int) throws(StripError) -> Int {
        var j = k + 1
        if isName(j) && !`is`(j, "extends") && !`is`(j, "implements") { j += 1 }
        if `is`(j, "<") {
            guard let last = angleEnd(j) else { throw invalid("'>' expected", at: j) }
            erase(j, last)
            j = last + 1
        }
        if `is`(j, "extends") {
            j += 1
            while j < count && !`is`(j, "{") && !`is`(j, "implements") {
                if `is`(j, "(") || `is`(j, "[") {
                    _ = try scan(j + 1, close(j), until: .end)
                    j = close(j) + 1
                } else if `is`(j, "<"), let last = typeArguments(j) {
                    erase(j, last)
                    j = last + 1
                } else {
                    j += 1
                }
            }
        }
        if `is`(j, "implements") {
            let first = j
            while j < count && !`is`(j, "{") {
                if `is`(j, "<"), let last = angleEnd(j) { j = last }
                j += 1
            }
            erase(first, j - 1)
        }
        guard `is`(j, "{") else { return j }
        try classBody(j)
        return close(j) + 1
    }

    /// Whether the name at `k` is used as a modifier: a member's key follows on the same line.
    private func isModifier(_ k: Int) -> Bool { isKey(k + 1) }

    private mutating func classBody(_ k: Int) throws(StripError) {
        let closing = close(k)
        var j = k + 1
        while j < closing {
            if `is`(j, ";") {
                j += 1
                continue
            }
            let start = j
            while `is`(j, "@") {  // decorators stay
                j = decoratorName(j + 1)
                if `is`(j, "(") {
                    _ = try scan(j + 1, close(j), until: .end)
                    j = close(j) + 1
                }
            }
            var ambient = false  // `declare` / `abstract`: the whole member goes
            while isName(j) && isModifier(j) {
                if isAccessModifier(j) || `is`(j, "readonly") || `is`(j, "override") {
                    erase(j, j)
                } else if `is`(j, "declare") || `is`(j, "abstract") {
                    ambient = true
                } else if !(`is`(j, "static") || `is`(j, "async") || `is`(j, "get") || `is`(j, "set")
                    || `is`(j, "accessor"))
                {
                    break
                }
                j += 1
            }
            if `is`(j, "*") { j += 1 }
            if `is`(j, "static") && `is`(j + 1, "{") {
                _ = try scan(j + 2, close(j + 1), until: .end)
                j = close(j + 1) + 1
                continue
            }
            if `is`(j, "[") && isName(j + 1) && `is`(j + 2, ":") {  // an index signature
                let typeEnd = try requiredType(close(j) + 2)
                let last = `is`(typeEnd, ";") || `is`(typeEnd, ",") ? typeEnd : typeEnd - 1
                eraseStatement(start, last)
                j = last + 1
                continue
            }
            if `is`(j, "[") {
                _ = try scan(j + 1, close(j), until: .end)
                j = close(j) + 1
            } else {
                j += 1
            }
            if `is`(j, "?") || `is`(j, "!") {
                erase(j, j)
                j += 1
            }
            if `is`(j, "(") || `is`(j, "<") {
                // A method with a body stays; a signature without one (an overload, an abstract method) goes.
                if let end = try functionRest(j, body: false) {
                    j = end
                    continue
                }
                let last = `is`(signatureEnd + 1, ";") ? signatureEnd + 1 : signatureEnd
                eraseStatement(start, last)
                j = last + 1
                continue
            }
            if `is`(j, ":") {
                let typeEnd = try requiredType(j + 1)
                erase(j, typeEnd - 1)
                j = typeEnd
            }
            if `is`(j, "=") { j = try scan(j + 1, closing, until: .member) }
            if ambient {
                let last = `is`(j, ";") ? j : j - 1
                eraseStatement(start, last)
                j = last + 1
                continue
            }
            if j == start { j += 1 }
        }
    }

    // MARK: - Declarations that are only types

    /// `type A<T> = …` at `k`: its last token.
    private func typeAlias(_ k: Int) throws(StripError) -> Int {
        var j = k + 2
        if `is`(j, "<") {
            guard let last = angleEnd(j) else { throw invalid("'>' expected", at: j) }
            j = last + 1
        }
        guard `is`(j, "=") else { throw invalid("'=' expected", at: j) }
        return semicolon(try requiredType(j + 1)) - 1
    }

    /// `interface I<T> extends A, B {…}` at `k`: its last token.
    private func interface(_ k: Int) throws(StripError) -> Int {
        var j = k + 2
        while j < count && !`is`(j, "{") {
            if `is`(j, "<"), let last = angleEnd(j) { j = last }
            j += 1
        }
        guard j < count else { throw invalid("'{' expected", at: k) }
        return semicolon(close(j) + 1) - 1
    }

    /// `declare …` at `k`: the last token of the declaration.
    private func declare(_ k: Int) throws(StripError) -> Int {
        var j = k + 1
        if `is`(j, "type") { return try typeAlias(j) }
        if `is`(j, "interface") { return try interface(j) }
        if `is`(j, "const") || `is`(j, "let") || `is`(j, "var") {
            if `is`(j + 1, "enum") { return try braces(j + 1) }
            j += 1
            while true {
                j = `is`(j, "{") || `is`(j, "[") ? close(j) + 1 : j + 1
                if `is`(j, ":") { j = try requiredType(j + 1) }
                if `is`(j, "=") { j = skipType(j + 1) ?? j + 2 }
                guard `is`(j, ",") else { break }
                j += 1
            }
            return semicolon(j) - 1
        }
        if `is`(j, "async") { j += 1 }
        if `is`(j, "function") {
            j += 1
            if `is`(j, "*") { j += 1 }
            j += 1
            if `is`(j, "<"), let last = angleEnd(j) { j = last + 1 }
            if `is`(j, "(") { j = close(j) + 1 }
            if `is`(j, ":") { j = try requiredType(j + 1) }
            return semicolon(j) - 1
        }
        return try braces(j)
    }

    /// A declaration ending with a body in braces (`class`, `enum`, `namespace`, `module`, `global`) from
    /// `k`, or with a line's end (`declare module "x";`): its last token.
    private func braces(_ k: Int) throws(StripError) -> Int {
        var j = k + 1
        while j < count && !`is`(j, "{") && !`is`(j, ";") && !(newline(j) && !`is`(j, "{")) {
            if `is`(j, "<"), let last = angleEnd(j) { j = last }
            j += 1
        }
        if `is`(j, "{") { return semicolon(close(j) + 1) - 1 }
        return `is`(j, ";") ? j : j - 1
    }

    /// `namespace A.B {…}` / `module A {…}` at `k` (declared from `start`): erased when it declares only
    /// types, else an error (its values would need TypeScript's code generation).
    private mutating func namespace(_ k: Int, start: Int) throws(StripError) -> Int {
        var j = k + 1
        while j < count && !`is`(j, "{") && !`is`(j, ";") { j += 1 }
        if `is`(j, "{") { try requireTypesOnly(j, keyword: k) }
        let last = `is`(j, "{") ? semicolon(close(j) + 1) - 1 : j
        eraseStatement(start, last)
        return last + 1
    }

    /// Throws (at `keyword`) unless the braces at `k` hold only type declarations.
    private func requireTypesOnly(_ k: Int, keyword: Int) throws(StripError) {
        let closing = close(k)
        var j = k + 1
        while j < closing {
            if `is`(j, ";") {
                j += 1
                continue
            }
            if `is`(j, "export") { j += 1 }
            if `is`(j, "type") && isName(j + 1) {
                j = try typeAlias(j) + 1
            } else if `is`(j, "interface") {
                j = try interface(j) + 1
            } else if `is`(j, "declare") {
                j = try declare(j) + 1
            } else if `is`(j, "namespace") || `is`(j, "module") {
                var open = j
                while open < closing && !`is`(open, "{") { open += 1 }
                try requireTypesOnly(open, keyword: keyword)
                j = close(open) + 1
            } else if `is`(j, "import") && `is`(j + 1, "type") {
                while j < closing && !`is`(j, ";") && !(newline(j) && tokens[j].kind == .name) { j += 1 }
            } else {
                throw unsupported("namespace declaration", at: keyword)
            }
        }
    }

    // MARK: - Imports and exports

    /// `import` at `k`: type-only imports and specifiers; `import x = …` is an error.
    private mutating func importDeclaration(_ k: Int) throws(StripError) -> Int {
        var j = k + 1
        let typeOnly =
            `is`(j, "type") && !`is`(j + 1, "from") && !`is`(j + 1, ",") && !`is`(j + 1, "=")
            || `is`(j, "type") && `is`(j + 1, "from") && `is`(j + 2, "from")
        if typeOnly {
            while j < count && !token(j, .string) { j += 1 }
            if `is`(j + 1, ")") { j += 1 }  // import type x = require("y")
            if `is`(j + 1, "with") || `is`(j + 1, "assert") { j = close(j + 2) }
            let last = semicolon(j + 1) - 1
            eraseStatement(k, last)
            return last + 1
        }
        if isName(j) && `is`(j + 1, "=") { throw unsupported("import equals declaration", at: k) }
        while j < count && !token(j, .string) && !`is`(j, ";") {
            if `is`(j, "{") {
                specifiers(j)
                j = close(j)
            }
            j += 1
        }
        return j
    }

    /// Erases the `type X` specifiers (and their commas) of the braces at `k`.
    private mutating func specifiers(_ k: Int) {
        let closing = close(k)
        var j = k + 1
        while j < closing {
            let start = j
            var typeOnly = false
            if `is`(j, "type") && !`is`(j + 1, ",") && j + 1 != closing
                && !(`is`(j + 1, "as") && (`is`(j + 2, ",") || j + 2 == closing))
            {
                typeOnly = true
                j += 1
            }
            j += 1
            if `is`(j, "as") { j += 2 }
            if typeOnly { erase(start, `is`(j, ",") ? j : j - 1) }
            if `is`(j, ",") { j += 1 }
            if j == start { j += 1 }
        }
    }

    /// `export` at `k`: type-only exports and exported TypeScript declarations.
    private mutating func exportDeclaration(_ k: Int, _ end: Int) throws(StripError) -> Int {
        var j = k + 1
        if `is`(j, "=") { throw unsupported("export assignment", at: k) }
        if `is`(j, "import") && isName(j + 1) && `is`(j + 2, "=") {
            throw unsupported("import equals declaration", at: k)
        }
        if `is`(j, "type") && (`is`(j + 1, "{") || `is`(j + 1, "*")) {
            j = `is`(j + 1, "{") ? close(j + 1) + 1 : j + 2
            if `is`(j, "as") { j += 2 }
            if `is`(j, "from") { j += 2 }
            let last = semicolon(j) - 1
            eraseStatement(k, last)
            return last + 1
        }
        if `is`(j, "as") && `is`(j + 1, "namespace") {
            let last = semicolon(j + 3) - 1
            eraseStatement(k, last)
            return last + 1
        }
        if `is`(j, "{") {
            specifiers(j)
            return close(j) + 1
        }
        if `is`(j, "default") { j += 1 }
        if `is`(j, "type") && isName(j + 1) && (`is`(j + 2, "=") || `is`(j + 2, "<")) {
            let last = try typeAlias(j)
            eraseStatement(k, last)
            return last + 1
        }
        if `is`(j, "interface") && isName(j + 1) {
            let last = try interface(j)
            eraseStatement(k, last)
            return last + 1
        }
        if `is`(j, "declare") && isDeclarationKeyword(j + 1) {
            let last = try declare(j)
            eraseStatement(k, last)
            return last + 1
        }
        if `is`(j, "enum") || `is`(j, "const") && `is`(j + 1, "enum") { throw unsupported("enum", at: j) }
        if `is`(j, "namespace") || `is`(j, "module") && isName(j + 1) { return try namespace(j, start: k) }
        if `is`(j, "abstract") && `is`(j + 1, "class") {
            erase(j, j)
            return try classDeclaration(j + 1)
        }
        if `is`(j, "async") && `is`(j + 1, "function") { return try function(j + 1, start: k) }
        if `is`(j, "function") { return try function(j, start: k) }
        return j
    }
}
