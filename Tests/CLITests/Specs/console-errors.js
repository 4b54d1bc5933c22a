// console.log of errors: stack with file:line:column, nested errors, extra properties, cause.
function make() {
  return new TypeError("bad thing");
}
console.log(make());
console.log({ nested: make() });
const withCode = new Error("with code");
withCode.code = "E_X";
console.log(withCode);
console.log(new Error("outer", { cause: new Error("inner") }));
const noStack = new Error("no stack");
noStack.stack = undefined;
console.log(noStack);
console.log([String(new RangeError("r")), new Error("m").message]);
const bridgeError = new BridgeError("SOME_CODE", "msg", { plugin: "P", action: "a", data: { x: 1 } });
console.log(bridgeError);
