import Foundation
import FuzzTargets
import Testing

/// Replays every committed fuzz input through its target: the seeds (`Fuzz/Seeds/<target>`) and the minimised
/// crashers found by fuzzing (`Fuzz/Regressions/<target>`), so the normal test run keeps them fixed. A target
/// traps (`precondition`) on an input whose invariants fail, which fails the run.
@Suite struct FuzzRegressionTests {
    /// The repository's `Fuzz/` folder.
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The files in `Fuzz/<kind>/<target>` (none when the folder does not exist).
    static func inputs(_ kind: String, _ target: FuzzTarget) throws -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsPass(_ target: FuzzTarget) throws {
        let seeds = try Self.inputs("Seeds", target)
        #expect(seeds.count >= 3, "Fuzz/Seeds/\(target.rawValue) should hold seed inputs")
        for file in seeds { target.run(Array(try Data(contentsOf: file))) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionsPass(_ target: FuzzTarget) throws {
        for file in try Self.inputs("Regressions", target) { target.run(Array(try Data(contentsOf: file))) }
    }

    /// Every seed and regression folder is named after a target, so no committed input is silently skipped.
    @Test func foldersNameTargets() throws {
        for kind in ["Seeds", "Regressions"] {
            let folder = Self.fuzzFolder.appendingPathComponent(kind)
            guard FileManager.default.fileExists(atPath: folder.path) else { continue }
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
                #expect(FuzzTarget(rawValue: name) != nil, "Fuzz/\(kind)/\(name) is not a fuzz target")
            }
        }
    }
}
