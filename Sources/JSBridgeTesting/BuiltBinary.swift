import Foundation

/// A runtime binary the package builds (an executable product), for tests that start it as a process: the
/// CLI's, a custom runtime's.
///
/// For `jsbridge`, `$JSBRIDGE_BIN` wins when set, so the same tests run against another build of it —
/// `scripts/test.sh` runs every test that starts `jsbridge` again against the shipping binary
/// `scripts/release.sh` builds.
public enum BuiltBinary {
    /// Why no binary can be used.
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// The path of executable `name`: for `jsbridge`, `$JSBRIDGE_BIN` when set; else the one beside the running
    /// test binary (under `swift test` that is `.build/<triple>/debug/`).
    public static func path(_ name: String = "jsbridge") throws(NotFound) -> String {
        let fm = FileManager.default
        if name == "jsbridge", let explicit = ProcessInfo.processInfo.environment["JSBRIDGE_BIN"], !explicit.isEmpty {
            guard fm.isExecutableFile(atPath: explicit) else {
                throw NotFound(description: "JSBRIDGE_BIN='\(explicit)' is not an executable file.")
            }
            return explicit
        }
        let own = (try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let directory = URL(fileURLWithPath: own).deletingLastPathComponent()
        // A test bundle directory (`*.xctest/`) sits inside the build directory on some platforms.
        let candidates = [directory, directory.deletingLastPathComponent()].map {
            $0.appendingPathComponent(name).standardizedFileURL.path
        }
        for candidate in candidates where fm.isExecutableFile(atPath: candidate) {
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue { return candidate }
        }
        throw NotFound(
            description: "The \(name) binary was not found (looked at: \(candidates.joined(separator: ", "))). "
                + "Build it first (`swift build --build-tests`) or set JSBRIDGE_BIN to its path.")
    }
}
