import FileAccess
import Foundation
import JSBridgeBase
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ``HTTPCacheStore`` in one directory: one file per entry, a size cap with LRU eviction, and expiry.
///
/// - **Atomic writes**: an entry is written to a temporary file in the directory and renamed over the old one,
///   so a reader (or a crash) never sees half an entry. Every file carries a checksum: a damaged or truncated
///   file is a miss and is removed.
/// - **LRU**: a file's modification time is its last use (set when stored and on every hit), so the order
///   survives reopening. When the stored bytes pass ``sizeLimit``, the least recently used entries are removed
///   until they fit in 90% of it. An entry larger than the limit on its own is not stored.
/// - **Expiry**: an entry stored more than ``maxEntryAge`` ago is removed when read and by ``removeExpired()``
///   (which opening the store runs, and storing runs again when an hour has passed since).
/// - **Sharing**: safe for many tasks; two processes may share the directory (no lock files: renames are
///   atomic, and each process evicts by what it finds on disk).
///
/// Layout: `<directory>/<hash of key>.entry`, `<directory>/index/<hash of URL>-<hash of key>` (empty markers that
/// find a URL's entries for invalidation) and short-lived `<directory>/.tmp-*` files.
public final class DiskHTTPCacheStore: HTTPCacheStore {
    /// The directory holding the entries.
    public let directory: String
    /// The most bytes the entry files may take (default 64 MiB).
    public let sizeLimit: Int
    /// How long after being stored an entry is kept (nil: until evicted).
    public let maxEntryAge: Duration?
    private let clock: any BridgeClock
    private let indexDirectory: String

    private struct State {
        /// The entry bytes this process believes are on disk (recounted by every eviction scan).
        var approximateSize = 0
        var isEvicting = false
        /// Bytes this process stored since the running eviction pass scanned the directory.
        var storedSinceScan = 0
        /// When ``removeExpired()`` last ran (stores run it again after an hour).
        var lastSweep = Date.distantPast
    }

    private let state = Locked(State())

    /// Opens (creating it if needed) the store in `directory`, then removes expired entries, stale temporary
    /// files and markers, and evicts down to the size limit.
    ///
    /// - Parameters:
    ///   - sizeLimit: the most bytes the entry files may take.
    ///   - maxEntryAge: how long an entry is kept after it was stored (nil: no limit).
    ///   - clock: the time source for last-use times and expiry.
    public init(
        directory: String, sizeLimit: Int = 64 << 20, maxEntryAge: Duration? = .seconds(7 * 86_400),
        clock: any BridgeClock = SystemClock()
    ) throws {
        self.directory = directory
        self.sizeLimit = max(0, sizeLimit)
        self.maxEntryAge = maxEntryAge
        self.clock = clock
        self.indexDirectory = directory + "/index"
        try FileManager.default.createDirectory(atPath: indexDirectory, withIntermediateDirectories: true)
        removeExpired()
    }

    /// The default cache directory of an app: `<storage directory>/<app id>.http-cache`, the app id as a file
    /// name (``StorageLocation/fileSystemName``).
    public static func defaultDirectory(for storage: StorageLocation) -> String {
        (storage.directory.hasSuffix("/") ? storage.directory : storage.directory + "/") + storage.fileSystemName
            + ".http-cache"
    }

    // MARK: HTTPCacheStore

    public func entry(forKey key: String) async -> HTTPCacheEntry? {
        let path = entryPath(key)
        guard let bytes = readEntryFile(path) else { return nil }
        guard let entry = HTTPCacheEntryCoding.decode(bytes) else {
            remove(path)
            return nil
        }
        guard entry.key == key else { return nil }  // a hash collision: another key's entry
        let now = clock.now()
        if isExpired(storedAt: entry.storedAt, now: now) {
            remove(path)
            return nil
        }
        setModificationTime(path, now)
        return entry
    }

    public func store(_ entry: HTTPCacheEntry) async throws {
        let now = clock.now()
        if state.withLock({ now.timeIntervalSince($0.lastSweep) >= Self.sweepInterval }) { removeExpired() }
        let bytes = HTTPCacheEntryCoding.encode(entry)
        let path = entryPath(entry.key)
        guard bytes.count <= sizeLimit else {
            remove(path)
            return
        }
        let temporary = directory + "/.tmp-" + UUID().uuidString
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            let previous = fileInfo(path)?.size ?? 0
            guard rename(temporary, path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            // The LRU time (the injected clock's) is set once the entry is in place: a temporary file keeps its
            // real modification time, by which other processes' sweeps age leftovers of crashes.
            setModificationTime(path, now)
            let marker = indexDirectory + "/" + Self.hash64(entry.url) + "-" + Self.hash128(entry.key)
            if !FileManager.default.fileExists(atPath: marker) {
                _ = FileManager.default.createFile(atPath: marker, contents: nil)
            }
            let mustEvict = state.withLock { state -> Bool in
                state.approximateSize += bytes.count - previous
                state.storedSinceScan += bytes.count - previous
                guard state.approximateSize > sizeLimit, !state.isEvicting else { return false }
                state.isEvicting = true
                return true
            }
            if mustEvict { evict() }
        } catch {
            remove(temporary)
            throw error
        }
    }

    public func removeEntry(forKey key: String) async {
        let keyHash = Self.hash128(key)
        remove(entryPath(key))
        for marker in list(indexDirectory) where marker.hasSuffix("-" + keyHash) {
            remove(indexDirectory + "/" + marker)
        }
    }

    public func removeEntries(forURL url: String) async {
        let prefix = Self.hash64(url) + "-"
        for marker in list(indexDirectory) where marker.hasPrefix(prefix) {
            let path = directory + "/" + String(marker.dropFirst(prefix.count)) + ".entry"
            // The key may have been stored again for another URL since: only remove it if it is still this URL's.
            if let meta = readMeta(path), meta.url == url { remove(path) }
            remove(indexDirectory + "/" + marker)
        }
    }

    public func removeAll() async {
        for name in list(directory) where name.hasSuffix(".entry") { remove(directory + "/" + name) }
        for marker in list(indexDirectory) { remove(indexDirectory + "/" + marker) }
        state.withLock { $0.approximateSize = 0 }
    }

    // MARK: Maintenance

    /// How many entries the directory holds and their total size in bytes.
    public func usage() -> (entries: Int, bytes: Int) {
        let files = scan()
        return (files.count, files.reduce(0) { $0 + $1.size })
    }

    /// Removes expired and unreadable entries, temporary files older than an hour (left by a crash) and
    /// markers of entries that are gone; then evicts down to the size limit.
    public func removeExpired() {
        let now = clock.now()
        state.withLock { $0.lastSweep = now }
        for name in list(directory) {
            let path = directory + "/" + name
            if name.hasSuffix(".entry") {
                guard let meta = readMeta(path) else {
                    remove(path)
                    continue
                }
                if isExpired(storedAt: meta.storedAt, now: now) || name != Self.hash128(meta.key) + ".entry" {
                    remove(path)
                }
            } else if name.hasPrefix(".tmp-"), let info = fileInfo(path),
                info.modified < Date().addingTimeInterval(-3600)
            {
                // Temporary files are aged in real time (another process may be writing one right now).
                remove(path)
            }
        }
        let present = Set(list(directory).filter { $0.hasSuffix(".entry") }.map { String($0.dropLast(6)) })
        for marker in list(indexDirectory) {
            let parts = marker.split(separator: "-", maxSplits: 1)
            guard parts.count == 2 else {
                remove(indexDirectory + "/" + marker)
                continue
            }
            // Checked again before removing: a concurrent store may have written the entry since the listing.
            let entry = String(parts[1])
            if !present.contains(entry), fileInfo(directory + "/" + entry + ".entry") == nil {
                remove(indexDirectory + "/" + marker)
            }
        }
        let total = scan().reduce(0) { $0 + $1.size }
        state.withLock { $0.approximateSize = total }
        if total > sizeLimit { evictIfClaimed() }
    }

    /// Claims the eviction pass (one at a time per store) and runs it.
    private func evictIfClaimed() {
        let claimed = state.withLock { state -> Bool in
            if state.isEvicting { return false }
            state.isEvicting = true
            return true
        }
        if claimed { evict() }
    }

    /// Removes the least recently used entries until the rest fit in 90% of the size limit; repeats while
    /// other tasks' stores pushed the total over the limit again, and stops when a pass can neither remove a
    /// file nor sees new stores (files that cannot be removed must not keep this task busy). The caller has
    /// set `isEvicting`.
    private func evict() {
        while true {
            state.withLock { $0.storedSinceScan = 0 }
            var files = scan()
            var total = files.reduce(0) { $0 + $1.size }
            var removed: Set<String> = []
            if total > sizeLimit {
                let target = sizeLimit / 10 * 9
                files.sort { $0.modified < $1.modified }
                for file in files where total > target {
                    remove(directory + "/" + file.name)
                    removed.insert(String(file.name.dropLast(6)))
                    total -= file.size
                }
                for marker in list(indexDirectory) {
                    let parts = marker.split(separator: "-", maxSplits: 1)
                    if parts.count == 2, removed.contains(String(parts[1])),
                        fileInfo(directory + "/" + parts[1] + ".entry") == nil
                    {
                        remove(indexDirectory + "/" + marker)
                    }
                }
            }
            let done = state.withLock { state -> Bool in
                state.approximateSize = total + state.storedSinceScan
                if state.approximateSize > sizeLimit, !removed.isEmpty || state.storedSinceScan > 0 { return false }
                state.isEvicting = false
                return true
            }
            if done { return }
        }
    }

    // MARK: Files

    private struct FileInfo {
        var name: String
        var size: Int
        var modified: Date
    }

    /// How often stores sweep expired entries, in seconds.
    static let sweepInterval: TimeInterval = 3600

    private func entryPath(_ key: String) -> String { directory + "/" + Self.hash128(key) + ".entry" }

    private func isExpired(storedAt: Date, now: Date) -> Bool {
        guard let maxEntryAge else { return false }
        let seconds = Double(maxEntryAge.components.seconds) + Double(maxEntryAge.components.attoseconds) / 1e18
        return now.timeIntervalSince(storedAt) > seconds
    }

    private func scan() -> [FileInfo] {
        list(directory).filter { $0.hasSuffix(".entry") }.compactMap { name in
            guard var info = fileInfo(directory + "/" + name) else { return nil }
            info.name = name
            return info
        }
    }

    private func list(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    private func fileInfo(_ path: String) -> FileInfo? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        let modified = Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
        return FileInfo(name: "", size: Int(status.st_size), modified: modified)
    }

    /// The entry file's bytes, or nil when it is missing, larger than the cache or a symlink: the cache
    /// follows no link planted in its directory (by a script granted `--allow-write` over it), so it reads
    /// and touches only its own files.
    private func readEntryFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return try? ResolvedPath.readAll(fd, maxBytes: sizeLimit)
    }

    private func setModificationTime(_ path: String, _ date: Date) {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        var times = [
            timespec(tv_sec: time_t(whole), tv_nsec: Int((seconds - whole) * 1e9)),
            timespec(tv_sec: time_t(whole), tv_nsec: Int((seconds - whole) * 1e9)),
        ]
        _ = utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    private func remove(_ path: String) {
        _ = unlink(path)
    }

    /// The key, URL and storage date of the entry file at `path` (reads only the start of the file).
    private func readMeta(_ path: String) -> HTTPCacheEntryCoding.Meta? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let start = try? handle.read(upToCount: HTTPCacheEntryCoding.prefixLength),
            let length = HTTPCacheEntryCoding.metaLength(Array(start)), length < 1 << 26,
            let meta = try? handle.read(upToCount: length)
        else { return nil }
        return HTTPCacheEntryCoding.decodeMeta(Array(start) + Array(meta))
    }

    // MARK: Hashes

    static func hash64(_ text: String) -> String {
        hex(HTTPCacheEntryCoding.fnv1a(text.utf8))
    }

    static func hash128(_ text: String) -> String { hash128(bytes: Array(text.utf8)) }

    static func hash128(bytes: [UInt8]) -> String {
        hex(HTTPCacheEntryCoding.fnv1a(bytes)) + hex(HTTPCacheEntryCoding.fnv1a(bytes, seed: 0x6c62_272e_07bb_0142))
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
