// Typings of the FileSystem plugin, written from its declaration by `jsbridge --typings FileSystem`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/FileSystem/Plugin/filesystem.d.ts" />

declare namespace FileSystemPlugin {
  interface AccessArguments {
    path: string;
    mode?: number;
  }
  interface ChmodArguments {
    path: string;
    mode: number;
  }
  interface HandleArguments {
    fd: number;
  }
  interface CopyFileArguments {
    from: string;
    to: string;
    exclusive?: boolean;
  }
  interface PathArguments {
    path: string;
  }
  interface FileStats {
    dev: number;
    ino: number;
    mode: number;
    nlink: number;
    uid: number;
    gid: number;
    rdev: number;
    size: number;
    blksize: number;
    blocks: number;
    atimeMs: number;
    mtimeMs: number;
    ctimeMs: number;
    birthtimeMs: number;
    type: "file" | "directory" | "symlink" | "fifo" | "socket" | "charDevice" | "blockDevice" | "unknown";
  }
  interface FtruncateArguments {
    fd: number;
    length?: number;
  }
  interface MkdirArguments {
    path: string;
    recursive?: boolean;
    mode?: number;
  }
  interface OpenArguments {
    path: string;
    flags?: "r" | "rs" | "sr" | "r+" | "rs+" | "sr+" | "w" | "wx" | "xw" | "w+" | "wx+" | "xw+" | "a" | "as" | "sa" | "ax" | "xa" | "a+" | "as+" | "sa+" | "ax+" | "xa+";
    mode?: number;
  }
  interface ReadArguments {
    fd: number;
    length?: number;
    position?: number;
    encoding?: "utf8" | "utf-8" | "base64" | "base64url" | "hex" | "latin1" | "binary";
  }
  interface ReadFileArguments {
    path: string;
    encoding?: "utf8" | "utf-8" | "base64" | "base64url" | "hex" | "latin1" | "binary";
  }
  interface RenameArguments {
    from: string;
    to: string;
  }
  interface RmArguments {
    path: string;
    recursive?: boolean;
    force?: boolean;
  }
  interface SymlinkArguments {
    target: string;
    path: string;
  }
  interface TruncateArguments {
    path: string;
    length?: number;
  }
  interface WriteArguments {
    fd: number;
    data?: string | Uint8Array;
    token?: number;
    encoding?: "utf8" | "utf-8" | "base64" | "base64url" | "hex" | "latin1" | "binary";
    position?: number;
  }
  interface WriteFileArguments {
    path: string;
    data?: string | Uint8Array;
    token?: number;
    encoding?: "utf8" | "utf-8" | "base64" | "base64url" | "hex" | "latin1" | "binary";
    flag?: "w" | "a" | "wx" | "xw" | "ax" | "xa";
    mode?: number;
  }
}

interface JSBridgePluginTypes {
  FileSystem: {
    actions: {
      access: { kind: "async"; args: FileSystemPlugin.AccessArguments; result: null };
      accessSync: { kind: "sync"; args: FileSystemPlugin.AccessArguments; result: null };
      chmod: { kind: "async"; args: FileSystemPlugin.ChmodArguments; result: null };
      chmodSync: { kind: "sync"; args: FileSystemPlugin.ChmodArguments; result: null };
      close: { kind: "async"; args: FileSystemPlugin.HandleArguments; result: null };
      closeSync: { kind: "sync"; args: FileSystemPlugin.HandleArguments; result: null };
      copyFile: { kind: "async"; args: FileSystemPlugin.CopyFileArguments; result: null };
      copyFileSync: { kind: "sync"; args: FileSystemPlugin.CopyFileArguments; result: null };
      exists: { kind: "async"; args: FileSystemPlugin.PathArguments; result: boolean };
      existsSync: { kind: "sync"; args: FileSystemPlugin.PathArguments; result: boolean };
      fstat: { kind: "async"; args: FileSystemPlugin.HandleArguments; result: FileSystemPlugin.FileStats };
      fstatSync: { kind: "sync"; args: FileSystemPlugin.HandleArguments; result: FileSystemPlugin.FileStats };
      ftruncate: { kind: "async"; args: FileSystemPlugin.FtruncateArguments; result: null };
      ftruncateSync: { kind: "sync"; args: FileSystemPlugin.FtruncateArguments; result: null };
      lstat: { kind: "async"; args: FileSystemPlugin.PathArguments; result: FileSystemPlugin.FileStats };
      lstatSync: { kind: "sync"; args: FileSystemPlugin.PathArguments; result: FileSystemPlugin.FileStats };
      mkdir: { kind: "async"; args: FileSystemPlugin.MkdirArguments; result: string | null };
      mkdirSync: { kind: "sync"; args: FileSystemPlugin.MkdirArguments; result: string | null };
      open: { kind: "async"; args: FileSystemPlugin.OpenArguments; result: number };
      openSync: { kind: "sync"; args: FileSystemPlugin.OpenArguments; result: number };
      read: { kind: "async"; args: FileSystemPlugin.ReadArguments; result: Uint8Array | { data: string } | { token: number } };
      readFile: { kind: "async"; args: FileSystemPlugin.ReadFileArguments; result: Uint8Array | { data: string } | { token: number } };
      readFileSync: { kind: "sync"; args: FileSystemPlugin.ReadFileArguments; result: Uint8Array | string };
      readSync: { kind: "sync"; args: FileSystemPlugin.ReadArguments; result: Uint8Array | string };
      readdir: { kind: "async"; args: FileSystemPlugin.PathArguments; result: Array<[name: string, type: "file" | "directory" | "symlink" | "fifo" | "socket" | "charDevice" | "blockDevice" | "unknown"]> };
      readdirSync: { kind: "sync"; args: FileSystemPlugin.PathArguments; result: Array<[name: string, type: "file" | "directory" | "symlink" | "fifo" | "socket" | "charDevice" | "blockDevice" | "unknown"]> };
      readlink: { kind: "async"; args: FileSystemPlugin.PathArguments; result: string };
      readlinkSync: { kind: "sync"; args: FileSystemPlugin.PathArguments; result: string };
      realpath: { kind: "async"; args: FileSystemPlugin.PathArguments; result: string };
      realpathSync: { kind: "sync"; args: FileSystemPlugin.PathArguments; result: string };
      rename: { kind: "async"; args: FileSystemPlugin.RenameArguments; result: null };
      renameSync: { kind: "sync"; args: FileSystemPlugin.RenameArguments; result: null };
      rm: { kind: "async"; args: FileSystemPlugin.RmArguments; result: null };
      rmSync: { kind: "sync"; args: FileSystemPlugin.RmArguments; result: null };
      rmdir: { kind: "async"; args: FileSystemPlugin.PathArguments; result: null };
      rmdirSync: { kind: "sync"; args: FileSystemPlugin.PathArguments; result: null };
      stat: { kind: "async"; args: FileSystemPlugin.PathArguments; result: FileSystemPlugin.FileStats };
      statSync: { kind: "sync"; args: FileSystemPlugin.PathArguments; result: FileSystemPlugin.FileStats };
      symlink: { kind: "async"; args: FileSystemPlugin.SymlinkArguments; result: null };
      symlinkSync: { kind: "sync"; args: FileSystemPlugin.SymlinkArguments; result: null };
      truncate: { kind: "async"; args: FileSystemPlugin.TruncateArguments; result: null };
      truncateSync: { kind: "sync"; args: FileSystemPlugin.TruncateArguments; result: null };
      unlink: { kind: "async"; args: FileSystemPlugin.PathArguments; result: null };
      unlinkSync: { kind: "sync"; args: FileSystemPlugin.PathArguments; result: null };
      write: { kind: "async"; args: FileSystemPlugin.WriteArguments; result: number };
      writeFile: { kind: "async"; args: FileSystemPlugin.WriteFileArguments; result: null };
      writeFileSync: { kind: "sync"; args: FileSystemPlugin.WriteFileArguments; result: null };
      writeSync: { kind: "sync"; args: FileSystemPlugin.WriteArguments; result: number };
    };
    events: {
    };
  };
}

