// node:vm: runInThisContext, contexts (a separate realm whose globals are the contextified object's properties),
// Script reuse, compileFunction, file names and line offsets in stacks, and argument errors. Expectations are
// Node 20's output.
const vm = require("node:vm");
const attempt = (label, f) => {
  try {
    console.log(label, "ok", f());
  } catch (e) {
    console.log(label, e.name, e.code, e.message);
  }
};

console.log(Object.keys(vm).join(" "), Object.keys(vm.constants).join(" "));

// This context: a script at the top level, its `var`s global.
console.log(vm.runInThisContext("var fromVm = 42; fromVm + 1"), globalThis.fromVm, typeof require);
try {
  vm.runInThisContext("\n\nthrow new Error('boom')", { filename: "boom.js", lineOffset: 10 });
} catch (e) {
  console.log("stack", e.message, e.stack.includes("boom.js:13:"));
}

// A new context: globals are the object's properties, built-ins its own.
const sandbox = { x: 1, y: 2, get doubled() { return this.x * 2; } };
console.log(vm.runInNewContext("var w = 5; z = x + y; this.q = 7; function f() {} let l = 1; const k = 2; class C {}; doubled", sandbox));
console.log(Object.keys(sandbox).join(","), sandbox.w, sandbox.z, sandbox.q, typeof sandbox.f, "l" in sandbox);
console.log(vm.runInNewContext("[typeof process, typeof require, typeof console, typeof setTimeout, typeof Array, typeof JSON.parse].join()"));
console.log(vm.runInNewContext("[]") instanceof Array, vm.runInNewContext("Array") === Array, vm.runInNewContext("globalThis === this"));
console.log(JSON.stringify(vm.runInNewContext("({ list: [1, 2], text: 'é' })")));
console.log(vm.runInNewContext("Object.keys(globalThis).join()", { a: 1, b: 2 }));
const removable = { gone: 1, kept: 2 };
console.log(vm.runInNewContext("delete gone; typeof gone", removable), Object.keys(removable).join());

// createContext, isContext, runInContext: the state stays between runs, and functions see later changes.
const context = vm.createContext({ n: 0 });
console.log(vm.isContext(context), vm.isContext({}), vm.createContext(context) === context);
console.log(vm.runInContext("n += 1; n", context), vm.runInContext("n += 1; n", context), context.n);
const later = vm.runInContext("(function () { return n * 10; })", context);
context.n = 7;
console.log(later(), Object.keys(context).join());
try {
  vm.runInNewContext("throw new TypeError('inner')");
} catch (e) {
  console.log("inner error", e.name, e.message, e instanceof TypeError, e instanceof Error);
}

// Scripts run in several contexts.
const counter = new vm.Script("count = (typeof count === 'number' ? count : 0) + 1", { filename: "counter.js" });
const first = vm.createContext({});
counter.runInContext(first);
counter.runInContext(first);
console.log(first.count, counter.runInNewContext({ count: 10 }), Buffer.isBuffer(counter.createCachedData()));
console.log(vm.createScript("6 * 7").runInThisContext());
try {
  new vm.Script("a b", { filename: "bad.js" });
} catch (e) {
  console.log("syntax", e.name, e instanceof SyntaxError);
}

// compileFunction.
console.log(vm.compileFunction("return a + b + typeof c", ["a", "b"])(1, 2));
console.log(vm.compileFunction("return x + typeof process", [], { parsingContext: vm.createContext({ x: 9 }) })());
console.log(vm.compileFunction("return inScope * 2", [], { contextExtensions: [{ inScope: 21 }] })());

// Argument errors.
attempt("runInContext", () => vm.runInContext("1", {}));
attempt("createContext", () => vm.createContext(1));
attempt("isContext", () => vm.isContext("x"));
attempt("filename", () => new vm.Script("1", { filename: 1 }));
attempt("params", () => vm.compileFunction("1", "a"));
attempt("code", () => vm.compileFunction(1));
attempt("call", () => vm.Script("1"));
