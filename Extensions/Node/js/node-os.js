// `node:os` (and `node:tty`'s isatty): facts about the machine, read from the kernel when asked (the `systemInfo` native: uname,
// sysinfo, getpwuid, /proc; `cpus`: /proc/cpuinfo and /proc/stat). networkInterfaces() is empty: jsbridge has no native for it.

const {
  MathMax, MethodEndsWith, MethodSlice, NumberIsInteger, ObjectFreeze,
} = internal.primordials;

const info = () => internal.systemInfo();
const env = internal.startup.env;

/// Node's names for the machine architectures it knows.
function archName(machine) {
  switch (machine) {
    case "x86_64": case "amd64": return "x64";
    case "aarch64": case "arm64": return "arm64";
    case "i386": case "i686": return "ia32";
    case "armv7l": case "armv6l": return "arm";
    case "ppc64le": return "ppc64";
    default: return machine;
  }
}

const signals = ObjectFreeze({
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9,
  SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16,
  SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25,
  SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
});

const os = {
  EOL: "\n",
  devNull: "/dev/null",
  constants: ObjectFreeze({ signals, priority: ObjectFreeze({ PRIORITY_LOW: 19, PRIORITY_NORMAL: 0, PRIORITY_HIGH: -14 }) }),
  platform: () => "linux",
  type: () => info().sysname,
  release: () => info().release,
  version: () => info().version,
  machine: () => info().machine,
  arch: () => archName(info().machine),
  hostname: () => info().nodename,
  homedir: () => env.HOME || info().user.homedir || "/",
  tmpdir() {
    let path = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
    if (path.length > 1 && MethodEndsWith(path, "/")) path = MethodSlice(path, 0, -1);
    return path;
  },
  endianness: () => (new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? "LE" : "BE"),
  cpus: () => internal.cpus(),
  availableParallelism: () => MathMax(1, internal.cpus().length),
  totalmem: () => info().totalmem,
  freemem: () => info().freemem,
  uptime: () => info().uptime,
  loadavg: () => info().loadavg,
  networkInterfaces: () => ({}),
  userInfo(options) {
    const { user } = info();
    return {
      uid: user.uid, gid: user.gid, username: user.username ?? env.USER ?? "",
      homedir: user.homedir ?? env.HOME ?? "", shell: user.shell ?? null,
    };
  },
  getPriority: () => 0,
  setPriority() {
    throw internal.nodeErrors.make(Error, "ERR_NOT_IMPLEMENTED", "os.setPriority is not implemented in jsbridge.");
  },
};

/// `node:tty`: whether a descriptor is a terminal; the stream classes are absent (jsbridge has no tty streams).
const tty = {
  isatty(fd) {
    return NumberIsInteger(fd) && fd >= 0 && fd <= 2147483647 && internal.isatty(fd);
  },
};

internal.archName = archName;
internal.nodeExport("os", os);
internal.nodeExport("tty", tty);
