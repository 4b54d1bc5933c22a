import Foundation
import JSBridgeTesting
import Testing

// TypeScript files run directly (docs/running-scripts.md, "TypeScript"): `.ts`, `.mts` and `.cts` main scripts
// and modules, imported and required, with their types stripped; positions kept for stack traces; the errors
// for syntax that cannot be erased. Each case writes real files and runs the built binary (ESModuleTests.swift).

@Suite("TypeScript files", .blocking) struct TypeScriptTests {
    /// Shared by the cases: an ES module with types of every kind.
    static let geometry = """
        export interface Point { x: number; y: number }
        export type Shape = { kind: "square"; side: number } | { kind: "circle"; radius: number };
        declare const DEBUG: boolean | undefined;

        export abstract class Figure<T extends Shape = Shape> implements Describable {
          protected readonly shape: T;
          private static made: number = 0;
          constructor(shape: T) {
            this.shape = shape;
            Figure.made++;
          }
          abstract area(): number;
          describe(this: Figure<T>, digits?: number): string {
            return `${this.shape.kind} ${this.area().toFixed(digits ?? 2)}`;
          }
          static count(): number { return Figure.made; }
        }

        export function area(shape: Shape): number;
        export function area(shape: any): number {
          switch (shape.kind) {
            case "square": return shape.side ** 2;
            default: return Math.PI * (shape.radius as number) ** 2;
          }
        }

        export const origin = { x: 0, y: 0 } as const satisfies Point;
        interface Describable { describe(): string }
        """

    static let cases: [ModuleCase] = [
        ModuleCase(
            name: ".mts main importing .ts modules (package type module), type-only imports",
            files: [
                "package.json": #"{ "type": "module" }"#,
                "geometry.ts": geometry,
                "main.mts": """
                import type { Point, Shape } from "./geometry.ts";
                import { Figure, area, origin, type Shape as S } from "./geometry.ts";

                class Square extends Figure<Extract<Shape, { kind: "square" }>> {
                  area(): number { return area(this.shape); }
                }
                const shapes: S[] = [{ kind: "square", side: 2 }, { kind: "circle", radius: 1 }];
                const areas = shapes.map((s: Shape): number => area(s));
                const p: Point = { ...origin };
                console.log(areas.map((a) => a.toFixed(3)).join(" "), p.x, p.y);
                console.log(new Square({ kind: "square", side: 3 }).describe(1), Figure.count());
                const pick = <T,>(items: T[], i: number): T | undefined => items[i];
                console.log(pick<string>(["a", "b"], 1)!, 1 < 2, 3 > 2);
                """,
            ],
            arguments: ["$DIR/main.mts"],
            stdout: "4.000 3.142 0 0\nsquare 9.0 1\nb true true\n"),
        ModuleCase(
            name: ".ts main as CommonJS (no package type) requiring .cts and .ts files",
            files: [
                "main.ts": """
                const { greet } = require("./greet.cts") as { greet: (name: string) => string };
                const counter: { count: number } = require("./counter.ts");
                let names: string[] = ["ts", "cts"];
                for (const name of names) console.log(greet(name!));
                counter.count += 2;
                console.log(counter.count, typeof module, __filename.endsWith("main.ts"), process.features.typescript);
                """,
                "greet.cts": """
                type Greeting = `Hello, ${string}!`;
                exports.greet = function (name: string): Greeting { return `Hello, ${name}!`; };
                """,
                "counter.ts": """
                module.exports = { count: 1 as number };
                """,
            ],
            arguments: ["$DIR/main.ts"],
            stdout: "Hello, ts!\nHello, cts!\n3 object true strip\n"),
        ModuleCase(
            name: ".ts with module syntax outside a module package is detected as an ES module",
            files: [
                "main.ts": """
                import { twice } from "./lib.mts";
                const n: number = twice(21);
                console.log(n, import.meta.url.endsWith("main.ts"));
                """,
                "lib.mts": "export const twice = (x: number): number => x * 2;\n",
            ],
            arguments: ["$DIR/main.ts"],
            stdout: "42 true\n"),
        ModuleCase(
            name: "dynamic import of a .ts module",
            files: [
                "main.mts": """
                const mod: typeof import("./lazy.ts") = await import("./lazy.ts");
                console.log(mod.value satisfies number);
                """,
                "lazy.ts": "export const value: number = 7;\nexport type Unused = string;\n",
            ],
            arguments: ["$DIR/main.mts"],
            stdout: "7\n"),
        ModuleCase(
            name: "an enum is ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX at its line and column",
            files: [
                "main.ts": """
                const ok: number = 1;
                  enum Color { Red, Green }
                console.log(ok);
                """
            ],
            arguments: ["$DIR/main.ts"],
            exitCode: 1,
            stderrContains: [
                "$DIR/main.ts:2:3",
                "SyntaxError [ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX]: TypeScript enum is not supported in strip-only mode",
            ]),
        ModuleCase(
            name: "a parameter property in an imported module is the error, at the module's position",
            files: [
                "main.mts": "import { Account } from \"./account.ts\";\nconsole.log(new Account(1));\n",
                "account.ts": """
                export class Account {
                  constructor(private id: number) {}
                }
                """,
            ],
            arguments: ["$DIR/main.mts"],
            exitCode: 1,
            stderrContains: [
                "$DIR/account.ts:2:15",
                "TypeScript parameter property is not supported in strip-only mode",
            ]),
        ModuleCase(
            name: "a namespace with values and import = in a required .cts file",
            files: [
                "main.cts": """
                try { require("./ns.cts"); } catch (e: any) { console.log(e.code, e.message, e.line, e.column); }
                try { require("./eq.cts"); } catch (e: any) { console.log(e.code, e instanceof SyntaxError); }
                """,
                "ns.cts": "namespace Values {\n  export const x = 1;\n}\n",
                "eq.cts": "import fs = require(\"fs\");\n",
            ],
            arguments: ["$DIR/main.cts"],
            stdout: """
                ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX TypeScript namespace declaration is not supported in strip-only mode 1 1
                ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX true

                """),
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

    /// A stack trace names the `.ts` file and the line and column of the throw in the TypeScript source, in an
    /// ES module and in CommonJS (line 1 included, after the loaders' wrappers).
    @Test(arguments: ["main.mts", "main.cts"])
    func stackTracesPointAtTheTypeScriptSource(_ main: String) async throws {
        let source = """
            interface Options { depth: number }
            type Handler = (o: Options) => never;
            const fail: Handler = (o: Options): never => {
              throw new Error(`depth ${o.depth as number}`);
            };
            function run<T extends Options>(options: T): void { fail(options); }
            try { run({ depth: 3 }); } catch (e: any) { console.log(e.stack.split("\\n").slice(0, 3).join(" | ")); }
            const e: Error = new Error("first line"); console.log(e.stack.split("\\n").slice(0, 2).join(" | "));
            run({ depth: 4 });
            """
        let (result, directory) = try await runModuleCase([main: source], ["$DIR/\(main)"])
        let stdout = result.stdout.replacingOccurrences(of: directory, with: "$DIR")
        let stderr = result.stderr.replacingOccurrences(of: directory, with: "$DIR")
        #expect(result.exitCode == 1, "\(result.summary)")
        // JavaScriptCore places a call's frame at its `(`: the columns of the TypeScript text.
        #expect(
            stdout == """
                Error: depth 3 |     at fail ($DIR/\(main):4:18) |     at run ($DIR/\(main):6:57)
                Error: first line |     at $DIR/\(main):8:27

                """, "\(result.summary)")
        #expect(stderr.contains("at fail ($DIR/\(main):4:18)"), "\(result.summary)")
        #expect(stderr.contains("at $DIR/\(main):9:4"), "\(result.summary)")
        #expect(stderr.contains("Error: depth 4"), "\(result.summary)")
    }

    /// Erasable TypeScript of every kind, run by jsbridge as `.ts` and by Node after the TypeScript compiler
    /// (`tsc`, from Debian's node-typescript, which scripts/setup.sh installs): the same output.
    static let program = """
        // A program of erasable TypeScript: run by jsbridge as .ts, and by Node after tsc.
        interface Named { readonly name: string; nick?: string }
        type Id = number | `id-${number}`;
        type Mapper<T, U = T> = (value: T, index: number) => U;
        declare const DEBUG: boolean | undefined;
        declare function external(x: number): void;

        abstract class Entity<TId extends Id = number> implements Named {
          static created: number = 0;
          private static registry: Map<Id, Entity<any>> = new Map<Id, Entity<any>>();
          protected readonly id: TId;
          public abstract readonly name: string;
          declare nick?: string;
          [extra: string]: unknown;
          constructor(id: TId) {
            this.id = id;
            Entity.created++;
            Entity.registry.set(id, this);
          }
          abstract describe(): string;
          static lookup(id: Id): Entity<any> | undefined { return Entity.registry.get(id); }
          toString(): string { return `${this.constructor.name}#${this.id}`; }
        }

        class User extends Entity<number> {
          readonly name: string;
          #visits: number = 0;
          tags?: string[];
          constructor(id: number, name: string) { super(id); this.name = name; }
          override describe(this: User): string { return `${this.name} (${++this.#visits})`; }
          get visits(): number { return this.#visits; }
          greet(greeting?: string): string;
          greet(greeting: string, times: number): string;
          greet(greeting: string = "hi", times: number = 1): string { return `${greeting} ${this.name}`.repeat(times); }
        }

        function pair<A, B>(a: A, b: B): [A, B] { return [a, b]; }
        function isString(value: unknown): value is string { return typeof value === "string"; }
        function assertPositive(n: number): asserts n { if (n <= 0) throw new RangeError("not positive"); }
        const mapAll = <T, U>(items: readonly T[], f: Mapper<T, U>): U[] => items.map(f);
        const compose = <A, B, C>(f: (b: B) => C, g: (a: A) => B) => (a: A): C => f(g(a));

        const users: User[] = [new User(1, "ada"), new User(2, "linus")];
        const u = Entity.lookup(2) as User;
        console.log(String(u), u.describe(), u.describe(), u.visits, Entity.created);
        console.log(users[0]!.greet(), users[1]!.greet("yo", 2), (users[0] as any).tags ?? "no tags");
        console.log(pair<string, number>("x", 1), isString("s"), isString(1));
        try { assertPositive(-1); } catch (e: unknown) { console.log((e as Error).name); }
        console.log(mapAll<number, string>([1, 2, 3], (v: number, i: number): string => `${i}:${v * 2}`).join(","));
        const inc = compose((n: number): number => n + 1, (s: string): number => s.length);
        console.log(inc("four"));

        let a: number = 3, b: number = 5, c: number = 4;
        const cmp: boolean = a < b && c > a;
        const ternary = a > b ? (a) : b;
        const generic = a < b;
        console.log(cmp, ternary, generic, a < b, b > c, (a as number) / (b as number) / 2);
        const regex: RegExp = /<T>(x: number)/g;
        console.log(regex.test("<T>(x: number)"), "as string: keep", `t ${a as number} ${`n ${b!}`}`);
        let maybe: { deep?: { value: number } } | undefined = { deep: { value: 42 } };
        console.log(maybe?.deep?.value, maybe!.deep!.value);
        const record: Record<string, number> = { one: 1, two: 2 };
        const keys = Object.keys(record) as Array<keyof typeof record>;
        console.log(keys.join("+"));
        const tuple: readonly [x: number, y?: string] = [1] as const;
        console.log(tuple.length);
        label: for (let i: number = 0; i < 3; i++) { for (const j of [0, 1]) { if (j > 0) continue label; console.log("i", i); } }
        switch (a as number) { case 3: { const s: string = "three"; console.log(s); break; } default: console.log("other"); }
        const obj = {
          method<T>(x: T): T { return x; },
          async later(): Promise<number> { return 7; },
          get value(): number { return 1; },
          plain: (a as number) > 1 ? "big" : "small",
        };
        console.log(obj.method<string>("m"), obj.value, obj.plain);
        obj.later().then((v: number): void => console.log("later", v));
        namespace Shapes { export interface Circle { r: number } export type Kind = "circle"; }
        const circle: Shapes.Circle = { r: 2 };
        console.log(circle.r);
        export {};
        """

    @Test func printsWhatNodePrintsAfterTheTypeScriptCompiler() async throws {
        let compiler = "/usr/bin/tsc"
        let node = "/usr/bin/node"
        try #require(FileManager.default.isExecutableFile(atPath: compiler), "tsc is missing: scripts/setup.sh")
        try #require(FileManager.default.isExecutableFile(atPath: node), "node is missing: scripts/setup.sh")
        let (result, directory) = try await runModuleCase(["program.ts": Self.program], ["$DIR/program.ts"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result.summary)")

        let output = FileManager.default.temporaryDirectory.appendingPathComponent("jsbridge-tsc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let source = output.appendingPathComponent("program.ts")
        try Self.program.write(to: source, atomically: true, encoding: .utf8)
        let compiled = try Self.execute(
            compiler, ["--target", "es2022", "--module", "es2022", "--outDir", output.path, source.path])
        #expect(compiled.status == 0, "\(compiled.output)")
        let module = output.appendingPathComponent("program.mjs")
        try FileManager.default.moveItem(at: output.appendingPathComponent("program.js"), to: module)
        let expected = try Self.execute(node, [module.path])
        #expect(expected.status == 0)
        #expect(result.stdout == expected.output, "jsbridge in \(directory):\n\(result.stdout)")
    }

    /// Runs `executable` with `arguments`: its status and standard output.
    private static func execute(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        expectThreadMayBlock()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
