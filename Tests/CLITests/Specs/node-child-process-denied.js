// node:child_process without --allow-run: every form is refused at once with PERMISSION_DENIED, naming the
// resolved program and the flag; nothing starts. (jsbridge's own capability: no Node counterpart.)
const cp = require("node:child_process");
const attempt = (label, f) => {
  try {
    f();
    console.log(label, "ran");
  } catch (e) {
    console.log(label, e.name, e.code, e.message, JSON.stringify(e.data));
  }
};
attempt("spawn", () => cp.spawn("echo", ["hi"]));
attempt("spawn path", () => cp.spawn("/bin/echo"));
attempt("spawn missing", () => cp.spawn("no-such-program-xyz"));
attempt("exec", () => cp.exec("echo hi", () => console.log("callback ran")));
attempt("execFile", () => cp.execFile("echo", ["hi"], () => console.log("callback ran")));
attempt("spawnSync", () => cp.spawnSync("echo"));
attempt("execSync", () => cp.execSync("echo hi"));
attempt("execFileSync", () => cp.execFileSync("echo"));
console.log("end");
