// FileSystem (docs/running-scripts.md, "Files and capabilities"): the JavaScript API of the plugin (declared
// beside its JavaScript; added to its generated typings, `jsbridge --typings`). `node:fs` and
// `node:fs/promises` follow Node's own typings.

/** The plugin's error codes: Node's errno names (with `PERMISSION_DENIED` from the bridge). */
interface BridgeErrorCodes {
  /** No such file or directory; `data.syscall`, `data.path` (also on the error: `errno`, `syscall`, `path`). */
  ENOENT: true;
  /** The path exists already. */
  EEXIST: true;
  /** A part of the path is not a directory. */
  ENOTDIR: true;
  /** A directory where a file was needed. */
  EISDIR: true;
  /** The directory is not empty. */
  ENOTEMPTY: true;
  /** The operating system denied access (file permissions). */
  EACCES: true;
  /** The operation is not permitted. */
  EPERM: true;
  /** The file handle is not open. */
  EBADF: true;
  /** Too many files open (`maxOpenFiles`, default 1024). */
  EMFILE: true;
}

/** What `FileSystem.stat` answers. */
interface FileSystemFileInfo {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly isSymlink: boolean;
  /** The size in bytes. */
  readonly size: number;
  readonly mtime: Date;
  readonly atime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;
  /** The permission bits (`0o644`). */
  readonly mode: number;
  readonly dev: number;
  readonly ino: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
  readonly blksize: number;
  readonly blocks: number;
}

/** One entry of `FileSystem.readDir` (sorted by name). */
interface FileSystemDirEntry {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly isSymlink: boolean;
}

/** How `writeFile` writes: `append` adds to the end, `createNew` fails with EEXIST when the file exists. */
interface FileSystemWriteOptions {
  append?: boolean;
  createNew?: boolean;
  /** The permission bits of a created file (before the umask; default 0o666). */
  mode?: number;
}

/** How `open` opens (Deno's options): read only by default. */
interface FileSystemOpenOptions {
  read?: boolean;
  write?: boolean;
  append?: boolean;
  truncate?: boolean;
  create?: boolean;
  createNew?: boolean;
  mode?: number;
}

/** An open file. */
interface FileSystemFile {
  /** The handle number. */
  readonly rid: number;
  /** Up to `length` bytes (default 65536) at `position` (default: the current one, which advances); null at the end. */
  read(length?: number, position?: number): Promise<Uint8Array | null>;
  /** Writes text (UTF-8) or bytes; resolves to the count written. */
  write(data: string | ArrayBufferView | ArrayBuffer, position?: number): Promise<number>;
  stat(): Promise<FileSystemFileInfo>;
  truncate(length?: number): Promise<void>;
  close(): Promise<void>;
}

type FileSystemPath = string | URL;

/**
 * Files and directories, for scripts granted `--allow-read` / `--allow-write` (optionally scoped:
 * `--allow-read=./data`). Paths are resolved (symlinks followed, `..` removed) before the check; a path not
 * granted rejects with `PERMISSION_DENIED` naming the flag. Failures are `BridgeError`s with Node's codes.
 */
declare const FileSystem: {
  readFile(path: FileSystemPath): Promise<Uint8Array>;
  readTextFile(path: FileSystemPath): Promise<string>;
  writeFile(path: FileSystemPath, data: string | ArrayBufferView | ArrayBuffer, options?: FileSystemWriteOptions): Promise<void>;
  writeTextFile(path: FileSystemPath, text: string, options?: FileSystemWriteOptions): Promise<void>;
  readDir(path: FileSystemPath): Promise<FileSystemDirEntry[]>;
  stat(path: FileSystemPath): Promise<FileSystemFileInfo>;
  /** As `stat`, of a symlink itself. */
  lstat(path: FileSystemPath): Promise<FileSystemFileInfo>;
  exists(path: FileSystemPath): Promise<boolean>;
  mkdir(path: FileSystemPath, options?: { recursive?: boolean; mode?: number }): Promise<void>;
  /** Removes a file, link or empty directory (any directory with `recursive`). */
  remove(path: FileSystemPath, options?: { recursive?: boolean }): Promise<void>;
  rename(from: FileSystemPath, to: FileSystemPath): Promise<void>;
  copyFile(from: FileSystemPath, to: FileSystemPath): Promise<void>;
  realPath(path: FileSystemPath): Promise<string>;
  symlink(target: string, path: FileSystemPath): Promise<void>;
  readLink(path: FileSystemPath): Promise<string>;
  chmod(path: FileSystemPath, mode: number): Promise<void>;
  truncate(path: FileSystemPath, length?: number): Promise<void>;
  open(path: FileSystemPath, options?: FileSystemOpenOptions): Promise<FileSystemFile>;

  readFileSync(path: FileSystemPath): Uint8Array;
  readTextFileSync(path: FileSystemPath): string;
  writeFileSync(path: FileSystemPath, data: string | ArrayBufferView | ArrayBuffer, options?: FileSystemWriteOptions): void;
  writeTextFileSync(path: FileSystemPath, text: string, options?: FileSystemWriteOptions): void;
  readDirSync(path: FileSystemPath): FileSystemDirEntry[];
  statSync(path: FileSystemPath): FileSystemFileInfo;
  lstatSync(path: FileSystemPath): FileSystemFileInfo;
  existsSync(path: FileSystemPath): boolean;
  mkdirSync(path: FileSystemPath, options?: { recursive?: boolean; mode?: number }): void;
  removeSync(path: FileSystemPath, options?: { recursive?: boolean }): void;
  renameSync(from: FileSystemPath, to: FileSystemPath): void;
  realPathSync(path: FileSystemPath): string;
};
