import Foundation
import JSBridgeCore
import JSBridgeTesting
import Testing

@testable import StorageCore
@testable import StoragePlugin

/// Web Storage as HTML and Web IDL define it (a legacy platform object with named properties), on the real
/// SQLite and PostgreSQL stores. Each script prints "ok" or the names of the failed checks.
@Suite struct WebStorageConformanceTests {
    static func failures(
        _ backend: Backend, _ checks: String, options: BridgeHost.Options = .testing()
    ) async -> [String] {
        let result = await StorageScriptTests.run(
            backend,
            """
            const failed = [];
            function check(name, condition) { if (condition !== true) failed.push(name); }
            function throwsType(fn) { try { fn(); return false; } catch (e) { return e instanceof TypeError; } }
            \(checks)
            console.log(failed.length === 0 ? "ok" : failed.join("\\n"));
            """, options: options)
        if result.exitCode != 0 || !result.stderr.isEmpty { return ["exit \(result.exitCode): \(result.stderr)"] }
        return result.lines == ["ok"] ? [] : result.lines
    }

    @Test(arguments: Backend.allCases) func interfaceShape(_ backend: Backend) async {
        let failures = await Self.failures(
            backend,
            """
            for (const storage of [localStorage, sessionStorage]) {
              storage.clear();
              check("getItem is the prototype's", storage.getItem === Storage.prototype.getItem);
              check("setItem is the prototype's", storage.setItem === Storage.prototype.setItem);
              check("operations enumerable", ["key", "getItem", "setItem", "removeItem", "clear", "length"]
                .every((n) => Object.getOwnPropertyDescriptor(Storage.prototype, n).enumerable));
              check("class string", Object.prototype.toString.call(storage) === "[object Storage]");
              check("brand check", throwsType(() => Storage.prototype.getItem.call({}, "a")));
              check("length brand check", throwsType(() => Object.getOwnPropertyDescriptor(Storage.prototype, "length").get.call({})));
              check("symbol key is a TypeError", throwsType(() => storage.getItem(Symbol("k"))));
              check("key(unsigned long) wraps", (() => { storage.setItem("only", "1"); return storage.key(2 ** 32) === "only" && storage.key(-1) === null; })());
              check("BigInt index is a TypeError", throwsType(() => storage.key(0n)));
              storage.clear();
            }
            check("new Storage() is illegal", throwsType(() => new Storage()));
            check("interface lengths", Storage.length === 0 && StorageEvent.length === 1 && Storage.prototype.setItem.length === 2);
            """)
        #expect(failures == [])
    }

    @Test(arguments: Backend.allCases) func namedProperties(_ backend: Backend) async {
        let failures = await Self.failures(
            backend,
            """
            for (const storage of [localStorage, sessionStorage]) {
              storage.clear();
              storage.setItem("getItem", "stored");
              check("prototype member not shadowed", typeof storage.getItem === "function" && storage.getItem("getItem") === "stored");
              check("shadowed name not an own property", Object.getOwnPropertyDescriptor(storage, "getItem") === undefined);
              check("shadowed name not in keys", !Object.keys(storage).includes("getItem"));
              storage.x = 1;
              check("named setter stores a string", storage.getItem("x") === "1" && storage.x === "1");
              const desc = Object.getOwnPropertyDescriptor(storage, "x");
              check("named property descriptor", desc.value === "1" && desc.writable && desc.enumerable && desc.configurable);
              check("in", "x" in storage && !("y" in storage));
              Object.defineProperty(storage, "9", { value: "nine" });
              check("defineProperty with a value stores it", storage.getItem("9") === "nine" && storage[9] === "nine");
              check("defineProperty with an accessor throws", throwsType(() => Object.defineProperty(storage, "acc", { get() { return 1; } })));
              check("nothing stored by a refused define", storage.getItem("acc") === null);
              check("Reflect.defineProperty answers false", Reflect.defineProperty(storage, "acc", { get() { return 1; } }) === false);
              check("keys", JSON.stringify(Object.keys(storage).sort()) === '["9","x"]');
              check("length", storage.length === 3);
              delete storage.x;
              check("delete removes the item", storage.getItem("x") === null && !("x" in storage));
              delete storage.getItem;
              check("delete of a shadowed name keeps the item", storage.getItem("getItem") === "stored");
              storage.clear();
            }
            """)
        #expect(failures == [])
    }

    @Test(arguments: Backend.allCases) func quotaExceededIsADOMException(_ backend: Backend) async {
        let result = await StorageScriptTests.run(
            backend,
            """
            localStorage.setItem("a", "x".repeat(90));
            for (const storage of [localStorage, sessionStorage]) {
              try {
                storage.setItem("b", "y".repeat(200));
              } catch (e) {
                console.log(e instanceof DOMException, e.name, e.code, e.code === DOMException.QUOTA_EXCEEDED_ERR, e.data.quotaBytes);
              }
            }
            Storage.set("big", "z".repeat(200)).catch((e) => console.log(e instanceof BridgeError, e.code));
            """, options: .testing(configuration: ["Storage": ["quotaBytes": 100]]))
        #expect(
            result.lines == [
                "true QuotaExceededError 22 true 100", "true QuotaExceededError 22 true 100", "true QUOTA_EXCEEDED",
            ], "\(result.stderr)")
    }

    /// Keys and values are any JavaScript string: lone surrogates stay distinct (they used to collapse into
    /// U+FFFD), U+FFFF (the store's escape) and U+FFFD stay themselves, and all survive a new process.
    @Test(arguments: Backend.allCases) func loneSurrogatesRoundTrip(_ backend: Backend) async {
        // One app id and storage directory for both runs: the second process reads what the first wrote.
        let options = BridgeHost.Options.testing(appID: "surrogates")
        let strings =
            #"["\ud800", "\udc00", "a\ud800b", "\ufffd", "\uffff", "\uffffD800", "x\udbff\udfffy", "\udfff\ud800", "é"]"#
        let write = await StorageScriptTests.run(
            backend,
            """
            const strings = \(strings);
            localStorage.clear();
            strings.forEach((s, i) => localStorage.setItem(s, "v" + i + s));
            console.log(localStorage.length);
            """, options: options)
        #expect(write.lines == ["9"], "\(write.stderr)")
        let read = await StorageScriptTests.run(
            backend,
            """
            const strings = \(strings);
            const bad = strings.filter((s, i) => localStorage.getItem(s) !== "v" + i + s);
            const keys = new Set(Object.keys(localStorage));
            const listed = strings.every((s) => keys.has(s)) && keys.size === strings.length;
            const viaKey = new Set(Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)));
            console.log(bad.length, listed, strings.every((s) => viaKey.has(s)));
            (async () => {
              await Storage.set("\\ud800k", "\\udc00v");
              console.log(await Storage.get("\\ud800k") === "\\udc00v", (await Storage.keys()).includes("\\ud800k"));
              localStorage.removeItem("\\ud800");
              console.log(localStorage.getItem("\\udc00"), localStorage.getItem("\\ud800"));
            })();
            """, options: options)
        #expect(read.lines == ["0 true true", "true true", "v1\u{FFFD} null"], "\(read.stderr)")
    }

    @Test func storageEvent() async {
        let failures = await Self.failures(
            .sqlite,
            """
            const e = new StorageEvent("storage", { key: "k", oldValue: null, newValue: "n", url: "u", storageArea: localStorage, bubbles: true });
            check("instance of Event", e instanceof Event && e instanceof StorageEvent);
            check("members", e.type === "storage" && e.key === "k" && e.oldValue === null && e.newValue === "n" && e.url === "u");
            check("storageArea", e.storageArea === localStorage && e.bubbles === true);
            const d = new StorageEvent("x");
            check("defaults", d.key === null && d.oldValue === null && d.newValue === null && d.url === "" && d.storageArea === null);
            check("type required", throwsType(() => new StorageEvent()));
            check("storageArea must be a Storage", throwsType(() => new StorageEvent("x", { storageArea: {} })));
            check("key converted", new StorageEvent("x", { key: 5 }).key === "5");
            check("url is a USVString", new StorageEvent("x", { url: "a\\ud800" }).url === "a\\ufffd");
            check("key keeps a lone surrogate", new StorageEvent("x", { key: "\\ud800" }).key === "\\ud800");
            d.initStorageEvent("changed", true, true, "k2", "o", "n2", "url2", sessionStorage);
            check("initStorageEvent", d.type === "changed" && d.bubbles && d.cancelable && d.key === "k2" && d.oldValue === "o"
              && d.newValue === "n2" && d.url === "url2" && d.storageArea === sessionStorage);
            d.initStorageEvent("again");
            check("initStorageEvent defaults", d.type === "again" && !d.bubbles && d.key === null && d.storageArea === null);
            check("brand check", throwsType(() => Object.getOwnPropertyDescriptor(StorageEvent.prototype, "key").get.call(new Event("x"))));
            const target = new EventTarget();
            let seen = null;
            target.addEventListener("storage", (ev) => { seen = ev.newValue; });
            target.dispatchEvent(e);
            check("dispatched", seen === "n");
            check("class string", Object.prototype.toString.call(e) === "[object StorageEvent]");
            """)
        #expect(failures == [])
    }
}

/// The stored form of strings (``StorageText``): WTF-8, which is UTF-8 for well-formed text.
@Suite struct StorageTextTests {
    @Test func wellFormedTextIsItsUTF8() {
        for text in ["", "plain", "é€😀", "\u{FFFD}", "tab\tnew\nline"] {
            #expect(StorageText.bytes(text) == Array(text.utf8))
            #expect(StorageText.string(Array(text.utf8)) == text)
        }
    }

    @Test func escapesRoundTripThroughWTF8() {
        let escape = "\u{FFFF}"
        // A lone high surrogate: ED A0 80; U+FFFF itself: EF BF BF.
        #expect(StorageText.bytes(escape + "D800") == [0xED, 0xA0, 0x80])
        #expect(StorageText.bytes("a" + escape + "DC00" + "b") == [0x61, 0xED, 0xB0, 0x80, 0x62])
        #expect(StorageText.bytes(escape + "FFFF") == [0xEF, 0xBF, 0xBF])
        #expect(StorageText.string([0xED, 0xA0, 0x80]) == escape + "D800")
        #expect(StorageText.string([0xEF, 0xBF, 0xBF]) == escape)
        #expect(StorageText.string([0xEF, 0xBF, 0xBF] + Array("0041".utf8)) == escape + "FFFF0041")
        #expect(StorageText.bytes(escape + "FFFF0041") == [0xEF, 0xBF, 0xBF] + Array("0041".utf8))
        // An escaped pair is the 4-byte character; an escape without four uppercase hex digits stands for itself.
        #expect(StorageText.bytes(escape + "D83D" + escape + "DE00") == Array("😀".utf8))
        #expect(StorageText.bytes(escape + "zz") == [0xEF, 0xBF, 0xBF, 0x7A, 0x7A])
        #expect(StorageText.bytes(escape + "d800") == [0xEF, 0xBF, 0xBF] + Array("d800".utf8))
        #expect(StorageText.canonical(escape + "0041") == "A")
        #expect(StorageText.byteCount(escape + "D800") == 3)
        // Distinct JavaScript strings, distinct bytes (they all used to become U+FFFD).
        let forms = [escape + "D800", escape + "DC00", "\u{FFFD}", escape + "FFFF"].map(StorageText.bytes)
        #expect(Set(forms).count == 4)
    }

    /// Rows written before the escaped form existed (plain UTF-8) read back unchanged, and a lone-surrogate key
    /// sits beside the U+FFFD key it used to collide with.
    @Test(arguments: KeyValueStoreTests.Kind.allCases) func storesKeepLoneSurrogatesApart(
        _ kind: KeyValueStoreTests.Kind
    )
        throws
    {
        let store = try KeyValueStoreTests.makeStore(kind, quota: 1000)
        let lone = "\u{FFFF}D800"
        try store.set("\u{FFFD}", "replacement", in: "g")
        try store.set(lone, "lone" + lone, in: "g")
        try store.set("\u{FFFF}", "escape", in: "g")
        #expect(try store.get("\u{FFFD}", in: "g") == "replacement")
        #expect(try store.get(lone, in: "g") == "lone" + lone)
        #expect(try store.get("\u{FFFF}", in: "g") == "escape")
        #expect(try store.keys(in: "g").count == 3)
        // Byte order: ED A0 80 (the surrogate) < EF BF BD (U+FFFD) < EF BF BF (U+FFFF).
        #expect(try store.keys(in: "g") == [lone, "\u{FFFD}", "\u{FFFF}"])
        #expect(try store.usedBytes() == 3 + 11 + 3 + 7 + 3 + 6)
    }
}
