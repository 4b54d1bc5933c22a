console.log("start");
function fail() {
  throw new Error("kaboom");
}
setTimeout(() => console.log("never: timers do not run after an uncaught exception"), 1);
fail();
console.log("never: the rest of the script");
