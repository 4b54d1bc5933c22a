// `node:process`: the global `process` object (process.js).

internal.nodeExport("process", internal.process);
