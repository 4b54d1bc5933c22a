import FileAccess
import FileSystemCore
import Foundation
import JSBridgeBase
import Testing

/// Each operation of the core against real files in a fresh temporary directory, with Node's error codes.
@Suite struct FileOperationsTests {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fs-core-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func code(_ body: () throws(FileSystemError) -> Void) -> (code: String, syscall: String, path: String)? {
        do throws(FileSystemError) {
            try body()
            return nil
        } catch {
            return (error.code, error.syscall, error.path)
        }
    }

    @Test func writeReadAppendAndExclusive() throws {
        let file = root + "/a.txt"
        try FileOperations.writeFile(ResolvedPath(file), Array("héllo".utf8))
        #expect(try FileOperations.readFile(ResolvedPath(file)) == Array("héllo".utf8))
        try FileOperations.writeFile(ResolvedPath(file), Array(" world".utf8), mode: .append)
        #expect(String(decoding: try FileOperations.readFile(ResolvedPath(file)), as: UTF8.self) == "héllo world")
        try FileOperations.writeFile(ResolvedPath(file), [1, 2, 3])
        #expect(try FileOperations.readFile(ResolvedPath(file)) == [1, 2, 3])
        #expect(
            code { () throws(FileSystemError) in try FileOperations.writeFile(ResolvedPath(file), [4], mode: .exclusive)
            }?.code
                == "EEXIST")
        #expect(
            code { () throws(FileSystemError) in _ = try FileOperations.readFile(ResolvedPath(root + "/none")) }! == (
                "ENOENT", "open", root + "/none"
            ))
        #expect(
            code { () throws(FileSystemError) in _ = try FileOperations.readFile(ResolvedPath(root)) }?.code == "EISDIR"
        )
        #expect(
            code { () throws(FileSystemError) in try FileOperations.writeFile(ResolvedPath(file + "/x"), [1]) }?.code
                == "ENOTDIR")
    }

    @Test func readsFilesWithoutAKnownSize() throws {
        // /proc files report size 0; the loop reads until EOF.
        let bytes = try FileOperations.readFile(ResolvedPath("/proc/self/status"))
        #expect(String(decoding: bytes, as: UTF8.self).contains("Name:"))
    }

    @Test func errorsCarryNodesMessageAndData() {
        let error = FileSystemError(errno: ENOENT, syscall: "open", path: "a.txt")
        #expect(error.description == "ENOENT: no such file or directory, open 'a.txt'")
        let bridge = error.bridgeError
        #expect(bridge.code == "ENOENT")
        #expect(bridge.data == ["errno": -2, "syscall": "open", "path": "a.txt"])
        let rename = FileSystemError(errno: EXDEV, syscall: "rename", path: "a", dest: "b")
        #expect(rename.bridgeError.code == "EXDEV" && rename.description.hasSuffix("rename 'a' -> 'b'"))
    }

    @Test func mkdirRecursiveAndReaddirWithTypes() throws {
        let deep = root + "/x/y/z"
        #expect(try FileOperations.mkdir(ResolvedPath(deep), recursive: true) == root + "/x")
        #expect(try FileOperations.mkdir(ResolvedPath(deep), recursive: true) == nil)
        #expect(code { () throws(FileSystemError) in try FileOperations.mkdir(ResolvedPath(deep)) }?.code == "EEXIST")
        #expect(
            code { () throws(FileSystemError) in try FileOperations.mkdir(ResolvedPath(root + "/q/r")) }?.code
                == "ENOENT")
        try FileOperations.writeFile(ResolvedPath(root + "/x/f"), [0])
        try FileOperations.symlink(target: "f", at: ResolvedPath(root + "/x/l", followingFinalLink: false))
        let entries = try FileOperations.readdir(ResolvedPath(root + "/x"))
        #expect(
            entries == [
                DirectoryEntry(name: "f", type: .file), DirectoryEntry(name: "l", type: .symlink),
                DirectoryEntry(name: "y", type: .directory),
            ])
        #expect(
            code { () throws(FileSystemError) in _ = try FileOperations.readdir(ResolvedPath(root + "/x/f")) }! == (
                "ENOTDIR", "scandir", root + "/x/f"
            ))
        #expect(
            code { () throws(FileSystemError) in
                try FileOperations.mkdir(ResolvedPath(root + "/x/f/g"), recursive: true)
            }?.code
                == "ENOTDIR")
    }

    @Test func statLstatAndLinks() throws {
        try FileOperations.writeFile(ResolvedPath(root + "/f"), Array(repeating: 7, count: 1000))
        try FileOperations.symlink(target: root + "/f", at: ResolvedPath(root + "/l", followingFinalLink: false))
        let stats = try FileOperations.stat(ResolvedPath(root + "/l"))
        #expect(stats.type == .file && stats.size == 1000 && stats.mode & 0o777 != 0)
        #expect(abs(stats.mtimeMs - Date().timeIntervalSince1970 * 1000) < 60_000)
        #expect(try FileOperations.lstat(ResolvedPath(root + "/l", followingFinalLink: false)).type == .symlink)
        #expect(try FileOperations.readlink(ResolvedPath(root + "/l", followingFinalLink: false)) == root + "/f")
        #expect(
            try FileOperations.realpath(ResolvedPath(root + "/l")) == (try FileOperations.realpath(ResolvedPath(root)))
                + "/f")
        #expect(
            code { () throws(FileSystemError) in
                _ = try FileOperations.readlink(ResolvedPath(root + "/f", followingFinalLink: false))
            }?.code == "EINVAL")
        #expect(
            code { () throws(FileSystemError) in
                try FileOperations.symlink(target: "x", at: ResolvedPath(root + "/l", followingFinalLink: false))
            }?.code
                == "EEXIST")
        try FileOperations.symlink(target: "nowhere", at: ResolvedPath(root + "/dangling", followingFinalLink: false))
        #expect(
            code { () throws(FileSystemError) in _ = try FileOperations.stat(ResolvedPath(root + "/dangling")) }! == (
                "ENOENT", "stat", root + "/nowhere"
            ), "the core reports the path it used: the link's missing target")
        #expect(
            code { () throws(FileSystemError) in _ = try FileOperations.realpath(ResolvedPath(root + "/dangling")) }?
                .code == "ENOENT"
        )
        try FileOperations.symlink(target: "loop", at: ResolvedPath(root + "/loop", followingFinalLink: false))
        #expect(
            code { () throws(FileSystemError) in _ = try FileOperations.stat(ResolvedPath(root + "/loop")) }?.code
                == "ELOOP")
    }

    @Test func removeRenameCopyAccess() throws {
        try FileOperations.mkdir(ResolvedPath(root + "/d/e"), recursive: true)
        try FileOperations.writeFile(ResolvedPath(root + "/d/e/f"), [1, 2])
        #expect(
            code { () throws(FileSystemError) in try FileOperations.rmdir(ResolvedPath(root + "/d")) }?.code
                == "ENOTEMPTY")
        #expect(
            code { () throws(FileSystemError) in try FileOperations.rm(ResolvedPath(root + "/d")) }?.code == "EISDIR")
        #expect(
            code { () throws(FileSystemError) in try FileOperations.unlink(ResolvedPath(root + "/d")) }?.code
                == "EISDIR")
        try FileOperations.copyFile(ResolvedPath(root + "/d/e/f"), ResolvedPath(root + "/copy"))
        #expect(try FileOperations.readFile(ResolvedPath(root + "/copy")) == [1, 2])
        #expect(
            code { () throws(FileSystemError) in
                try FileOperations.copyFile(
                    ResolvedPath(root + "/d/e/f"), ResolvedPath(root + "/copy"), exclusive: true)
            }?.code == "EEXIST")
        #expect(
            code { () throws(FileSystemError) in
                try FileOperations.copyFile(ResolvedPath(root + "/nope"), ResolvedPath(root + "/c2"))
            }! == (
                "ENOENT", "copyfile", root + "/nope"
            ))
        try FileOperations.rename(ResolvedPath(root + "/copy"), ResolvedPath(root + "/moved"))
        #expect(
            code { () throws(FileSystemError) in try FileOperations.access(ResolvedPath(root + "/copy")) }?.code
                == "ENOENT")
        try FileOperations.access(ResolvedPath(root + "/moved"), mode: R_OK | W_OK)
        try FileOperations.chmod(ResolvedPath(root + "/moved"), mode: 0o400)
        if getuid() != 0 {
            #expect(
                code { () throws(FileSystemError) in
                    try FileOperations.access(ResolvedPath(root + "/moved"), mode: W_OK)
                }?.code
                    == "EACCES")
            #expect(
                code { () throws(FileSystemError) in try FileOperations.writeFile(ResolvedPath(root + "/moved"), [1]) }?
                    .code
                    == "EACCES")
        }
        #expect(try FileOperations.stat(ResolvedPath(root + "/moved")).mode & 0o777 == 0o400)
        #expect(
            code { () throws(FileSystemError) in
                try FileOperations.rename(ResolvedPath(root + "/none"), ResolvedPath(root + "/x"))
            }?.code
                == "ENOENT")
        try FileOperations.rm(ResolvedPath(root + "/d"), recursive: true)
        #expect(
            code { () throws(FileSystemError) in try FileOperations.access(ResolvedPath(root + "/d")) }?.code
                == "ENOENT")
        try FileOperations.rm(ResolvedPath(root + "/d"), force: true)
        #expect(
            code { () throws(FileSystemError) in try FileOperations.rm(ResolvedPath(root + "/d")) }?.code == "ENOENT")
        try FileOperations.writeFile(ResolvedPath(root + "/t"), [1, 2, 3, 4])
        try FileOperations.truncate(ResolvedPath(root + "/t"), length: 2)
        #expect(try FileOperations.readFile(ResolvedPath(root + "/t")) == [1, 2])
    }

    @Test func handlesReadWriteAtPositionsAndClose() throws {
        let handles = FileHandles(limit: 2)
        let file = root + "/h"
        let w = try handles.open(ResolvedPath(file), flags: "w+")
        #expect(try handles.write(w, Array("abcdef".utf8)) == 6)
        #expect(try handles.read(w, length: 3, position: 1) == Array("bcd".utf8))
        try handles.write(w, Array("XY".utf8), position: 0)
        #expect(try handles.read(w, length: 100, position: 0) == Array("XYcdef".utf8))
        #expect(try handles.read(w, length: 10) == [])
        #expect(try handles.stat(w).size == 6)
        try handles.truncate(w, length: 1)
        let r = try handles.open(ResolvedPath(file), flags: "r")
        #expect(try handles.read(r, length: 10) == Array("X".utf8))
        #expect(
            code { () throws(FileSystemError) in _ = try handles.open(ResolvedPath(file), flags: "r") }?.code
                == "EMFILE")
        #expect(code { () throws(FileSystemError) in _ = try handles.write(r, [1]) }?.code == "EBADF")
        try handles.close(r)
        try handles.close(w)
        #expect(code { () throws(FileSystemError) in try handles.close(w) }?.code == "EBADF")
        #expect(
            code { () throws(FileSystemError) in _ = try handles.open(ResolvedPath(file), flags: "wx") }?.code
                == "EEXIST")
        #expect(
            code { () throws(FileSystemError) in _ = try handles.open(ResolvedPath(root), flags: "w") }?.code
                == "EISDIR")
        #expect(
            code { () throws(FileSystemError) in _ = try handles.open(ResolvedPath(file), flags: "q") }?.code
                == "EINVAL")
        let a = try handles.open(ResolvedPath(file), flags: "a")
        try handles.write(a, Array("Z".utf8), position: 0)
        try handles.close(a)
        #expect(try FileOperations.readFile(ResolvedPath(file)) == Array("XZ".utf8))
        #expect(handles.count == 0)
    }

    @Test(arguments: TextEncoding.allCases)
    func encodingsRoundTripEveryByte(_ encoding: TextEncoding) {
        let bytes = (0...255).map(UInt8.init) + [0, 0xFF, 0x80]
        if encoding == .utf8 {
            return #expect(encoding.decode(encoding.encode(Array("añ€😀".utf8))) == Array("añ€😀".utf8))
        }
        #expect(encoding.decode(encoding.encode(bytes)) == bytes)
    }

    @Test func encodingsMatchNodesForms() {
        let bytes = Array("hi?>".utf8)
        #expect(TextEncoding.base64.encode(bytes) == "aGk/Pg==")
        #expect(TextEncoding.base64url.encode(bytes) == "aGk_Pg")
        #expect(TextEncoding.hex.encode([0, 171, 255]) == "00abff")
        #expect(TextEncoding.hex.decode("00abZZ") == [0, 171])
        #expect(TextEncoding.utf8.encode([0x61, 0xFF]) == "a\u{FFFD}")
        #expect(TextEncoding(named: "UTF-8") == .utf8 && TextEncoding(named: "binary") == .latin1)
        #expect(TextEncoding(named: "ucs2") == nil)
    }
}
