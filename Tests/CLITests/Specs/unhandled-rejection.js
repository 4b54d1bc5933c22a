console.log("start");
async function load() {
  await null;
  throw new RangeError("async boom");
}
load();
setTimeout(() => console.log("never: timers do not run after an unhandled rejection"), 20);
