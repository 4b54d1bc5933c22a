// node:util: format, inspect, promisify/callbackify, inherits, types, isDeepStrictEqual, deprecate.
const util = require("node:util");
console.log(util.format("%s|%d|%i|%f|%j|%o|%O|%%|%c.", "s", 42.5, 42.5, "1.5", { a: 1 }, [1], { b: { c: {} } }, "css"));
console.log(util.format("extra", 1, "two", { three: 3 }), util.format("%s", Symbol("s")), util.format("%d", "x"));
console.log(util.formatWithOptions({ compact: true }, "%O", { a: [1, 2] }));
console.log(util.inspect({ deep: { deeper: { deepest: { end: 1 } } } }, { depth: 0 }));
console.log(util.inspect.custom === Symbol.for("nodejs.util.inspect.custom"));
class Money { [util.inspect.custom]() { return "Money<5>"; } }
console.log(util.inspect(new Money()), util.inspect("str"), util.inspect([1, "a", null, undefined]));
function Animal() {}
Animal.prototype.speak = function () { return "..."; };
function Dog() { Animal.call(this); }
util.inherits(Dog, Animal);
console.log(new Dog().speak(), Dog.super_ === Animal, new Dog() instanceof Animal);
const t = util.types;
console.log(t.isDate(new Date()), t.isRegExp(/x/), t.isPromise(Promise.resolve()), t.isMap(new Map()),
  t.isSet(new Set()), t.isTypedArray(new Uint8Array()), t.isUint8Array(new Uint16Array()),
  t.isArrayBuffer(new ArrayBuffer(1)), t.isAsyncFunction(async () => {}), t.isGeneratorFunction(function* () {}),
  t.isNativeError(new TypeError()), t.isBoxedPrimitive(Object(1)), t.isDate({}));
console.log(util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.isDeepStrictEqual([1], ["1"]),
  util.isDeepStrictEqual(new Map([[1, { x: 1 }]]), new Map([[1, { x: 1 }]])), util.isDeepStrictEqual(new Set([1]), new Set([2])),
  util.isDeepStrictEqual(NaN, NaN), util.isDeepStrictEqual(0, -0), util.isDeepStrictEqual(new Date(1), new Date(1)));
const legacy = (value, callback) => setTimeout(() => (value < 0 ? callback(new Error("negative")) : callback(null, value * 2)), 1);
const doubled = util.promisify(legacy);
function custom() {}
custom[util.promisify.custom] = () => Promise.resolve("custom");
console.log(util.promisify(custom) === custom[util.promisify.custom], typeof util.promisify.custom);
try { util.promisify(5); } catch (error) { console.log(error.code, error.message); }
(async () => {
  console.log("promisified:", await doubled(21));
  try { await doubled(-1); } catch (error) { console.log("rejected:", error.message); }
  const cb = util.callbackify(async (x) => x + 1);
  await new Promise((resolve) => cb(1, (error, value) => { console.log("callbackified:", error, value); resolve(); }));
  const rejecting = util.callbackify(() => Promise.reject(null));
  await new Promise((resolve) => rejecting((error) => { console.log(error.code, error.message); resolve(); }));
  const old = util.deprecate(() => "result", "old() is deprecated", "DEP_TEST");
  console.log(old(), old());
  console.log(new util.TextDecoder().decode(new util.TextEncoder().encode("héllo")));
  console.log(util.stripVTControlCharacters("\u001b[31mred\u001b[39m"), util.isArray([]), util.types === require("util/types"));
})();
