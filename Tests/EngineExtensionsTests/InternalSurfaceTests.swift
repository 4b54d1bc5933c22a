import Foundation
import JSBridge
import JSBridgeExtensions
import JSBridgeTesting
import Testing

/// The internal surface of the engine's JavaScript is declared: every native an extension's Swift registers is
/// in its `natives.d.ts` (written from the declarations: this suite rewrites a stale file and fails), and the
/// TypeScript compiler checks each extension's JavaScript (`checkJs`) against its own declarations and those
/// of the extensions it requires — so a native renamed on one side only, or a name used without being
/// declared by an extension it requires, fails here rather than in a user's script.
@Suite(.blocking) struct InternalSurfaceTests {
    /// The package root (three levels above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each extension (the host first) and the folder of its JavaScript and declarations.
    static let extensions: [(EngineExtension, String)] = [
        (.host, "Sources/JSBridge/js"), (.web, "Extensions/Web/js"), (.node, "Extensions/Node/js"),
        (.modules, "Extensions/Modules/js"), (.cordova, "Extensions/Cordova/js"), (.repl, "Extensions/REPL/js"),
    ]

    /// The extensions `name` requires, transitively, with itself last (the host first).
    static func closure(of name: String) -> [(EngineExtension, String)] {
        var result: [(EngineExtension, String)] = []
        func add(_ name: String) {
            guard !result.contains(where: { $0.0.name == name }),
                let entry = extensions.first(where: { $0.0.name == name })
            else { return }
            entry.0.requires.forEach(add)
            result.append(entry)
        }
        add("host")
        add(name)
        return result
    }

    @Test(arguments: extensions.map(\.0.name))
    func nativesDeclarationsAreWrittenFromTheSwiftDeclarations(extension name: String) throws {
        let (declared, folder) = try #require(Self.extensions.first { $0.0.name == name })
        let path = Self.root.appendingPathComponent(folder).appendingPathComponent("natives.d.ts")
        let committed = try? String(contentsOf: path, encoding: .utf8)
        guard committed != declared.nativesTypeScript else { return }
        try declared.nativesTypeScript.write(to: path, atomically: true, encoding: .utf8)
        Issue.record(
            "\(folder)/natives.d.ts did not match the \(name) extension's declarations; it was rewritten: review and commit it."
        )
    }

    @Test(arguments: extensions.map(\.0.name))
    func typeScriptChecksTheExtensionsJavaScript(extension name: String) throws {
        try #require(TypeScript.isInstalled, "tsc is missing: scripts/setup.sh installs node-typescript")
        let output = try TypeScript.check(Self.project(for: name))
        #expect(output.status == 0, "tsc found problems in the \(name) extension's JavaScript:\n\(output.text)")
    }

    /// The check fails when a native is renamed on one side only: here, the Swift side's declarations no longer
    /// have `timerStart` while timers.js still calls it.
    @Test func aNativeRenamedInSwiftOnlyFailsTheCheck() throws {
        try #require(TypeScript.isInstalled, "tsc is missing: scripts/setup.sh installs node-typescript")
        let project = try Self.project(for: "host") { text in
            text.replacingOccurrences(of: "  timerStart(", with: "  timerBegin(")
        }
        let output = try TypeScript.check(project)
        #expect(output.status != 0)
        #expect(
            output.text.contains("Property 'timerStart' does not exist on type 'JSBridgeInternal'"), "\(output.text)")
    }

    /// A temporary TypeScript project of extension `name`'s JavaScript with the declarations it may use: its own
    /// and those of the extensions it requires, the natives written now from the Swift declarations (after
    /// `editNatives`, for the failure test).
    static func project(for name: String, editNatives: (String) -> String = { $0 }) throws -> URL {
        let directory = URL(fileURLWithPath: TemporaryDirectory.make(prefix: "internal-surface-\(name)"))
        var files: [String] = []
        for (declared, folder) in closure(of: name) {
            let source = root.appendingPathComponent(folder)
            let target = directory.appendingPathComponent(declared.name)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try editNatives(declared.nativesTypeScript).write(
                to: target.appendingPathComponent("natives.d.ts"), atomically: true, encoding: .utf8)
            files.append("\(declared.name)/natives.d.ts")
            // Its hand-written declarations: internal.d.ts, and the host's environment.d.ts.
            for file in try FileManager.default.contentsOfDirectory(atPath: source.path)
            where file.hasSuffix(".d.ts") && file != "natives.d.ts" {
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(file), to: target.appendingPathComponent(file))
                files.append("\(declared.name)/\(file)")
            }
            guard declared.name == name else { continue }
            for file in try FileManager.default.contentsOfDirectory(atPath: source.path) where file.hasSuffix(".js") {
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(file), to: target.appendingPathComponent(file))
                files.append("\(declared.name)/\(file)")
            }
        }
        let configuration: [String: Any] = [
            "compilerOptions": [
                "allowJs": true, "checkJs": true, "noEmit": true, "target": "es2022", "lib": ["es2022", "webworker"],
                "types": [String](), "strict": false, "moduleDetection": "force", "skipLibCheck": true,
            ],
            "files": files.sorted(),
        ]
        let data = try JSONSerialization.data(withJSONObject: configuration, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: directory.appendingPathComponent("tsconfig.json"))
        return directory
    }
}

/// The TypeScript compiler from Debian's node-typescript (scripts/setup.sh installs it).
enum TypeScript {
    static let compiler = "/usr/bin/tsc"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: compiler) }

    /// Runs `tsc -p` on `project`: its status and output.
    static func check(_ project: URL) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = ["-p", project.path, "--pretty", "false"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
