// Reporting uncaught exceptions and unhandled rejections: message, file:line:column and stack, printed
// once on stderr; the runtime then exits with code 1.

/// Thrown by `process.exit()` to unwind the JS stack; never reported.
const {
  Error, MethodSplit, MethodStartsWith, ObjectFreeze, TypeError,
} = internal.primordials;
internal.exitSentinel = ObjectFreeze({ toString() { return "process.exit"; } });

function location(error) {
  if (error === null || typeof error !== "object") return "";
  const file = error.sourceURL;
  if (typeof file !== "string" || MethodStartsWith(file, "jsbridge:internal/")) return "";
  if (error.line === undefined) return file;
  if (error.column === undefined) return `${file}:${error.line}`;
  const position = `${file}:${error.line}:${error.column}`;
  return internal.sourcePosition === undefined ? position : internal.sourcePosition(position);
}

/// `file:line`, the offending source line, then `SyntaxError: message` (as Node prints it).
function describeSyntaxError(error) {
  let excerpt = "";
  try {
    if (MethodStartsWith(error.sourceURL, "/")) {
      const line = MethodSplit(internal.readFile(error.sourceURL), "\n")[error.line - 1];
      if (line !== undefined) excerpt = line + "\n\n";
    }
  } catch {}
  // A coded one (TypeScript that cannot be erased) names its column and code, as Node prints it.
  if (typeof error.code === "string" && error.column !== undefined) {
    return `${error.sourceURL}:${error.line}:${error.column}\n${excerpt}${error.name} [${error.code}]: ${error.message}`;
  }
  return `${error.sourceURL}:${error.line}\n${excerpt}${error.name}: ${error.message}`;
}

/// The text printed for an uncaught `error` (`kind` is "exception" or "rejection").
function describeUncaught(error, kind) {
  const where = location(error);
  const isError = error instanceof Error;
  let text = isError ? internal.inspect(error) : internal.inspect(error);
  if (isError && error.name === "SyntaxError" && where) return describeSyntaxError(error);
  const prefix = kind === "rejection" ? "Uncaught (in promise) " : "Uncaught ";
  return (where ? where + "\n" : "") + prefix + text;
}

/// Reports `error` and ends the run; returns true instead when a REPL session took it (the repl extension sets
/// `internal.replUncaught`), which goes on as Node's REPL does.
internal.reportUncaught = function (error, kind) {
  if (error === internal.exitSentinel) return false;
  if (internal.replUncaught !== undefined) {
    internal.replUncaught(error, kind);
    return true;
  }
  let text;
  try {
    text = describeUncaught(error, kind);
  } catch {
    // A value whose inspection throws (a Proxy whose traps throw, a revoked Proxy) is still reported.
    const prefix = kind === "rejection" ? "Uncaught (in promise) " : "Uncaught ";
    try {
      text = prefix + String(error);
    } catch {
      text = `${prefix}[${typeof error} that cannot be printed]`;
    }
  }
  internal.fatal(text + "\n");
};

internal.onUnhandledRejection = function (promise, reason) {
  internal.reportUncaught(reason, "rejection");
};

/// The JS error of a native's failure (JSEngine.makeException): a BridgeError (bridge.js, loaded then if no
/// script used the bridge yet), a TypeError, or an Error with its `code`.
internal.makeError = function (kind, message, code, plugin, action, data) {
  if (kind === "BridgeError") {
    return new internal.BridgeError(/** @type {string} */ (code), message, { plugin: /** @type {string} */ (plugin), action: /** @type {string} */ (action), data });
  }
  // The global Error (Node's, with its stack text, once node-errors.js replaced it), as bridge.js made them.
  const error = kind === "TypeError" ? new TypeError(message) : new globalThis.Error(message);
  if (code !== null) error.code = code;
  return error;
};
