// node:child_process with --allow-run: spawn (pipes, env, cwd, argv0, shell, stdin, inherit/ignore, kill,
// signals, timeout, AbortSignal, back-pressure), exec/execFile (callbacks, promisify, maxBuffer, timeout),
// the sync forms, ENOENT and argument errors. Expectations are Node 20's output.
const cp = require("node:child_process");
const { promisify } = require("node:util");

const show = (e) => `${e.name} ${e.code} ${e.errno} ${e.syscall} ${JSON.stringify(e.message)}`;
const attempt = (label, f) => {
  try {
    console.log(label, "ok", f());
  } catch (e) {
    console.log(label, show(e));
  }
};
/// Runs a spawned child to its 'close': its events in order, its output.
function collect(child) {
  const events = [];
  let stdout = "", stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk) => { stdout += chunk; });
  child.stderr?.setEncoding("utf8").on("data", (chunk) => { stderr += chunk; });
  for (const name of ["spawn", "exit", "error"]) {
    child.on(name, (...args) => events.push(`${name}(${args.map((a) => a instanceof Error ? show(a) : a).join(",")})`));
  }
  return new Promise((resolve) => child.on("close", (code, signal) => {
    events.push(`close(${code},${signal})`);
    resolve({ events: events.join(" "), stdout, stderr });
  }));
}
const print = (label, { events, stdout, stderr }) =>
  console.log(label, events, JSON.stringify(stdout), JSON.stringify(stderr));

console.log(Object.keys(cp).join(" "));

(async () => {
  const child = cp.spawn("sh", ["-c", "echo out; echo err >&2; exit 3"]);
  console.log("pid", typeof child.pid, child.spawnfile, child.spawnargs, child.stdio.length, child.connected);
  console.log(Object.keys(child).join(" "));
  print("spawn", await collect(child));
  console.log("after", child.exitCode, child.signalCode, child.killed);

  print("env cwd", await collect(cp.spawn("sh", ["-c", "echo $FOO; pwd"], {
    env: { FOO: "bar", PATH: process.env.PATH }, cwd: "/tmp",
  })));
  print("argv0", await collect(cp.spawn("sh", ["-c", "echo $0"], { argv0: "custom" })));
  print("shell", await collect(cp.spawn("echo $0 \"$1\"", ["x"], { shell: true })));
  print("shell path", await collect(cp.spawn("echo", ["a", "b"], { shell: "/bin/bash" })));
  print("no env", await collect(cp.spawn("/usr/bin/env", [], { env: {} })));

  const cat = cp.spawn("cat");
  cat.stdin.write("hello ");
  cat.stdin.end("world");
  print("stdin", await collect(cat));

  // The child writes to the runtime's own stdout: its line comes before those printed after its 'close'.
  const inherited = cp.spawn("sh", ["-c", "echo inherited output"], { stdio: "inherit" });
  const streams = [inherited.stdin, inherited.stdout, inherited.stderr];
  print("inherit", await collect(inherited));
  console.log("inherit streams", ...streams);
  const ignored = cp.spawn("sh", ["-c", "echo ignored; cat"], { stdio: ["ignore", "ignore", "pipe"] });
  print("ignore", await collect(ignored));
  const mixed = cp.spawn("sh", ["-c", "echo to-stdout; echo to-stderr >&2"], { stdio: ["pipe", "pipe", 1] });
  print("fd", await collect(mixed));

  const sleeper = cp.spawn("sleep", ["10"]);
  const sleeping = collect(sleeper);
  console.log("kill", sleeper.kill(), sleeper.killed);
  print("killed", await sleeping);
  console.log("kill after exit", sleeper.kill(), sleeper.signalCode);
  const hard = cp.spawn("sleep", ["10"]);
  const hardDone = collect(hard);
  console.log("kill 9", hard.kill("SIGKILL"), hard.kill(0));
  print("sigkill", await hardDone);
  attempt("bad signal", () => cp.spawn("true").kill("SIGNOPE"));
  print("self signal", await collect(cp.spawn("sh", ["-c", "kill -USR1 $$"])));

  const missing = cp.spawn("no-such-program-xyz", ["a"]);
  console.log("missing pid", missing.pid, !!missing.stdout);
  print("missing", await collect(missing));
  print("bad cwd", await collect(cp.spawn("ls", { cwd: "/no/such/dir" })));

  const timed = cp.spawn("sleep", ["10"], { timeout: 100 });
  print("timeout", await collect(timed));
  const controller = new AbortController();
  const aborted = cp.spawn("sleep", ["10"], { signal: controller.signal });
  const abortedDone = collect(aborted);
  setTimeout(() => controller.abort(), 50);
  print("abort", await abortedDone);

  // Back-pressure: a paused stdout stops the reading; the child blocks on its full pipe until resumed.
  const producer = cp.spawn("head", ["-c", "3000000", "/dev/zero"]);
  producer.stdout.pause();
  let total = 0;
  producer.stdout.on("data", (chunk) => { total += chunk.length; });
  producer.stdout.pause();
  await new Promise((resolve) => setTimeout(resolve, 300));
  console.log("paused", producer.exitCode, producer.stdout.readableLength <= 262144);
  const produced = new Promise((resolve) => producer.on("close", resolve));
  producer.stdout.resume();
  console.log("resumed", await produced, total);

  // exec and execFile.
  await new Promise((resolve) => cp.exec("echo hi; echo there >&2", (error, stdout, stderr) => {
    console.log("exec", error, JSON.stringify(stdout), JSON.stringify(stderr));
    resolve();
  }));
  await new Promise((resolve) => cp.exec("echo partial; exit 2", (error, stdout, stderr) => {
    console.log("exec failed", JSON.stringify(error.message), error.code, error.killed, error.signal, error.cmd,
      Object.keys(error), JSON.stringify(stdout));
    resolve();
  }));
  await new Promise((resolve) => cp.exec("printf abc", { encoding: "buffer" }, (error, stdout) => {
    console.log("exec buffer", Buffer.isBuffer(stdout), stdout.toString("hex"));
    resolve();
  }));
  await new Promise((resolve) => cp.exec("head -c 100000 /dev/zero", { maxBuffer: 1000 }, (error, stdout) => {
    console.log("exec maxBuffer", show(error), stdout.length, error.cmd);
    resolve();
  }));
  await new Promise((resolve) => cp.exec("sleep 10", { timeout: 100 }, (error) => {
    console.log("exec timeout", error.killed, error.signal, error.code, JSON.stringify(error.message));
    resolve();
  }));
  await new Promise((resolve) => cp.exec("head -c 3000000 /dev/zero | tr '\\0' a", { maxBuffer: Infinity },
    (error, stdout) => {
      console.log("exec large", error, stdout.length, stdout.slice(0, 3));
      resolve();
    }));
  await new Promise((resolve) => cp.execFile("ls", ["/no/such/path"], (error, stdout, stderr) => {
    console.log("execFile failed", error.code, error.cmd, JSON.stringify(stdout), stderr.length > 0);
    resolve();
  }));
  await new Promise((resolve) => cp.execFile("no-such-program-xyz", ["q"], (error, stdout) => {
    console.log("execFile missing", show(error), error.path, error.spawnargs, error.cmd, Object.keys(error),
      JSON.stringify(stdout));
    resolve();
  }));
  const { stdout: promised } = await promisify(cp.exec)("echo promised");
  console.log("promisify exec", JSON.stringify(promised));
  const fromFile = await promisify(cp.execFile)("echo", ["file", "args"]);
  console.log("promisify execFile", JSON.stringify(fromFile));
  await promisify(cp.execFile)("sh", ["-c", "echo some; echo bad >&2; exit 5"]).catch((error) =>
    console.log("promisify error", error.code, JSON.stringify(error.stdout), JSON.stringify(error.stderr)));

  // The sync forms.
  const result = cp.spawnSync("cat", { input: "piped in" });
  console.log("spawnSync", Object.keys(result), result.status, result.signal, result.output.length,
    result.output[0], result.stdout.toString(), result.stderr.length, typeof result.pid);
  const text = cp.spawnSync("sh", ["-c", "echo $0; echo e >&2; exit 7"], { encoding: "utf8", argv0: "zero" });
  console.log("spawnSync text", JSON.stringify(text.stdout), JSON.stringify(text.stderr), text.status);
  const none = cp.spawnSync("no-such-program-xyz", ["a"]);
  console.log("spawnSync missing", Object.keys(none), show(none.error), none.error.path, none.error.spawnargs,
    none.status, none.pid, none.output, none.stdout);
  const slow = cp.spawnSync("sleep", ["10"], { timeout: 100 });
  console.log("spawnSync timeout", Object.keys(slow), show(slow.error), slow.status, slow.signal);
  const big = cp.spawnSync("head", ["-c", "100000000", "/dev/zero"], { maxBuffer: 100 });  // it cannot end before the kill
  console.log("spawnSync maxBuffer", show(big.error), big.stdout.length > 100, big.signal);
  const signalled = cp.spawnSync("sh", ["-c", "kill -TERM $$"]);
  console.log("spawnSync signal", signalled.status, signalled.signal);
  console.log("execSync", JSON.stringify(cp.execSync("echo sync").toString()),
    JSON.stringify(cp.execSync("echo $X", { encoding: "utf8", env: { X: "from env" } })));
  attempt("execSync failed", () => {
    try {
      cp.execSync("echo out; echo failing >&2; exit 4", { stdio: "pipe" });
    } catch (e) {
      console.log("execSync error", e.status, e.signal, JSON.stringify(e.stdout.toString()),
        JSON.stringify(e.stderr.toString()), Object.keys(e));
      throw e;
    }
  });
  console.log("execFileSync", JSON.stringify(cp.execFileSync("echo", ["a", "b"], { encoding: "utf8" })));
  attempt("execFileSync missing", () => cp.execFileSync("no-such-program-xyz"));
  attempt("execFileSync failed", () => cp.execFileSync("sh", ["-c", "exit 9"], { stdio: "pipe" }));

  // Argument errors.
  attempt("empty", () => cp.spawn(""));
  attempt("not a string", () => cp.spawn(1));
  attempt("args", () => cp.spawn("ls", "x"));
  attempt("options", () => cp.spawn("ls", [], "x"));
  attempt("stdio", () => cp.spawn("ls", { stdio: "bogus" }));
  attempt("killSignal", () => cp.spawn("ls", { killSignal: "SIGBOGUS" }));
  attempt("timeout", () => cp.spawn("ls", { timeout: -1 }));
  attempt("null byte", () => cp.spawn("ls\u0000x"));
  attempt("cwd", () => cp.spawn("ls", { cwd: 42 }));
  attempt("shell", () => cp.spawn("ls", { shell: 1 }));
  attempt("exec command", () => cp.exec(42));
  attempt("exec callback", () => cp.execFile("ls", [], {}, "x"));
  attempt("maxBuffer", () => cp.spawnSync("ls", { maxBuffer: -1 }));
  console.log("done");
})();
