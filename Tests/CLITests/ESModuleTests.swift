import Foundation
import Testing

// ES modules and package resolution, end to end: each case writes a tree of real files (.mjs/.cjs/.js,
// package.json, node_modules) into a fresh directory and runs the built binary on it. Outputs have that
// directory replaced by `$DIR`.

/// One run of the binary on a tree of files.
struct ModuleCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// Relative path → contents.
    var files: [String: String]
    /// jsbridge's arguments; `$DIR` is the tree's directory.
    var arguments: [String]
    var stdout: String? = nil
    var exitCode: Int32 = 0
    /// Lines that must appear in stderr (exit code 0 and none given: stderr must be empty).
    var stderrContains: [String] = []
    var testDescription: String { name }
}

/// Writes `files` under a new directory, runs jsbridge with `arguments` there, and removes the directory.
func runModuleCase(_ files: [String: String], _ arguments: [String]) async throws -> (RunResult, String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "jsbridge-modules-\(UUID().uuidString)"
    ).resolvingSymlinksInPath().path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for (path, contents) in files {
        let url = URL(fileURLWithPath: directory + "/" + path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: url, atomically: true, encoding: .utf8)
    }
    let expanded = arguments.map { $0.replacingOccurrences(of: "$DIR", with: directory) }
    let result = try await CLI.run(expanded, workingDirectory: directory)
    return (result, directory)
}

@Suite("ES modules and packages") struct ESModuleTests {
    static let cases: [ModuleCase] = [
        ModuleCase(
            name: "static imports, live bindings, default and namespace imports",
            files: [
                "main.mjs": """
                import counter, { count, increment as inc } from "./counter.mjs";
                import * as ns from "./counter.mjs";
                console.log(count, ns.count);
                inc();
                inc();
                console.log(count, ns.count, counter.name, Object.keys(ns).join(","), ns[Symbol.toStringTag]);
                try { ns.count = 5; } catch (error) { console.log(error.constructor.name); }
                """,
                "counter.mjs": """
                export let count = 0;
                export function increment() { count += 1; }
                export default { name: "counter" };
                """,
            ],
            arguments: ["$DIR/main.mjs"],
            stdout: "0 0\n2 2 counter count,default,increment Module\nTypeError\n"),
        ModuleCase(
            name: "cycles: post-order evaluation, hoisted function exports, TDZ for let",
            files: [
                "a.mjs": """
                import { fromB } from "./b.mjs";
                console.log("a runs", fromB);
                export function helper() { return "helper from a"; }
                export let late = "late";
                """,
                "b.mjs": """
                import { helper, late } from "./a.mjs";
                console.log("b runs", helper());
                try { late; } catch (error) { console.log("TDZ:", error instanceof ReferenceError); }
                export const fromB = "b's value";
                """,
            ],
            arguments: ["$DIR/a.mjs"],
            stdout: "b runs helper from a\nTDZ: true\na runs b's value\n"),
        ModuleCase(
            name: "top-level await: the event loop runs meanwhile and siblings do not wait",
            files: [
                "main.mjs": """
                import "./slow.mjs";
                import "./fast.mjs";
                console.log("main");
                """,
                "slow.mjs": """
                console.log("slow start");
                let ticks = 0;
                await new Promise((resolve) => {
                  const timer = setInterval(() => {
                    console.log("tick");
                    if (++ticks === 3) { clearInterval(timer); resolve(); }
                  }, 5);
                });
                console.log("slow end");
                """,
                "fast.mjs": "console.log('fast');\n",
            ],
            arguments: ["$DIR/main.mjs"],
            stdout: nil),
        ModuleCase(
            name: "a main module awaiting a promise that never settles exits with 13 and a warning",
            files: ["main.mjs": "console.log('before');\nawait new Promise(() => {});\nconsole.log('never');\n"],
            arguments: ["$DIR/main.mjs"],
            stdout: "before\n",
            exitCode: 13,
            stderrContains: ["Warning: Detected unsettled top-level await in $DIR/main.mjs"]),
        ModuleCase(
            name: "modules still load after a script replaced the string methods the scanner uses",
            files: [
                "main.mjs": """
                String.prototype.charCodeAt = () => { throw new Error("replaced"); };
                String.prototype.slice = null;
                const m = await import("./lib.mjs");
                console.log(m.value);
                """,
                "lib.mjs": "import { b } from './b.mjs';\nexport const value = `loaded ${b}`;\n",
                "b.mjs": "export const b = 'anyway';\n",
            ],
            arguments: ["$DIR/main.mjs"],
            stdout: "loaded anyway\n"),
        ModuleCase(
            name: "import.meta: url, filename, dirname, resolve, main",
            files: [
                "sub dir/meta.mjs": """
                import { inner } from "./inner.mjs";
                console.log(import.meta.url);
                console.log(import.meta.filename, import.meta.dirname);
                console.log(import.meta.resolve("./x.js"), import.meta.resolve("node:module"));
                console.log(import.meta.main, inner);
                """,
                "sub dir/inner.mjs": "export const inner = import.meta.main;\n",
            ],
            arguments: ["$DIR/sub dir/meta.mjs"],
            stdout: """
                file://$DIR/sub%20dir/meta.mjs
                $DIR/sub dir/meta.mjs $DIR/sub dir
                file://$DIR/sub%20dir/x.js node:module
                true false

                """),
        ModuleCase(
            name: "JSON modules (with and assert), and a JSON import without the attribute",
            files: [
                "main.mjs": """
                import data from "./data.json" with { type: "json" };
                import again from "./data.json" assert { type: "json" };
                console.log(data.items.length, data === again);
                const dynamic = await import("./data.json", { with: { type: "json" } });
                console.log(dynamic.default === data);
                await import("./data.json").catch((error) => console.log(error.code));
                """,
                "data.json": #"{"items": [1, 2, 3]}"#,
            ],
            arguments: ["$DIR/main.mjs"],
            stdout: "3 true\ntrue\nERR_IMPORT_ATTRIBUTE_MISSING\n"),
        ModuleCase(
            name: "dynamic import from CommonJS, from -e code, and of a missing module",
            files: [
                "main.cjs": """
                const path = "./lib.mjs";
                import(path)
                  .then((ns) => console.log("cjs got", ns.value, typeof require))
                  .then(() => import("./missing.mjs"))
                  .catch((error) => console.log(error.code, error.message.includes("main.cjs:4:")));
                """,
                "lib.mjs": "export const value = 42;\n",
            ],
            arguments: ["$DIR/main.cjs"],
            stdout: "cjs got 42 function\nERR_MODULE_NOT_FOUND true\n"),
        ModuleCase(
            name: "-e code with import() stays CommonJS; with import declarations it is a module",
            files: ["lib.mjs": "export default function greet(name) { return `hi ${name}`; }\n"],
            arguments: ["-e", "import('./lib.mjs').then((m) => console.log(m.default('cjs'), typeof require))"],
            stdout: "hi cjs function\n"),
        ModuleCase(
            name: "-e code with an import declaration and top-level await",
            files: ["lib.mjs": "export default function greet(name) { return `hi ${name}`; }\n"],
            arguments: [
                "-e", "import greet from './lib.mjs'; await null; console.log(greet('esm'), typeof require)",
            ],
            stdout: "hi esm function\n"),
        ModuleCase(
            name: "a missing static import names the specifier and the importer's line:column",
            files: ["main.mjs": "import './ok.mjs';\n\nimport { x } from   './missing.mjs';\n", "ok.mjs": ""],
            arguments: ["$DIR/main.mjs"],
            exitCode: 1,
            stderrContains: ["'./missing.mjs'", "imported from $DIR/main.mjs:3:21", "ERR_MODULE_NOT_FOUND"]),
        ModuleCase(
            name: "an import of a name the module does not export",
            files: ["main.mjs": "import { nope } from './lib.mjs';\n", "lib.mjs": "export const yes = 1;\n"],
            arguments: ["$DIR/main.mjs"],
            exitCode: 1,
            stderrContains: ["$DIR/main.mjs:1", "does not provide an export named 'nope'"]),
        ModuleCase(
            name: "a syntax error in an imported module names its file and line",
            files: [
                "main.mjs": "import './broken.mjs';\nconsole.log('never');\n",
                "broken.mjs": "export const a = 1;\n\nconst = 2;\n",
            ],
            arguments: ["$DIR/main.mjs"],
            exitCode: 1,
            stderrContains: ["$DIR/broken.mjs:3", "SyntaxError"]),
        ModuleCase(
            name: "an uncaught error thrown by a module reports its file:line:column",
            files: [
                "main.mjs": "import { a } from './lib.mjs';\nconst b = 1;\n  throw new Error('boom ' + a);\n",
                "lib.mjs": "export const a = 'A';\n",
            ],
            arguments: ["$DIR/main.mjs"],
            exitCode: 1,
            stderrContains: ["$DIR/main.mjs:3:18", "Error: boom A"]),
        ModuleCase(
            name: "positions on line 1 of a module are the source's own",
            files: [
                "main.mjs": "import { a } from './lib.mjs'; throw new Error('first line ' + a);\n",
                "lib.mjs": "export const a = 'A';\n",
            ],
            arguments: ["$DIR/main.mjs"],
            exitCode: 1,
            stderrContains: ["$DIR/main.mjs:1:47", "Error: first line A"]),
        ModuleCase(
            name: "ES module importing CommonJS, JSON from CommonJS, and createRequire",
            files: [
                "main.mjs": """
                import lib, { named } from "./lib.cjs";
                import * as ns from "./lib.cjs";
                import { createRequire, builtinModules, isBuiltin } from "node:module";
                import moduleDefault from "module";
                const require = createRequire(import.meta.url);
                console.log(lib.named, named, ns.default === lib, require("./lib.cjs") === lib);
                console.log(require("./data.json").ok, builtinModules.includes("fs"), isBuiltin("node:path"));
                console.log(isBuiltin("left-pad"), moduleDefault.createRequire === createRequire);
                """,
                "lib.cjs": "exports.named = 'from cjs';\n",
                "data.json": #"{"ok": true}"#,
            ],
            arguments: ["$DIR/main.mjs"],
            stdout: "from cjs from cjs true true\ntrue true true\nfalse true\n"),
        ModuleCase(
            name: "a .js file outside a module package is a module when its syntax says so",
            files: [
                "detect/main.js": "import { kind } from './dep.js';\nconsole.log('detected', kind, typeof module);\n",
                "detect/dep.js": "exports.kind = 'cjs dep';\n",
            ],
            arguments: ["$DIR/detect/main.js"],
            stdout: "detected cjs dep undefined\n"),
        ModuleCase(
            name: "require() of a .js file with module syntax loads it as an ES module",
            files: [
                "main.js": "const ns = require('./esm.js');\nconsole.log(ns.answer, typeof module);\n",
                "esm.js": "export const answer = 42;\n",
            ],
            arguments: ["$DIR/main.js"],
            stdout: "42 object\n"),
        ModuleCase(
            name: "a package with \"type\": \"module\" runs as a module",
            files: [
                "typed/package.json": #"{"type": "module"}"#,
                "typed/main.js": "import c from './c.cjs';\nconsole.log('typed', this, c);\n",
                "typed/c.cjs": "module.exports = typeof require;\n",
            ],
            arguments: ["$DIR/typed/main.js"],
            stdout: "typed undefined function\n"),
        ModuleCase(
            name: "re-exports: export * from, export * as, export { x as y } from",
            files: [
                "main.mjs": """
                import * as all from "./index.mjs";
                import { one, renamed, inner } from "./index.mjs";
                console.log(Object.keys(all).join(","), one, renamed, inner.two);
                """,
                "index.mjs": """
                export * from "./one.mjs";
                export * as inner from "./two.mjs";
                export { two as renamed } from "./two.mjs";
                """,
                "one.mjs": "export const one = 1;\nexport default 'not re-exported';\n",
                "two.mjs": "export const two = 2;\n",
            ],
            arguments: ["$DIR/main.mjs"],
            stdout: "inner,one,renamed 1 2 2\n"),
        ModuleCase(
            name: "package exports: conditions, nested conditions, subpaths, patterns, null targets",
            files: [
                "main.mjs": """
                import esm from "pkg";
                import feature from "pkg/feature";
                import util from "pkg/utils/strings";
                import { createRequire } from "node:module";
                const require = createRequire(import.meta.url);
                console.log(esm, feature, util, require("pkg"), require("pkg/feature"));
                await import("pkg/internal/secret").catch((error) => console.log(error.code));
                await import("pkg/package.json").catch((error) => console.log(error.code));
                """,
                "node_modules/pkg/package.json": """
                {"name": "pkg", "exports": {
                  ".": {"import": "./esm.mjs", "require": "./cjs.cjs"},
                  "./feature": {"node": {"import": "./feature.mjs", "default": "./feature.cjs"}},
                  "./utils/*": "./lib/utils/*.mjs",
                  "./internal/*": null
                }}
                """,
                "node_modules/pkg/esm.mjs": "export default 'pkg esm';\n",
                "node_modules/pkg/cjs.cjs": "module.exports = 'pkg cjs';\n",
                "node_modules/pkg/feature.mjs": "export default 'feature esm';\n",
                "node_modules/pkg/feature.cjs": "module.exports = 'feature cjs';\n",
                "node_modules/pkg/lib/utils/strings.mjs": "export default 'strings util';\n",
                "node_modules/pkg/internal/secret.mjs": "export default 'secret';\n",
            ],
            arguments: ["$DIR/main.mjs"],
            stdout:
                "pkg esm feature esm strings util pkg cjs feature cjs\nERR_PACKAGE_PATH_NOT_EXPORTED\nERR_PACKAGE_PATH_NOT_EXPORTED\n"
        ),
        ModuleCase(
            name: "require finds packages up the tree: main, index.js, scoped names, subpaths",
            files: [
                "app/src/deep/main.js": """
                console.log(require("with-main"), require("with-index"), require("@scope/tool").name);
                console.log(require("with-main/extra"), require.resolve("with-index").endsWith("/node_modules/with-index/index.js"));
                try { require("nowhere"); } catch (error) { console.log(error.code); }
                """,
                "app/node_modules/with-main/package.json": #"{"main": "lib/entry"}"#,
                "app/node_modules/with-main/lib/entry.js": "module.exports = 'main field';\n",
                "app/node_modules/with-main/extra.js": "module.exports = 'subpath file';\n",
                "node_modules/with-index/index.js": "module.exports = 'index.js';\n",
                "app/node_modules/@scope/tool/package.json": #"{"exports": "./tool.cjs"}"#,
                "app/node_modules/@scope/tool/tool.cjs": "exports.name = 'scoped';\n",
            ],
            arguments: ["$DIR/app/src/deep/main.js"],
            stdout: "main field index.js scoped\nsubpath file true\nMODULE_NOT_FOUND\n"),
        ModuleCase(
            name: "require() of an ES module gives its namespace; with top-level await it fails clearly",
            files: [
                "main.cjs": """
                const ns = require("./lib.mjs");
                console.log(ns.default, ns.value);
                try { require("./tla.mjs"); } catch (error) { console.log(error.code); }
                """,
                "lib.mjs": "export default 'lib default';\nexport const value = 7;\n",
                "tla.mjs": "await null;\n",
            ],
            arguments: ["$DIR/main.cjs"],
            stdout: "lib default 7\nERR_REQUIRE_ASYNC_MODULE\n"),
        ModuleCase(
            name: "the scanner: strings, templates, regular expressions and comments that look like imports",
            files: [
                "main.mjs": """
                // import nothing from "./nope.mjs";
                /* export const hidden = 1; */
                const text = "import x from './nope.mjs'";
                const template = `export ${`import('./nope.mjs')`} ${1 / 2}`;
                const regex = /import "x"/g, ratio = 10 / 2 / 5;
                const object = { import: 1, export: 2, method() { return this.import; } };
                class K { static import() { return "method"; } }
                export { text };
                console.log(text.length, template, regex.source, ratio, object.method(), K.import());
                """
            ],
            arguments: ["$DIR/main.mjs"],
            stdout: "26 export import('./nope.mjs') 0.5 import \"x\" 1 1 method\n"),
    ]

    @Test(arguments: cases)
    func runs(_ spec: ModuleCase) async throws {
        let (result, directory) = try await runModuleCase(spec.files, spec.arguments)
        let stdout = result.stdout.replacingOccurrences(of: directory, with: "$DIR")
        let stderr = result.stderr.replacingOccurrences(of: directory, with: "$DIR")
        #expect(result.exitCode == spec.exitCode, "\(result.summary)")
        if let expected = spec.stdout { #expect(stdout == expected, "\(result.summary)") }
        for line in spec.stderrContains { #expect(stderr.contains(line), "missing \(line)\n\(result.summary)") }
        if spec.stderrContains.isEmpty && spec.exitCode == 0 { #expect(stderr.isEmpty, "\(result.summary)") }
    }

    /// Top-level await: ticks of a timer run while a module awaits; the importer runs only after it.
    @Test func topLevelAwaitOrdering() async throws {
        let spec = Self.cases.first { $0.name.hasPrefix("top-level await") }!
        let (result, _) = try await runModuleCase(spec.files, spec.arguments)
        #expect(result.exitCode == 0, "\(result.summary)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "slow start", "\(result.summary)")
        #expect(lines.dropFirst().first == "fast", "\(result.summary)")
        #expect(lines.suffix(2) == ["slow end", "main"], "\(result.summary)")
        #expect(lines.filter { $0 == "tick" }.count == 3, "\(result.summary)")
    }
}
