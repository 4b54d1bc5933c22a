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

// Linux's errno numbers, as Node's os.constants.errno lists them.
const errno = {
  E2BIG: 7, EACCES: 13, EADDRINUSE: 98, EADDRNOTAVAIL: 99, EAFNOSUPPORT: 97, EAGAIN: 11, EALREADY: 114, EBADF: 9,
  EBADMSG: 74, EBUSY: 16, ECANCELED: 125, ECHILD: 10, ECONNABORTED: 103, ECONNREFUSED: 111, ECONNRESET: 104,
  EDEADLK: 35, EDESTADDRREQ: 89, EDOM: 33, EDQUOT: 122, EEXIST: 17, EFAULT: 14, EFBIG: 27, EHOSTUNREACH: 113,
  EIDRM: 43, EILSEQ: 84, EINPROGRESS: 115, EINTR: 4, EINVAL: 22, EIO: 5, EISCONN: 106, EISDIR: 21, ELOOP: 40,
  EMFILE: 24, EMLINK: 31, EMSGSIZE: 90, EMULTIHOP: 72, ENAMETOOLONG: 36, ENETDOWN: 100, ENETRESET: 102,
  ENETUNREACH: 101, ENFILE: 23, ENOBUFS: 105, ENODATA: 61, ENODEV: 19, ENOENT: 2, ENOEXEC: 8, ENOLCK: 37,
  ENOLINK: 67, ENOMEM: 12, ENOMSG: 42, ENOPROTOOPT: 92, ENOSPC: 28, ENOSR: 63, ENOSTR: 60, ENOSYS: 38, ENOTCONN: 107,
  ENOTDIR: 20, ENOTEMPTY: 39, ENOTSOCK: 88, ENOTSUP: 95, ENOTTY: 25, ENXIO: 6, EOPNOTSUPP: 95, EOVERFLOW: 75,
  EPERM: 1, EPIPE: 32, EPROTO: 71, EPROTONOSUPPORT: 93, EPROTOTYPE: 91, ERANGE: 34, EROFS: 30, ESPIPE: 29, ESRCH: 3,
  ESTALE: 116, ETIME: 62, ETIMEDOUT: 110, ETXTBSY: 26, EWOULDBLOCK: 11, EXDEV: 18,
};

const os = {
  EOL: "\n",
  devNull: "/dev/null",
  constants: {
    signals, errno, dlopen: ObjectFreeze({ RTLD_LAZY: 1, RTLD_NOW: 2, RTLD_GLOBAL: 256, RTLD_LOCAL: 0, RTLD_DEEPBIND: 8 }),
    priority: ObjectFreeze({
      PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7, PRIORITY_HIGH: -14,
      PRIORITY_HIGHEST: -20,
    }),
  },
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

// Linux's file-system constants, as Node's fs.constants lists them (for `node:constants`).
const fsConstants = {
  UV_FS_SYMLINK_DIR: 1, UV_FS_SYMLINK_JUNCTION: 2, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, UV_DIRENT_UNKNOWN: 0,
  UV_DIRENT_FILE: 1, UV_DIRENT_DIR: 2, UV_DIRENT_LINK: 3, UV_DIRENT_FIFO: 4, UV_DIRENT_SOCKET: 5, UV_DIRENT_CHAR: 6,
  UV_DIRENT_BLOCK: 7, S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384, S_IFCHR: 8192, S_IFBLK: 24576, S_IFIFO: 4096,
  S_IFLNK: 40960, S_IFSOCK: 49152, O_CREAT: 64, O_EXCL: 128, UV_FS_O_FILEMAP: 0, O_NOCTTY: 256, O_TRUNC: 512,
  O_APPEND: 1024, O_DIRECTORY: 65536, O_NOATIME: 262144, O_NOFOLLOW: 131072, O_SYNC: 1052672, O_DSYNC: 4096,
  O_DIRECT: 16384, O_NONBLOCK: 2048, S_IRWXU: 448, S_IRUSR: 256, S_IWUSR: 128, S_IXUSR: 64, S_IRWXG: 56, S_IRGRP: 32,
  S_IWGRP: 16, S_IXGRP: 8, S_IRWXO: 7, S_IROTH: 4, S_IWOTH: 2, S_IXOTH: 1, F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  UV_FS_COPYFILE_EXCL: 1, COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2, COPYFILE_FICLONE: 2,
  UV_FS_COPYFILE_FICLONE_FORCE: 4, COPYFILE_FICLONE_FORCE: 4,
};

/// `node:constants` (deprecated in Node, still read by older packages): the os and fs constants in one object.
const constants = ObjectFreeze({
  ...os.constants.dlopen, ...errno, ...os.constants.priority, ...signals, ...fsConstants,
});

internal.archName = archName;
internal.nodeExport("constants", constants);
internal.nodeExport("os", os);
internal.nodeExport("tty", tty);
