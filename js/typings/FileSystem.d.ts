// Typings of the FileSystem plugin, written from its declaration by `jsbridge --typings FileSystem`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/FileSystem/Plugin/filesystem.d.ts" />

interface JSBridgePluginTypes {
  FileSystem: {
    actions: {
      access: { kind: "async"; args: unknown; result: unknown };
      accessSync: { kind: "sync"; args: unknown; result: unknown };
      chmod: { kind: "async"; args: unknown; result: unknown };
      chmodSync: { kind: "sync"; args: unknown; result: unknown };
      close: { kind: "async"; args: unknown; result: unknown };
      closeSync: { kind: "sync"; args: unknown; result: unknown };
      copyFile: { kind: "async"; args: unknown; result: unknown };
      copyFileSync: { kind: "sync"; args: unknown; result: unknown };
      exists: { kind: "async"; args: unknown; result: unknown };
      existsSync: { kind: "sync"; args: unknown; result: unknown };
      fstat: { kind: "async"; args: unknown; result: unknown };
      fstatSync: { kind: "sync"; args: unknown; result: unknown };
      ftruncate: { kind: "async"; args: unknown; result: unknown };
      ftruncateSync: { kind: "sync"; args: unknown; result: unknown };
      lstat: { kind: "async"; args: unknown; result: unknown };
      lstatSync: { kind: "sync"; args: unknown; result: unknown };
      mkdir: { kind: "async"; args: unknown; result: unknown };
      mkdirSync: { kind: "sync"; args: unknown; result: unknown };
      open: { kind: "async"; args: unknown; result: unknown };
      openSync: { kind: "sync"; args: unknown; result: unknown };
      read: { kind: "async"; args: unknown; result: unknown };
      readFile: { kind: "async"; args: unknown; result: unknown };
      readFileSync: { kind: "sync"; args: unknown; result: unknown };
      readSync: { kind: "sync"; args: unknown; result: unknown };
      readdir: { kind: "async"; args: unknown; result: unknown };
      readdirSync: { kind: "sync"; args: unknown; result: unknown };
      readlink: { kind: "async"; args: unknown; result: unknown };
      readlinkSync: { kind: "sync"; args: unknown; result: unknown };
      realpath: { kind: "async"; args: unknown; result: unknown };
      realpathSync: { kind: "sync"; args: unknown; result: unknown };
      rename: { kind: "async"; args: unknown; result: unknown };
      renameSync: { kind: "sync"; args: unknown; result: unknown };
      rm: { kind: "async"; args: unknown; result: unknown };
      rmSync: { kind: "sync"; args: unknown; result: unknown };
      rmdir: { kind: "async"; args: unknown; result: unknown };
      rmdirSync: { kind: "sync"; args: unknown; result: unknown };
      stat: { kind: "async"; args: unknown; result: unknown };
      statSync: { kind: "sync"; args: unknown; result: unknown };
      symlink: { kind: "async"; args: unknown; result: unknown };
      symlinkSync: { kind: "sync"; args: unknown; result: unknown };
      truncate: { kind: "async"; args: unknown; result: unknown };
      truncateSync: { kind: "sync"; args: unknown; result: unknown };
      unlink: { kind: "async"; args: unknown; result: unknown };
      unlinkSync: { kind: "sync"; args: unknown; result: unknown };
      write: { kind: "async"; args: unknown; result: unknown };
      writeFile: { kind: "async"; args: unknown; result: unknown };
      writeFileSync: { kind: "sync"; args: unknown; result: unknown };
      writeSync: { kind: "sync"; args: unknown; result: unknown };
    };
    events: {
    };
  };
}

