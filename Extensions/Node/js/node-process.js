// `node:process`: the global `process` object (js/process.js).

internal.nodeExport("process", internal.process);
