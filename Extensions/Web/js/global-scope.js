// global-scope.js - WinterTC's `self` (the global object itself, as in a worker) and HTML's `reportError`.

const { TypeError } = internal.primordials;

/// Reports `error` as an uncaught exception, as Node does: printed with its stack, and the run ends with exit
/// code 1 (a REPL session prints it and goes on).
function reportError(error) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'reportError': 1 argument required, but only 0 present.");
  }
  internal.reportUncaught(error, "exception");
}

internal.defineGlobal("self", globalThis);
internal.defineGlobal("reportError", reportError);
