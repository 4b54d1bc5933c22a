// Reporting uncaught exceptions and unhandled rejections: message, file:line:column and stack, printed
// once on stderr; the runtime then exits with code 1.

/// Thrown by `process.exit()` to unwind the JS stack; never reported.
internal.exitSentinel = Object.freeze({ toString() { return "process.exit"; } });

function location(error) {
  if (error === null || typeof error !== "object") return "";
  const file = error.sourceURL;
  if (typeof file !== "string" || file.startsWith("jsbridge:internal/")) return "";
  return error.line !== undefined ? `${file}:${error.line}` + (error.column !== undefined ? `:${error.column}` : "") : file;
}

/// The text printed for an uncaught `error` (`kind` is "exception" or "rejection").
function describeUncaught(error, kind) {
  const where = location(error);
  const isError = error instanceof Error;
  let text = isError ? internal.inspect(error) : internal.inspect(error);
  if (isError && error.name === "SyntaxError" && where) {
    text = `${where}\n${error.name}: ${error.message}`;
    return text;
  }
  const prefix = kind === "rejection" ? "Uncaught (in promise) " : "Uncaught ";
  return (where ? where + "\n" : "") + prefix + text;
}

internal.reportUncaught = function (error, kind) {
  if (error === internal.exitSentinel) return;
  let text;
  try {
    text = describeUncaught(error, kind);
  } catch {
    text = "Uncaught " + String(error);
  }
  internal.fatal(text + "\n");
};

internal.onUnhandledRejection = function (promise, reason) {
  internal.reportUncaught(reason, "rejection");
};
