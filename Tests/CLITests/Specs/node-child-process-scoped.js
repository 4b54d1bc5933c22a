// node:child_process with --allow-run=sh,echo: the granted programs run whatever name or path reaches them
// (/bin/sh is sh, through its symlinks); others are refused, also when the child's PATH points a granted
// name at another file. (jsbridge's own capability: no Node counterpart.)
const cp = require("node:child_process");
const fs = require("node:fs");
const attempt = (label, f) => {
  try {
    console.log(label, "ran", JSON.stringify(String(f())));
  } catch (e) {
    console.log(label, e.name, e.code, e.message, JSON.stringify(e.data));
  }
};
attempt("echo", () => cp.execFileSync("echo", ["granted"]));
attempt("sh", () => cp.spawnSync("sh", ["-c", "echo via sh"]).stdout);
attempt("/bin/sh", () => cp.spawnSync("/bin/sh", ["-c", "echo via /bin/sh"]).stdout);
attempt("execSync", () => cp.execSync("echo through the shell"));
attempt("cat", () => cp.spawnSync("cat", { input: "x" }).stdout);
attempt("/bin/cat", () => cp.spawn("/bin/cat"));
// A script named "echo" in a directory of its own, reached through the child's PATH.
fs.mkdirSync("fake", { recursive: true });
fs.writeFileSync("fake/echo", "#!/bin/sh\necho fake\n", { mode: 0o755 });
attempt("PATH trick", () => cp.execFileSync("echo", ["x"], { env: { PATH: process.cwd() + "/fake" } }));
attempt("relative path", () => cp.execFileSync("./fake/echo"));
cp.exec("echo async granted", (error, stdout) => console.log("exec", error, JSON.stringify(stdout)));
