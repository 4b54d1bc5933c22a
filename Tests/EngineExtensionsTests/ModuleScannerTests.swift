import JSBridgeTesting
import Testing

@testable import JSBridgeModules

/// The ES module loader's scanner: which declarations it finds in module text, and that its rewrite keeps
/// every line and column and leaves code the engine accepts.
@Suite struct ModuleScannerTests {
    private static func analyze(_ source: String, dynamicOnly: Bool = false) throws -> ModuleAnalysis {
        let units = Array(source.utf16)
        return try units.withUnsafeBufferPointer { buffer in
            try ModuleScanner(buffer).analyze(dynamicOnly: dynamicOnly)
        }
    }

    /// The analysis and the rewritten text, checked to keep the length and every line break of `source`.
    private static func rewrite(_ source: String, dynamicOnly: Bool = false) throws -> (ModuleAnalysis, String) {
        let units = Array(source.utf16)
        let analysis = try analyze(source, dynamicOnly: dynamicOnly)
        let text = units.withUnsafeBufferPointer { analysis.rewrite($0) }
        #expect(text.count == units.count)
        #expect(
            text.indices.filter { ModuleScanner.isNewline(text[$0]) }
                == units.indices.filter { ModuleScanner.isNewline(units[$0]) })
        return (analysis, String(decoding: text, as: UTF16.self))
    }

    private static func scanError(_ source: String) -> ModuleScanner.ScanError? {
        do {
            _ = try analyze(source)
            return nil
        } catch let error as ModuleScanner.ScanError {
            return error
        } catch {
            return nil
        }
    }

    @Test func everyFormOfImportWithAttributes() throws {
        let (analysis, _) = try Self.rewrite(
            """
            import a, { b as c, "d e" as f } from "./x.mjs";
            import * as ns from './y.json' with { type: 'json' };
            import def, * as all from "./z.mjs";
            import "./side.mjs"
            import {
              g,
              h as i,
            } from "./multi.mjs"
            import j from "./old.json" assert { type: "json" };
            """)
        #expect(
            analysis.requests.map(\.specifier) == [
                "./x.mjs", "./y.json", "./z.mjs", "./side.mjs", "./multi.mjs", "./old.json",
            ])
        #expect(analysis.requests.map(\.type) == [nil, "json", nil, nil, nil, "json"])
        #expect(
            analysis.bindings.map { "\($0.imported)>\($0.local)@\($0.request)" } == [
                "default>a@0", "b>c@0", "d e>f@0", "*>ns@1", "default>def@2", "*>all@2", "g>g@4", "h>i@4",
                "default>j@5",
            ])
        #expect(analysis.moduleSyntax)
    }

    @Test func theSpecifierOffsetPointsAtItsString() throws {
        let source = "const x = 1;\nimport { y } from   \"./y.mjs\";\n"
        let offset = try #require(try Self.analyze(source).requests.first).offset
        #expect(
            String(Array(source.utf16)[offset..<offset + 9].map { Character(Unicode.Scalar($0)!) }) == "\"./y.mjs\"")
    }

    @Test func escapesInSpecifiersAreDecoded() throws {
        let analysis = try Self.analyze(#"import a from "./\u0061\x62\u{63}\"d.mjs";"#)
        #expect(analysis.requests.map(\.specifier) == [#"./abc"d.mjs"#])
    }

    @Test func aMalformedDeclarationIsAnErrorAtItsOffset() {
        #expect(
            Self.scanError("\nimport { a from \"./x.mjs\";")
                == .init(message: "Unexpected token 'from' in an import list", offset: 12))
        #expect(Self.scanError("import x from y;")?.message == "Unexpected token; expected a module specifier string")
        #expect(
            Self.scanError("import j from './j.json' with { kind: 'json' };")?.message
                == "Unsupported import attribute 'kind'")
        #expect(Self.scanError("export 42;")?.offset == 7)
        #expect(Self.scanError("const s = 'abc\n';") == .init(message: "Unterminated string literal", offset: 10))
        #expect(Self.scanError("const t = `a ${b")?.message == "Unterminated template literal")
        #expect(Self.scanError("/* open") == .init(message: "Unterminated comment", offset: 0))
        #expect(Self.scanError("x = /abc\n/;")?.message == "Invalid regular expression: missing /")
    }

    @Test func declarationsListsDefaultsAndReexports() throws {
        let (analysis, _) = try Self.rewrite(
            """
            export const { p, q: [r, s = 2], ...rest } = obj, z = f(1, 2)
            export let w
            export var v = a
              + b, u = 4;
            export function fn() {}
            export async function afn() {}
            export function* gen() {}
            export class K {}
            export { p as "string name", z as default2 };
            export * from "./star.mjs";
            export * as nsx from "./nsx.mjs";
            export { k as kk, default } from "./k.mjs";
            export default class Named {}
            """)
        #expect(
            analysis.locals.map { "\($0.exported)=\($0.local)" } == [
                "p=p", "r=r", "s=s", "rest=rest", "z=z", "w=w", "v=v", "u=u", "fn=fn", "afn=afn", "gen=gen", "K=K",
                "string name=p", "default2=z", "default=Named",
            ])
        #expect(
            analysis.indirect.map { "\($0.exported)=\($0.imported)@\($0.request)" } == [
                "nsx=*@1", "kk=k@2", "default=default@2",
            ])
        #expect(analysis.stars == [0])
    }

    @Test(arguments: ["(a, b) => a + b;", "function () {}", "class {}", "42"])
    func exportDefaultOfAnExpressionBecomesAConstOfTheSameLength(tail: String) throws {
        let (analysis, text) = try Self.rewrite("export default \(tail)")
        #expect(analysis.locals.map { "\($0.exported)=\($0.local)" } == ["default=__jsbD"])
        #expect(text == "const __jsbD = \(tail)")
    }

    @Test func stringsTemplatesCommentsAndRegularExpressionsAreNotDeclarations() throws {
        let source = """
            // import a from "./no1.mjs";
            /* export const no = 1; */
            const s = "import b from './no2.mjs'";
            const t = `export ${`import("./no3.mjs")`} ${1 / 2} ${ { a: `}` }.a }`;
            const re = /import "x"[/]/g, ratio = 10 / 2 / 5;
            const o = { import: 1, export: 2 }; o.import; o?.import; o.export = 3;
            class C { static import() { return 1; } import(x) {} }
            const m = { import() {}, export() {} };
            """
        let (analysis, text) = try Self.rewrite(source)
        #expect(analysis.requests.isEmpty)
        #expect(!analysis.moduleSyntax)
        #expect(text == source)
    }

    @Test func dynamicImportAndImportMetaAreRewrittenInPlace() throws {
        let (analysis, text) = try Self.rewrite("const m = await import(\"./a.mjs\"), u = import.meta.url;")
        #expect(text == "const m = await __jsbI(\"./a.mjs\"), u = __jsbMeta__.url;")
        #expect(analysis.hasAwait)
        #expect(analysis.moduleSyntax)
    }

    @Test func commonJSGetsOnlyDynamicImportRewritten() throws {
        let (analysis, text) = try Self.rewrite(
            "import(\"./a.mjs\").then(f); x.import(1); const y = { import() {} }; import.meta; export {};",
            dynamicOnly: true)
        #expect(text == "__jsbI(\"./a.mjs\").then(f); x.import(1); const y = { import() {} }; import.meta; export {};")
        #expect(!analysis.moduleSyntax)
    }

    @Test func moduleSyntaxDetection() throws {
        #expect(try !Self.analyze("const a = require(\"x\");").moduleSyntax)
        #expect(try Self.analyze("export const a = 1;").moduleSyntax)
        #expect(try Self.analyze("console.log(import.meta.url)").moduleSyntax)
        let awaiting = try Self.analyze("await Promise.resolve(1);")
        #expect(!awaiting.moduleSyntax && awaiting.hasAwait)
    }

    @Test func regularExpressionsAndDivisionAreToldApart() throws {
        let source = "a = b / c / d; e = x++ / 2; f = (1) / 2; g = typeof /import \"x\"/; h = [1] / 1; i = `${1}` / 2;"
        let units = Array(source.utf16)
        let scanner = try units.withUnsafeBufferPointer { try ModuleScanner($0) }
        let regexes = scanner.tokens.indices.filter { scanner.tokens[$0].kind == .regex }.map(scanner.text)
        #expect(regexes == [#"/import "x"/"#])
    }

    /// The rewrite of a whole module compiles as the loader wraps it (a strict function body) in the engine.
    @Test func theRewriteKeepsLinesAndColumnsAndStaysValidJavaScript() async throws {
        let source = """
            #!/usr/bin/env jsbridge
            import a, { b } from "./x.mjs";
            import {
              c,
            } from "./y.mjs";
            export const d = a + b + c;
            export default function named() { return import("./z.mjs"); }
            export { d as e };
            console.log(import.meta.url);
            """
        let (_, text) = try Self.rewrite(source)
        #expect(
            text.firstRange(of: "const d")?.lowerBound.utf16Offset(in: text)
                == source.firstRange(of: "const d")?.lowerBound.utf16Offset(in: source))
        let body = "//" + text.dropFirst(2)
        let literal = JSONValue.string("\"use strict\"; " + body).serialized()
        let result = await ScriptRunner.run(
            "new Function('__jsbMeta__', '__jsbI', \(literal)); console.log('compiled')")
        #expect(result.lines == ["compiled"])
    }
}
