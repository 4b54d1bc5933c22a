import Foundation
import JSBridgeTesting
import Testing

// Debian's npm packages used as a user would: for each script in Specs/fixtures/packages, a temporary project
// gets the package and the packages it needs in node_modules (copied from Debian's folders, as listed in
// closures.json), the script beside them, and jsbridge runs it; its stdout must be what Node 20 printed
// (<name>.expected, recorded by record.py there). One process per package, the packages in parallel. The
// packages and their licences are listed in that folder's README.md, with the ones that do not pass and why.

private let packagesFolder = CLIPaths.specs + "/fixtures/packages"

/// The packages' folders each script needs, by script name (closures.json).
private let closures: [String: [String]] = {
    guard let data = FileManager.default.contents(atPath: packagesFolder + "/closures.json"),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String]]
    else { return [:] }
    return object
}()

/// The scripts, as file names (`axios.js`, `chalk.mjs`).
private let packageScripts: [String] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: packagesFolder)) ?? []
    return files.filter { $0.hasSuffix(".js") || $0.hasSuffix(".mjs") }.sorted()
}()

/// Packages whose use does not yet behave as in Node, with the reason (README.md says the same).
private let knownFailures: [String: String] = [
    "ws": "requires node:tls as it loads, and needs node:http's 'upgrade' (server) and upgrade requests (client)"
]

@Suite("Debian packages as Node runs them") struct NodePackageTests {
    @Test(arguments: packageScripts)
    func packageBehavesAsInNode(_ script: String) async throws {
        let name = String(script[..<script.lastIndex(of: ".")!])
        let folders = try #require(closures[name], "\(name) is not in closures.json: run record.py")
        let expected = try String(contentsOfFile: "\(packagesFolder)/\(name).expected", encoding: .utf8)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("jsbridge-pkg-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: work) }
        try await runBlocking {
            try FileManager.default.createDirectory(atPath: work + "/node_modules", withIntermediateDirectories: true)
            for folder in folders {
                guard FileManager.default.fileExists(atPath: folder + "/package.json") else {
                    throw HarnessError(
                        description: "\(folder) is missing: scripts/setup.sh installs the node-* packages")
                }
                let destination = work + "/node_modules/" + (folder as NSString).lastPathComponent
                try Self.copyResolvingLinks(folder, to: destination)
            }
            try FileManager.default.copyItem(atPath: "\(packagesFolder)/\(script)", toPath: "\(work)/\(script)")
        }
        let result = try await CLI.run(
            ["--allow-read=\(work)", "--allow-write=\(work)", "--allow-net=127.0.0.1", "\(work)/\(script)"],
            timeLimit: 60)
        let passes = result.exitCode == 0 && result.stdout == expected
        if let reason = knownFailures[name] {
            // Still run: a known failure that starts passing should leave this list.
            #expect(!passes, "\(name) now behaves as in Node: remove it from knownFailures (\(reason))")
            return
        }
        #expect(result.exitCode == 0, "\(name): \(result.summary)")
        #expect(result.stdout == expected, "\(name): stdout differs from Node's\n\(result.summary)")
    }

    /// Copies `source` to `destination`, symbolic links replaced by what they point to (Debian links files of
    /// a package to /usr/share/javascript and elsewhere).
    private static func copyResolvingLinks(_ source: String, to destination: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let resolved = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
        guard manager.fileExists(atPath: resolved, isDirectory: &isDirectory) else { return }
        if !isDirectory.boolValue {
            try manager.copyItem(atPath: resolved, toPath: destination)
            return
        }
        try manager.createDirectory(atPath: destination, withIntermediateDirectories: true)
        for entry in try manager.contentsOfDirectory(atPath: resolved) {
            try copyResolvingLinks(resolved + "/" + entry, to: destination + "/" + entry)
        }
    }
}
