// process.env is the environment jsbridge was started with.
console.log(process.env.GREETING);
console.log(process.env.HOME);
console.log(process.env.XDG_DATA_HOME);
console.log("UNSET_VARIABLE" in process.env, process.env.UNSET_VARIABLE);
console.log(typeof process.env.PATH, process.env.EMPTY === "");
console.log(process.cwd());
