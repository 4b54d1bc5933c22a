import FileSystemCore
import FileSystemPlugin
import Foundation
import JSBridgeCore
import JSBridgeTesting
import Testing

/// The FileSystem plugin through JavaScript: the `FileSystem` global, `node:fs/promises` and `node:fs`, on real
/// files in a temporary directory.
///
/// The node modules are reached as `require("jsbridge:node:fs")`, which keeps working once `require("node:fs")`
/// and `require("fs")` resolve to the same plugin modules.
@Suite struct FileSystemScriptTests {
    let root: String

    init() throws {
        let made = TemporaryDirectory.make(prefix: "fs-script")
        root = URL(fileURLWithPath: made).resolvingSymlinksInPath().path
    }

    func run(_ script: String, permissions: Permissions = .all) async -> ScriptResult {
        await ScriptRunner.run(
            "const root = \(JSONValue.string(root).serialized());\n" + script, plugins: [FileSystemPlugin()],
            options: .testing(permissions: permissions))
    }

    /// The FileSystem plugin's JavaScript takes its built-ins from the primordials: with `Promise.prototype.then`,
    /// `Array.prototype.push`, `Object.freeze` and the rest replaced, `FileSystem`, `fs` and `fs/promises` work.
    @Test func aScriptThatReplacesBuiltInsDoesNotBreakFiles() async {
        let result = await run(
            ScriptRunner.replacingBuiltIns + """
                const results = [];
                const fs = require("fs");
                (async () => {
                  fs.writeFileSync(root + "/a.txt", "one");
                  results[results.length] = fs.readFileSync(root + "/a.txt", "utf8");
                  await require("fs/promises").writeFile(root + "/b.txt", "two");
                  results[results.length] = await FileSystem.readTextFile(root + "/b.txt");
                  results[results.length] = await new Promise((resolve) => fs.readFile(root + "/a.txt", "utf8", (e, t) => resolve(t)));
                  results[results.length] = (await FileSystem.readDir(root)).length;
                  restoreBuiltIns();
                  console.log(results.join(" | "));
                })();
                """)
        #expect(result.lines == ["one | two | one | 2"], "\(result.stderr)")
    }

    @Test func theGlobalAPI() async throws {
        let result = await run(
            """
            (async () => {
              await FileSystem.mkdir(root + "/a/b", { recursive: true });
              await FileSystem.writeTextFile(root + "/a/b/t.txt", "héllo");
              await FileSystem.writeTextFile(root + "/a/b/t.txt", " wörld", { append: true });
              console.log(await FileSystem.readTextFile(root + "/a/b/t.txt"));
              await FileSystem.writeFile(root + "/a/bytes", new Uint8Array([0, 1, 254, 255]));
              console.log(Array.from(await FileSystem.readFile(root + "/a/bytes")).join(","));
              const info = await FileSystem.stat(root + "/a/b/t.txt");
              console.log(info.isFile, info.isDirectory, info.size, info.mtime instanceof Date);
              console.log((await FileSystem.readDir(root + "/a")).map((e) => e.name + ":" + e.isDirectory).join(" "));
              await FileSystem.copyFile(root + "/a/bytes", root + "/a/copy");
              await FileSystem.rename(root + "/a/copy", root + "/a/moved");
              console.log(await FileSystem.exists(root + "/a/copy"), await FileSystem.exists(root + "/a/moved"));
              await FileSystem.symlink(root + "/a/b", root + "/link");
              console.log(await FileSystem.readLink(root + "/link") === root + "/a/b",
                (await FileSystem.lstat(root + "/link")).isSymlink, await FileSystem.realPath(root + "/link") === root + "/a/b");
              const file = await FileSystem.open(root + "/a/h", { write: true, create: true, read: true });
              console.log(await file.write("abcdef"), Array.from(await file.read(3, 2)).join(","));
              await file.close();
              try { await FileSystem.readTextFile(root + "/nope"); } catch (e) {
                console.log(e.code, e.syscall, e.path === root + "/nope", e.errno, e.message.startsWith("ENOENT: no such file"));
              }
              try { await FileSystem.remove(root + "/a"); } catch (e) { console.log(e.code); }
              await FileSystem.remove(root + "/a", { recursive: true });
              console.log(FileSystem.existsSync(root + "/a"), FileSystem.readDirSync(root).map((e) => e.name).join());
            })();
            """)
        #expect(
            result.lines == [
                "héllo wörld", "0,1,254,255", "true false 13 true", "b:true bytes:false", "false true",
                "true true true", "6 99,100,101", "ENOENT open true -2 true", "ENOTEMPTY", "false link",
            ], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    @Test func nodeFsPromises() async throws {
        let result = await run(
            """
            const fsp = require("jsbridge:node:fs/promises");
            (async () => {
              console.log(await fsp.mkdir(root + "/x/y", { recursive: true }) === root + "/x");
              await fsp.writeFile(root + "/x/f.txt", "one\\n");
              await fsp.appendFile(root + "/x/f.txt", new TextEncoder().encode("two\\n"));
              console.log(JSON.stringify(await fsp.readFile(root + "/x/f.txt", "utf8")));
              console.log(await fsp.readFile(root + "/x/f.txt", { encoding: "base64" }));
              await fsp.writeFile(root + "/x/h", "00ff10", "hex");
              console.log(await fsp.readFile(root + "/x/h", "hex"), (await fsp.readFile(root + "/x/h")).length);
              const dirents = await fsp.readdir(root + "/x", { withFileTypes: true });
              console.log(dirents.map((d) => `${d.name}:${d.isFile()}:${d.isDirectory()}`).join(" "));
              console.log((await fsp.readdir(root + "/x")).join());
              const st = await fsp.stat(root + "/x/f.txt");
              console.log(st.isFile(), st.isDirectory(), st.isSymbolicLink(), st.size, typeof st.mtimeMs, st.mtime.getTime() === Math.trunc(st.mtimeMs));
              await fsp.access(root + "/x/f.txt", fsp.constants.R_OK | fsp.constants.W_OK);
              for (const [what, start] of [
                ["readFile", () => fsp.readFile(root + "/x/none")],
                ["mkdir", () => fsp.mkdir(root + "/x")],
                ["rmdir", () => fsp.rmdir(root + "/x")],
                ["readdir", () => fsp.readdir(root + "/x/f.txt")],
                ["copyFile", () => fsp.copyFile(root + "/x/f.txt", root + "/x/h", fsp.constants.COPYFILE_EXCL)],
                ["unlink", () => fsp.unlink(root + "/x/y")],
                ["open", () => fsp.open(root + "/x", "w")],
              ]) {
                try { await start(); console.log(what, "resolved"); } catch (e) { console.log(what, e.code, e.syscall); }
              }
              await fsp.rm(root + "/x/none", { force: true });
              const handle = await fsp.open(root + "/x/f.txt", "r+");
              const buf = new Uint8Array(3);
              const { bytesRead } = await handle.read(buf, 0, 3, 4);
              console.log(bytesRead, new TextDecoder().decode(buf));
              await handle.write("ONE", 0);
              console.log((await handle.stat()).size, JSON.stringify(await handle.readFile("utf8")));
              await handle.close();
              console.log(JSON.stringify(await fsp.readFile(root + "/x/f.txt", "latin1")));
              const temp = await fsp.mkdtemp(root + "/tmp-");
              console.log(temp.startsWith(root + "/tmp-"), temp.length === root.length + 11);
              await fsp.rm(root + "/x", { recursive: true });
              try { await fsp.readFile(42); } catch (e) { console.log(e.name, e.code); }
              try { await fsp.readFile(root + "/a", "utf16"); } catch (e) { console.log(e.code); }
            })();
            """)
        #expect(
            result.lines == [
                "true", "\"one\\ntwo\\n\"", "b25lCnR3bwo=", "00ff10 3", "f.txt:true:false h:true:false y:false:true",
                "f.txt,h,y", "true false false 8 number true", "readFile ENOENT open", "mkdir EEXIST mkdir",
                "rmdir ENOTEMPTY rmdir", "readdir ENOTDIR scandir", "copyFile EEXIST copyfile", "unlink EISDIR unlink",
                "open EISDIR open", "3 two", #"8 "ONE\ntwo\n""#, #""ONE\ntwo\n""#, "true true",
                "TypeError ERR_INVALID_ARG_TYPE",
                "ERR_UNKNOWN_ENCODING",
            ], "\(result.stderr)")
    }

    @Test func nodeFsSyncCallbacksAndStreams() async throws {
        let result = await run(
            """
            const fs = require("jsbridge:node:fs");
            console.log(fs.promises === require("jsbridge:node:fs/promises"));
            fs.mkdirSync(root + "/s/t", { recursive: true });
            fs.writeFileSync(root + "/s/a.txt", "alpha");
            fs.appendFileSync(root + "/s/a.txt", "-beta");
            console.log(fs.readFileSync(root + "/s/a.txt", "utf8"), fs.readFileSync(root + "/s/a.txt").length);
            console.log(fs.existsSync(root + "/s/a.txt"), fs.existsSync(root + "/s/zzz"));
            console.log(fs.statSync(root + "/s").isDirectory(), fs.statSync(root + "/none", { throwIfNoEntry: false }));
            console.log(fs.readdirSync(root + "/s").join(), fs.readdirSync(root + "/s", { withFileTypes: true })[1].isDirectory());
            fs.copyFileSync(root + "/s/a.txt", root + "/s/b.txt");
            fs.renameSync(root + "/s/b.txt", root + "/s/c.txt");
            fs.symlinkSync("a.txt", root + "/s/l");
            console.log(fs.readlinkSync(root + "/s/l"), fs.lstatSync(root + "/s/l").isSymbolicLink(), fs.realpathSync(root + "/s/l") === root + "/s/a.txt");
            const fd = fs.openSync(root + "/s/a.txt", "r");
            const buf = new Uint8Array(5);
            console.log(fs.readSync(fd, buf, 0, 5, 5), new TextDecoder().decode(buf), fs.fstatSync(fd).size);
            fs.closeSync(fd);
            try { fs.closeSync(fd); } catch (e) { console.log(e.code); }
            try { fs.readFileSync(root + "/s"); } catch (e) { console.log(e.code, e.syscall); }
            try { fs.rmSync(root + "/s"); } catch (e) { console.log(e.code); }
            fs.unlinkSync(root + "/s/l");
            fs.rmdirSync(root + "/s/t");
            fs.readFile(root + "/s/c.txt", "utf8", (error, text) => {
              console.log("callback", error, text);
              fs.stat(root + "/s/none", (error) => console.log("callback", error.code));
            });
            // A stream copy with small chunks: the reader waits for the writer (pipe), then async iteration.
            const big = "0123456789".repeat(10000);
            fs.writeFileSync(root + "/s/big.txt", big);
            const reader = fs.createReadStream(root + "/s/big.txt", { highWaterMark: 1000 });
            // Each chunk is over the writer's mark: every write answers false and the reader waits for drain.
            const writer = fs.createWriteStream(root + "/s/copy.txt", { highWaterMark: 500 });
            let chunks = 0, drains = 0;
            reader.on("data", () => chunks++);
            writer.on("drain", () => drains++);
            reader.pipe(writer);
            writer.on("finish", async () => {
              console.log("piped", chunks, drains, fs.readFileSync(root + "/s/copy.txt", "utf8") === big);
              let text = "";
              for await (const chunk of fs.createReadStream(root + "/s/big.txt", { encoding: "utf8", start: 5, end: 24, highWaterMark: 7 })) text += chunk + "|";
              console.log(text);
              const missing = fs.createReadStream(root + "/s/missing");
              missing.on("error", (e) => console.log("stream", e.code));
            });
            """)
        #expect(
            result.lines == [
                "true", "alpha-beta 10", "true false", "true undefined", "a.txt,t true", "a.txt true true",
                "5 -beta 10",
                "EBADF", "EISDIR read", "EISDIR", "callback null alpha-beta", "callback ENOENT",
                "piped 100 100 true", "5678901|2345678|901234|", "stream ENOENT",
            ], "\(result.stderr)")
    }

    @Test func largeContentsCrossWhole() async throws {
        // Over the inline limit, contents go through stage/take; every byte value must survive.
        let size = FileSystemPlugin.inlineLimit * 4 + 3
        let result = await run(
            """
            const fs = require("jsbridge:node:fs");
            const size = \(size);
            const bytes = new Uint8Array(size);
            for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) & 255;
            (async () => {
              await FileSystem.writeFile(root + "/big.bin", bytes);
              const back = await FileSystem.readFile(root + "/big.bin");
              console.log(back.length, back.every((b, i) => b === bytes[i]));
              const sync = fs.readFileSync(root + "/big.bin");
              console.log(sync.length, sync.every((b, i) => b === bytes[i]));
              const text = "é€".repeat(size / 4 | 0);
              await fs.promises.writeFile(root + "/big.txt", text);
              console.log((await fs.promises.readFile(root + "/big.txt", "utf8")) === text, fs.statSync(root + "/big.txt").size);
              fs.writeFileSync(root + "/big2.bin", bytes);
              console.log(fs.statSync(root + "/big2.bin").size);
            })();
            """)
        let text = String(repeating: "é€", count: size / 4)
        #expect(
            result.lines == ["\(size) true", "\(size) true", "true \(text.utf8.count)", "\(size)"], "\(result.stderr)")
        let bytes = try FileOperations.readFile(ResolvedPath(root + "/big.bin"))
        #expect(bytes.count == size && bytes[size - 1] == UInt8(((size - 1) * 7 + ((size - 1) >> 8)) & 255))
    }

    /// Bytes cross the bridge as bytes (no text on the way): views at an offset and DataViews write only their
    /// own bytes; streams and sync reads of a handle give Uint8Arrays; every byte value survives.
    @Test func bytesCrossAsBytesThroughEveryPath() async throws {
        let result = await run(
            """
            const fs = require("jsbridge:node:fs");
            const fsp = fs.promises;
            const bytes = new Uint8Array(300000);
            for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 13 + (i >> 9)) & 255;
            const equal = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
            (async () => {
              const big = new Uint8Array(bytes.length + 10);
              big.set(bytes, 5);
              await fsp.writeFile(root + "/v.bin", big.subarray(5, 5 + bytes.length));
              const back = await fsp.readFile(root + "/v.bin");
              console.log(back instanceof Uint8Array, equal(back, bytes));
              fs.writeFileSync(root + "/d.bin", new DataView(big.buffer, 5, bytes.length));
              console.log(equal(fs.readFileSync(root + "/d.bin"), bytes));
              await new Promise((resolve, reject) => {
                const out = fs.createWriteStream(root + "/s.bin");
                out.on("error", reject);
                for (let i = 0; i < bytes.length; i += 70000) out.write(bytes.subarray(i, i + 70000));
                out.end(resolve);
              });
              const chunks = [];
              for await (const chunk of fs.createReadStream(root + "/s.bin", { highWaterMark: 65536 })) chunks.push(chunk);
              const joined = new Uint8Array(bytes.length);
              let at = 0;
              for (const chunk of chunks) { joined.set(chunk, at); at += chunk.length; }
              console.log(chunks.length, chunks.every((c) => c instanceof Uint8Array), at, equal(joined, bytes));
              const fd = fs.openSync(root + "/s.bin", "r");
              const part = new Uint8Array(100);
              console.log(fs.readSync(fd, part, 0, 100, 1000), equal(part, bytes.subarray(1000, 1100)));
              fs.closeSync(fd);
              await fsp.writeFile(root + "/empty.bin", new Uint8Array(0));
              console.log((await fsp.readFile(root + "/empty.bin")).length);
            })();
            """)
        #expect(result.lines == ["true true", "true", "5 true 300000 true", "100 true", "0"], "\(result.stderr)")
        let written = try FileOperations.readFile(ResolvedPath(root + "/d.bin"))
        #expect(written.count == 300000 && written[299_999] == UInt8((299_999 * 13 + (299_999 >> 9)) & 255))
    }

    @Test func pathsNeedTheirCapability() async throws {
        try FileManager.default.createDirectory(atPath: root + "/granted", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/secret", withIntermediateDirectories: true)
        try "s".write(toFile: root + "/secret/key", atomically: true, encoding: .utf8)
        try "ok".write(toFile: root + "/granted/file", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/granted/escape", withDestinationPath: root + "/secret")
        let permissions = try Permissions().granting(.read, scopes: [root + "/granted"])
        let result = await run(
            """
            const fs = require("jsbridge:node:fs");
            const attempt = (label, body) => { try { console.log(label, body()); } catch (e) { console.log(label, e.code, e.message.includes(e.message.includes("write") ? "--allow-write=" : "--allow-read=")); } };
            attempt("read granted", () => fs.readFileSync(root + "/granted/file", "utf8"));
            attempt("read secret", () => fs.readFileSync(root + "/secret/key", "utf8"));
            attempt("via link", () => fs.readFileSync(root + "/granted/escape/key", "utf8"));
            attempt("dot-dot", () => fs.readFileSync(root + "/granted/../secret/key", "utf8"));
            attempt("write granted", () => fs.writeFileSync(root + "/granted/new", "x"));
            attempt("exists", () => fs.existsSync(root + "/secret/key"));
            FileSystem.readTextFile(root + "/secret/key").catch((e) => console.log("async", e.code, e.data.capability));
            """, permissions: permissions)
        #expect(
            result.lines == [
                "read granted ok", "read secret PERMISSION_DENIED true", "via link PERMISSION_DENIED true",
                "dot-dot PERMISSION_DENIED true", "write granted PERMISSION_DENIED true",
                "exists PERMISSION_DENIED true",
                "async PERMISSION_DENIED read",
            ], "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/granted/new"))
    }
}
