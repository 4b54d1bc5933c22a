import FileAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Capability {
    /// Running programs (`node:child_process`), scoped by program (`--allow-run`, `--allow-run=git,./tool`), as
    /// Deno's `--allow-run`.
    ///
    /// A granted name without a `/` is the program the runtime's `PATH` finds under that name when the flag is
    /// read; a path is that file. Both are resolved (symlinks followed), and a request is the resolved file the
    /// spawn would run (found through the child's own `PATH`), so `--allow-run=sh` covers `/bin/sh` and
    /// `/usr/bin/sh` alike, and a script cannot reach another `git` by changing `PATH`.
    public static let run = Capability("run", guards: "run access", scope: .programs)
}

extension Capability.Scope {
    /// Scopes of programs: each granted name or path becomes the resolved path of the file it names (a name
    /// that no directory of `PATH` holds stays a bare name, which covers only a request for that name that no
    /// `PATH` finds either). A grant covers exactly its own program.
    public static let programs = Capability.Scope(
        valueName: "programs",
        parse: { (text) throws(CapabilityError) in
            guard !text.isEmpty else { throw CapabilityError("an empty program name cannot be granted.") }
            guard !text.utf8.contains(0) else { throw CapabilityError("'\(text)' contains a NUL byte.") }
            let environment = ProgramLookup.environmentPath()
            switch ProgramLookup.find(text, path: environment, in: ResolvedPath.workingDirectory()) {
            case .found(let path): return ResolvedPath(path).path
            case .notExecutable(let path): return ResolvedPath(path).path
            case .missing: return text.contains("/") ? ResolvedPath(text).path : text
            }
        },
        covers: { granted, requested in granted.utf8.elementsEqual(requested.utf8) })
}

/// Finds the file a spawn runs, as `execvp` does: a name with a `/` is a path (relative to the child's working
/// directory); a bare name is looked up in each directory of `PATH`, in order.
public enum ProgramLookup {
    /// `execvp`'s `PATH` when the environment has none.
    public static let defaultPath = "/bin:/usr/bin"

    public enum Outcome: Sendable, Equatable {
        /// An executable regular file.
        case found(String)
        /// A file that exists but cannot be run (`EACCES`).
        case notExecutable(String)
        /// No such file (`ENOENT`).
        case missing
    }

    /// The runtime's own `PATH`.
    public static func environmentPath() -> String {
        getenv("PATH").map { String(cString: $0) } ?? defaultPath
    }

    /// The file `name` runs with search path `path`, from working directory `directory`.
    public static func find(_ name: String, path: String, in directory: String) -> Outcome {
        func absolute(_ candidate: String) -> String {
            candidate.hasPrefix("/") ? candidate : (directory.hasSuffix("/") ? directory : directory + "/") + candidate
        }
        if name.contains("/") { return check(absolute(name)) ?? .missing }
        var denied: String?
        for entry in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = absolute(entry.isEmpty ? name : "\(entry)/\(name)")
            switch check(candidate) {
            case .found(let file)?: return .found(file)
            case .notExecutable(let file)?: denied = denied ?? file
            default: continue
            }
        }
        return denied.map { .notExecutable($0) } ?? .missing
    }

    /// Whether `file` is an executable regular file, a file that is not, or nothing (nil).
    private static func check(_ file: String) -> Outcome? {
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFREG, access(file, X_OK) == 0 else { return .notExecutable(file) }
        return .found(file)
    }
}
