import Foundation
import Testing

@testable import FileAccess

/// Resolution (bytes, links, `..`) and opening without following links, on real directories with real links.
@Suite struct ResolvedPathTests {
    let root: String

    init() throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: made + "/granted/sub", withIntermediateDirectories: true)
        root = URL(fileURLWithPath: made).resolvingSymlinksInPath().path
        try "outside".write(toFile: root + "/secret", atomically: false, encoding: .utf8)
        try "inside".write(toFile: root + "/granted/sub/file", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/granted/up", withDestinationPath: "..")
    }

    /// Reads the whole of `fd` (closing it).
    func contents(_ fd: Int32) -> String {
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        return String(decoding: buffer[0..<max(count, 0)], as: UTF8.self)
    }

    func errno(_ body: () throws(FileAccessError) -> Int32) -> Int32? {
        do throws(FileAccessError) {
            close(try body())
            return nil
        } catch {
            return error.errno
        }
    }

    @Test func onlyTheSlashByteSeparatesAndBytesAreCompared() {
        // "/" followed by U+0301 is one Swift Character but two path components' worth of bytes.
        let combining = ResolvedPath(root + "/granted/../\u{301}x")
        #expect(combining.path == root + "/\u{301}x")
        #expect(!combining.isWithin(ResolvedPath(root + "/granted")))
        let joiner = ResolvedPath(root + "/granted/..\u{200D}/x")
        #expect(joiner.path == root + "/granted/..\u{200D}/x")
        // Canonically equivalent names are different files on Linux.
        #expect(ResolvedPath(root + "/caf\u{E9}") != ResolvedPath(root + "/cafe\u{301}"))
        #expect(!ResolvedPath(root + "/cafe\u{301}/x").isWithin(ResolvedPath(root + "/caf\u{E9}")))
        #expect(ResolvedPath(root + "/granted/sub/file").isWithin(ResolvedPath(root + "/granted")))
        #expect(!ResolvedPath(root + "/granted-not").isWithin(ResolvedPath(root + "/granted")))
        #expect(ResolvedPath(root + "/granted/up/secret").path == root + "/secret")
    }

    @Test(arguments: [false, true]) func aChainLongerThanTheKernelFollowsIsELOOP(walking: Bool) throws {
        // l1 → l2 → … → l41 → the outside directory: the check cannot follow the 41st link, so it takes it as a
        // name under `granted`; opening must then refuse it, not follow it out.
        for index in 1...40 {
            try FileManager.default.createSymbolicLink(
                atPath: root + "/granted/l\(index)", withDestinationPath: "l\(index + 1)")
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/granted/l41", withDestinationPath: root)
        let path = ResolvedPath(root + "/granted/l1/secret")
        #expect(path.isWithin(ResolvedPath(root + "/granted")))
        #expect(errno { () throws(FileAccessError) in try open(path, O_RDONLY, walking: walking) } == ELOOP)
    }

    func open(_ path: ResolvedPath, _ flags: Int32, mode: mode_t = 0o644, walking: Bool) throws(FileAccessError)
        -> Int32
    {
        try ResolvedPath.openFromRoot(path.bytes.dropFirst(), flags: flags, mode: mode, walking: walking)
    }

    @Test(arguments: [false, true]) func aDirectorySwappedForALinkAfterTheCheckIsELOOP(walking: Bool) throws {
        let checked = ResolvedPath(root + "/granted/sub/file")
        #expect(contents(try open(checked, O_RDONLY, walking: walking)) == "inside")
        try FileManager.default.moveItem(atPath: root + "/granted/sub", toPath: root + "/granted/moved")
        try FileManager.default.createSymbolicLink(atPath: root + "/granted/sub", withDestinationPath: root + "/moved")
        try FileManager.default.createDirectory(atPath: root + "/moved", withIntermediateDirectories: false)
        try "outside".write(toFile: root + "/moved/file", atomically: false, encoding: .utf8)
        #expect(errno { () throws(FileAccessError) in try open(checked, O_RDONLY, walking: walking) } == ELOOP)
        // A final link too, and creating through one.
        try FileManager.default.createSymbolicLink(
            atPath: root + "/granted/final", withDestinationPath: root + "/secret")
        let final = ResolvedPath(root + "/granted/final", followingFinalLink: false)
        #expect(errno { () throws(FileAccessError) in try open(final, O_RDONLY, walking: walking) } == ELOOP)
        #expect(errno { () throws(FileAccessError) in try open(final, O_PATH, walking: walking) } == ELOOP)
        let create = O_WRONLY | O_CREAT | O_TRUNC
        #expect(errno { () throws(FileAccessError) in try open(final, create, walking: walking) } == ELOOP)
        #expect(try String(contentsOfFile: root + "/secret", encoding: .utf8) == "outside")
    }

    @Test(arguments: [false, true]) func theKernelAndTheWalkAgree(walking: Bool) throws {
        #expect(contents(try open(ResolvedPath(root + "/granted/sub/file"), O_RDONLY, walking: walking)) == "inside")
        #expect(
            errno { () throws(FileAccessError) in
                try open(ResolvedPath(root + "/granted/missing"), O_RDONLY, walking: walking)
            } == ENOENT)
        #expect(
            errno { () throws(FileAccessError) in
                try open(ResolvedPath(root + "/granted/sub/file/x"), O_RDONLY, walking: walking)
            } == ENOTDIR)
        let created = ResolvedPath(root + "/granted/new")
        let fd = try open(created, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600, walking: walking)
        #expect(write(fd, "made", 4) == 4)
        close(fd)
        #expect(try String(contentsOfFile: root + "/granted/new", encoding: .utf8) == "made")
        #expect(
            (try FileManager.default.attributesOfItem(atPath: root + "/granted/new")[.posixPermissions] as? Int)
                == 0o600)
        #expect(
            errno { () throws(FileAccessError) in try open(ResolvedPath("/"), O_RDONLY | O_DIRECTORY, walking: walking)
            } == nil)
    }

    @Test func theParentActsOnAFinalLinkItself() throws {
        try FileManager.default.createSymbolicLink(
            atPath: root + "/granted/link", withDestinationPath: root + "/secret")
        let link = ResolvedPath(root + "/granted/link", followingFinalLink: false)
        let parent = try link.openParent()
        #expect(parent.withEntry { unlinkat($0, $1, 0) } == 0)
        #expect(FileManager.default.fileExists(atPath: root + "/secret"))
        #expect(ResolvedPath("/").parent == ResolvedPath("/"))
        #expect(link.parent.path == root + "/granted")
        #expect(try ResolvedPath("/").openParent().name == Array(".".utf8))
    }

    /// A script swapping a directory for a link to `..` while another thread opens a file under it: the check
    /// saw a path without links, and the open never reaches the file outside.
    @Test func aRaceOfSwapsNeverReachesOutside() async throws {
        try FileManager.default.createDirectory(atPath: root + "/granted/d", withIntermediateDirectories: false)
        try "inside".write(toFile: root + "/granted/d/secret", atomically: false, encoding: .utf8)
        let checked = ResolvedPath(root + "/granted/d/secret")
        let base = root
        let swapper = Task.detached {
            for _ in 0..<2000 {
                rename(base + "/granted/d", base + "/granted/d-real")
                symlink("..", base + "/granted/d")
                unlink(base + "/granted/d")
                rename(base + "/granted/d-real", base + "/granted/d")
            }
        }
        var outside = 0
        var opened = 0
        for attempt in 0..<4000 {
            do throws(FileAccessError) {
                let fd = try open(checked, O_RDONLY, walking: attempt % 2 == 1)
                opened += 1
                if contents(fd) != "inside" { outside += 1 }
            } catch {
                // ENOTDIR: the walk met the link, which was a directory again when it looked why.
                #expect([ENOENT, ELOOP, ENOTDIR].contains(error.errno))
            }
        }
        await swapper.value
        #expect(outside == 0)
        #expect(opened > 0)
    }

    /// Whole-file reads stop at the limit: a file of exactly `maxBytes` is read, one byte more is `EFBIG`,
    /// for files with a size and for those without (`/proc`).
    @Test func readsUpToTheLimitAndNoFurther() throws {
        let file = ResolvedPath(root + "/granted/sub/file")
        #expect(try file.read(maxBytes: 6) == Array("inside".utf8))
        #expect(
            errno { () throws(FileAccessError) in
                _ = try file.read(maxBytes: 5); return -1
            } == EFBIG)
        let status = ResolvedPath("/proc/self/status")
        #expect(try String(decoding: status.read(maxBytes: 1 << 20), as: UTF8.self).contains("Name:"))
        #expect(
            errno { () throws(FileAccessError) in
                _ = try status.read(maxBytes: 10); return -1
            } == EFBIG)
        #expect(
            errno { () throws(FileAccessError) in
                _ = try ResolvedPath(root).read(maxBytes: 10); return -1
            } == EISDIR)
        #expect(
            errno { () throws(FileAccessError) in try ResolvedPath(root + "/granted/sub/file\0x").open(O_RDONLY) }
                == EINVAL)
    }
}
