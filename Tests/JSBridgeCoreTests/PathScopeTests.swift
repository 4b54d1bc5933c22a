import Foundation
import JSBridgeBase
import JSBridgeCore
import Testing

/// `--allow-read`/`--allow-write` scopes: paths resolved (symlinks, `..`) before the check, on real files.
@Suite struct PathScopeTests {
    let root: String

    init() throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("scope-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: made + "/granted/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: made + "/other", withIntermediateDirectories: true)
        // The temporary directory may itself be behind a link.
        root = URL(fileURLWithPath: made).resolvingSymlinksInPath().path
        try FileManager.default.createSymbolicLink(atPath: root + "/granted/out", withDestinationPath: root + "/other")
        try FileManager.default.createSymbolicLink(atPath: root + "/granted/rel", withDestinationPath: "../other")
        try FileManager.default.createSymbolicLink(atPath: root + "/in", withDestinationPath: "granted/sub")
    }

    @Test func resolvesLinksDotsAndMissingTails() {
        #expect(ResolvedPath(root + "/granted/./sub/../sub").path == root + "/granted/sub")
        #expect(ResolvedPath(root + "/granted/out/x").path == root + "/other/x")
        #expect(ResolvedPath(root + "/granted/rel/new/file").path == root + "/other/new/file")
        #expect(ResolvedPath(root + "/in/../new").path == root + "/granted/new")
        #expect(ResolvedPath(root + "/granted/missing/../../other").path == root + "/other")
        #expect(ResolvedPath("sub/x", relativeTo: root + "/granted").path == root + "/granted/sub/x")
        #expect(ResolvedPath(root + "/granted/out", followingFinalLink: false).path == root + "/granted/out")
        #expect(ResolvedPath("/../..").path == "/")
    }

    @Test func aGrantedDirectoryCoversWhatIsUnderItOnly() throws {
        let permissions = try Permissions().granting(.read, scopes: [root + "/granted"])
        #expect(permissions.allows(.read, scope: ResolvedPath(root + "/granted/sub/f").path))
        #expect(permissions.allows(.read, scope: ResolvedPath(root + "/granted").path))
        #expect(!permissions.allows(.read, scope: ResolvedPath(root + "/granted-not").path))
        #expect(!permissions.allows(.read, scope: ResolvedPath(root + "/granted/out/f").path))
        #expect(!permissions.allows(.read, scope: ResolvedPath(root + "/granted/../other").path))
        #expect(!permissions.allows(.write, scope: ResolvedPath(root + "/granted/sub").path))
        #expect(try Permissions().granting(.read, scopes: ["/"]).allows(.read, scope: "/etc/passwd"))
    }

    @Test func grantedScopesAreResolvedToo() throws {
        // Granting through a link grants where it leads.
        let permissions = try Permissions().granting(.write, scopes: [root + "/in"])
        #expect(permissions.grant(of: .write) == .scopes([root + "/granted/sub"]))
        #expect(permissions.allows(.write, scope: ResolvedPath(root + "/granted/sub/new").path))
        #expect(throws: CapabilityError.self) { try Permissions().granting(.read, scopes: [""]) }
    }

    @Test func theDenialNamesTheFlagAndPath() throws {
        let permissions = try Permissions().granting(.read, scopes: [root + "/granted"])
        do {
            try permissions.checkPath(.read, root + "/granted/out/secret")
            Issue.record("expected a denial")
        } catch {
            #expect(error.code == "PERMISSION_DENIED")
            #expect(error.message.contains("--allow-read=\(root)/other/secret"))
            #expect(error.data?["capability"] == "read")
        }
        #expect(try permissions.checkPath(.read, root + "/granted/sub/x").path == root + "/granted/sub/x")
    }
}
