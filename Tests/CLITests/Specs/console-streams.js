// log/info/debug go to stdout; error/warn/trace to stderr.
console.log("log");
console.info("info");
console.debug("debug");
console.error("error");
console.warn("warn %d", 2);
process.stdout.write("raw out\n");
process.stderr.write("raw err\n");
