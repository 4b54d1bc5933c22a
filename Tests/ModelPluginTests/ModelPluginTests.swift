import JSBridgeCore
import JSBridgeTesting
import ModelConversion
import ModelPlugin
import Testing

@Suite struct ModelPluginActionTests {
    @Test func defineConvertAndErrors() async throws {
        let tester = try await PluginTester(ModelPlugin())
        _ = try tester.callSync(
            "define", ["name": "Room", "schema": ["number": "int", "price": ["type": "double", "min": 0]]])
        _ = try tester.callSync("define", ["name": "Hotel", "schema": ["name": "string", "rooms": ["Room"]]])
        let hotel = try tester.callSync(
            "convert", ["name": "Hotel", "value": ["name": "Ritz", "rooms": [["number": "1", "price": 2]]]])
        #expect(hotel == ["name": "Ritz", "rooms": [["number": 1, "price": 2]]])
        let async = try await tester.call("convertAsync", ["name": "Hotel", "value": ["name": "A", "rooms": []]])
        #expect(async == ["name": "A", "rooms": []])
        let bad = #expect(throws: BridgeError.self) {
            try tester.callSync(
                "convert", ["name": "Hotel", "value": ["rooms": [[:], [:], ["number": 1, "price": -5]]]])
        }
        #expect(bad?.code == "DATA_FORMAT")
        #expect(
            bad?.data?["issues"]?.arrayValue?.map { $0["path"]?.stringValue ?? "" } == [
                "name", "rooms[0].number", "rooms[0].price", "rooms[1].number", "rooms[1].price", "rooms[2].price",
            ])
        #expect(
            bad?.data?["issues"]?[5] == [
                "path": "rooms[2].price", "code": "OUT_OF_RANGE", "message": "value -5 is below the minimum 0",
                "input": -5,
            ])
        // Every action that takes a model's name refuses one never defined.
        for action in ["convert", "toJSON", "archive", "hash", "describe", "sample"] {
            let unknown = #expect(throws: BridgeError.self) {
                try tester.callSync(action, ["name": "Nope", "value": [:]])
            }
            #expect(unknown?.code == "UNKNOWN_MODEL", "\(action)")
        }
        let typo = #expect(throws: BridgeError.self) {
            try tester.callSync("define", ["name": "X", "schema": ["a": "strng"]])
        }
        #expect(typo?.code == "UNKNOWN_TYPE")
        #expect(typo?.data == ["path": "a"])
        let redefined = #expect(throws: BridgeError.self) {
            try tester.callSync("define", ["name": "Room", "schema": ["number": "string"]])
        }
        #expect(redefined?.code == "REDEFINITION")
        #expect(try tester.callSync("validate", ["name": "Room", "value": ["number": 1, "price": 1]]) == [])
        #expect(try tester.callSync("names", nil) == ["Room", "Hotel"])
    }
}

@Suite struct ModelScriptTests {
    func run(_ code: String) async -> ScriptResult {
        // A guard against a hang, not a time limit: alone these scripts take ~2 s (debug build), but in the
        // full parallel suite on two cores `badInputFromJS` (100,000 items, 10,000-deep documents) took 20–38 s.
        await ScriptRunner.run(code, plugins: [ModelPlugin()], timeout: .seconds(120))
    }

    /// Model's JavaScript takes its built-ins from the primordials: a script that replaced `JSON.stringify`,
    /// `Object.keys`, `Map.prototype.get` and the rest still defines, converts and writes back models, with
    /// hooks and the JS fast path.
    @Test func aScriptThatReplacesBuiltInsDoesNotBreakModels() async {
        let result = await run(
            ScriptRunner.replacingBuiltIns + """
                const results = [];
                (async () => {
                  Model.define("Tag", { name: "string" });
                  Model.define("Post", { id: "int", title: "string", tags: ["Tag"] }, { after(post) { post.seen = true; } });
                  const post = Model.convert("Post", { id: "7", title: "t", tags: [{ name: "a" }] });
                  results[results.length] = post.id + post.title + post.tags[0].name + post.seen;
                  const fast = Model.convert("Tag", { name: "plain" });
                  results[results.length] = fast.name + Model.toJSON("Post", post).tags.length;
                  results[results.length] = (await Model.convertAsync("Tag", { name: "async" })).name;
                  try { Model.convert("Post", { id: "x" }); } catch (e) { results[results.length] = e.code; }
                  Model.define("Link", { href: "url" });  // the fast path's URL checks are regexes
                  results[results.length] = Model.convert("Link", { href: "https://a.example/x" }).href;
                  try { Model.convert("Link", { href: "a b" }); } catch (e) { results[results.length] = e.code; }
                  restoreBuiltIns();
                  console.log(results.join(" | "));
                })();
                """)
        #expect(
            result.lines == ["7tatrue | plain1 | async | DATA_FORMAT | https://a.example/x | DATA_FORMAT"],
            "\(result.stderr)")
    }

    /// `"[User]"` and `"{User}"` convert arrays and objects of models (YYModel's modelArrayWithClass and
    /// modelDictionaryWithClass), with every item's issues under its index or key.
    @Test func collectionsOfModelsConvert() async {
        let result = await run(
            #"""
            Model.define("U", { id: "int", name: "string" });
            console.log(JSON.stringify(Model.convert("[U]", [{ id: "1", name: "a" }])), JSON.stringify(Model.convert("{U}", { x: { id: 3, name: "c" } })));
            for (const [name, value] of [["[U]", [{ id: 1, name: "a" }, { id: "x" }]], ["{U}", { k: { name: 5 } }], ["[U]", {}], ["[Nope]", []]]) {
              try { Model.convert(name, value); console.log("converted?"); } catch (e) { console.log(e.code, (e.data?.issues ?? []).map((i) => i.path + ":" + i.code).join(",")); }
            }
            """#)
        #expect(
            result.lines == [
                #"[{"id":1,"name":"a"}] {"x":{"id":3,"name":"c"}}"#, "DATA_FORMAT [1].id:TYPE,[1].name:REQUIRED",
                "DATA_FORMAT k.id:REQUIRED", "DATA_FORMAT :TYPE", "UNKNOWN_MODEL ",
            ], "\(result.stderr)")
    }

    /// JSON text converts as the value it parses to (YYModel's `yy_modelWithJSON:`, YFProtocolModel); other
    /// strings stay a `TYPE` issue.
    @Test func convertAcceptsJSONText() async {
        let result = await run(
            #"""
            Model.define("Human", { name: "string", age: "int?" });
            console.log(JSON.stringify(Model.convert("Human", '{"name":"petter"}')));
            console.log(JSON.stringify(Model.convert("[Human]", ' [{"name":"a","age":"3"}]')));
            for (const text of ["petter", "{not json", "42"]) {
              try { Model.convert("Human", text); } catch (e) { console.log(e.code, e.data.issues[0].code); }
            }
            Model.convertAsync("Human", '{"name":"async"}').then((h) => console.log(JSON.stringify(h)));
            """#)
        #expect(
            result.lines == [
                #"{"name":"petter","age":null}"#, #"[{"name":"a","age":3}]"#, "DATA_FORMAT TYPE", "DATA_FORMAT TYPE",
                "DATA_FORMAT TYPE", #"{"name":"async","age":null}"#,
            ], "\(result.stderr)")
    }

    /// `Model.toJSON` reads a model's own properties only: a field named `constructor` (inherited from
    /// `Object.prototype` when absent, a function) works, and a polluted `Object.prototype` adds no field.
    /// A discriminator tag `constructor` or `toString` picks no mapping it does not have.
    @Test func toJSONReadsOnlyOwnProperties() async {
        let result = await run(
            #"""
            Model.define("C", { id: "int", constructor: "string?", toString: "string?" });
            console.log(JSON.stringify(Model.toJSON("C", { id: 1 })), JSON.stringify(Model.toJSON("C", { id: 2, constructor: "c" })));
            console.log(JSON.stringify(Model.copy("C", Model.convert("C", { id: 3 }))));
            Object.prototype.x = "leak";
            Model.define("P", { id: "int", x: "string?" });
            console.log(JSON.stringify(Model.toJSON("P", { id: 4 })), JSON.stringify(Model.toJSON("P", { id: 5, x: "own" })));
            delete Object.prototype.x;
            Model.define("Dog", { kind: "string", bark: "string?" });
            Model.define("Pet", { kind: "string", name: "string?" }, { discriminator: { key: "kind", mapping: { dog: "Dog" } } });
            console.log(JSON.stringify(Model.toJSON("Pet", { kind: "constructor", name: "n" })), JSON.stringify(Model.toJSON("Pet", { kind: "dog", bark: "w" })));
            try { Model.toJSON("C", [1]); } catch (e) { console.log(e.code); }
            """#)
        #expect(
            result.lines == [
                #"{"id":1} {"id":2,"constructor":"c"}"#, #"{"id":3,"constructor":null,"toString":null}"#,
                #"{"id":4} {"id":5,"x":"own"}"#, #"{"kind":"constructor","name":"n"} {"kind":"dog","bark":"w"}"#,
                "DATA_FORMAT",
            ], "\(result.stderr)")
    }

    /// `Model.toJSON("[U]", …)` and `"{U}"` write back arrays and objects of models as `Model.convert` reads
    /// them, with every item's issues under its index or key.
    @Test func collectionsOfModelsWriteBack() async {
        let result = await run(
            #"""
            Model.define("U", { id: "int", name: { type: "string", key: "n" } });
            const users = Model.convert("[U]", [{ id: 1, n: "a" }, { id: 2, n: "b" }]);
            console.log(JSON.stringify(Model.toJSON("[U]", users)), JSON.stringify(Model.toJSON("{U}", { k: users[0] })));
            console.log(JSON.stringify(Model.convert("[U]", Model.toJSON("[U]", users))) === JSON.stringify(users));
            for (const [name, value] of [["[U]", [users[0], 5]], ["[U]", {}], ["{U}", []], ["[Nope]", []]]) {
              try { Model.toJSON(name, value); console.log("written?"); } catch (e) { console.log(e.code, (e.data?.issues ?? []).map((i) => i.path + ":" + i.code).join(",")); }
            }
            """#)
        #expect(
            result.lines == [
                #"[{"id":1,"n":"a"},{"id":2,"n":"b"}] {"k":{"id":1,"n":"a"}}"#, "true", "DATA_FORMAT [1]:TYPE",
                "DATA_FORMAT :TYPE", "DATA_FORMAT :TYPE", "UNKNOWN_MODEL ",
            ], "\(result.stderr)")
    }

    /// Conversion and writing back agree: fields keyed `x` and `x.y` round-trip through `toJSON` and `copy`;
    /// a number in a date field is seconds both ways; `""` in a URL field that may be absent is absent; sets
    /// compare without order, and equal models archive to the same text.
    @Test func writingBackAgreesWithConversion() async {
        let result = await run(
            #"""
            Model.define("A", { x: { type: "string?", key: "x" }, y: { type: "string?", key: "x.y" } });
            const a = Model.convert("A", { x: "1" });
            console.log(JSON.stringify(Model.toJSON("A", a)), JSON.stringify(Model.copy("A", a)));
            Model.define("D", { d: "date" });
            console.log(Model.convert("D", { d: 1000 }).d, Model.toJSON("D", { d: 1000 }).d, Model.archive("D", { d: 1000 }).includes("00:16:40"));
            Model.define("U", { a: "url?", b: { type: "url", optional: true }, c: { type: "url", default: "http://x/" } });
            console.log(JSON.stringify(Model.convert("U", { a: "", b: "", c: "" })));
            Model.define("E", { v: { type: "string?", key: ".ext" } });
            console.log(JSON.stringify(Model.toJSON("E", Model.convert("E", { ".ext": "q" }))));
            Model.define("S", { s: "Set<int>", m: "{int}?", n: "string?" });
            console.log(Model.equals("S", { s: [1, 2] }, { s: [2, 1, 1] }), Model.hash("S", { s: [1, 2] }) === Model.hash("S", { s: [2, 1] }),
              Model.archive("S", { s: [2, 1], m: { b: 1, a: 2 } }) === Model.archive("S", { s: [1, 2], m: { a: 2, b: 1 }, n: null }));
            """#)
        #expect(
            result.lines == [
                #"{"x":"1"} {"x":"1","y":null}"#, "1970-01-01T00:16:40Z 1970-01-01T00:16:40Z true",
                #"{"a":null,"b":null,"c":"http://x/"}"#, #"{".ext":"q"}"#, "true true true",
            ], "\(result.stderr)")
    }

    @Test func jsAPI() async {
        let result = await run(
            """
            Model.define("Room", { number: "int", price: { type: "double", min: 0 }, kind: { type: "string", enum: ["single", "suite"], default: "single" } });
            Model.define("Hotel", {
              name: "string",
              desc: { type: "string?", keys: ["ext.desc", "description"] },
              opened: "date?",
              rooms: ["Room"],
            }, { after(hotel) { for (const room of hotel.rooms) room.hotel = hotel; } });
            const h = Model.convert("Hotel", { name: "Ritz", ext: { desc: "grand" }, opened: 1442377209, rooms: [{ number: "101", price: "99.5" }] });
            console.log(JSON.stringify(h.rooms[0].number), h.rooms[0].price, h.rooms[0].kind, h.desc, h.opened);
            console.log(h.rooms[0].hotel === h);
            console.log(JSON.stringify(Model.toJSON("Hotel", h)));
            try {
              Model.convert("Hotel", { rooms: [{ number: 1, price: 1 }, { number: 2, price: 1 }, { number: "x", price: -1 }] });
            } catch (e) {
              console.log(e instanceof BridgeError, e.code, e.data.issues.map((i) => i.path + ":" + i.code).join(","));
            }
            console.log(JSON.stringify(Model.validate("Room", { number: 1, price: "abc" })));
            try { Model.convert("Nope", {}); } catch (e) { console.log(e.code); }
            try { Model.define("Bad", { a: "strng" }); } catch (e) { console.log(e.code, e.message.split(".")[0]); }
            try { Model.define("Room", { number: "string" }); } catch (e) { console.log(e.code); }
            const s = Model.sample("Hotel");
            console.log(s.name, s.rooms.length, s.rooms[0].hotel === s, JSON.stringify(Model.sample("Room", { json: true })));
            const text = Model.archive("Hotel", h);
            const back = Model.unarchive(text);
            console.log(back.model, back.value.rooms[0].hotel === back.value, Model.equals("Hotel", h, back.value));
            console.log(Model.describe("Room", { number: 1 }));
            Model.convertAsync("Hotel", { name: "Async", rooms: [] }).then((v) => console.log("async", v.name));
            Model.convertAsync("Hotel", { rooms: 5 }).catch((e) => console.log("async error", e.code, e.data.issues.length));
            """)
        #expect(result.stderr == "")
        // The two async conversions run concurrently: either may answer first.
        #expect(Set(result.lines.suffix(2)) == ["async Async", "async error DATA_FORMAT 2"])
        #expect(
            result.lines.dropLast(2) == [
                "101 99.5 single grand 2015-09-16T04:20:09Z",
                "true",
                #"{"name":"Ritz","ext":{"desc":"grand"},"opened":"2015-09-16T04:20:09Z","rooms":[{"number":101,"price":99.5,"kind":"single"}]}"#,
                "true DATA_FORMAT name:REQUIRED,rooms[2].number:TYPE,rooms[2].price:OUT_OF_RANGE",
                #"[{"path":"price","code":"TYPE","message":"expected a number, got a string that is not a number","input":"abc"}]"#,
                "UNKNOWN_MODEL",
                "UNKNOWN_TYPE Field 'a': Unknown type 'strng'",
                "REDEFINITION",
                "Jane Doe 1 true {\"number\":42,\"price\":9.99,\"kind\":\"single\"}",
                "Hotel true true",
                #"Room({"number":1})"#.replacingOccurrences(of: #"{"number":1}"#, with: "number: 1"),
            ])
        #expect(result.exitCode == 0)
    }

    @Test func badInputFromJS() async {
        let result = await run(
            """
            Model.define("Node", { child: "Node?", label: "string?" });
            const cyclic = { label: "a" }; cyclic.child = cyclic;
            try { Model.convert("Node", cyclic); } catch (e) { console.log(e.code, e.data.issues[0].path); }
            let deep = null;
            for (let i = 0; i < 2000; i++) deep = { child: deep };
            try { Model.convert("Node", deep); } catch (e) { console.log(e.code, e.data.issues[0].code); }
            let shallower = null;
            for (let i = 0; i < 400; i++) shallower = { child: shallower };
            console.log(Model.convert("Node", shallower, { maxDepth: 450 }).child !== null);
            try { Model.convert("Node", deep, { maxDepth: 5000 }); } catch (e) { console.log(e.code, e.data.issues[0].path); }
            Model.define("Num", { n: "int", s: "string" });
            try { Model.convert("Num", { n: 2 ** 53 + 2, s: "\\ud800" }); } catch (e) { console.log(e.data.issues.map((i) => i.code).join()); }
            console.log(JSON.stringify(Model.convert("Num", { n: 1, s: "\\ud800" }).s));
            Model.define("Shape", {}, { discriminator: { key: "kind", mapping: { c: "Circle" } } });
            Model.define("Circle", { kind: "string", r: "double" });
            try { Model.convert("Shape", { kind: "z" }); } catch (e) { console.log(e.data.issues[0].code, e.data.issues[0].path); }
            console.log(JSON.stringify(Model.convert("Shape", { kind: "c", r: "1.5" })));
            const big = []; for (let i = 0; i < 100000; i++) big.push({ n: i, s: "x" });
            Model.define("List", { items: ["Num"] });
            console.log(Model.convert("List", { items: big }).items.length);
            try { Model.define("Hook", { a: "int" }, { strict() {} }); } catch (e) { console.log(e.constructor.name); }
            let deepest = null;
            for (let i = 0; i < 10000; i++) deepest = { child: deepest };
            try { Model.convert("Node", deepest); } catch (e) { console.log(e.code, e.data.issues[0].code, e.data.issues[0].path.split(".").length); }
            console.log(Model.validate("Node", deepest, { maxDepth: 300 }).map((i) => i.code + " " + i.path.split(".").length).join());
            Model.convertAsync("Node", deepest).catch((e) => console.log("async", e.code, e.data.issues[0].code));
            """)
        #expect(result.stderr == "")
        #expect(
            result.lines == [
                "INVALID_ARGUMENT value.child",
                "DATA_FORMAT TOO_DEEP",
                "true",
                "INVALID_ARGUMENT options.maxDepth",
                "OUT_OF_RANGE",
                #""\ufffd""#.replacingOccurrences(of: "\\ufffd", with: "\u{FFFD}"),
                "UNKNOWN_DISCRIMINATOR kind",
                #"{"kind":"c","r":1.5}"#,
                "100000",
                "TypeError",
                "DATA_FORMAT TOO_DEEP 200",
                "TOO_DEEP 300",
                "async DATA_FORMAT TOO_DEEP",
            ])
    }

    @Test func jsBeforeHooks() async {
        let result = await run(
            """
            // A top-level before hook: accept a bare string, and rename a legacy key.
            Model.define("Tag", { name: "string", weight: "int" }, {
              before(raw) {
                if (typeof raw === "string") return { name: raw, weight: 1 };
                if (raw.title !== undefined) return { ...raw, name: raw.title };
              },
            });
            console.log(JSON.stringify(Model.convert("Tag", "swift")), JSON.stringify(Model.convert("Tag", { title: "js", weight: "2" })));
            // Nested: in arrays, in maps and under a dotted key path; the input is never modified.
            Model.define("Item", { id: "int", label: "string" }, {
              before(raw) { if (raw.label === undefined) raw = { ...raw, label: "#" + raw.id }; return raw; },
            });
            Model.define("Order", { items: ["Item"], byName: "{Item}?", main: { type: "Item?", key: "ext.main" }, tags: "[Tag]?" });
            const input = { items: [{ id: 1 }, { id: 2, label: "x" }], byName: { a: { id: 4 } }, ext: { main: { id: 3 } }, tags: ["a"] };
            const order = Model.convert("Order", input);
            console.log(order.items.map((i) => i.label).join(), order.byName.a.label, order.main.label, order.tags[0].name);
            console.log(JSON.stringify(input));
            // The fast path and the native path see the transformed input alike.
            console.log(JSON.stringify(Model.convert("Order", input, { native: true })) === JSON.stringify(order));
            // validate and convertAsync run the hooks too.
            console.log(JSON.stringify(Model.validate("Order", { items: [{ id: "x" }] }).map((i) => i.path + ":" + i.code)));
            Model.convertAsync("Order", { items: [{ id: 7 }] }).then((o) => console.log("async", o.items[0].label));
            // A hook that throws: its error reaches the caller; an issue from the transformed input has its path.
            Model.define("Strict", { n: "int" }, { before(raw) { if (raw.n < 0) throw new RangeError("negative"); } });
            try { Model.convert("Strict", { n: -1 }); } catch (e) { console.log(e.constructor.name, e.message); }
            try { Model.convert("Order", { items: [{ id: 1, label: 5 }, { label: "y" }] }); } catch (e) {
              console.log(e.code, e.data.issues.map((i) => i.path + ":" + i.code).join());
            }
            // Redefining without the hook removes it.
            Model.define("Strict", { n: "int" });
            console.log(Model.convert("Strict", { n: -1 }).n);
            try { Model.define("Bad", { n: "int" }, { before: 5 }); } catch (e) { console.log(e.constructor.name); }
            """)
        #expect(result.stderr == "")
        #expect(
            result.lines == [
                #"{"name":"swift","weight":1} {"name":"js","weight":2}"#,
                "#1,x #4 #3 a",
                #"{"items":[{"id":1},{"id":2,"label":"x"}],"byName":{"a":{"id":4}},"ext":{"main":{"id":3}},"tags":["a"]}"#,
                "true",
                #"["items[0].id:TYPE"]"#,
                "RangeError negative",
                "DATA_FORMAT items[1].id:REQUIRED",
                "-1",
                "TypeError",
                "async #7",
            ])
        #expect(result.exitCode == 0)
    }

    @Test func jsResolvers() async {
        let result = await run(
            """
            Model.define("Shape", { kind: "string?" }, {
              resolve(raw) { return raw.r !== undefined ? "Circle" : raw.w !== undefined ? "Rect" : raw.bad ? "Nope" : null; },
            });
            Model.define("Circle", { r: "double" }, { after(c) { c.area = Math.round(Math.PI * c.r * c.r); } });
            Model.define("Rect", { w: "double", h: "double" }, { before(raw) { return raw.h === undefined ? { ...raw, h: raw.w } : raw; } });
            Model.define("Drawing", { shapes: ["Shape"], main: "Shape?" });
            const d = Model.convert("Drawing", { shapes: [{ r: "2" }, { w: 3 }, { kind: "blob" }], main: { w: 1, h: 2 } });
            console.log(JSON.stringify(d));
            console.log(d.shapes[0].area, Object.keys(d.shapes[1]).join());
            console.log(JSON.stringify(Model.convert("Shape", { r: 1 })));
            try { Model.convert("Drawing", { shapes: [{ r: "x" }, { bad: true }] }); } catch (e) {
              console.log(e.code, e.data.issues.map((i) => i.path + ":" + i.code).join());
            }
            console.log(JSON.stringify(Model.validate("Drawing", { shapes: [{ w: "wide" }] }).map((i) => i.path)));
            // toJSON, equals and hash ask the resolver with the model object.
            console.log(JSON.stringify(Model.toJSON("Drawing", d)), Model.equals("Drawing", d, Model.copy("Drawing", d)));
            console.log(Model.equals("Shape", { r: 1 }, { r: 2 }), Model.hash("Shape", { r: 1 }) === Model.hash("Shape", { r: 1 }));
            Model.define("Odd", {}, { resolve() { return 5; } });
            try { Model.convert("Odd", {}); } catch (e) { console.log(e.constructor.name); }
            // Without the hook the declared model converts again.
            Model.define("Shape", { kind: "string?" });
            console.log(JSON.stringify(Model.convert("Shape", { r: 1, kind: "k" })));
            """)
        #expect(result.stderr == "")
        #expect(
            result.lines == [
                #"{"shapes":[{"r":2,"area":13},{"w":3,"h":3},{"kind":"blob"}],"main":{"w":1,"h":2}}"#,
                "13 w,h",
                #"{"r":1,"area":3}"#,
                "DATA_FORMAT shapes[0].r:TYPE,shapes[1]:UNKNOWN_MODEL",
                #"["shapes[0].w","shapes[0].h"]"#,
                #"{"shapes":[{"r":2},{"w":3,"h":3},{"kind":"blob"}],"main":{"w":1,"h":2}} true"#,
                "false true",
                "TypeError",
                #"{"kind":"k"}"#,
            ])
        #expect(result.exitCode == 0)
    }
}
