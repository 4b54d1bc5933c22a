import Foundation
import Testing

/// Files past what the engine can hold are refused up front with Node's error, never an abort.
@Suite("File size limits") struct FileLimitTests {
    @Test func aFileOverTwoGiBIsARangeErrorNotACrash() async throws {
        let root = try FileEscapeTests.scratch()
        // Sparse: 4.5 GiB of size, no blocks.
        #expect(FileManager.default.createFile(atPath: root + "/big.bin", contents: nil))
        #expect(truncate(root + "/big.bin", 4_831_838_208) == 0)
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
        let root = try FileEscapeTests.scratch()
        // 1.1 GiB, sparse: as hex, 2.2 G characters.
        #expect(FileManager.default.createFile(atPath: root + "/big.bin", contents: nil))
        #expect(truncate(root + "/big.bin", 1_181_116_006) == 0)
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
