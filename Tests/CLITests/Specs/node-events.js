// node:events: EventEmitter semantics, once() promise, on() iterator.
const EventEmitter = require("events");
const { once, on } = EventEmitter;
console.log(EventEmitter === require("node:events").EventEmitter, EventEmitter.defaultMaxListeners);
const e = new EventEmitter();
const log = [];
e.on("newListener", (name) => log.push(`new:${String(name)}`));
e.on("x", (a, b) => log.push(`x1:${a},${b}`));
e.prependListener("x", () => log.push("x0"));
e.once("x", () => log.push("once"));
console.log(e.emit("x", 1, 2), e.emit("x", 3, 4), e.emit("nothing"));
console.log(log.join(" "));
console.log(e.listenerCount("x"), e.eventNames().map(String).join(","));
const f = () => {};
e.on("y", f).on("y", f);
e.off("y", f);
console.log(e.listenerCount("y"), e.listeners("y").length === 1);
e.removeAllListeners("y");
console.log(e.listenerCount("y"), e.eventNames().join(","));
try { e.emit("error", new Error("boom")); } catch (error) { console.log("thrown:", error.message); }
try { e.emit("error", "text"); } catch (error) { console.log(error.code, error.message); }
try { e.on("z", 42); } catch (error) { console.log(error.code, error.message); }
try { e.setMaxListeners(-1); } catch (error) { console.log(error.code, error.message); }
e.on("error", (err) => console.log("handled:", err.message));
e.emit("error", new Error("caught"));
class Sub extends EventEmitter {}
const s = new Sub();
s.setMaxListeners(1);
console.log(s.getMaxListeners(), s instanceof EventEmitter);
(async () => {
  setTimeout(() => s.emit("ready", "a", "b"), 1);
  console.log("once:", await once(s, "ready"));
  setTimeout(() => s.emit("error", new Error("failed")), 1);
  try { await once(s, "never"); } catch (error) { console.log("once rejected:", error.message); }
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 1);
  try { await once(s, "never", { signal: ac.signal }); } catch (error) { console.log(error.name, error.code); }
  setTimeout(() => { s.emit("tick", 1); s.emit("tick", 2); s.emit("tick", 3); }, 1);
  const seen = [];
  for await (const [n] of on(s, "tick")) {
    seen.push(n);
    if (n === 3) break;
  }
  console.log("on:", seen.join(","), s.listenerCount("tick"));
  const target = new EventTarget();
  setTimeout(() => target.dispatchEvent(new Event("go")), 1);
  const [event] = await once(target, "go");
  console.log("EventTarget once:", event.type);
})();
