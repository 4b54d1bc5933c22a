/// What a module's source declares, and the edits that turn it into a function body (``ModuleScanner``).
struct ModuleAnalysis: Equatable {
    /// An import or export-from declaration's module request.
    struct Request: Equatable {
        var specifier: String
        /// Where the specifier's string literal starts (code units), for errors that name its line and column.
        var offset: Int
        /// The `type` import attribute (`with { type: "json" }`), if any.
        var type: String?
    }

    /// An imported binding: `imported` (`"*"` for a namespace) of request `request`, seen as `local`.
    struct Binding: Equatable {
        var imported: String
        var local: String
        var request: Int
    }

    /// A local export: `local` exported as `exported`.
    struct LocalExport: Equatable {
        var exported: String
        var local: String
    }

    /// A re-export: `imported` (`"*"` for `export * as`) of request `request`, exported as `exported`.
    struct IndirectExport: Equatable {
        var exported: String
        var imported: String
        var request: Int
    }

    /// A rewrite of `start..<end`: `replacement` (nil: none), padded with spaces to the original's length
    /// (line breaks kept).
    struct Edit: Equatable {
        var start: Int
        var end: Int
        var replacement: String?
    }

    /// Module requests in source order.
    var requests: [Request] = []
    var bindings: [Binding] = []
    var locals: [LocalExport] = []
    var indirect: [IndirectExport] = []
    /// Request indices of `export * from`.
    var stars: [Int] = []
    /// Non-overlapping, in source order.
    var edits: [Edit] = []
    /// Whether any import/export declaration or `import.meta` appears.
    var moduleSyntax = false
    /// Whether the name `await` appears outside strings and comments (a hint of top-level await).
    var hasAwait = false

    /// `source` with the edits applied: the same length, every line break where it was.
    func rewrite(_ source: UnsafeBufferPointer<UInt16>) -> [UInt16] {
        var text = Array(source)
        for edit in edits {
            let replacement = Array((edit.replacement ?? "").utf16)
            for index in edit.start..<edit.end {
                let offset = index - edit.start
                if offset < replacement.count {
                    text[index] = replacement[offset]
                } else if !ModuleScanner.isNewline(source[index]) {
                    text[index] = 32
                }
            }
        }
        return text
    }
}
