import Foundation

/// A built `jsbridge` running `-e` code in which `ack(text)` prints `text` on stdout: the worker of the tests
/// that run several processes on one store (Storage's, the Queue's), each printing what was acknowledged.
public enum AckingProcess {
    /// The `jsbridge` binary under test (``BuiltBinary``: `$JSBRIDGE_BIN` or the one beside the tests).
    public static let jsbridge = (try? BuiltBinary.path()) ?? "jsbridge"

    /// Starts `jsbridge arguments… -e <ack + script>` with stdout to a pipe, stderr and stdin to /dev/null.
    /// A `launcher` (a command that runs its arguments, e.g. `ip netns exec <name>` to start it on another
    /// host) comes first; it must exec `jsbridge` so that the process is `jsbridge` itself.
    public static func start(_ script: String, arguments: [String], launcher: [String] = []) throws -> (
        Process, Pipe
    ) {
        let process = Process()
        let command =
            [jsbridge] + arguments + ["-e", "const ack = (text) => console.log(text);\n" + script]
        process.executableURL = URL(fileURLWithPath: launcher.first ?? jsbridge)
        process.arguments = Array((launcher + command).dropFirst())
        process.environment = ["SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, pipe)
    }

    /// Waits (off the cooperative pool) for the rest of `pipe`'s output and the process's exit.
    public static func finish(_ process: Process, _ pipe: Pipe) async throws -> (output: String, status: Int32) {
        try await runBlocking {
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (output, process.terminationStatus)
        }
    }
}
