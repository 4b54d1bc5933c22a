extension ModuleScanner {
    /// Finds the module's declarations and the edits that make it a function body. With `dynamicOnly`
    /// (CommonJS), only `import(` is rewritten and declarations are ignored.
    func analyze(dynamicOnly: Bool = false) throws(ScanError) -> ModuleAnalysis {
        var analyzer = Analyzer(scanner: self)
        try analyzer.run(dynamicOnly: dynamicOnly)
        return analyzer.result
    }
}

/// The declaration grammar over a scanner's tokens: just enough of ECMAScript's to find names and ranges.
private struct Analyzer {
    let scanner: ModuleScanner
    var result = ModuleAnalysis()
    var count: Int { scanner.tokens.count }

    init(scanner: ModuleScanner) { self.scanner = scanner }

    func start(_ k: Int) -> Int { k < count ? scanner.tokens[k].start : scanner.source.count }
    func end(_ k: Int) -> Int { scanner.tokens[k].end }
    func token(_ k: Int, is literal: StaticString) -> Bool { scanner.token(k, is: literal) }
    func token(_ k: Int, isA kind: ModuleScanner.Kind) -> Bool { scanner.token(k, isA: kind) }
    /// How punctuator `k` changes the bracket depth: +1 for `{ ( [ ${`, −1 for `} ) ]`, else 0.
    func bracketChange(_ k: Int) -> Int {
        if token(k, is: "{") || token(k, is: "(") || token(k, is: "[") || token(k, is: "${") { return 1 }
        if token(k, is: "}") || token(k, is: ")") || token(k, is: "]") { return -1 }
        return 0
    }
    /// A token's text for a message.
    func shown(_ k: Int) -> String { scanner.value(k) ?? (k < count ? scanner.text(k) : "end of input") }

    func fail(_ message: String, _ k: Int) -> ModuleScanner.ScanError {
        ModuleScanner.ScanError(message: message, offset: start(k))
    }

    func expect(_ k: Int, _ literal: StaticString) throws(ModuleScanner.ScanError) -> Int {
        guard token(k, is: literal) else {
            throw fail("Unexpected token '\(shown(k))'; expected '\(literal)'", k)
        }
        return k + 1
    }

    mutating func edit(_ start: Int, _ end: Int, _ replacement: String?) {
        result.edits.append(ModuleAnalysis.Edit(start: start, end: end, replacement: replacement))
    }

    /// A string literal's value or a name (import and export lists take both).
    func name(_ k: Int) throws(ModuleScanner.ScanError) -> String {
        if token(k, isA: .string) { return scanner.stringValue(k) }
        if token(k, isA: .name) { return scanner.text(k) }
        throw fail("Unexpected token '\(shown(k))'", k)
    }

    /// Reads `"specifier" [with {...}] [;]` at `k`; returns the next index.
    mutating func request(_ k: Int) throws(ModuleScanner.ScanError) -> Int {
        guard token(k, isA: .string) else { throw fail("Unexpected token; expected a module specifier string", k) }
        var entry = ModuleAnalysis.Request(specifier: scanner.stringValue(k), offset: start(k), type: nil)
        var k = k + 1
        if (token(k, is: "with") || (token(k, is: "assert") && !scanner.tokens[k].newlineBefore))
            && token(k + 1, is: "{")
        {
            k += 2
            while k < count && !token(k, is: "}") {
                let key = token(k, isA: .string) ? scanner.stringValue(k) : shown(k)
                k = try expect(k + 1, ":")
                guard token(k, isA: .string) else { throw fail("Import attribute values must be strings", k) }
                guard key == "type" else { throw fail("Unsupported import attribute '\(key)'", k - 2) }
                entry.type = scanner.stringValue(k)
                k += 1
                if token(k, is: ",") { k += 1 }
            }
            k = try expect(k, "}")
        }
        if token(k, is: ";") { k += 1 }
        result.requests.append(entry)
        return k
    }

    /// An initializer's end: `,` or `;` or a closing bracket at its own depth, or a line break between two
    /// tokens that cannot continue one expression.
    func skipInitializer(_ first: Int) -> Int {
        var level = 0
        var k = first
        while k < count {
            let token = scanner.tokens[k]
            if token.kind == .punctuator {
                let change = bracketChange(k)
                if change != 0 {
                    if level == 0 && change < 0 { return k }
                    level += change
                } else if level == 0 && (self.token(k, is: ",") || self.token(k, is: ";")) {
                    return k
                }
            } else if level == 0 && k > first && token.newlineBefore {
                let previous = k - 1
                if !self.token(previous, isA: .punctuator) || self.token(previous, is: ")")
                    || self.token(previous, is: "]") || self.token(previous, is: "}")
                {
                    return k
                }
            }
            k += 1
        }
        return k
    }

    /// The names a binding pattern declares, appended to `names`.
    func pattern(_ k: Int, _ names: inout [String]) throws(ModuleScanner.ScanError) -> Int {
        if token(k, isA: .name) {
            names.append(scanner.text(k))
            return k + 1
        }
        let isArray = token(k, is: "[")
        guard isArray || token(k, is: "{") else { throw fail("Unexpected token '\(shown(k))' in a declaration", k) }
        func closes(_ k: Int) -> Bool { isArray ? token(k, is: "]") : token(k, is: "}") }
        var k = k + 1
        while k < count && !closes(k) {
            let first = k
            if token(k, is: ",") {
                k += 1
                continue
            }
            if token(k, is: "...") {
                k = try pattern(k + 1, &names)
            } else if isArray {
                k = try pattern(k, &names)
            } else {
                var key: Int? = k
                if token(k, is: "[") {
                    k = skipInitializer(k + 1) + 1
                    key = nil
                } else {
                    k += 1
                }
                if token(k, is: ":") {
                    k = try pattern(k + 1, &names)
                } else if let key, token(key, isA: .name) {
                    names.append(scanner.text(key))
                }
            }
            if token(k, is: "=") { k = skipInitializer(k + 1) }
            if k == first { throw fail("Unexpected token '\(shown(k))' in a declaration", k) }
        }
        return isArray ? try expect(k, "]") : try expect(k, "}")
    }

    func declarators(_ k: Int, _ names: inout [String]) throws(ModuleScanner.ScanError) -> Int {
        var k = k
        while true {
            k = try pattern(k, &names)
            if token(k, is: "=") { k = skipInitializer(k + 1) }
            if !token(k, is: ",") { return k }
            k += 1
        }
    }

    /// Reads `{ name [as alias], … }` at `j` (an import or export list): the names with their aliases (the name
    /// itself when there is none), and the index after the `}`. An imported string name needs an alias.
    func namedList(_ j: Int, of kind: String) throws(ModuleScanner.ScanError) -> (
        [(name: String, alias: String)], Int
    ) {
        var j = j + 1
        var list: [(name: String, alias: String)] = []
        while j < count && !token(j, is: "}") {
            let name = try self.name(j)
            var alias = name
            j += 1
            if token(j, is: "as") {
                alias = try self.name(j + 1)
                j += 2
            } else if kind == "import" && token(j - 1, isA: .string) {
                throw fail("A string import name needs 'as' and a local name", j - 1)
            }
            list.append((name, alias))
            if token(j, is: ",") {
                j += 1
            } else if !token(j, is: "}") {
                throw fail("Unexpected token '\(shown(j))' in an \(kind) list", j)
            }
        }
        return (list, j + 1)
    }

    mutating func importDeclaration(_ k: Int) throws(ModuleScanner.ScanError) -> Int {
        var j = k + 1
        var bindings: [(imported: String, local: String)] = []
        if !token(j, isA: .string) {
            if (token(j, isA: .name) && !token(j, is: "from")) || (token(j, is: "from") && token(j + 1, is: "from")) {
                bindings.append(("default", scanner.text(j)))
                j += 1
                if token(j, is: ",") { j += 1 }
            }
            if token(j, is: "*") {
                j = try expect(j + 1, "as")
                bindings.append(("*", try name(j)))
                j += 1
            } else if token(j, is: "{") {
                let (list, next) = try namedList(j, of: "import")
                bindings += list.map { ($0.name, $0.alias) }
                j = next
            }
            j = try expect(j, "from")
        }
        let index = result.requests.count
        j = try request(j)
        for binding in bindings {
            result.bindings.append(.init(imported: binding.imported, local: binding.local, request: index))
        }
        edit(start(k), end(j - 1), nil)
        return j
    }

    mutating func exportDeclaration(_ k: Int) throws(ModuleScanner.ScanError) -> Int {
        var j = k + 1
        if token(j, is: "*") {
            j += 1
            var alias: String?
            if token(j, is: "as") {
                alias = try name(j + 1)
                j += 2
            }
            j = try expect(j, "from")
            let index = result.requests.count
            j = try request(j)
            if let alias {
                result.indirect.append(.init(exported: alias, imported: "*", request: index))
            } else {
                result.stars.append(index)
            }
            edit(start(k), end(j - 1), nil)
            return j
        }
        if token(j, is: "{") {
            let (list, next) = try namedList(j, of: "export")
            j = next
            if token(j, is: "from") && token(j, isA: .name) {
                let index = result.requests.count
                j = try request(j + 1)
                for item in list {
                    result.indirect.append(.init(exported: item.alias, imported: item.name, request: index))
                }
            } else {
                if token(j, is: ";") { j += 1 }
                for item in list { result.locals.append(.init(exported: item.alias, local: item.name)) }
            }
            edit(start(k), end(j - 1), nil)
            return j
        }
        if token(j, is: "default") {
            var m = j + 1
            let isAsyncFunction =
                token(m, is: "async") && token(m + 1, is: "function") && !scanner.tokens[m + 1].newlineBefore
            if token(m, is: "function") || token(m, is: "class") || isAsyncFunction {
                if isAsyncFunction { m += 1 }
                m += 1
                if token(m, is: "*") { m += 1 }
                if token(m, isA: .name) && !token(m, is: "extends") {
                    result.locals.append(.init(exported: "default", local: scanner.text(m)))
                    edit(start(k), start(j + 1), nil)
                    return j + 1
                }
            }
            // `export default <expression>` (and anonymous functions and classes): a const of the same length.
            result.locals.append(.init(exported: "default", local: "__jsbD"))
            edit(start(k), end(j), "const __jsbD =")
            return j + 1
        }
        if token(j, is: "var") || token(j, is: "let") || token(j, is: "const") {
            var names: [String] = []
            _ = try declarators(j + 1, &names)
            for name in names { result.locals.append(.init(exported: name, local: name)) }
            edit(start(k), end(k), nil)
            return j
        }
        var m = j
        if token(j, is: "async") && token(j + 1, is: "function") { m += 1 }
        if token(m, is: "function") || token(m, is: "class") {
            m += 1
            if token(m, is: "*") { m += 1 }
            guard token(m, isA: .name) else { throw fail("An exported declaration needs a name", m) }
            result.locals.append(.init(exported: scanner.text(m), local: scanner.text(m)))
            edit(start(k), end(k), nil)
            return j
        }
        throw fail("Unexpected token '\(shown(j))' after 'export'", j)
    }

    mutating func run(dynamicOnly: Bool) throws(ModuleScanner.ScanError) {
        var depth = 0
        var k = 0
        while k < count {
            defer { k += 1 }
            let token = scanner.tokens[k]
            if token.kind == .punctuator {
                depth += bracketChange(k)
                continue
            }
            guard token.kind == .name else { continue }
            if self.token(k, is: "await") {
                result.hasAwait = true
                continue
            }
            let isImport = self.token(k, is: "import")
            guard isImport || self.token(k, is: "export") else { continue }
            if k > 0 && (self.token(k - 1, is: ".") || self.token(k - 1, is: "?.")) { continue }
            if isImport {
                if self.token(k + 1, is: "(") {
                    // `import(...) {` is a method named import (in a class or object literal), not a dynamic
                    // import.
                    var level = 0
                    var m = k + 1
                    while m < count {
                        if self.token(m, is: "(") || self.token(m, is: "[") || self.token(m, is: "{")
                            || self.token(m, is: "${")
                        {
                            level += 1
                        } else if self.token(m, is: ")") || self.token(m, is: "]") || self.token(m, is: "}") {
                            level -= 1
                            if level == 0 { break }
                        }
                        m += 1
                    }
                    if !self.token(m + 1, is: "{") { edit(token.start, token.end, "__jsbI") }
                    continue
                }
                if self.token(k + 1, is: ".") && self.token(k + 2, is: "meta") {
                    if dynamicOnly { continue }
                    edit(token.start, end(k + 2), "__jsbMeta__")
                    result.moduleSyntax = true
                    k += 2
                    continue
                }
                if depth != 0 || dynamicOnly || self.token(k + 1, is: ":") || self.token(k + 1, is: "=") { continue }
                result.moduleSyntax = true
                k = try importDeclaration(k) - 1
            } else {
                if depth != 0 || dynamicOnly || self.token(k + 1, is: ":") || self.token(k + 1, is: "=")
                    || self.token(k + 1, is: "(")
                {
                    continue
                }
                result.moduleSyntax = true
                k = try exportDeclaration(k) - 1
            }
        }
    }
}
