import JSBridgeTesting
import Testing

/// DOMException (Web IDL) and structuredClone (HTML's structured serialize / deserialize with transfer),
/// checked against the standards' text in a real engine. Each script prints one line per check; a line
/// that is not "ok" names the failed check.
@Suite struct StructuredCloneTests {
    /// Runs `checks` (JS statements calling `check(name, condition)`) and returns the failures.
    static func failures(_ checks: String) async -> [String] {
        let result = await ScriptRunner.run(
            """
            const failed = [];
            function check(name, condition) { if (condition !== true) failed.push(name); }
            function throwsNamed(fn, name) {
              try { fn(); return "no exception"; } catch (e) { return e instanceof Error && e.name === name ? true : `${e?.name}`; }
            }
            \(checks)
            console.log(failed.length === 0 ? "ok" : failed.join("\\n"));
            """)
        if result.exitCode != 0 || !result.stderr.isEmpty { return ["exit \(result.exitCode): \(result.stderr)"] }
        return result.lines == ["ok"] ? [] : result.lines
    }

    @Test func domExceptionShapeFollowsWebIDL() async {
        let failures = await Self.failures(
            """
            const e = new DOMException("msg", "AbortError");
            check("name", e.name === "AbortError");
            check("message", e.message === "msg");
            check("code", e.code === 20 && e.ABORT_ERR === 20 && DOMException.ABORT_ERR === 20);
            check("DATA_CLONE_ERR", DOMException.DATA_CLONE_ERR === 25 && DOMException.prototype.DATA_CLONE_ERR === 25);
            check("QUOTA_EXCEEDED_ERR", DOMException.QUOTA_EXCEEDED_ERR === 22);
            check("unknown name has code 0", new DOMException("m", "EncodingError").code === 0);
            check("defaults", (() => { const d = new DOMException(); return d.name === "Error" && d.message === "" && d.code === 0; })());
            check("null message is 'null'", new DOMException(null).message === "null");
            check("undefined name is Error", new DOMException("m", undefined).name === "Error");
            check("no own message/name/code", !Object.hasOwn(e, "message") && !Object.hasOwn(e, "name") && !Object.hasOwn(e, "code"));
            check("Error.prototype in chain", Object.getPrototypeOf(DOMException.prototype) === Error.prototype && e instanceof Error);
            check("constructor's prototype is Function.prototype", Object.getPrototypeOf(DOMException) === Function.prototype);
            check("toStringTag", Object.prototype.toString.call(e) === "[object DOMException]" && DOMException.prototype[Symbol.toStringTag] === "DOMException");
            check("String()", String(e) === "AbortError: msg");
            check("length", DOMException.length === 0);
            const nameDesc = Object.getOwnPropertyDescriptor(DOMException.prototype, "name");
            check("name accessor", typeof nameDesc.get === "function" && nameDesc.set === undefined && nameDesc.enumerable && nameDesc.configurable);
            check("brand check name", throwsNamed(() => nameDesc.get.call({}), "TypeError"));
            check("brand check code", throwsNamed(() => Object.getOwnPropertyDescriptor(DOMException.prototype, "code").get.call(Object.create(DOMException.prototype)), "TypeError"));
            const constDesc = Object.getOwnPropertyDescriptor(DOMException, "INDEX_SIZE_ERR");
            check("constant descriptor", constDesc.value === 1 && !constDesc.writable && constDesc.enumerable && !constDesc.configurable);
            const protoDesc = Object.getOwnPropertyDescriptor(DOMException, "prototype");
            check("prototype descriptor", !protoDesc.writable && !protoDesc.enumerable && !protoDesc.configurable);
            check("call without new", throwsNamed(() => DOMException("x"), "TypeError"));
            check("stack", typeof e.stack === "string");
            function makeOne() { return new DOMException("here"); }
            check("stack starts at the caller", makeOne().stack.split("\\n")[0].startsWith("makeOne@"));
            check("Error.isError", typeof Error.isError !== "function" || Error.isError(e));
            class Sub extends DOMException {}
            const s = new Sub("m", "SyntaxError");
            check("subclass", s instanceof Sub && s.code === 12 && s.name === "SyntaxError");
            // A script that replaces Error afterwards does not change DOMException.
            globalThis.Error = function () {};
            check("independent of the global Error", new DOMException("x", "NotFoundError").code === 8);
            check("AbortSignal reasons", AbortSignal.abort().reason instanceof DOMException && AbortSignal.abort().reason.name === "AbortError");
            """)
        #expect(failures == [])
    }

    @Test func clonesEveryStandardType() async {
        let failures = await Self.failures(
            #"""
            check("primitives", [undefined, null, true, 1.5, -0, NaN, 10n, "s"].every((v) => Object.is(structuredClone(v), v)));
            const boxes = structuredClone([Object(true), Object(2), Object("x"), Object(3n)]);
            check("boxed primitives", boxes[0] instanceof Boolean && boxes[0].valueOf() === true && boxes[1].valueOf() === 2
              && boxes[2] instanceof String && boxes[2].valueOf() === "x" && typeof boxes[3] === "object" && boxes[3].valueOf() === 3n);
            const date = structuredClone(new Date(1234));
            check("Date", date instanceof Date && date.getTime() === 1234);
            const re = /a+b/gi;
            re.lastIndex = 3;
            const reCopy = structuredClone(re);
            check("RegExp source/flags", reCopy instanceof RegExp && reCopy.source === "a+b" && reCopy.flags === "gi");
            check("RegExp lastIndex not kept", reCopy.lastIndex === 0);
            const m = new Map();
            m.set("self", m);
            m.set(m, 1);
            const mc = structuredClone(m);
            check("Map cycle", mc !== m && mc.get("self") === mc && mc.get(mc) === 1);
            const s = new Set();
            s.add(s);
            const sc = structuredClone(s);
            check("Set cycle", sc.has(sc) && sc.size === 1);
            const sparse = [1, , 3];
            sparse.extra = "x";
            sparse.length = 5;
            const sp = structuredClone(sparse);
            check("sparse array", sp.length === 5 && !(1 in sp) && sp[2] === 3 && !(4 in sp));
            check("non-index array property", sp.extra === "x");
            let reads = 0;
            const withGetter = { get g() { reads++; return "v"; } };
            const gc = structuredClone(withGetter);
            check("getter runs once, copy is data", reads === 1 && Object.getOwnPropertyDescriptor(gc, "g").value === "v");
            const deleting = { get a() { delete this.b; return 1; }, b: 2 };
            check("property deleted by a getter is skipped", !("b" in structuredClone(deleting)));
            check("prototype not kept", Object.getPrototypeOf(structuredClone(new (class A { constructor() { this.x = 1; } })())) === Object.prototype);
            check("__proto__ key is an own property", Object.hasOwn(structuredClone(JSON.parse('{"__proto__": 1}')), "__proto__"));
            const shared = { o: {} };
            shared.again = shared.o;
            shared.self = shared;
            const shc = structuredClone(shared);
            check("shared references", shc.again === shc.o && shc.self === shc);
            """#)
        #expect(failures == [])
    }

    @Test func clonesBuffersViewsAndErrors() async {
        let failures = await Self.failures(
            #"""
            const buffer = new ArrayBuffer(8);
            const bytes = new Uint8Array(buffer, 2, 4);
            const view = new DataView(buffer, 1);
            bytes[0] = 7;
            const [b2, v2, buf2] = structuredClone([bytes, view, buffer]);
            check("views share one copied buffer", b2.buffer === v2.buffer && b2.buffer === buf2 && buf2 !== buffer);
            check("view offsets", b2.byteOffset === 2 && b2.length === 4 && v2.byteOffset === 1 && v2.byteLength === 7);
            check("bytes copied", new Uint8Array(buf2)[2] === 7);
            check("all typed arrays", [Int8Array, Uint8ClampedArray, Int16Array, Float64Array, BigInt64Array].every((T) => {
              const copy = structuredClone(new T(2));
              return copy instanceof T && copy.length === 2;
            }));
            const resizable = new ArrayBuffer(4, { maxByteLength: 16 });
            const rc = structuredClone(resizable);
            check("resizable keeps maxByteLength", rc.resizable && rc.maxByteLength === 16 && rc.byteLength === 4);
            const tracking = new Uint8Array(resizable);
            const tc = structuredClone(tracking);
            tc.buffer.resize(8);
            check("length-tracking view", tc.length === 8 && resizable.byteLength === 4);

            const error = new RangeError("bad", { cause: { why: 1 } });
            const ec = structuredClone(error);
            check("Error type", ec instanceof RangeError && ec.name === "RangeError" && ec.message === "bad");
            check("Error message not enumerable", !Object.getOwnPropertyDescriptor(ec, "message").enumerable);
            check("Error cause cloned", ec.cause.why === 1 && ec.cause !== error.cause);
            check("Error stack kept", ec.stack === error.stack);
            const custom = new Error("m");
            custom.name = "CustomError";
            check("unknown error name becomes Error", structuredClone(custom).name === "Error");
            const noMessage = structuredClone(new TypeError());
            check("no message stays absent", !Object.hasOwn(noMessage, "message"));
            const de = structuredClone(new DOMException("gone", "NotFoundError"));
            check("DOMException", de instanceof DOMException && de.name === "NotFoundError" && de.message === "gone" && de.code === 8);
            """#)
        #expect(failures == [])
    }

    /// MessageChannel (HTML's channel messaging) in one runtime: messages are cloned when posted (transfers
    /// detach then) and delivered in order as tasks once the receiving port is started; a port transferred by
    /// structuredClone or postMessage takes its entanglement along; a port outside a transfer list, or
    /// transferring itself, is a DataCloneError; close() drops what was not yet delivered.
    @Test func messageChannelsDeliverClonedMessagesAndTransferPorts() async {
        let result = await ScriptRunner.run(
            #"""
            const isDataCloneError = (fn) => {
              try { fn(); return false; } catch (e) { return e instanceof DOMException && e.name === "DataCloneError"; }
            };
            const { port1, port2 } = new MessageChannel();
            const buffer = new Uint8Array([1, 2, 3]).buffer;
            const sent = { n: 1, b: buffer };
            port2.onmessage = (e) => {
              console.log("message", e instanceof MessageEvent, e.data.n, e.data === sent, new Uint8Array(e.data.b ?? new ArrayBuffer(0)).join(","));
              if (e.data.n === 2) port2.close();
            };
            port1.postMessage(sent, [buffer]);
            console.log("detached at post", buffer.byteLength);
            port1.postMessage({ n: 2 });
            port1.postMessage({ n: 3 });
            const other = new MessageChannel();
            const moved = structuredClone(other.port2, { transfer: [other.port2] });
            other.port1.onmessage = (e) => { console.log("from the moved port", e.data); other.port1.close(); };
            moved.postMessage("ohai");
            other.port2.postMessage("from the old port: dropped");
            console.log(isDataCloneError(() => structuredClone(other.port1)), isDataCloneError(() => other.port1.postMessage(1, [other.port1])));
            // A transferred port cannot be transferred again; a closed one can.
            const gone = new MessageChannel();
            structuredClone(gone.port1, { transfer: [gone.port1] });
            const shut = new MessageChannel();
            shut.port1.close();
            console.log(isDataCloneError(() => structuredClone(gone.port1, { transfer: [gone.port1] })),
              structuredClone(shut.port1, { transfer: [shut.port1] }) instanceof MessagePort);
            const unstarted = new MessageChannel();
            unstarted.port1.postMessage("waits for start()");
            setTimeout(() => { unstarted.port2.addEventListener("message", (e) => console.log(e.data)); unstarted.port2.start(); }, 20);
            console.log(Object.prototype.toString.call(port1), new MessageEvent("x", { data: 5 }).data);
            """#)
        #expect(
            result.lines == [
                "detached at post 0", "true true", "true true", "[object MessagePort] 5", "message true 1 false 1,2,3",
                "message true 2 false ", "from the moved port ohai", "waits for start()",
            ])
        #expect(result.exitCode == 0)
    }

    @Test func transferDetachesAndErrorsAreDataCloneErrors() async {
        let failures = await Self.failures(
            #"""
            const isDataCloneError = (fn) => {
              try { fn(); return false; } catch (e) { return e instanceof DOMException && e.name === "DataCloneError" && e.code === 25; }
            };
            const buffer = new Uint8Array([1, 2, 3]).buffer;
            const copy = structuredClone(buffer, { transfer: [buffer] });
            check("transferred buffer detached", buffer.detached === true && buffer.byteLength === 0);
            check("transferred copy has the bytes", copy.byteLength === 3 && new Uint8Array(copy)[2] === 3);
            const growable = new ArrayBuffer(2, { maxByteLength: 8 });
            const views = new Uint8Array(growable);
            const moved = structuredClone({ views }, { transfer: [growable] });
            check("transfer keeps resizability", moved.views.buffer.resizable && moved.views.buffer.maxByteLength === 8 && growable.detached);
            check("detached buffer refused", isDataCloneError(() => structuredClone(buffer)));
            check("detached buffer in transfer refused", isDataCloneError(() => structuredClone(0, { transfer: [buffer] })));
            const twice = new ArrayBuffer(1);
            check("duplicate transfer refused", isDataCloneError(() => structuredClone(twice, { transfer: [twice, twice] })));
            check("nothing detached after a failed duplicate", twice.detached === false);
            check("non-transferable refused", isDataCloneError(() => structuredClone(1, { transfer: [{}] })));
            const kept = new ArrayBuffer(4);
            check("failure detaches nothing", isDataCloneError(() => structuredClone({ kept, f() {} }, { transfer: [kept] })) && !kept.detached);
            const shrinking = new ArrayBuffer(8, { maxByteLength: 8 });
            const fixedView = new Uint8Array(shrinking, 0, 8);
            const fixedDataView = new DataView(shrinking, 4, 4);
            shrinking.resize(4);
            check("out-of-bounds typed array", isDataCloneError(() => structuredClone(fixedView)));
            check("out-of-bounds DataView", isDataCloneError(() => structuredClone(fixedDataView)));
            check("function", isDataCloneError(() => structuredClone(() => 1)));
            check("symbol", isDataCloneError(() => structuredClone(Symbol("s"))));
            check("symbol object", isDataCloneError(() => structuredClone(Object(Symbol("s")))));
            check("WeakMap", isDataCloneError(() => structuredClone(new WeakMap())));
            check("WeakSet", isDataCloneError(() => structuredClone(new WeakSet())));
            check("WeakRef", isDataCloneError(() => structuredClone(new WeakRef({}))));
            check("Promise", isDataCloneError(() => structuredClone(Promise.resolve())));
            check("nested function", isDataCloneError(() => structuredClone({ a: [{ f: Math.max }] })));
            check("no argument is a TypeError", throwsNamed(() => structuredClone(), "TypeError"));
            check("options not an object", throwsNamed(() => structuredClone(1, 5), "TypeError"));
            check("transfer not iterable", throwsNamed(() => structuredClone(1, { transfer: 5 }), "TypeError"));
            check("transfer entry not an object", throwsNamed(() => structuredClone(1, { transfer: [1] }), "TypeError"));
            check("null options", structuredClone(2, null) === 2);
            // A script that replaces built-ins does not change the algorithm.
            const input = new Map([[1, new ArrayBuffer(2)]]);
            Map.prototype.set = () => { throw new Error("replaced"); };
            ArrayBuffer.prototype.slice = () => { throw new Error("replaced"); };
            const after = structuredClone(input);
            check("independent of replaced built-ins", after.get(1).byteLength === 2);
            const OriginalArray = Array;
            globalThis.Array = function () { throw new Error("replaced"); };
            const arrayCopy = structuredClone([1, , 3]);
            globalThis.Array = OriginalArray;
            check("independent of a replaced Array", Array.isArray(arrayCopy) && arrayCopy.length === 3 && !(1 in arrayCopy));
            """#)
        #expect(failures == [])
    }
}
