// Node's module shapes: mutable module objects, process.version, constants, os.constants.errno,
// process.reallyExit, Module._cache, util.parseArgs, util.types, and Node's names jsbridge lacks.
// Expectations are Node 20's output (process.version is the Node version jsbridge follows).
const fs = require("fs");
const fsPromises = require("fs/promises");
const path = require("path");
const os = require("os");
const util = require("util");

console.log(/^v20\.\d+\.\d+$/.test(process.version), process.version === "v" + process.versions.node);
for (const [name, module] of [["fs", fs], ["fs/promises", fsPromises], ["path", path], ["os", os], ["util", util],
  ["events", require("events")], ["stream", require("stream")], ["url", require("url")]]) {
  if (Object.isFrozen(module) || !Object.isExtensible(module)) console.log("frozen:", name);
}
console.log(fs.promises === fsPromises);

// Patching a module object (as graceful-fs and bluebird's promisifyAll do) reaches its users, not the runtime.
const originalReadFileSync = fs.readFileSync;
fs.readFileSync = (...args) => "patched " + originalReadFileSync(...args).length;
console.log(require("fs").readFileSync(__filename, "utf8").startsWith("patched"));
fs.readFileSync = originalReadFileSync;
const originalResolve = path.resolve;
path.resolve = () => "/elsewhere";
console.log(path.resolve("a"), require("./fixtures/imports-package/src/util.js"));
path.resolve = originalResolve;
fsPromises.readFileAsync = fsPromises.readFile;
console.log(typeof require("fs").promises.readFileAsync);

// constants and os.constants.errno
const constants = require("constants");
console.log(constants.ENOENT, constants.SIGTERM, constants.O_CREAT, constants.S_IFMT, os.constants.errno.EACCES);
console.log(os.constants.signals.SIGINT, os.constants.priority.PRIORITY_HIGH, Object.keys(os.constants.errno).length);

// Module._cache is require.cache.
const Module = require("module");
console.log(Module.Module._cache === require.cache, Module._cache === require.cache, typeof Module.builtinModules);
console.log(require.cache[__filename] !== undefined);

// util.parseArgs
const { parseArgs } = util;
const options = {
  verbose: { type: "boolean", short: "v" },
  name: { type: "string", short: "n" },
  tag: { type: "string", multiple: true },
  color: { type: "string", default: "red" },
};
const parsed = parseArgs({ args: ["-v", "--name", "x", "--tag=a", "--tag", "b", "file", "--", "--rest"], options,
  allowPositionals: true });
console.log(JSON.stringify(parsed.values), JSON.stringify(parsed.positionals), Object.getPrototypeOf(parsed.values));
console.log(JSON.stringify(parseArgs({ args: ["-vnfoo"], options }).values));
console.log(JSON.stringify(parseArgs({ args: ["--x", "-y"], strict: false }).values));
for (const args of [["--unknown"], ["pos"], ["--name"], ["--verbose=yes"]]) {
  try {
    parseArgs({ args, options });
    console.log("no error", args);
  } catch (error) {
    console.log(error.code, error.message);
  }
}
const withTokens = parseArgs({ args: ["-v", "x"], options, allowPositionals: true, tokens: true });
console.log(JSON.stringify(withTokens.tokens));

// util.types
console.log(util.types.isPromise(Promise.resolve()), util.types.isDate(new Date()), util.types.isRegExp(/x/),
  util.types.isUint8Array(Buffer.alloc(1)), util.types.isAsyncFunction(async () => {}), util.types.isMap(new Map()),
  require("util/types") === util.types);

// Node's built-in names that jsbridge does not provide (Node has them: its output here is "provided ...").
for (const name of ["worker_threads", "node:cluster", "http2", "node:tls", "dgram", "v8"]) {
  try {
    require(name);
    console.log("provided", name);
  } catch (error) {
    console.log(error.code, error.message.includes(name.replace(/^node:/, "")));
  }
}

// process.reallyExit runs after the 'exit' listeners (signal-exit wraps it).
const reallyExit = process.reallyExit;
process.on("exit", (code) => console.log("exit listener", code));
process.reallyExit = function (code) {
  console.log("reallyExit", code);
  return reallyExit.call(process, code);
};
process.exit(3);
