import CSpawn
import Foundation

/// A throwaway PostgreSQL cluster for tests: `initdb` into a temporary directory, a server on 127.0.0.1 at a
/// free port with password authentication, stopped by ``stop()`` (and at process exit for ``shared``).
///
/// `initdb` refuses to run as root: under root the cluster belongs to the `postgres` system user (the one
/// Debian's package creates) and every server command runs as that user through `runuser`.
///
/// ```swift
/// let cluster = try TestPostgresCluster.start()
/// let url = try cluster.createDatabase("t1")   // postgres://jsbridge:…@127.0.0.1:port/t1
/// try cluster.stop()
/// ```
public final class TestPostgresCluster: @unchecked Sendable {
    /// The cluster's superuser and its password.
    public static let user = "jsbridge"
    public static let password = "test-secret-42"

    public let directory: String
    public let port: Int
    private let lock = NSLock()
    private var running = true

    /// Where Debian puts the server binaries.
    public static var binaries: String {
        ProcessInfo.processInfo.environment["JSBRIDGE_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
    }

    /// One cluster for a whole test process, started on first use and stopped when the process exits.
    public static var shared: TestPostgresCluster {
        get throws {
            sharedLock.lock()
            defer { sharedLock.unlock() }
            return try startedShared()
        }
    }
    nonisolated(unsafe) private static var sharedCluster: TestPostgresCluster?
    private static let sharedLock = NSLock()

    /// The shared cluster, started on first use (the caller holds `sharedLock`).
    private static func startedShared() throws -> TestPostgresCluster {
        if let sharedCluster { return sharedCluster }
        let cluster = try start(fsync: false)
        sharedCluster = cluster
        atexit { TestPostgresCluster.stopShared() }
        return cluster
    }

    private static func stopShared() {
        try? sharedCluster?.stop()
    }

    /// The URL of database `name` on the ``shared`` cluster, created the first time a test asks for it (the
    /// suites of one test process share it; each keeps its rows apart, by app id or table).
    public static func sharedDatabase(_ name: String) throws -> String {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if let url = sharedDatabases[name] { return url }
        let url = try startedShared().createDatabase(name)
        sharedDatabases[name] = url
        return url
    }
    nonisolated(unsafe) private static var sharedDatabases: [String: String] = [:]

    /// Creates and starts a cluster. `fsync: false` is faster and still survives the server being killed
    /// (the operating system keeps the written pages); only an OS crash would lose data.
    ///
    /// `network` also makes the server listen on `network.address` and accept password logins from
    /// `network.subnet` (CIDR): for clients in other network namespaces (``TestHosts``).
    public static func start(fsync: Bool = true, network: (address: String, subnet: String)? = nil) throws
        -> TestPostgresCluster
    {
        let directory = try makeDirectory()
        let cluster = TestPostgresCluster(directory: directory, port: try freePort())
        try cluster.initialize(fsync: fsync, network: network)
        try cluster.startServer()
        return cluster
    }

    private init(directory: String, port: Int) {
        self.directory = directory
        self.port = port
    }

    /// The data directory.
    public var dataDirectory: String { directory + "/data" }

    /// A URL of `database` on this cluster (with the superuser's password), reached at `host`.
    public func url(database: String, password: String = TestPostgresCluster.password, host: String = "127.0.0.1")
        -> String
    {
        "postgres://\(Self.user):\(password)@\(host):\(port)/\(database)"
    }

    /// Creates `database` and returns its URL.
    public func createDatabase(_ database: String) throws -> String {
        try run(
            Self.binaries + "/createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", Self.user, database],
            environment: ["PGPASSWORD": Self.password], asOwner: false)
        return url(database: database)
    }

    /// Runs SQL through `psql` and returns its unaligned output.
    @discardableResult
    public func psql(_ database: String, _ sql: String) throws -> String {
        try run(
            "/usr/bin/psql",
            [
                "-X", "-q", "-A", "-t", "-h", "127.0.0.1", "-p", String(port), "-U", Self.user, "-d", database, "-c",
                sql,
            ],
            environment: ["PGPASSWORD": Self.password], asOwner: false)
    }

    /// Kills the server's main process with SIGKILL (a crash).
    public func kill9() throws {
        let pidLine =
            try String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)
            .split(separator: "\n").first.map(String.init) ?? ""
        guard let pid = Int32(pidLine) else { throw ClusterError(message: "no postmaster.pid") }
        kill(pid, SIGKILL)
        // The children notice their parent is gone and exit; wait until nothing listens any more.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, Self.canConnect(port: port) || Self.isRunning(pid) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        // A container's init may never reap the killed server: a zombie still "exists" for the next start's
        // stale-lock check, so the lock file of a process that is gone is removed, as a reboot would.
        if !Self.isRunning(pid) { unlink(dataDirectory + "/postmaster.pid") }
    }

    /// Whether `pid` is a live process (not gone, not a zombie).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
        return state != "Z" && state != "X"
    }

    /// Starts the server again (after ``kill9()`` or ``stop()``). After a `kill -9` the old server's
    /// backends can still be on their way out, holding its shared memory and addresses, and a new server
    /// refuses to start until they are gone: a failed start is tried again for up to 30 s.
    public func restart() throws {
        let deadline = Date().addingTimeInterval(30)
        while true {
            do {
                return try startServer()
            } catch {
                if Date() >= deadline { throw error }
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// Stops the server (fast shutdown) and removes the directory.
    public func stop() throws {
        lock.lock()
        defer { lock.unlock() }
        guard running else { return }
        running = false
        _ = try? run(
            Self.binaries + "/pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"], asOwner: true,
            capture: false)
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: - Set-up

    private static var isRoot: Bool { geteuid() == 0 }

    private static func makeDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/jsbridge-pg-XXXXXX").utf8CString)
        guard let pointer = mkdtemp(&template) else { throw ClusterError(message: "mkdtemp failed") }
        let path = String(cString: pointer)
        if isRoot {
            chmod(path, 0o755)
            _ = try runTool("/bin/chown", ["postgres:postgres", path], environment: [:])
        }
        return path
    }

    private func initialize(fsync: Bool, network: (address: String, subnet: String)?) throws {
        let passwordFile = directory + "/pwfile"
        try Self.password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
        if Self.isRoot { _ = try Self.runTool("/bin/chown", ["postgres:postgres", passwordFile], environment: [:]) }
        try run(
            Self.binaries + "/initdb",
            [
                "-D", dataDirectory, "-U", Self.user, "--pwfile", passwordFile, "-A", "scram-sha-256", "-E", "UTF8",
                "--locale", "C", "--no-sync",
            ], asOwner: true)
        let settings = """

            listen_addresses = '127.0.0.1\(network.map { ", " + $0.address } ?? "")'
            port = \(port)
            unix_socket_directories = ''
            fsync = \(fsync ? "on" : "off")
            synchronous_commit = on
            max_connections = 200
            shared_buffers = 32MB

            """
        try append(settings, to: dataDirectory + "/postgresql.conf")
        if let network {
            try append("\nhost all all \(network.subnet) scram-sha-256\n", to: dataDirectory + "/pg_hba.conf")
        }
    }

    private func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    private func startServer() throws {
        // The server inherits pg_ctl's descriptors: no pipe, or reading it would wait for the server to exit.
        do {
            try run(
                Self.binaries + "/pg_ctl",
                ["-D", dataDirectory, "-l", directory + "/server.log", "-w", "-t", "60", "start"],
                asOwner: true, capture: false)
        } catch {
            throw ClusterError(message: "\(error)\n\(log)")
        }
        lock.lock()
        running = true
        lock.unlock()
    }

    /// The server's log (for a failing test's message).
    public var log: String { (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? "" }

    // MARK: - Processes

    @discardableResult
    private func run(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], asOwner: Bool, capture: Bool = true
    ) throws -> String {
        if asOwner, Self.isRoot {
            return try Self.runTool(
                "/sbin/runuser", ["-u", "postgres", "--", tool] + arguments, environment: environment, capture: capture)
        }
        return try Self.runTool(tool, arguments, environment: environment, capture: capture)
    }

    private static func runTool(
        _ tool: String, _ arguments: [String], environment: [String: String], capture: Bool = true
    ) throws -> String {
        // posix_spawn and waitpid rather than Foundation's Process: the server outlives the command that
        // starts it, and nothing here should depend on a run loop noticing the child's exit.
        let outputPath = NSTemporaryDirectory() + "/jsbridge-pg-output-\(UUID().uuidString)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, capture ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The server inherits what the command does and runs for the whole test run: it must not hold any
        // other descriptor open. (Foundation's Process learns that a child ended when the child's end of a
        // socket pair closes; a server that inherited one would make a concurrent test wait forever.)
        jsb_spawn_close_from(&actions, 3)
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // From `/`: the postgres user may not be allowed into the current directory.
        let argv = (["/bin/sh", "-c", "cd / && exec \"$@\"", "sh", tool] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw ClusterError(message: "cannot run \(tool): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = capture ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
        if capture { unlink(outputPath) }
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            throw ClusterError(
                message: "\(tool) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }

    /// A port nothing listens on now (the kernel's choice of an ephemeral port).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClusterError(message: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw ClusterError(message: "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A cluster command that failed, with its output.
public struct ClusterError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
