// setInterval repeats until clearInterval; extra arguments reach the callbacks; cleared and unref'd
// timers never fire; a non-function callback is a TypeError.
setImmediate((...args) => console.log("immediate args", args), "p", "q");
setTimeout((a, b, c) => console.log("timeout args", a, b, c), 1, "x", 2, { y: true });
let n = 0;
const interval = setInterval((label, step) => {
  n += step;
  console.log(label, n);
  if (n === 3) {
    clearInterval(interval);
    setTimeout(() => console.log("after clearInterval n =", n), 30);
  }
}, 20, "interval", 1);
const cleared = setTimeout(() => console.log("cleared timeout fired"), 5);
clearTimeout(cleared);
const clearedByNumber = setTimeout(() => console.log("cleared-by-number timeout fired"), 5);
clearTimeout(+clearedByNumber);
setTimeout(() => console.log("unref'd timeout fired"), 5000).unref();
const t = setTimeout(() => {}, 1);
console.log(typeof t, typeof +t, t.hasRef(), typeof t.ref, typeof t.refresh);
try {
  setTimeout("not a function", 1);
} catch (error) {
  console.log(error.name, error.code);
}
