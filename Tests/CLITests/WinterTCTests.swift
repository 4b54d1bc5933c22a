import Foundation
import Testing

// WinterTC's Minimum Common Web Platform API (https://min-common-api.proposal.wintertc.org/) on the built
// binary, with every plugin: each interface and global of its list, with its type; and WebAssembly's
// promise-returning functions, which settle (JavaScriptCore's own wait for a run loop this runtime does not
// turn).

@Suite("WinterTC minimum common API") struct WinterTCTests {
    /// The specification's "Interfaces" list (the WebAssembly ones under `WebAssembly.`).
    static let interfaces = [
        "AbortController", "AbortSignal", "Blob", "ByteLengthQueuingStrategy", "CompressionStream",
        "CountQueuingStrategy", "Crypto", "CryptoKey", "CustomEvent", "DecompressionStream", "DOMException", "Event",
        "EventTarget", "File", "FormData", "Headers", "ReadableByteStreamController", "ReadableStream",
        "ReadableStreamBYOBReader", "ReadableStreamBYOBRequest", "ReadableStreamDefaultController",
        "ReadableStreamDefaultReader", "Request", "Response", "SubtleCrypto", "TextDecoder", "TextDecoderStream",
        "TextEncoder", "TextEncoderStream", "TransformStream", "TransformStreamDefaultController", "URL",
        "URLPattern", "URLSearchParams", "WebAssembly.Global", "WebAssembly.Instance", "WebAssembly.Memory",
        "WebAssembly.Module", "WebAssembly.Table", "WritableStream", "WritableStreamDefaultController",
        "WritableStreamDefaultWriter",
    ]

    /// The specification's "Global methods / properties" list: each path with the `typeof` it must have.
    static let globals: [(String, String)] = [
        ("globalThis", "object"), ("atob", "function"), ("btoa", "function"), ("console", "object"),
        ("crypto", "object"), ("fetch", "function"), ("navigator.userAgent", "string"),
        ("performance.now", "function"), ("performance.timeOrigin", "number"), ("queueMicrotask", "function"),
        ("reportError", "function"), ("self", "object"), ("setTimeout", "function"), ("clearTimeout", "function"),
        ("setInterval", "function"), ("clearInterval", "function"), ("structuredClone", "function"),
        ("WebAssembly.compile", "function"), ("WebAssembly.compileStreaming", "function"),
        ("WebAssembly.instantiate", "function"), ("WebAssembly.instantiateStreaming", "function"),
        ("WebAssembly.validate", "function"),
    ]

    @Test func everyInterfaceAndGlobalOfTheListExistsWithItsType() async throws {
        let paths = Self.interfaces.map { ($0, "function") } + Self.globals
        let script = """
            const wrong = [];
            for (const [path, type] of \(json(paths.map { [$0.0, $0.1] }))) {
              const value = path.split(".").reduce((object, key) => object?.[key], globalThis);
              if (typeof value !== type) wrong.push(`${path}: ${typeof value}`);
            }
            // The interfaces are classes of their own name, with a prototype (self is the global).
            for (const name of \(json(Self.interfaces))) {
              const value = name.split(".").reduce((object, key) => object?.[key], globalThis);
              if (typeof value === "function" && (value.name !== name.split(".").pop() || typeof value.prototype !== "object")) {
                wrong.push(`${name}: name ${value.name}`);
              }
            }
            if (self !== globalThis) wrong.push("self is not globalThis");
            if (!(crypto instanceof Crypto) || !(crypto.subtle instanceof SubtleCrypto)) wrong.push("crypto");
            console.log(JSON.stringify(wrong));
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        let wrong = try JSONDecoder().decode([String].self, from: Data(result.stdout.utf8))
        #expect(wrong.isEmpty, "\(result.summary)")
    }

    /// A module exporting `add(a, b)` and importing `env.log`, called by its start function with 42.
    static let module =
        "[0,97,115,109,1,0,0,0,1,14,3,96,2,127,127,1,127,96,1,127,0,96,0,0,2,11,1,3,101,110,118,3,"
        + "108,111,103,0,1,3,3,2,0,2,7,7,1,3,97,100,100,0,1,8,1,2,10,16,2,7,0,32,0,32,1,106,11,6,0,65,42,16,0,11]"

    @Test func compileAndInstantiateSettle() async throws {
        let script = """
            const bytes = new Uint8Array(\(Self.module));
            const log = [];
            const imports = { env: { log: (n) => log.push(`start ${n}`) } };
            const pending = WebAssembly.instantiate(bytes, imports);
            log.push("after the call");
            const { module, instance } = await pending;
            console.log(log.join(", "), module instanceof WebAssembly.Module, instance.exports.add(2, 3));
            const again = await WebAssembly.instantiate(module, imports);
            console.log(again instanceof WebAssembly.Instance, again.exports.add(40, 2));
            console.log((await WebAssembly.compile(bytes.buffer)) instanceof WebAssembly.Module);
            const reasons = await Promise.allSettled([
              WebAssembly.compile(new Uint8Array([1, 2, 3])),
              WebAssembly.compile("not bytes"),
              WebAssembly.instantiate(bytes, {}),
              WebAssembly.instantiate(bytes, { env: {} }),
              WebAssembly.instantiate(module, 7),
            ]);
            console.log(reasons.map((r) => r.status + " " + r.reason?.constructor.name).join(", "));
            """
        let result = try await CLI.run(["-e", Self.inAsyncFunction(script)])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout.split(separator: "\n") == [
                "after the call, start 42 true 5", "true 42", "true",
                "rejected CompileError, rejected TypeError, rejected TypeError, rejected LinkError, rejected TypeError",
            ], "\(result.summary)")
    }

    @Test func streamingTakesAnOkResponseOfTypeApplicationWasm() async throws {
        let script = """
            const bytes = new Uint8Array(\(Self.module));
            const imports = { env: { log() {} } };
            const wasm = (init = {}) => new Response(bytes, { headers: { "content-type": "application/wasm" }, ...init });
            const { instance } = await WebAssembly.instantiateStreaming(Promise.resolve(wasm()), imports);
            console.log(instance.exports.add(1, 2), (await WebAssembly.compileStreaming(wasm())) instanceof WebAssembly.Module);
            const used = wasm();
            await used.arrayBuffer();
            const outcomes = await Promise.allSettled([
              WebAssembly.compileStreaming(new Response(bytes, { headers: { "content-type": "text/plain" } })),
              WebAssembly.compileStreaming(new Response(bytes)),
              WebAssembly.compileStreaming(wasm({ status: 404 })),
              WebAssembly.compileStreaming(used),
              WebAssembly.compileStreaming(bytes),
              WebAssembly.compileStreaming(new Response(new Uint8Array([0, 1]), { headers: { "content-type": " Application/WASM " } })),
            ]);
            for (const outcome of outcomes) console.log(outcome.status, outcome.reason.constructor.name, outcome.reason.message);
            """
        let result = try await CLI.run(["-e", Self.inAsyncFunction(script)])
        #expect(result.exitCode == 0, "\(result.summary)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "3 true", "\(result.summary)")
        #expect(
            lines.dropFirst().map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
                "rejected TypeError", "rejected TypeError", "rejected TypeError", "rejected TypeError",
                "rejected TypeError", "rejected CompileError",
            ], "\(result.summary)")
        #expect(lines.count > 3 && lines[1].contains("'text/plain'") && lines[3].contains("404"), "\(result.summary)")
    }

    /// `body` in an async function, whose failure is printed and fails the run.
    static func inAsyncFunction(_ body: String) -> String {
        "(async () => {\n\(body)\n})().catch((error) => { console.log('failed:', error); process.exitCode = 1; });"
    }

    private func json(_ value: some Encodable) -> String {
        String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
    }
}
