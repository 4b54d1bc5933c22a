// node:path (posix) against Node's results.
const path = require("node:path");
const same = require("path");
console.log(path === same, path.posix === path, path.sep, path.delimiter);
const cases = [
  ["normalize", "/a//b/../c/./d/"], ["normalize", "a/../../b"], ["normalize", ""], ["normalize", "./"],
  ["normalize", "//x"], ["join", "a", "", "b/", "../c"], ["join"], ["join", "/", ".."],
  ["resolve", "/a/b", "../c", "./d"], ["resolve", "/x", "/y", "z"], ["relative", "/data/a/b", "/data/c/d"],
  ["relative", "/a", "/a"], ["relative", "/a/b", "/a"], ["dirname", "/a/b/"], ["dirname", "a"], ["dirname", "/"],
  ["dirname", "a//b"], ["basename", "/a/b.txt"], ["basename", "/a/b.txt", ".txt"], ["basename", "/a/b/"],
  ["basename", "b.txt", "b.txt"], ["extname", "a.tar.gz"], ["extname", ".bashrc"], ["extname", "a."],
  ["extname", ".."], ["extname", "a/.b.c"], ["isAbsolute", "/a"], ["isAbsolute", "a"],
];
for (const [name, ...args] of cases) console.log(name, JSON.stringify(args), JSON.stringify(path[name](...args)));
console.log(JSON.stringify(path.parse("/home/u/file.txt")), JSON.stringify(path.parse("rel/.hidden")),
  JSON.stringify(path.parse("/")));
console.log(path.format({ dir: "/x", name: "f", ext: "js" }), path.format({ root: "/", base: "b.c" }));
console.log(path.resolve("rel") === process.cwd() + "/rel");
for (const bad of [() => path.join("a", 1), () => path.basename(null), () => path.format(3)]) {
  try { bad(); } catch (error) { console.log(error.code, error.message); }
}
