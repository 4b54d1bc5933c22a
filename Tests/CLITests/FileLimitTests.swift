import Foundation
import Testing

/// Files past what the engine can hold are refused up front with Node's error, never an abort.
@Suite("File size limits") struct FileLimitTests {
    /// A scratch directory holding `big.bin`, a sparse file of `bytes` (its size, no blocks).
    static func directoryWithSparseFile(bytes: Int) throws -> String {
        let root = try FileEscapeTests.scratch()
        #expect(FileManager.default.createFile(atPath: root + "/big.bin", contents: nil))
        #expect(truncate(root + "/big.bin", off_t(bytes)) == 0)
        return root
    }

    @Test func aFileOverTwoGiBIsARangeErrorNotACrash() async throws {
        let root = try Self.directoryWithSparseFile(bytes: 4_831_838_208)
        // 4.5 GiB.
        let result = try await CLI.run(
            [
                "--allow-read", "-e",
                """
                const fs = require("node:fs");
                for (const read of [() => fs.readFileSync("big.bin"), () => fs.readFileSync("big.bin", "utf8")]) {
                  try { read(); } catch (e) { console.log(e.name, e.code, e.message); }
                }
                fs.promises.readFile("big.bin").catch((e) => console.log(e.name, e.code));
                """,
            ], workingDirectory: root)
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.rawStdout == """
                RangeError ERR_FS_FILE_TOO_LARGE File size (4831838208) is greater than 2 GiB
                RangeError ERR_FS_FILE_TOO_LARGE File size (4831838208) is greater than 2 GiB
                RangeError ERR_FS_FILE_TOO_LARGE

                """, "\(result.summary)")
    }

    @Test func textLongerThanTheEnginesLongestStringIsARangeError() async throws {
        let root = try Self.directoryWithSparseFile(bytes: 1_181_116_006)
        // 1.1 GiB: as hex, 2.2 G characters.
        let result = try await CLI.run(
            [
                "--allow-read", "-e",
                """
                try { require("node:fs").readFileSync("big.bin", "hex"); } catch (e) { console.log(e.name, e.code, e.message); }
                """,
            ], workingDirectory: root, timeLimit: 60)
        #expect(
            result.rawStdout
                == "RangeError ERR_STRING_TOO_LONG Cannot create a string longer than 0x7fffffff characters\n",
            "\(result.summary)")
    }
}
