// Node's error shapes: err.stack's header and frames, Error.captureStackTrace, Error.prepareStackTrace with
// call sites (as depd uses them), Error.stackTraceLimit. Expectations are Node 20's output.
const path = require("path");
const here = path.basename(__filename);
const frameFile = (line) => path.basename(line.replace(/^.*\(|\)$/g, "").replace(/:\d+:\d+$/, ""));

function thrower() { throw new Error("boom"); }
try { thrower(); } catch (error) {
  const lines = error.stack.split("\n");
  console.log(lines[0]);
  console.log(lines[1].startsWith("    at thrower ("), frameFile(lines[1]) === here);
}
const typeError = new TypeError("bad type");
console.log(typeError.stack.split("\n")[0], typeError instanceof TypeError, typeError instanceof Error);
console.log(typeError.constructor === TypeError, Object.prototype.toString.call(typeError));

// The header reads name and message when the stack is first read.
const renamed = new Error("first");
renamed.message = "second";
console.log(renamed.stack.split("\n")[0]);
class HttpError extends Error {
  constructor(message) { super(message); this.name = "HttpError"; this.status = 404; }
}
function makeHttpError() { return new HttpError("not found"); }
const httpError = makeHttpError();
const httpLines = httpError.stack.split("\n");
console.log(httpLines[0], httpError instanceof HttpError, httpError instanceof Error);
console.log(httpLines[1].startsWith("    at makeHttpError ("));
const assigned = new Error("x");
assigned.stack = "replaced";
console.log(assigned.stack);

// Error.captureStackTrace
const plain = {};
Error.captureStackTrace(plain);
console.log(plain.stack.split("\n")[0], Object.keys(plain).length);
const named = { name: "Custom", message: "with message" };
Error.captureStackTrace(named);
console.log(named.stack.split("\n")[0]);
function outer() { return inner(); }
function inner() { const holder = {}; Error.captureStackTrace(holder, inner); return holder.stack; }
const innerLines = outer().split("\n");
console.log(innerLines[0], innerLines[1].startsWith("    at outer ("));
function notCalled() {}
const empty = {};
Error.captureStackTrace(empty, notCalled);
console.log(JSON.stringify(empty.stack));
try { Error.captureStackTrace(1); } catch (error) { console.log(error.name); }

// Old-style error classes.
function LegacyError(message) {
  Error.call(this);
  Error.captureStackTrace(this, LegacyError);
  this.name = "LegacyError";
  this.message = message;
}
require("util").inherits(LegacyError, Error);
function makeLegacy() { return new LegacyError("old"); }
const legacy = makeLegacy();
console.log(legacy.stack.split("\n")[0], legacy.stack.split("\n")[1].startsWith("    at makeLegacy ("));

// Error.prepareStackTrace and call sites, as depd finds its caller.
console.log(typeof Error.prepareStackTrace);
function getStack() {
  const limit = Error.stackTraceLimit;
  const holder = {};
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, stack) => stack;
  Error.stackTraceLimit = Math.max(10, limit);
  Error.captureStackTrace(holder);
  const stack = holder.stack.slice(1);
  Error.prepareStackTrace = previous;
  Error.stackTraceLimit = limit;
  return stack;
}
function callerOfDeprecated() { return getStack(); }
const sites = callerOfDeprecated();
const site = sites[0];
console.log(Array.isArray(sites), typeof site.getFileName, path.basename(site.getFileName()) === here);
console.log(site.getFunctionName(), typeof site.getLineNumber(), site.getLineNumber() > 70, typeof site.getColumnNumber());
console.log(site.isEval(), site.isNative(), site.isConstructor(), site.isToplevel());
console.log(String(site).startsWith("callerOfDeprecated ("), path.basename(String(site)).replace(/:\d+:\d+\)$/, ")"));

Error.prepareStackTrace = (error, callSites) => `prepared ${error.message} ${callSites.length > 0}`;
console.log(new Error("now").stack);
delete Error.prepareStackTrace;
console.log(new Error("after").stack.split("\n")[0]);

// Error.stackTraceLimit
console.log(Error.stackTraceLimit);
function deep(n) { return n === 0 ? new Error("deep") : deep(n - 1); }
console.log(deep(30).stack.split("\n").length - 1);
Error.stackTraceLimit = 3;
console.log(deep(30).stack.split("\n").length - 1);
Error.stackTraceLimit = 0;
console.log(JSON.stringify(deep(5).stack));
Error.stackTraceLimit = 10;

// Node's coded errors show the code in the stack's header.
try { new (require("string_decoder").StringDecoder)("nope"); } catch (error) { console.log(error.stack.split("\n")[0]); }
try { require("path").join(1); } catch (error) { console.log(error.stack.split("\n")[0]); }
