// CommonJS require: relative .js/.json paths, with and without extension, directories (index.js),
// caching (one evaluation), cycles (partial exports), module.exports replacement, __filename/__dirname.
const a = require("./fixtures/modules/a");
const aAgain = require("./fixtures/modules/a.js");
console.log("cached:", a === aAgain, "evaluations:", globalThis.aEvaluations);
console.log("cycle:", a.fromB, "| a.loaded now:", a.loaded);
const data = require("./fixtures/modules/sub/data.json");
console.log("json:", data, require("./fixtures/modules/sub/data") === data);
const sub = require("./fixtures/modules/sub");
console.log("index.js:", sub.fromIndex, sub.data === data);
console.log("replaced:", require("./fixtures/modules/replaced.js")("world"));
console.log("paths:", require("./fixtures/modules/paths"));
console.log("main:", __filename, __dirname, module.id, require.main === module);
console.log("resolve:", require.resolve("./fixtures/modules/b"));
console.log("cache has a:", Object.keys(require.cache).some((key) => key.endsWith("/fixtures/modules/a.js")));
for (const request of ["./fixtures/modules/missing", "not-relative", "./fixtures/modules/sub/invalid.json"]) {
  try {
    require(request);
  } catch (error) {
    console.log("error:", error.code ?? error.name, "|", error.message.split("\n")[0]);
  }
}
