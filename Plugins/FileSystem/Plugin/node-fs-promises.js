// node-fs-promises.js - the `node:fs/promises` module (its API lives in node-fs-common.js, shared with node:fs).
return plugin.shared.fsPromises.exported;
