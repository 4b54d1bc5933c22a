import Foundation
import JSBridgeCore
import JSBridgeTesting
import Testing

@testable import StorageCore
@testable import StoragePlugin

/// Each action through PluginTester (no JavaScript), on each backend.
@Suite struct StorageActionTests {
    @Test(arguments: Backend.allCases) func localStorageActions(_ backend: Backend) async throws {
        let tester = try await PluginTester(StoragePlugin(), options: backend.options(.testing()))
        #expect(try tester.callSync("getItem", ["a"]) == nil)
        #expect(try tester.callSync("setItem", ["b", "2"]) == nil)
        #expect(try tester.callSync("setItem", ["a", "1"]) == nil)
        #expect(try tester.callSync("getItem", "a") == "1")
        #expect(try tester.callSync("length") == 2)
        #expect(try tester.callSync("key", 0) == "a")
        #expect(try tester.callSync("key", 2) == nil)
        #expect(try tester.callSync("itemKeys") == ["a", "b"])
        _ = try tester.callSync("removeItem", ["a"])
        #expect(try tester.callSync("itemKeys") == ["b"])
        _ = try tester.callSync("clearItems")
        #expect(try tester.callSync("length") == 0)
        let info = try tester.callSync("info")
        #expect(info["quotaBytes"] == 10_485_760)
        if backend == .sqlite {
            #expect(info["path"]?.stringValue == tester.options.storage.directory + "/test.sqlite")
        }
        let error = #expect(throws: BridgeError.self) { try tester.callSync("setItem", ["only key"]) }
        #expect(error?.code == "INVALID_ARGUMENT")
    }

    @Test(arguments: Backend.allCases) func promiseActionsAndErrors(_ backend: Backend) async throws {
        let tester = try await PluginTester(StoragePlugin(), options: backend.options(.testing()))
        #expect(try await tester.call("set", ["key": "a", "json": "{\"x\":[1,true,null]}"]) == nil)
        #expect(try await tester.call("set", ["group": "g", "key": "a", "value": ["y": 2]]) == nil)
        #expect(try await tester.call("get", ["key": "a"]) == "{\"x\":[1,true,null]}")
        #expect(try await tester.call("get", ["group": "g", "key": "a"]) == "{\"y\":2}")
        #expect(try await tester.call("has", ["group": "g", "key": "zz"]) == false)
        #expect(try await tester.call("keys", ["group": "g"]) == ["a"])
        #expect(try await tester.call("entries", nil) == [["a", "{\"x\":[1,true,null]}"]])
        #expect(try await tester.call("groups") == ["default", "g"])
        #expect(try await tester.call("remove", ["group": "g", "key": "a"]) == true)
        #expect(try await tester.call("remove", ["group": "g", "key": "a"]) == false)

        let notJSON = await #expect(throws: BridgeError.self) {
            try await tester.call("set", ["key": "a", "json": "{oops"])
        }
        #expect(notJSON?.code == "INVALID_ARGUMENT")
        #expect(notJSON?.data?["issues"]?[0]?["path"] == "json")
        let noValue = await #expect(throws: BridgeError.self) { try await tester.call("set", ["key": "a"]) }
        #expect(noValue?.data?["issues"]?[0]?["path"] == "value")
        let emptyGroup = await #expect(throws: BridgeError.self) {
            try await tester.call("get", ["group": "", "key": "a"])
        }
        #expect(emptyGroup?.data?["issues"]?[0]?["path"] == "group")
        let badOp = await #expect(throws: BridgeError.self) {
            try await tester.call("transaction", ["ops": [["op": "set", "key": "k", "value": 1], ["op": "explode"]]])
        }
        #expect(badOp?.data?["issues"]?[0]?["path"] == "ops[1].op")
        #expect(try await tester.call("get", ["key": "k"]) == nil)  // nothing of a refused transaction was applied
    }

    @Test(arguments: Backend.allCases) func quotaErrorAndConfiguration(_ backend: Backend) async throws {
        let tester = try await PluginTester(
            StoragePlugin(),
            options: backend.options(.testing(configuration: ["Storage": ["quotaBytes": 10, "durability": "full"]])))
        _ = try tester.callSync("setItem", ["k", "12345678"])
        let error = #expect(throws: BridgeError.self) { try tester.callSync("setItem", ["k2", "1"]) }
        #expect(error?.code == "QUOTA_EXCEEDED")
        #expect(error?.data == ["quotaBytes": 10, "usedBytes": 9, "requiredBytes": 3])
        #expect(try await tester.call("usage") == ["usedBytes": 9, "quotaBytes": 10])

        let bad = await #expect(throws: BridgeError.self) {
            _ = try await PluginTester(
                StoragePlugin(), options: .testing(configuration: ["Storage": ["quotaBytes": -1]]))
        }
        #expect(bad?.code == "INVALID_ARGUMENT")
        #expect(bad?.data?["issues"]?[0]?["path"] == "quotaBytes")
    }

    /// A corrupt database fails the plugin's set-up (so every call, from JavaScript too: see
    /// `corruptDatabaseFromJavaScript`), naming the file and where the damaged file was kept.
    @Test func corruptDatabaseFailsSetUpNamingTheFile() async throws {
        let options = BridgeHost.Options.testing(appID: "broken")
        let path = options.storage.directory + "/broken.sqlite"
        try Data("this is not a database, it is a text file that happens to be long enough".utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: BridgeError.self) {
            _ = try await PluginTester(StoragePlugin(), options: options)
        }
        #expect(error?.code == "STORAGE_CORRUPT")
        #expect(error?.message.contains(path) == true)
        #expect(error?.data?["path"]?.stringValue == path)
        let movedTo = try #require(error?.data?["movedTo"]?.stringValue)
        #expect(FileManager.default.fileExists(atPath: movedTo))
    }

    @Test(arguments: Backend.allCases) func changeEvents(_ backend: Backend) async throws {
        let tester = try await PluginTester(StoragePlugin(), options: backend.options(.testing()))
        var events = tester.events.makeAsyncIterator()
        let id = try await tester.call("watch", ["group": "g", "key": "a"])
        _ = try await tester.call("set", ["group": "g", "key": "b", "json": "1"])  // not watched
        _ = try await tester.call("set", ["group": "g", "key": "a", "json": "2"])
        #expect(await events.next()?.payload == ["group": "g", "key": "a", "value": "2", "origin": "local"])
        _ = try await tester.call("watch", ["group": ""])
        _ = try tester.callSync("setItem", ["x", "y"])
        #expect(await events.next()?.payload == ["group": "", "key": "x", "value": "y", "origin": "local"])
        #expect(try await tester.call("unwatch", ["id": id]) == true)
        #expect(try await tester.call("unwatch", ["id": id]) == false)
        await tester.shutdown()
    }
}
