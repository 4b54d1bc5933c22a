extension EngineExtension {
    /// The TypeScript declarations of the extension's natives, as members of `JSBridgeInternal` (its
    /// `natives.d.ts`): the TypeScript check of the engine's JavaScript reads these, so a native renamed on one
    /// side only fails it.
    package var nativesTypeScript: String {
        var text = """
            // The natives of the `\(name)` engine extension, written from its Swift declaration.
            // Do not edit: change the declaration (the test suite checks that this file matches it).

            interface JSBridgeInternal {

            """
        for native in natives.sorted(by: { $0.name < $1.name }) {
            let readonly = native.signature.hasPrefix(":") ? "readonly " : ""
            text += "  \(readonly)\(native.name)\(native.signature);\n"
        }
        return text + "}\n"
    }
}
