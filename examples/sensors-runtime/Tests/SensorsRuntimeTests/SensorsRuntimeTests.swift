import Foundation
import JSBridgeTesting
import Testing

/// The runtime binary: jsbridge's flags and built-in plugins with the Sensors plugin's, under its own name.
@Suite struct SensorsRuntimeTests {
    /// Runs the built `sensors-runtime` with `arguments`: its exit status, stdout and stderr.
    private func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = try BuiltBinary.path("sensors-runtime")
        return try await runBlocking {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            let (output, errors) = (Pipe(), Pipe())
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, stdout, stderr)
        }
    }

    @Test func helpListsThePluginsFlagsBesideTheBuiltIns() async throws {
        let help = try await run(["--help"]).stdout
        #expect(help.contains("--allow-sensors") && help.contains("--sensors-root <dir>"), "\(help)")
        #expect(help.contains("--allow-net") && help.contains("--cordova"), "\(help)")
        #expect(try await run(["--version"]).stdout == "sensors-runtime 1.0.0\n")
    }

    @Test func scriptsSeeTheSensorsPluginAndTheBuiltIns() async throws {
        let result = try await run([
            "--trace", "-e", "console.log(typeof Sensors, typeof fetch, bridge.execSync('Echo', 'ping', [1]))",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "object function 2\n")
        // Its typings and trace lines carry its own name.
        #expect(result.stderr.contains("[sensors-runtime] call Echo.ping id=sync"), "\(result.stderr)")
        let typings = try await run(["--typings", "Sensors"]).stdout
        let header = "// Typings of the Sensors plugin, written from its declaration by `sensors-runtime --typings"
        #expect(typings.hasPrefix(header), "\(typings)")
    }
}
