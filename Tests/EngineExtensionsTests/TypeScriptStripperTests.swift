import Testing

@testable import JSBridgeModules

/// The TypeScript stripper: what it erases, that every kept character stays at its line and column, what it
/// must leave alone (strings, regular expressions, comparisons, ternaries, object literals), and the errors
/// for syntax that cannot be erased.
@Suite struct TypeScriptStripperTests {
    /// `source` stripped, checked to keep its length, every line break, and every character it keeps at its
    /// offset (a kept character is the source's own; the rest are spaces, the `;` that replaces an erased
    /// statement's first character, or an arrow function's `(`/`)` moved off a line break).
    private static func strip(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let output = try TypeScriptStripper.strip(source)
        let input = Array(source.utf16)
        let units = Array(output.utf16)
        #expect(units.count == input.count, sourceLocation: sourceLocation)
        for (index, unit) in units.enumerated() where index < input.count && unit != input[index] {
            #expect(
                unit == 32 || unit == 59 || unit == 40 || unit == 41, "offset \(index): \(unit) for \(input[index])",
                sourceLocation: sourceLocation)
            #expect(!ModuleScanner.isNewline(input[index]), sourceLocation: sourceLocation)
        }
        return output
    }

    /// Runs of spaces made one, and spaces before punctuation dropped, for comparing with readable expectations.
    private static func squeezed(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if character == " " {
                pendingSpace = true
                continue
            }
            if pendingSpace && !result.isEmpty && !result.hasSuffix("\n") && !",;)]}>.(`\n".contains(character)
                && !result.hasSuffix("(") && !result.hasSuffix("[")
            {
                result.append(" ")
            }
            pendingSpace = false
            result.append(character)
        }
        return result
    }

    private static func expectStripped(
        _ source: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let output = try strip(source, sourceLocation: sourceLocation)
        #expect(squeezed(output) == squeezed(expected), "\n\(output)", sourceLocation: sourceLocation)
    }

    /// The error for `source`, with its 1-based line and column.
    private static func error(_ source: String) -> (TypeScriptStripper.StripError, line: Int, column: Int)? {
        do {
            _ = try TypeScriptStripper.strip(source)
            return nil
        } catch {
            let before = Array(source.utf16)[..<error.offset]
            let line = before.filter { $0 == 10 }.count + 1
            let column = error.offset - (before.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
            return (error, line, column)
        }
    }

    /// The column (1-based) of the first `needle` on each side: a kept token must not move.
    private static func column(of needle: String, in text: String) -> Int? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let range = line.range(of: needle) {
                return line.distance(from: line.startIndex, to: range.lowerBound) + 1
            }
        }
        return nil
    }

    @Test func javaScriptIsLeftAsItIs() throws {
        let source = """
            const r = /a: number<T>/g.test(s) ? x : y; // z: string
            const q = "x as any" + 'y!' + `t ${a ? b : c} ${`in ${d}`}`;
            const d = (a) / b / c, o = { a: 1, b: c ? d : e }, f = a?.b ?? c?.[0] ?? g?.(1);
            if (a < b && c > d) label: for (;;) break label;
            switch (k) { case 1: x = a < b > c; break; default: }
            /* interface X {} */ x = !y; z = a != b; w = a !== b;
            x = (a << 2) | (b >> 1) >>> c, bits = 1 << n; y <<= 1; z = i++ < n;
            """
        #expect(try Self.strip(source) == source)
    }

    @Test func annotationsOnVariablesParametersReturnsAndFields() throws {
        try Self.expectStripped(
            """
            let x: number = 1, y!: string, z: Array<Map<string, number[]>>;
            const { a, b }: { a: number; b: string } = obj;
            function f(a: number, b?: string, ...rest: number[]): void {}
            function g({ p }: P = { p: 1 }, [q]: [number] = [2]): { r: number } { return { r: p + q }; }
            class C { name: string; count?: number = 0; ready!: boolean; #secret: number = 1; }
            try {} catch (e: unknown) {}
            for (let i: number = 0; i < n; i++) {}
            """,
            """
            let x = 1, y, z;
            const { a, b } = obj;
            function f(a, b, ...rest) {}
            function g({ p } = { p: 1 }, [q] = [2]) { return { r: p + q }; }
            class C { name; count = 0; ready; #secret = 1; }
            try {} catch (e) {}
            for (let i = 0; i < n; i++) {}
            """)
    }

    @Test func interfacesAndTypeAliasesLeaveASemicolon() throws {
        try Self.expectStripped(
            """
            let a = b
            interface Point<T = number> extends Base<T> {
              x: T;
            }
            (c)()
            type U =
              | "a"
              | `b-${string}`;
            type Fn<T> = (x: T) => T extends string ? "s" : never;
            export type Pair<A, B> = [first: A, second?: B];
            export interface I {}
            export default interface D {}
            """,
            """
            let a = b
            ;


            (c)()
            ;


            ;
            ;
            ;
            ;
            """)
    }

    @Test func asSatisfiesAndNonNull() throws {
        try Self.expectStripped(
            """
            const v = obj!.prop!.x as unknown as number;
            const c = { a: 1 } as const satisfies Record<string, number>;
            x! = 5; arr[0]!.y(); f()!;
            const t = `${(n as number) + 1} ${q!}`;
            const half = y! / 2, re = !/x/.test(s), ne = a != b, nee = a! == b;
            """,
            """
            const v = obj.prop.x;
            const c = { a: 1 };
            x = 5; arr[0].y(); f();
            const t = `${(n) + 1} ${q}`;
            const half = y / 2, re = !/x/.test(s), ne = a != b, nee = a == b;
            """)
    }

    @Test func genericsOnCallsDeclarationsAndClasses() throws {
        try Self.expectStripped(
            """
            const m = new Map<string, number>();
            const r = f<number>(1) + g<A, B<C>>`t`;
            function id<T extends object = {}>(x: T): T { return x; }
            class Box<T> extends Base<T> implements Holder<T>, Other { value: T; }
            const cmp = a < b > c, and = a < b && c > (d), call = a < b, c > (d);
            const inst = make<string>;
            const [s] = useState<string | null>(null), p = new Promise<void>((r) => r());
            const o = foo<{ a: number }>({ a: 1 }), big: Promise<Record<string, Array<{ id: number }>>> = all();
            const m2 = new (Map!)<string, number>([]), i2 = (foo!)<any>, f2 = fs[0]<T>();
            """,
            // `a < b, c > (d)` is a call with type arguments, as TypeScript reads it.
            """
            const m = new Map();
            const r = f(1) + g`t`;
            function id(x) { return x; }
            class Box extends Base { value; }
            const cmp = a < b > c, and = a < b && c > (d), call = a(d);
            const inst = make;
            const [s] = useState(null), p = new Promise((r) => r());
            const o = foo({ a: 1 }), big = all();
            const m2 = new (Map)([]), i2 = (foo), f2 = fs[0]();
            """)
    }

    @Test func arrowFunctionsAndTernaries() throws {
        try Self.expectStripped(
            """
            const f = (a: number): number => a;
            const g = <T,>(v: T): T => v;
            const h = async (v: Promise<number>): Promise<number> => await v;
            const p = (x: unknown): x is string => typeof x === "string";
            const o = (): { a: number } => ({ a: 1 });
            const c = cond ? (a) : b, d = cond ? { a: 1 } : { b: 2 }, e = a?.b ? c : d;
            callback(async <T>(x: T): Promise<T> => x);
            const u = (): (string | number) => 1, w = (): ((a: number) => void) => () => {};
            """,
            """
            const f = (a) => a;
            const g = (v) => v;
            const h = async (v) => await v;
            const p = (x) => typeof x === "string";
            const o = () => ({ a: 1 });
            const c = cond ? (a) : b, d = cond ? { a: 1 } : { b: 2 }, e = a?.b ? c : d;
            callback(async (x) => x);
            const u = () => 1, w = () => () => {};
            """)
    }

    /// Erasing a type that spans lines must not leave a line break where JavaScript forbids one: after
    /// `async` or `return` before an arrow function's parameters, or before `=>`.
    @Test func lineBreaksInsideErasedTypesKeepArrowFunctions() throws {
        try Self.expectStripped(
            """
            const b = async <
                T
            >(v: T) => v;
            const c = (v: T): Promise<
                T
            > => v;
            function r() {
                return<T>
                    (v: T) => v
            }
            """,
            """
            const b = async (

              v   ) => v;
            const c = (v

            ) => v;
            function r() {
                return(
                     v   ) => v
            }
            """)
    }

    @Test func classMembers() throws {
        try Self.expectStripped(
            """
            abstract class Animal<T> implements Named {
              private name: string;
              protected readonly legs?: number = 4;
              public static count: number = 0;
              declare extra: string;
              abstract speak(): void;
              [key: string]: unknown;
              override toString(): string { return this.name; }
              constructor(name: string);
              constructor(name: string) { this.name = name; }
              handler = (e: Event): void => {}
              m?(): void
              get label(): string { return this.name; }
              static { let s: number = 1; }
            }
            """,
            """
            class Animal {
              name;
              legs = 4;
              static count = 0;
              ;
              ;
              ;
              toString() { return this.name; }
              ;
              constructor(name) { this.name = name; }
              handler = (e) => {}
              ;
              get label() { return this.name; }
              static { let s = 1; }
            }
            """)
    }

    @Test func declarationsOverloadsAndThisParameters() throws {
        try Self.expectStripped(
            """
            declare const VERSION: string;
            declare function ext(a: number): void;
            declare global { interface Window { x: number } }
            declare module "m" { export const y: number; }
            function sum(a: number, b: number): number;
            function sum(a: any, b: any): any { return a + b; }
            export function one(a: string): void
            export function one(a: any) {}
            function self(this: Window, n: number) { return n; }
            namespace Types { export interface A {} export type B = string; }
            """,
            """
            ;
            ;
            ;
            ;
            ;
            function sum(a, b) { return a + b; }
            ;
            export function one(a) {}
            function self(n) { return n; }
            ;
            """)
    }

    @Test func typeOnlyImportsAndExports() throws {
        try Self.expectStripped(
            """
            import type { A } from "./a.ts";
            import type B from "./b.ts";
            import { type C, d, type E as F } from "./c.ts";
            import type from "./type.ts";
            export type { G } from "./g.ts";
            export type * from "./h.ts";
            export { type I, j };
            """,
            """
            ;
            ;
            import { d, } from "./c.ts";
            import type from "./type.ts";
            ;
            ;
            export { j };
            """)
    }

    @Test func keptTokensKeepTheirColumns() throws {
        let source = """
            function area(shape: { w: number; h: number }, scale?: number): number { return shape.w * shape.h; }
            const label = (value as string).toUpperCase() satisfies string;
            """
        let output = try Self.strip(source)
        for token in ["return", "shape.w", ".toUpperCase()", "label"] {
            #expect(Self.column(of: token, in: output) == Self.column(of: token, in: source), "\(token)")
        }
    }

    @Test func unsupportedSyntaxIsAnErrorAtItsPosition() throws {
        let cases: [(String, String, Int, Int)] = [
            ("let a = 1;\nenum Color { Red }", "enum", 2, 1),
            ("const enum E { A }", "enum", 1, 1),
            ("export enum E { A }", "enum", 1, 8),
            ("namespace N {\n  export const x = 1;\n}", "namespace declaration", 1, 1),
            ("class A {\n  constructor(private x: number) {}\n}", "parameter property", 2, 15),
            ("import fs = require(\"fs\");", "import equals declaration", 1, 1),
            ("export = foo;", "export assignment", 1, 1),
        ]
        for (source, what, line, column) in cases {
            let found = try #require(Self.error(source), "\(source)")
            #expect(found.0.message == "TypeScript \(what) is not supported in strip-only mode", "\(source)")
            #expect(found.0.code == "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX")
            #expect(found.line == line && found.column == column, "\(source): \(found.line):\(found.column)")
        }
        // Type-only namespaces and ambient enums are erasable.
        #expect(Self.error("namespace T { export type A = string; }\ndeclare enum D { A }") == nil)
    }

    @Test func malformedJavaScriptIsLeftToTheEngine() throws {
        let source = "let s: string = 'unterminated\n"
        #expect(try TypeScriptStripper.strip(source) == source)
    }
}
