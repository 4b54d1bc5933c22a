// Typings of the File plugin, written from its declaration by `jsbridge --typings File`.
// Do not edit: regenerate instead.

interface JSBridgePluginTypes {
  File: {
    actions: {
      copyTo: { kind: "async"; args: unknown; result: unknown };
      getDirectory: { kind: "async"; args: unknown; result: unknown };
      getFile: { kind: "async"; args: unknown; result: unknown };
      getFileMetadata: { kind: "async"; args: unknown; result: unknown };
      getMetadata: { kind: "async"; args: unknown; result: unknown };
      getParent: { kind: "async"; args: unknown; result: unknown };
      moveTo: { kind: "async"; args: unknown; result: unknown };
      readAsArrayBuffer: { kind: "async"; args: unknown; result: unknown };
      readAsBinaryString: { kind: "async"; args: unknown; result: unknown };
      readAsDataURL: { kind: "async"; args: unknown; result: unknown };
      readAsText: { kind: "async"; args: unknown; result: unknown };
      readEntries: { kind: "async"; args: unknown; result: unknown };
      remove: { kind: "async"; args: unknown; result: unknown };
      removeRecursively: { kind: "async"; args: unknown; result: unknown };
      requestAllFileSystems: { kind: "async"; args: unknown; result: unknown };
      requestAllPaths: { kind: "async"; args: unknown; result: unknown };
      requestFileSystem: { kind: "async"; args: unknown; result: unknown };
      resolveLocalFileSystemURI: { kind: "async"; args: unknown; result: unknown };
      truncate: { kind: "async"; args: unknown; result: unknown };
      write: { kind: "async"; args: unknown; result: unknown };
    };
    events: {
    };
  };
}
