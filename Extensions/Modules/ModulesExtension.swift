import JSBridge
import JSBridgeNode

/// The `modules` engine extension: the main script and `require`/`import` as Node 22 loads them — CommonJS
/// and ES modules (decided by extension, package `"type"` or syntax), `node_modules` packages with `exports`
/// and `main`, JSON modules, `import.meta`, dynamic `import()` and top-level await (docs/architecture.md, "ES
/// modules and packages"). Without it, a runtime runs its main script as a classic script.
public enum ModulesExtension {
    static let declaration = EngineExtension("modules", requires: [.node], state: { $0 }) { ext in
        ext.script(.eager("module.js", PackageResources.module_js))
        ext.script(.lazy("resolve.js", PackageResources.resolve_js, internals: ["resolveBare"]))
        ext.script(.lazy("esm.js", PackageResources.esm_js, internals: ["esm", "fileURLToPath"]))
        declareNatives(&ext)
    }
}

extension EngineExtension {
    /// The CommonJS and ES module loaders (``ModulesExtension``).
    public static var modules: EngineExtension { ModulesExtension.declaration }
}
