import FileCore
import FilePlugin
import Foundation
import JSBridgeTesting
import Testing

/// The File service through its plugin, with the read and write capabilities a test grants.
struct FileService {
    let tester: PluginTester
    let storage: String

    init(read: [String]? = nil, write: [String]? = nil, appID: String = "org.example.notes") async throws {
        let storage = TemporaryDirectory.make(prefix: "jsbridge-file")
        var permissions = Permissions.none
        if let read { permissions = try permissions.granting(.read, scopes: read.isEmpty ? nil : read) }
        if let write { permissions = try permissions.granting(.write, scopes: write.isEmpty ? nil : write) }
        tester = try await PluginTester(
            FilePlugin(),
            options: BridgeHost.Options(
                permissions: permissions, storage: StorageLocation(appID: appID, directory: storage)))
        self.storage = storage
    }

    var base: String { storage + "/files/org.example.notes" }

    func call(_ action: String, _ args: JSONValue) async throws(BridgeError) -> JSONValue {
        try await tester.call(action, args)
    }

    /// The FileError number a failing call's Cordova fail callback gets.
    func failure(_ action: String, _ args: JSONValue) async -> Double? {
        do {
            _ = try await tester.call(action, args)
            return nil
        } catch {
            return error.cordovaPayload?.doubleValue
        }
    }
}

@Suite struct FileServiceTests {
    @Test func pathsAndFileSystemsAreUnderTheStorageDirectory() async throws {
        let files = try await FileService(read: [], write: [])
        let paths = try await files.call("requestAllPaths", .null)
        #expect(paths["dataDirectory"] == .string("file://\(files.base)/data/"))
        #expect(paths["applicationStorageDirectory"] == .string("file://\(files.base)/"))
        #expect(paths["applicationDirectory"] == .null)
        let roots = try await files.call("requestAllFileSystems", .null).arrayValue ?? []
        #expect(roots.compactMap { $0["filesystemName"]?.stringValue } == ["persistent", "temporary", "cache", "data"])
        let persistent = try await files.call("requestFileSystem", [1, 0])
        #expect(persistent["name"] == "persistent")
        #expect(persistent["root"]?["fullPath"] == "/")
        #expect(persistent["root"]?["nativeURL"] == .string("file://\(files.base)/persistent/"))
        #expect(await files.failure("requestFileSystem", [1, 1e18]) == 10)  // QUOTA_EXCEEDED_ERR
        #expect(await files.failure("requestFileSystem", [7, 0]) == 1)
        await files.tester.shutdown()
    }

    @Test func createWriteReadListMoveCopyAndRemove() async throws {
        let files = try await FileService(read: [], write: [])
        let root = "cdvfile://localhost/persistent/"
        let notes = try await files.call("getDirectory", [.string(root), "notes", ["create": true]])
        #expect(notes["isDirectory"] == true)
        #expect(notes["fullPath"] == "/notes/")
        let file = try await files.call(
            "getFile", ["cdvfile://localhost/persistent/notes/", "a b.txt", ["create": true]])
        #expect(file["fullPath"] == "/notes/a b.txt")
        #expect(file["nativeURL"] == .string("file://\(files.base)/persistent/notes/a%20b.txt"))
        let url = "cdvfile://localhost/persistent/notes/a%20b.txt"
        #expect(try await files.call("write", [.string(url), "héllo world", 0, false]) == 12)
        #expect(try await files.call("write", [.string(url), "there", 7, false]) == 5)
        #expect(try await files.call("readAsText", [.string(url), "UTF-8", 0, 100]) == "héllo there")
        #expect(try await files.call("readAsText", [.string(url), "UTF-8", 7, 9]) == "th")
        #expect(
            try await files.call("readAsDataURL", [.string(url), 0, 3])
                == .string("data:text/plain;base64," + Data("hé".utf8).base64EncodedString()))
        let bytes = try await files.tester.call("readAsArrayBuffer", BridgeValue([.string(url), 0, 2]))
        #expect(bytes.bytes.first.map { Array($0.bytes) } == [0x68, 0xC3])
        #expect(try await files.call("truncate", [.string(url), 5]) == 5)
        let metadata = try await files.call("getFileMetadata", .string(url))
        #expect(metadata["size"] == 5)
        #expect(metadata["type"] == "text/plain")
        #expect(metadata["name"] == "a b.txt")
        #expect(try await files.call("getMetadata", .string(url))["size"] == 5)
        // The entry by its native URL, and its parent.
        #expect(try await files.call("resolveLocalFileSystemURI", file["nativeURL"]!)["fullPath"] == "/notes/a b.txt")
        #expect(try await files.call("getParent", .string(url))["fullPath"] == "/notes/")
        // Copy and move.
        let copy = try await files.call("copyTo", [.string(url), .string(root), "copy.txt"])
        #expect(copy["fullPath"] == "/copy.txt")
        let moved = try await files.call(
            "moveTo", ["cdvfile://localhost/persistent/notes/", "cdvfile://localhost/temporary/", "old-notes"])
        #expect(moved["filesystemName"] == "temporary")
        #expect(moved["fullPath"] == "/old-notes/")
        let listing = try await files.call("readEntries", "cdvfile://localhost/temporary/old-notes/")
        #expect(listing.arrayValue?.compactMap { $0["name"]?.stringValue } == ["a b.txt"])
        #expect(try await files.call("readEntries", .string(root)).arrayValue?.count == 1)
        // Remove: a non-empty directory only recursively; the root never.
        #expect(await files.failure("remove", "cdvfile://localhost/temporary/old-notes/") == 9)
        #expect(try await files.call("removeRecursively", "cdvfile://localhost/temporary/old-notes/") == .null)
        #expect(await files.failure("removeRecursively", .string(root)) == 6)
        #expect(try await files.call("remove", "cdvfile://localhost/persistent/copy.txt") == .null)
        #expect(try await files.call("readEntries", .string(root)) == [])
        await files.tester.shutdown()
    }

    @Test func cordovasErrorCodes() async throws {
        let files = try await FileService(read: [], write: [])
        let root = "cdvfile://localhost/persistent/"
        #expect(await files.failure("getFile", [.string(root), "missing.txt", ["create": false]]) == 1)
        _ = try await files.call("getFile", [.string(root), "x.txt", ["create": true]])
        #expect(await files.failure("getFile", [.string(root), "x.txt", ["create": true, "exclusive": true]]) == 12)
        #expect(await files.failure("getDirectory", [.string(root), "x.txt", ["create": false]]) == 11)
        #expect(await files.failure("getFile", [.string(root), "a:b", ["create": true]]) == 5)
        #expect(await files.failure("resolveLocalFileSystemURI", "cdvfile://localhost/nowhere/x") == 5)
        #expect(await files.failure("copyTo", ["cdvfile://localhost/persistent/x.txt", .string(root), "x.txt"]) == 9)
        // Through bridge.call, a BridgeError with the constant's name.
        do {
            _ = try await files.call("getFile", [.string(root), "missing.txt", .null])
            Issue.record("no error")
        } catch {
            #expect(error.code == "NOT_FOUND_ERR")
            #expect(error.cordovaPayload == 1)
        }
        await files.tester.shutdown()
    }

    @Test func refusedOutsideTheStorageDirectoryAndWithoutTheCapability() async throws {
        let files = try await FileService(read: [], write: [])
        // Out of the file systems, by URL, by `..`, and by a symlink inside pointing out.
        #expect(await files.failure("resolveLocalFileSystemURI", "file:///etc/passwd") == 2)
        #expect(await files.failure("readAsText", ["file:///etc/passwd", "UTF-8", 0, 10]) == 2)
        // `..` stops at the file system's root: this is `/etc` inside `persistent`, which does not exist.
        #expect(await files.failure("resolveLocalFileSystemURI", "cdvfile://localhost/persistent/../../../etc") == 1)
        _ = try await files.call("getFile", ["cdvfile://localhost/persistent/", "probe", ["create": true]])
        try FileManager.default.createSymbolicLink(atPath: files.base + "/persistent/out", withDestinationPath: "/etc")
        #expect(await files.failure("readEntries", "cdvfile://localhost/persistent/out/") == 2)
        #expect(await files.failure("readAsText", ["cdvfile://localhost/persistent/out/passwd", "UTF-8", 0, 10]) == 2)
        await files.tester.shutdown()

        // Without the capabilities: SECURITY_ERR, the message naming the flag.
        let none = try await FileService()
        #expect(await none.failure("requestFileSystem", [1, 0]) == 2)
        #expect(await none.failure("getFile", ["cdvfile://localhost/persistent/", "a", ["create": true]]) == 2)
        do {
            _ = try await none.call("readEntries", "cdvfile://localhost/persistent/")
        } catch {
            #expect(error.code == "SECURITY_ERR")
            #expect(error.message.contains("--allow-read"), "\(error.message)")
        }
        // The paths and file systems are named without a capability (cordova-plugin-file asks at start-up).
        #expect(try await none.call("requestAllPaths", .null)["dataDirectory"] != nil)
        await none.tester.shutdown()

        // Read without write: listing works, creating does not.
        let readOnly = try await FileService(read: [])
        #expect(try await readOnly.call("readEntries", "cdvfile://localhost/persistent/") == [])
        #expect(await readOnly.failure("getFile", ["cdvfile://localhost/persistent/", "a", ["create": true]]) == 2)
        await readOnly.tester.shutdown()
    }
}
