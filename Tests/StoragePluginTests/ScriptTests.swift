import Foundation
import JSBridgeCore
import JSBridgeTesting
import Testing

@testable import StorageCore
@testable import StoragePlugin

/// The JavaScript API (js/storage.js) against the real engine and real SQLite files.
@Suite struct StorageScriptTests {
    static func run(_ backend: Backend, _ code: String, options: BridgeHost.Options = .testing()) async
        -> ScriptResult
    {
        var options = options
        do {
            options = try backend.options(options)
        } catch {
            Issue.record("no PostgreSQL for the test: \(error)")
        }
        return await ScriptRunner.run(code, plugins: [StoragePlugin()], options: options, timeout: .seconds(20))
    }

    /// Storage's JavaScript takes its built-ins from the primordials: with `JSON.parse`, `Map.prototype.get`,
    /// `Promise.prototype.then` and the rest replaced by the script, Web Storage and the Promise API still work.
    @Test func aScriptThatReplacesBuiltInsDoesNotBreakStorage() async {
        let result = await Self.run(
            .sqlite,
            ScriptRunner.replacingBuiltIns + """
                const results = [];
                (async () => {
                  localStorage.setItem("k", "v");
                  sessionStorage.setItem("s", "w");
                  results[results.length] = localStorage.getItem("k") + localStorage.length + sessionStorage.getItem("s");
                  Storage.registerDefaults({ d: 1 });
                  await Storage.set("a", { x: [1, 2] });
                  results[results.length] = (await Storage.get("a")).x[1] + (await Storage.get("d"));
                  await Storage.transaction([{ op: "set", key: "b", value: true }, { op: "remove", key: "a" }]);
                  const keys = await Storage.keys();
                  results[results.length] = keys.length + " " + keys[0] + keys[1];
                  restoreBuiltIns();
                  console.log(results.join(" | "));
                })();
                """)
        #expect(result.lines == ["v1w | 3 | 2 bd"], "\(result.stderr)")
    }

    /// A property named like one of `Object.prototype`'s is stored (Web IDL's named setter), and the object
    /// keeps working: its methods are still found first when read.
    @Test(arguments: Backend.allCases) func prototypeNamesAreStoredWithoutBreakingTheObject(_ backend: Backend) async {
        let result = await Self.run(
            backend,
            """
            localStorage.toString = "t";
            localStorage.hasOwnProperty = "h";
            localStorage.theme = "dark";
            console.log(localStorage.getItem("toString"), localStorage.getItem("hasOwnProperty"), String(localStorage));
            console.log(typeof localStorage.toString, localStorage.hasOwnProperty("theme"), localStorage.length);
            localStorage.clear();
            """)
        #expect(result.lines == ["t h [object Storage]", "function true 3"], "\(result.stderr)")
    }

    /// `set`, `clear`, `archiveModel` and `transaction` resolve to nothing (`undefined`), as Capacitor's do.
    @Test(arguments: Backend.allCases) func writesResolveToUndefined(_ backend: Backend) async {
        let result = await Self.run(
            backend,
            """
            (async () => {
              const g = Storage.group("g");
              const results = [await Storage.set("a", 1), await g.set("b", 2), await g.clear(),
                await Storage.transaction([{ op: "set", key: "c", value: 3 }]), await Storage.clear()];
              console.log(results.map((r) => r === undefined).join(","));
            })();
            """)
        #expect(result.lines == ["true,true,true,true,true"], "\(result.stderr)")
    }

    @Test(arguments: Backend.allCases) func webStorage(_ backend: Backend) async {
        let result = await Self.run(
            backend,
            """
            console.log(localStorage instanceof Storage, sessionStorage instanceof Storage, String(localStorage));
            console.log(localStorage.getItem("missing"), localStorage.length);
            localStorage.setItem("b", 2);
            localStorage.setItem("a", { toString() { return "obj"; } });
            localStorage.setItem(3, null);
            localStorage.setItem("é", undefined);
            console.log(JSON.stringify([localStorage.getItem("b"), localStorage.getItem("a"), localStorage.getItem("3"), localStorage.getItem("é")]));
            console.log(localStorage.length, [0, 1, 2, 3, 4, -1].map((n) => localStorage.key(n)).join(","));
            localStorage.theme = "dark";
            console.log(localStorage.theme, "theme" in localStorage, Object.keys(localStorage).join(","));
            delete localStorage.theme;
            localStorage.removeItem("b");
            console.log(localStorage.getItem("theme"), localStorage.getItem("b"), localStorage.length);
            try { localStorage.setItem("x"); } catch (e) { console.log(e.name); }
            try { new Storage(); } catch (e) { console.log(e.name, e.message); }
            Storage.set("kept", 1).then(async () => {
              localStorage.clear();
              console.log(localStorage.length, await Storage.get("kept"));
              sessionStorage.setItem("s", 1);
              sessionStorage.setItem("r", 2);
              console.log(sessionStorage.getItem("s"), sessionStorage.key(1), sessionStorage.length, localStorage.getItem("s"));
            });
            """)
        #expect(
            result.lines == [
                "true true [object Storage]",
                "null 0",
                #"["2","obj","null","undefined"]"#,
                "4 3,a,b,é,,",  // join() prints null as ""
                "dark true 3,a,b,theme,é",
                "null null 3",
                "TypeError",
                "TypeError Illegal constructor",
                "0 1",
                "1 r 2 null",
            ])
        #expect(result.stderr == "")
    }

    @Test(arguments: Backend.allCases) func quotaExceededLeavesNothingWritten(_ backend: Backend) async {
        let result = await Self.run(
            backend,
            """
            localStorage.setItem("a", "x".repeat(90));
            try {
              localStorage.setItem("b", "y".repeat(20));
            } catch (e) {
              console.log(e.name, e.code, e instanceof DOMException, JSON.stringify(e.data));
            }
            console.log(localStorage.getItem("b"), localStorage.length);
            try { sessionStorage.setItem("big", "z".repeat(200)); } catch (e) { console.log(e.name, e.code); }
            Storage.transaction([{ op: "set", key: "t1", value: 1 }, { op: "set", key: "t2", value: "w".repeat(50) }])
              .catch(async (e) => {
                console.log(e.name, e.code);
                console.log(await Storage.has("t1"), JSON.stringify(await Storage.usage()));
              });
            """, options: .testing(configuration: ["Storage": ["quotaBytes": 100]]))
        #expect(
            result.lines == [
                #"QuotaExceededError 22 true {"quotaBytes":100,"usedBytes":91,"requiredBytes":21}"#,
                "null 1",
                "QuotaExceededError 22",
                "QuotaExceededError QUOTA_EXCEEDED",
                #"false {"usedBytes":91,"quotaBytes":100}"#,
            ])
    }

    @Test(arguments: Backend.allCases) func promiseAPIRoundTripsJSONExactly(_ backend: Backend) async {
        let result = await Self.run(
            backend,
            #"""
            (async () => {
              const values = [0, -1.5, 1e300, 5e-324, 9007199254740993, true, false, null, "", "plain",
                "emoji 🎉 👩‍👩‍👧 日本語 \u0000 \uFFFF \uD83D\uDE00 lone \uD800 end",
                { b: 1, a: [1, { c: null }], "k e y": "v" }, [[], {}, [[]]], "x".repeat(100000)];
              let same = true;
              for (let i = 0; i < values.length; i++) {
                await Storage.set("v" + i, values[i]);
                const back = await Storage.get("v" + i);
                if (JSON.stringify(back) !== JSON.stringify(values[i]) || (typeof back === "string" && back !== values[i])) {
                  same = false;
                  console.log("differs", i, JSON.stringify(back));
                }
              }
              console.log("same", same);
              const g = Storage.group("prefs");
              await g.set("b", 2);
              await g.set("a", 1);
              console.log(await g.get("missing"), await g.has("a"), JSON.stringify(await g.keys()), JSON.stringify(await g.entries()));
              console.log(await g.remove("a"), await g.remove("a"), JSON.stringify(await Storage.groups()));
              g.registerDefaults({ fontSize: 14, b: 99, nested: { x: [1] } });
              const nested = await g.get("nested");
              nested.x.push(2);
              console.log(await g.get("fontSize"), await g.get("b"), JSON.stringify(await g.get("nested")), await g.has("fontSize"));
              console.log(JSON.stringify(await g.keys()), JSON.stringify(await g.entries()));
              await g.clear();
              console.log(await g.get("b"), JSON.stringify(await g.keys()), await Storage.get("v5"));
              console.log(Storage.group("prefs") === g, Storage.defaultGroup.name, g.name);
            })();
            """#)
        #expect(
            result.lines == [
                "same true",
                #"undefined true ["a","b"] [["a",1],["b",2]]"#,
                #"true false ["default","prefs"]"#,
                #"14 2 {"x":[1]} true"#,
                #"["b","fontSize","nested"] [["b",2],["fontSize",14],["nested",{"x":[1]}]]"#,
                #"99 ["b","fontSize","nested"] true"#,
                "true default prefs",
            ])
        #expect(result.stderr == "")
    }

    @Test(arguments: Backend.allCases) func unstorableValuesAreInvalidArguments(_ backend: Backend) async {
        let result = await Self.run(
            backend,
            """
            const cyclic = { a: 1 }; cyclic.self = cyclic;
            const cases = [
              () => Storage.set("k", undefined),
              () => Storage.set("k", () => 1),
              () => Storage.set("k", { deep: [1, { f() {} }] }),
              () => Storage.set("k", cyclic),
              () => Storage.set("k", 10n),
              () => Storage.set(5, 1),
              () => Storage.transaction([{ op: "set", key: "t", value: 1 }, { op: "set", key: "u", value: undefined }]),
              () => Storage.transaction([{ op: "drop" }]),
              () => Storage.group(""),
            ];
            (async () => {
              for (const make of cases) {
                try {
                  await make();
                  console.log("stored?!");
                } catch (e) {
                  console.log(e.code, e.data?.issues?.[0]?.path);
                }
              }
              try { Storage.registerDefaults({ f: () => 1 }); } catch (e) { console.log(e.code, e.data.issues[0].path); }
              console.log(await Storage.has("k"), await Storage.has("t"));
            })();
            """)
        #expect(
            result.lines == [
                "INVALID_ARGUMENT value",
                "INVALID_ARGUMENT value",
                "INVALID_ARGUMENT value.deep[1].f",
                "INVALID_ARGUMENT value.self",
                "INVALID_ARGUMENT value",
                "INVALID_ARGUMENT key",
                "INVALID_ARGUMENT ops[1].value",
                "INVALID_ARGUMENT ops[0].op",
                "INVALID_ARGUMENT name",
                "INVALID_ARGUMENT f",
                "false false",
            ])
    }

    @Test(arguments: Backend.allCases) func transactionsAndWatching(_ backend: Backend) async {
        let result = await Self.run(
            backend,
            """
            const events = [];
            const w1 = Storage.watch(Storage.group("g"), (e) => events.push(["group", e.key, e.value, e.removed, e.origin]));
            const w2 = Storage.watch("solo", (e) => events.push(["solo", e.key, e.value]));
            const w3 = Storage.watch(localStorage, (e) => events.push(["local", e.storage, e.key, e.value]));
            Promise.all([w1.ready, w2.ready, w3.ready]).then(async () => {
              await Storage.group("g").set("a", 1);
              await Storage.set("solo", { x: 1 });
              await Storage.set("other", 1);
              localStorage.setItem("l", "v");
              await Storage.transaction([
                { op: "set", group: "g", key: "b", value: [2] },
                { op: "remove", group: "g", key: "a" },
                { op: "set", key: "solo", value: "s" },
              ]);
              await Storage.group("g").clear();
              w1.remove(); w2.remove(); w3.remove();
              await Storage.group("g").set("after", 1);
              setTimeout(() => {
                for (const e of events) console.log(JSON.stringify(e));
                Storage.group("g").entries().then((x) => console.log(JSON.stringify(x)));
              }, 50);
            });
            """)
        #expect(
            result.lines == [
                #"["group","a",1,false,"local"]"#,
                #"["solo","solo",{"x":1}]"#,
                #"["local","localStorage","l","v"]"#,
                #"["group","b",[2],false,"local"]"#,
                #"["group","a",null,true,"local"]"#,
                #"["solo","solo","s"]"#,
                #"["group",null,null,true,"local"]"#,
                #"[["after",1]]"#,
            ])
        #expect(result.stderr == "")
    }

    @Test(arguments: Backend.allCases) func appIDsAreIsolated(_ backend: Backend) async {
        let directory = TemporaryDirectory.make(prefix: "storage-apps")
        func options(_ appID: String) -> BridgeHost.Options {
            BridgeHost.Options(storage: StorageLocation(appID: appID, directory: directory))
        }
        let first = await Self.run(
            backend,
            #"localStorage.setItem("k", "one"); Storage.set("p", 1).then(() => console.log("ok"));"#,
            options: options("one"))
        #expect(first.lines == ["ok"])
        let second = await Self.run(
            backend,
            """
            console.log(localStorage.getItem("k"), localStorage.length);
            localStorage.clear();
            Storage.clear().then(async () => console.log(await Storage.get("p")));
            """, options: options("two"))
        #expect(second.lines == ["null 0", "undefined"])
        let again = await Self.run(
            backend,
            #"Storage.get("p").then((p) => console.log(localStorage.getItem("k"), p));"#, options: options("one"))
        #expect(again.lines == ["one 1"])
    }

    @Test func corruptDatabaseFromJavaScript() async throws {
        let options = BridgeHost.Options.testing(appID: "bad")
        let path = options.storage.directory + "/bad.sqlite"
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: path))
        let result = await Self.run(
            .sqlite,
            """
            try { localStorage.getItem("k"); } catch (e) { console.log(e.code, e.message.includes(\(JSONValue.string(path).serialized())), e.data.path === \(JSONValue.string(path).serialized())); }
            Storage.get("k").catch((e) => console.log(e.code));
            """, options: options)
        #expect(result.lines == ["STORAGE_CORRUPT true true", "STORAGE_CORRUPT"])
        let kept = try FileManager.default.contentsOfDirectory(atPath: options.storage.directory)
            .filter { $0.hasPrefix("bad.sqlite.corrupt-") }
        #expect(kept.count == 1)
        #expect(
            FileManager.default.contents(atPath: options.storage.directory + "/" + kept[0])
                == Data(repeating: 7, count: 4096))
    }
}
