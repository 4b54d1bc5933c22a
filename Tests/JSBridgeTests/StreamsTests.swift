import Foundation
import JSBridgeTesting
import Testing

/// The WHATWG Streams globals (js/streams.js), run through the engine: each test's script prints what the
/// Streams Standard says it must observe.
@Suite struct StreamsTests {
    private func run(_ code: String) async -> ScriptResult {
        await ScriptRunner.run(code, timeout: .seconds(60))
    }

    @Test func defaultReaderReadsQueuedChunksThenDone() async {
        let result = await run(
            #"""
            const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close(); } });
            const reader = rs.getReader();
            console.log(rs.locked, JSON.stringify(await reader.read()), JSON.stringify(await reader.read()));
            console.log(JSON.stringify(await reader.read()));
            await reader.closed;
            reader.releaseLock();
            console.log(rs.locked);
            """#)
        #expect(
            result.lines == [
                #"true {"value":"a","done":false} {"value":"b","done":false}"#, #"{"done":true}"#, "false",
            ])
        #expect(result.exitCode == 0)
    }

    @Test func pullIsCalledUntilTheHighWaterMarkAndDesiredSizeFollowsTheQueue() async {
        let result = await run(
            #"""
            let pulls = 0, controller;
            const rs = new ReadableStream({
              start(c) { controller = c; },
              pull(c) { pulls++; c.enqueue(pulls); },
            }, new CountQueuingStrategy({ highWaterMark: 3 }));
            await new Promise((r) => setTimeout(r, 0));
            console.log(pulls, controller.desiredSize);
            const reader = rs.getReader();
            console.log((await reader.read()).value);
            await new Promise((r) => setTimeout(r, 0));
            console.log(pulls, controller.desiredSize);
            const sized = new ReadableStream({ start(c) { c.enqueue(new Uint8Array(10)); console.log(c.desiredSize); } },
              new ByteLengthQueuingStrategy({ highWaterMark: 16 }));
            """#)
        #expect(result.lines == ["3 0", "1", "4 0", "6"])
    }

    @Test func badArgumentsThrowTheStandardsErrors() async {
        let result = await run(
            #"""
            const name = (f) => { try { f(); return "ok"; } catch (e) { return e.constructor.name; } };
            console.log(name(() => new ReadableStream({ type: "nope" })));
            console.log(name(() => new ReadableStream({}, { highWaterMark: -1 })));
            console.log(name(() => new ReadableStream({}, { highWaterMark: NaN })));
            console.log(name(() => new ReadableStream({}, { size: 1 })));
            console.log(name(() => new ReadableStream({ type: "bytes" }, { size() { return 1; } })));
            console.log(name(() => new ReadableStream({ start: 5 })));
            console.log(name(() => new ReadableStream({ type: "bytes", autoAllocateChunkSize: 0 })));
            console.log(name(() => new CountQueuingStrategy()));
            console.log(name(() => new WritableStream({ type: "bytes" })));
            console.log(name(() => new TransformStream({ readableType: "bytes" })));
            console.log(await ReadableStreamDefaultReader.prototype.read.call({}).catch((e) => e.name));
            console.log(name(() => new ReadableStreamDefaultController()));
            const rs = new ReadableStream();
            rs.getReader();
            console.log(name(() => rs.getReader()), await rs.cancel().catch((e) => e.name));
            console.log(name(() => new ReadableStream().getReader({ mode: "byob" })));
            """#)
        #expect(
            result.lines == [
                "TypeError", "RangeError", "RangeError", "TypeError", "RangeError", "TypeError", "TypeError",
                "TypeError",
                "RangeError", "RangeError", "TypeError", "TypeError", "TypeError TypeError", "TypeError",
            ])
    }

    @Test func interfacesHaveWebIDLShapes() async {
        let result = await run(
            #"""
            const d = (o, k) => Object.getOwnPropertyDescriptor(o, k);
            console.log(Object.prototype.toString.call(new ReadableStream()), Object.prototype.toString.call(new WritableStream().getWriter()));
            console.log(d(ReadableStream.prototype, "getReader").enumerable, d(ReadableStream.prototype, "locked").enumerable);
            console.log(ReadableStream.length, ReadableStream.prototype.cancel.length, ReadableStream.prototype.pipeTo.length,
              ReadableStreamBYOBReader.prototype.read.length, ReadableStreamDefaultReader.length, WritableStreamDefaultWriter.prototype.write.length);
            console.log(ReadableStream.prototype[Symbol.asyncIterator] === ReadableStream.prototype.values);
            console.log(new CountQueuingStrategy({ highWaterMark: 1 }).size === new CountQueuingStrategy({ highWaterMark: 2 }).size);
            console.log(new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size({ byteLength: 7 }), typeof ReadableStream.from);
            console.log(Object.getPrototypeOf(Object.getPrototypeOf(new ReadableStream().values()))
              === Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype));
            """#)
        #expect(
            result.lines == [
                "[object ReadableStream] [object WritableStreamDefaultWriter]", "true true", "0 0 1 1 1 0", "true",
                "true",
                "7 function", "true",
            ])
    }

    @Test func writableStreamAppliesBackpressureAndSignalsReady() async {
        let result = await run(
            #"""
            const log = [];
            let release;
            const ws = new WritableStream({
              write(chunk) { log.push(`write ${chunk}`); return new Promise((r) => (release = r)); },
              close() { log.push("close"); },
            }, { highWaterMark: 2 });
            const writer = ws.getWriter();
            log.push(`size ${writer.desiredSize}`);
            writer.write("a"); writer.write("b");
            log.push(`size ${writer.desiredSize}`);
            let ready = false;
            writer.ready.then(() => (ready = true));
            await new Promise((r) => setTimeout(r, 0));
            log.push(`ready ${ready}`);
            release();
            await new Promise((r) => setTimeout(r, 0));
            log.push(`ready ${ready} size ${writer.desiredSize}`);
            release();
            await writer.close();
            console.log(log.join(", "));
            """#)
        #expect(
            result.lines == ["size 2, size 0, write a, ready false, write b, ready true size 1, close"])
    }

    @Test func writableAbortSignalsTheSinkAndRejectsPendingWrites() async {
        let result = await run(
            #"""
            let signal;
            const ws = new WritableStream({
              start(c) { signal = c.signal; },
              write(chunk, c) { return new Promise((r) => c.signal.addEventListener("abort", r)); },
              abort(reason) { console.log("abort", reason); },
            });
            const writer = ws.getWriter();
            const first = writer.write(1).catch((e) => `write1 ${e}`);
            const second = writer.write(2).catch((e) => `write2 ${e}`);
            await new Promise((r) => setTimeout(r, 0));
            signal.addEventListener("abort", () => console.log("signal", signal.reason));
            const aborted = writer.abort("why");
            console.log(signal.aborted, await first, await second);
            console.log(await writer.closed.catch((e) => `closed ${e}`), await aborted);
            """#)
        #expect(result.lines == ["signal why", "abort why", "true undefined write2 why", "closed why undefined"])
    }

    @Test func pipeThroughATransformAndPropagateClose() async {
        let result = await run(
            #"""
            const source = new ReadableStream({ start(c) { for (const w of ["a", "b", "c"]) c.enqueue(w); c.close(); } });
            const upper = new TransformStream({
              transform(chunk, c) { c.enqueue(chunk.toUpperCase()); c.enqueue(chunk); },
              flush(c) { c.enqueue("!"); },
            });
            const out = [];
            let closed = false;
            await source.pipeThrough(upper).pipeTo(new WritableStream({ write(c) { out.push(c); }, close() { closed = true; } }));
            console.log(out.join(""), closed, source.locked);
            """#)
        #expect(result.lines == ["AaBbCc! true false"])
    }

    @Test func pipeToPropagatesErrorsBothWaysAndHonoursPreventOptions() async {
        let result = await run(
            #"""
            const boom = new Error("boom");
            // Forward: an errored source aborts the destination.
            let aborted;
            await new ReadableStream({ start(c) { c.error(boom); } })
              .pipeTo(new WritableStream({ abort(r) { aborted = r; } }))
              .catch((e) => console.log("forward", e === boom, aborted === boom));
            // Backward: an erroring destination cancels the source.
            let canceled;
            await new ReadableStream({ pull(c) { c.enqueue(1); }, cancel(r) { canceled = r; } })
              .pipeTo(new WritableStream({ write() { throw boom; } }))
              .catch((e) => console.log("backward", e === boom, canceled === boom));
            // preventCancel keeps the source readable and unlocked afterwards.
            const keep = new ReadableStream({ pull(c) { c.enqueue(1); } });
            await keep.pipeTo(new WritableStream({ write() { throw boom; } }), { preventCancel: true }).catch(() => {});
            console.log("preventCancel", keep.locked, (await keep.getReader().read()).value);
            // preventClose leaves the destination open.
            const ws = new WritableStream();
            await new ReadableStream({ start(c) { c.close(); } }).pipeTo(ws, { preventClose: true });
            const w = ws.getWriter();
            console.log("preventClose", w.desiredSize);
            """#)
        #expect(
            result.lines == ["forward true true", "backward true true", "preventCancel false 1", "preventClose 1"])
    }

    @Test func pipeToStopsWhenTheSignalAborts() async {
        let result = await run(
            #"""
            const controller = new AbortController();
            let canceled, aborted, n = 0;
            const source = new ReadableStream({ pull(c) { c.enqueue(n++); }, cancel(r) { canceled = r.name; } });
            const dest = new WritableStream({
              write(chunk) { if (chunk === 3) controller.abort(); },
              abort(r) { aborted = r.name; },
            });
            const error = await source.pipeTo(dest, { signal: controller.signal }).catch((e) => e);
            console.log(error.name, error instanceof DOMException, canceled, aborted);
            const already = await new ReadableStream().pipeTo(new WritableStream(), { signal: AbortSignal.abort("r") }).catch((e) => e);
            console.log(already);
            console.log(await new ReadableStream().pipeTo(new WritableStream(), { signal: {} }).catch((e) => e.name));
            """#)
        #expect(result.lines == ["AbortError true AbortError AbortError", "r", "TypeError"])
    }

    @Test func teeGivesBothBranchesEveryChunkAndCancelsWithBothReasons() async {
        let result = await run(
            #"""
            let reason;
            const rs = new ReadableStream({
              start(c) { c.enqueue(1); c.enqueue(2); c.close(); },
              cancel(r) { reason = r; },
            });
            const [a, b] = rs.tee();
            const all = async (s) => { const out = []; for await (const x of s) out.push(x); return out.join(","); };
            console.log(await all(a), await all(b));
            const [c, d] = new ReadableStream({ cancel(r) { reason = r; } }).tee();
            const p = c.cancel("x");
            await d.cancel("y");
            await p;
            console.log(JSON.stringify(reason));
            """#)
        #expect(result.lines == ["1,2 1,2", #"["x","y"]"#])
    }

    @Test func asyncIterationReleasesOrCancelsOnBreak() async {
        let result = await run(
            #"""
            let cancels = 0;
            const make = () => new ReadableStream({ pull(c) { c.enqueue(1); }, cancel() { cancels++; } });
            const a = make();
            for await (const x of a) break;
            console.log(cancels, a.locked);
            const b = make();
            for await (const x of b.values({ preventCancel: true })) break;
            console.log(cancels, b.locked);
            const errored = new ReadableStream({ start(c) { c.error(new TypeError("bad")); } });
            try { for await (const x of errored) {} } catch (e) { console.log(e.message); }
            const items = [];
            for await (const x of ReadableStream.from((async function* () { yield 1; yield 2; })())) items.push(x);
            for await (const x of ReadableStream.from(["s", Promise.resolve("p")])) items.push(x);
            console.log(items.join(" "));
            """#)
        #expect(result.lines == ["1 false", "1 false", "bad", "1 2 s p"])
    }

    @Test func byteStreamsFillBYOBViewsAndAutoAllocate() async {
        let result = await run(
            #"""
            let offset = 0;
            const rs = new ReadableStream({
              type: "bytes",
              pull(c) {
                const view = c.byobRequest.view;
                const n = Math.min(3, view.length);
                for (let i = 0; i < n; i++) view[i] = offset + i;
                offset += n;
                c.byobRequest.respond(n);
                if (offset >= 9) c.close();
              },
            });
            const reader = rs.getReader({ mode: "byob" });
            const buffer = new ArrayBuffer(8);
            const first = await reader.read(new Uint8Array(buffer));
            console.log(first.value.join(","), buffer.byteLength, first.value.buffer.byteLength);
            const rest = await reader.read(new Uint16Array(2), { min: 2 });
            console.log(rest.value.constructor.name, rest.value.length);
            const auto = new ReadableStream({
              type: "bytes", autoAllocateChunkSize: 4,
              pull(c) { c.byobRequest.view.set([9, 9]); c.byobRequest.respond(2); c.close(); },
            });
            const r = auto.getReader();
            console.log(Array.from((await r.read()).value).join(","), (await r.read()).done);
            const enq = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2, 3, 4, 5])); c.close(); } });
            const br = enq.getReader({ mode: "byob" });
            const part = await br.read(new Uint8Array(2));
            const more = await br.read(new Uint8Array(8));
            const end = await br.read(new Uint8Array(8));
            console.log(part.value.join(","), more.value.join(","), end.done, end.value.byteLength);
            """#)
        #expect(result.lines == ["0,1,2 0 8", "Uint16Array 2", "9,9 true", "1,2 3,4,5 true 0"])
    }

    @Test func byteStreamTeeClonesChunksForEachBranch() async {
        let result = await run(
            #"""
            const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2])); c.close(); } });
            const [a, b] = rs.tee();
            const ra = a.getReader({ mode: "byob" });
            const rb = b.getReader();
            const va = (await ra.read(new Uint8Array(4))).value;
            const vb = (await rb.read()).value;
            console.log(va.join(","), vb.join(","), va.buffer !== vb.buffer);
            """#)
        #expect(result.lines == ["1,2 1,2 true"])
    }

    @Test func textStreamsEncodeAndDecodeAcrossChunkBoundaries() async {
        let result = await run(
            #"""
            const enc = new TextEncoderStream();
            const w = enc.writable.getWriter();
            w.write("h\ud83d"); w.write("\ude00"); w.write("\ud800"); w.close();
            const bytes = [];
            for await (const chunk of enc.readable) bytes.push(...chunk);
            console.log(bytes.join(","));
            const dec = new TextDecoderStream();
            const dw = dec.writable.getWriter();
            dw.write(new Uint8Array([0xe2, 0x82])); dw.write(new Uint8Array([0xac, 0x41])); dw.close();
            let text = "";
            for await (const chunk of dec.readable) text += chunk;
            console.log(text, dec.encoding, dec.fatal);
            const fatal = new TextDecoderStream("utf-8", { fatal: true });
            const fw = fatal.writable.getWriter();
            fw.write(new Uint8Array([0xff])).catch(() => {});
            console.log(await fatal.readable.getReader().read().catch((e) => e.name));
            """#)
        #expect(result.lines == ["104,240,159,152,128,239,191,189", "€A utf-8 false", "TypeError"])
    }

    @Test func startupDoesNotLoadStreams() async {
        let result = await run(
            #"""
            const d = Object.getOwnPropertyDescriptor(globalThis, "ReadableStream");
            console.log(typeof d.get, Object.keys(globalThis).includes("ReadableStream"));
            console.log(typeof ReadableStream, typeof Object.getOwnPropertyDescriptor(globalThis, "ReadableStream").value);
            """#)
        #expect(result.lines == ["function false", "function function"])
    }
}
