// repl.js - the REPL (`jsbridge` with no script on a terminal), loaded only then. The repl extension's terminal
// natives edit lines (Swift's LineEditor: keys in, output and events out, history); this file evaluates
// entries, completes names and prints results with the inspector. Entries run as classic scripts at global
// scope, so let/const/class declarations persist from one entry to the next; an entry with top-level await
// is rewritten so its declarations still land there (see rewriteAwait). The event loop runs while the REPL
// waits: it reads stdin through the engine's reader (events "stdin"), as process.stdin does.
// docs/running-scripts.md ("The REPL") describes what users see.

const {
  ArrayPrototypeFilter, ArrayPrototypeJoin, JSONStringify, ArrayPrototypePush, ArrayPrototypeSlice, ArrayPrototypeSort, ObjectDefineProperty, ObjectGetOwnPropertyNames,
  ObjectGetPrototypeOf, ObjectKeys, PromisePrototypeThen, RegExpPrototypeExec, SafeSet, StringPrototypeSlice,
  StringPrototypeSplit, StringPrototypeStartsWith, StringPrototypeTrim,
} = internal.primordials;

const STDOUT = 1;
const URL_NAME = "REPL";
const NAME = 1, PUNCT = 2, NUMBER = 6;

/// The terminal's line editor (the repl extension's natives; each step answers `{output, events}`).
const terminal = {
  prompt: (prompt) => internal.terminalPrompt(prompt),
  feed: (bytes) => internal.terminalFeed(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  complete: ({ token, candidates }) => internal.terminalComplete(token, JSONStringify(candidates)),
  interject: (text) => internal.terminalInterject(text),
  evaluating: () => internal.terminalEvaluating(),
  restore: () => internal.terminalRestore(),
};
let colors = false;
/// The lines of a multi-line entry typed so far.
let entryLines = [];
/// Whether the last key was Ctrl-C on an empty line (a second one exits).
let interruptedEmpty = false;
/// Names the entries declared: global let/const/class are not properties of globalThis, so completion
/// remembers them.
const declaredNames = new SafeSet();
let lastValue, lastError;
let valueAssigned = false, errorAssigned = false;

/// Starts the session on the terminal.
internal.startRepl = function () {
  colors = internal.isatty(1);
  defineResultGlobals();
  // An error thrown by a callback or a rejection nobody handles is printed; the session goes on.
  internal.replUncaught = (error, kind) => {
    const text = describeError(error, kind === "rejection" ? "Uncaught (in promise) " : "Uncaught ");
    // Printed over the prompt when a line is being read, which is then shown again below it.
    internal.print(STDOUT, terminal.interject(text + "\r\n"));
  };
  internal.print(STDOUT, `Welcome to ${internal.startup.runtime.name} ${internal.startup.runtime.version}.\nType ".help" for more information.\n`);
  internal.onNativeEvent("", "stdin", (payload) => {
    if (payload.data !== undefined) apply(terminal.feed(payload.data));
    else exitRepl();
  });
  internal.stdinStart();
  internal.stdinRef(true);
  showPrompt();
};

function apply(step) {
  if (step.output !== "") internal.print(STDOUT, step.output);
  for (const event of step.events) handleEvent(event);
}

function showPrompt() {
  apply(terminal.prompt(entryLines.length > 0 ? "... " : "> "));
}

function handleEvent(event) {
  switch (event.type) {
    case "line":
      interruptedEmpty = false;
      return onLine(event.text);
    case "interrupt":
      if (entryLines.length > 0 || !event.empty) {
        entryLines = [];
        interruptedEmpty = false;
        return showPrompt();
      }
      if (interruptedEmpty) return exitRepl();
      interruptedEmpty = true;
      internal.print(STDOUT, "(To exit, press Ctrl+C again or Ctrl+D or type .exit)\n");
      return showPrompt();
    case "eof":
      return exitRepl();
    case "complete":
      return apply(terminal.complete(complete(event.before)));
  }
}

function exitRepl() {
  terminal.restore();
  internal.stdinRef(false);
  internal.process.exit();
}

// MARK: - Commands

const commands = {
  break: ["Abandon the multi-line entry being typed", () => { entryLines = []; }],
  exit: ["Leave the REPL (as Ctrl+D does)", exitRepl],
  help: ["Show these commands", () => {
    let text = "";
    for (const name of ArrayPrototypeSort(ObjectKeys(commands))) text += `.${name}\t${commands[name][0]}\n`;
    text += "\nCtrl+C abandons the line (twice on an empty line: exit), Ctrl+D exits, Tab completes names\n" +
      "(globals, properties, plugin actions), up/down walk the history. `_` is the last result, `_error`\n" +
      "the last error; `await` works at the top level.\n";
    internal.print(STDOUT, text);
  }],
};

/// Runs `.name` if the line is a command; false when it is code (`.5 + 1`).
function command(text) {
  const match = RegExpPrototypeExec(/^\s*\.([A-Za-z]+)\s*$/, text);
  if (match === null) return false;
  const entry = commands[match[1]];
  if (entry === undefined) internal.print(STDOUT, "Invalid REPL keyword\n");
  else entry[1]();
  showPrompt();
  return true;
}

// MARK: - Evaluation

function onLine(text) {
  if (RegExpPrototypeExec(/^\s*\./, text) !== null && (entryLines.length === 0 || text === ".break")) {
    if (command(text)) return;
  }
  ArrayPrototypePush(entryLines, text);
  const code = ArrayPrototypeJoin(entryLines, "\n");
  if (StringPrototypeTrim(code) === "") {
    entryLines = [];
    return showPrompt();
  }
  const plan = prepare(code);
  if (plan.incomplete) return showPrompt();
  entryLines = [];
  run(plan);
}

const checkSyntax = (source) => internal.evaluateScript(source, URL_NAME, true);

/// What an error from parsing says about the entry: that more lines would complete it.
function endsEarly(error) {
  const message = `${error?.message}`;
  return RegExpPrototypeExec(/end of script|Unexpected EOF|Unterminated template|end of input/, message) !== null;
}

/// How to run `code`: `{source, prelude?, async?, names}`, `{incomplete: true}`, or `{syntaxError}`.
function prepare(code) {
  // As in Node, `{ a: 1 }` on its own is an object literal, not a block.
  if (RegExpPrototypeExec(/^\s*\{/, code) !== null && RegExpPrototypeExec(/;\s*$/, code) === null) {
    const wrapped = `(${code}\n)`;
    if (checkSyntax(wrapped) === undefined) return { source: wrapped, names: [] };
  }
  const error = checkSyntax(code);
  if (error === undefined) return { source: code, names: declarations(code) };
  let asyncError;
  if (RegExpPrototypeExec(/\bawait\b/, code) !== null) {
    try {
      const rewritten = rewriteAwait(code);
      if (rewritten.open) return { incomplete: true };
      asyncError = checkSyntax(rewritten.body) ?? checkSyntax(rewritten.prelude);
      if (asyncError === undefined) {
        return { source: rewritten.body, prelude: rewritten.prelude, async: true, names: rewritten.names };
      }
    } catch (scanError) {
      asyncError = scanError;
    }
  }
  if (endsEarly(error) || (asyncError !== undefined && endsEarly(asyncError))) return { incomplete: true };
  return { syntaxError: asyncError ?? error };
}

function run(plan) {
  if (plan.syntaxError !== undefined) {
    reportError(plan.syntaxError);
    return showPrompt();
  }
  // The terminal's own mode while code runs: Ctrl-C is SIGINT again, and output is not raw (a Ctrl-D typed
  // meanwhile stays a key, read at the next prompt).
  terminal.evaluating();
  let value;
  try {
    if (plan.prelude !== "" && plan.prelude !== undefined) internal.evaluateScript(plan.prelude, URL_NAME);
    value = internal.evaluateScript(plan.source, URL_NAME);
  } catch (error) {
    reportError(error);
    return showPrompt();
  }
  for (const name of plan.names) declaredNames.add(name);
  if (!plan.async) {
    show(value);
    return showPrompt();
  }
  // Top-level await: the result once it settles; Ctrl-C (SIGINT) stops waiting for it.
  const process = internal.process;
  let settled = false;
  const finish = () => {
    settled = true;
    process.removeListener("SIGINT", interrupt);
  };
  const interrupt = () => {
    if (settled) return;
    finish();
    internal.print(STDOUT, "Uncaught Error [ERR_SCRIPT_EXECUTION_INTERRUPTED]: waiting was interrupted by SIGINT\n");
    showPrompt();
  };
  process.on("SIGINT", interrupt);
  PromisePrototypeThen(value, (result) => {
    if (settled) return;
    finish();
    show(result);
    showPrompt();
  }, (error) => {
    if (settled) return;
    finish();
    reportError(error);
    showPrompt();
  });
}

function show(value) {
  if (!valueAssigned) lastValue = value;
  internal.print(STDOUT, `${internal.inspect(value, { colors })}\n`);
}

function reportError(error) {
  internal.print(STDOUT, `${describeError(error, "Uncaught ")}\n`);
}

/// `prefix` and `error` as the REPL shows it (the last error is also `_error`).
function describeError(error, prefix) {
  if (!errorAssigned) lastError = error;
  let text;
  if (error instanceof Error) {
    text = `${error.name}: ${error.message}`;
    if (error.code !== undefined) text += ` (code: ${internal.inspect(error.code)})`;
  } else {
    text = internal.inspect(error, { colors });
  }
  return prefix + text;
}

/// `_` (the last result) and `_error` (the last error), as in Node: assigning one stops its updates.
function defineResultGlobals() {
  const define = (name, get, assigned) => ObjectDefineProperty(globalThis, name, {
    configurable: true,
    enumerable: false,
    get,
    set(value) {
      assigned();
      internal.print(STDOUT, `Expression assignment to ${name} now disabled.\n`);
      ObjectDefineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: true });
    },
  });
  define("_", () => lastValue, () => { valueAssigned = true; });
  define("_error", () => lastError, () => { errorAssigned = true; });
}

// MARK: - Top-level await

const statementKeywords = new SafeSet([
  "if", "for", "while", "do", "switch", "try", "throw", "return", "break", "continue", "import", "export", "let",
  "const", "var", "class", "function", "debugger", "with",
]);
const opens = new SafeSet(["(", "[", "{", "${"]);
const closes = new SafeSet([")", "]", "}"]);

/// `code` (which awaits at its top level) as `{prelude, body, names}`: the prelude declares the entry's
/// top-level names at global scope (`let` for let/const/class, `var` for var/function); the body is an async
/// function called at once whose declarations became assignments to them, and which returns the value of
/// the entry's last expression statement.
function rewriteAwait(code) {
  const t = internal.esm.tokenize(code);
  const edits = [];
  const lexical = [], vars = [];
  const depths = [];
  /// Where each top-level statement starts (token indices).
  const starts = [0];
  let depth = 0, statementStart = true;
  for (let i = 0; i < t.count; i++) {
    depths[i] = depth;
    const value = t.values[i];
    if (t.types[i] === PUNCT) {
      if (opens.has(value)) depth++;
      else if (closes.has(value)) depth--;
      statementStart = depth === 0 && value === ";";
      if (statementStart) ArrayPrototypePush(starts, i + 1);
      continue;
    }
    if (depth === 0 && statementStart && t.types[i] === NAME) {
      const next = t.values[i + 1];
      if ((value === "let" || value === "const" || value === "var") &&
        (t.types[i + 1] === NAME || next === "{" || next === "[")) {
        const end = declarationEnd(t, i + 1);
        bindingNames(t, i + 1, end, value === "var" ? vars : lexical);
        ArrayPrototypePush(edits, [t.starts[i], t.ends[i], "void ("]);
        // Closed after its last token: a declaration ended by a line break is followed by another statement.
        const close = t.ends[end - 1];
        ArrayPrototypePush(edits, [close, close, end < t.count && t.values[end] !== ";" ? ");" : ")"]);
        for (let k = i + 1; k < end; k++) depths[k] = 1;
        if (end < t.count && t.values[end] !== ";") ArrayPrototypePush(starts, end);
        i = end - 1;
        statementStart = t.values[end] !== ";";
        continue;
      }
      let keyword = i;
      if (value === "async" && next === "function") keyword = i + 1;
      if ((value === "class" || t.values[keyword] === "function") && keyword + 1 < t.count) {
        let nameAt = keyword + 1;
        if (t.values[nameAt] === "*") nameAt++;
        if (t.types[nameAt] === NAME) {
          const name = t.values[nameAt];
          ArrayPrototypePush(value === "class" ? lexical : vars, name);
          let k = nameAt + 1, level = 0;
          // The body: the first `{` after the name (a class's `extends` expression may hold parentheses).
          while (k < t.count && !(level === 0 && t.values[k] === "{")) {
            if (opens.has(t.values[k])) level++;
            else if (closes.has(t.values[k])) level--;
            k++;
          }
          level = 0;
          for (; k < t.count; k++) {
            if (opens.has(t.values[k])) level++;
            else if (closes.has(t.values[k]) && --level === 0) break;
          }
          ArrayPrototypePush(edits, [t.starts[i], t.starts[i], `${name} = `]);
          const after = k < t.count ? t.ends[k] : code.length;
          ArrayPrototypePush(edits, [after, after, ";"]);
          for (let m = i; m <= k && m < t.count; m++) depths[m] = 1;
          ArrayPrototypePush(starts, k + 1);
          i = k;
          statementStart = true;
          continue;
        }
      }
    }
    statementStart = false;
  }
  // The last statement's value is the entry's result, as a script's completion value would be.
  let end = t.count;
  if (end > 0 && t.values[end - 1] === ";" && depths[end - 1] === 0) end--;
  let start = 0;
  for (const candidate of starts) if (candidate < end && candidate > start) start = candidate;
  if (start < end && depths[start] === 0 && t.values[start] !== "{" &&
    !(t.types[start] === NAME && statementKeywords.has(t.values[start])) &&
    !(t.values[start] === "async" && t.values[start + 1] === "function")) {
    ArrayPrototypePush(edits, [t.starts[start], t.starts[start], "return ("]);
    const close = end < t.count ? t.starts[end] : code.length;
    ArrayPrototypePush(edits, [close, close, ")"]);
  }
  ArrayPrototypeSort(edits, (a, b) => b[0] - a[0]);
  let body = code;
  for (const [from, to, text] of edits) body = StringPrototypeSlice(body, 0, from) + text + StringPrototypeSlice(body, to);
  let prelude = "";
  if (lexical.length > 0) prelude += `let ${ArrayPrototypeJoin(lexical, ", ")};`;
  if (vars.length > 0) prelude += `var ${ArrayPrototypeJoin(vars, ", ")};`;
  let balance = 0;
  for (let i = 0; i < t.count; i++) {
    if (t.types[i] !== PUNCT) continue;
    if (opens.has(t.values[i])) balance++;
    else if (closes.has(t.values[i])) balance--;
  }
  return { prelude, body: `(async () => {\n${body}\n})()`, names: [...lexical, ...vars], open: balance > 0 };
}

/// The token that ends a declaration starting at `from`: a `;` at its level, a line break before a new
/// statement (no operator on either side), or the end.
function declarationEnd(t, from) {
  let level = 0;
  for (let k = from; k < t.count; k++) {
    const value = t.values[k];
    if (t.types[k] === PUNCT) {
      if (opens.has(value)) level++;
      else if (closes.has(value)) level--;
      else if (level === 0 && value === ";") return k;
      continue;
    }
    if (level === 0 && k > from && t.newlines[k] && t.types[k] === NAME && value !== "in" && value !== "instanceof" &&
      value !== "of") {
      const previous = t.types[k - 1];
      if (previous !== PUNCT || closes.has(t.values[k - 1])) return k;
    }
  }
  return t.count;
}

/// Adds the names a declaration's bindings (`a = 1, {b, c: d = 2}, [e, ...f]`) declare to `out`.
function bindingNames(t, from, end, out) {
  let level = 0, inInitializer = false, skipUntil = -1;
  for (let k = from; k < end; k++) {
    const value = t.values[k];
    if (t.types[k] === PUNCT) {
      if (opens.has(value)) level++;
      else if (closes.has(value)) {
        level--;
        if (skipUntil > level) skipUntil = -1;
      } else if (value === "=" && !inInitializer) {
        if (level === 0) inInitializer = true;
        else if (skipUntil < 0) skipUntil = level;
      } else if (value === ",") {
        if (level === 0) inInitializer = false;
        else if (skipUntil === level) skipUntil = -1;
      }
      continue;
    }
    if (inInitializer || skipUntil >= 0 || t.types[k] !== NAME) continue;
    const next = t.values[k + 1];
    if (next === ":" || next === "(") continue; // a property key, or a method in a default
    ArrayPrototypePush(out, value);
  }
}

/// The top-level names `code` declares (for completion; best effort).
function declarations(code) {
  if (RegExpPrototypeExec(/\b(let|const|class|var|function)\b/, code) === null) return [];
  try {
    return rewriteAwait(code).names;
  } catch {
    return [];
  }
}

// MARK: - Completion

const keywords = [
  "async", "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
  "else", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "let",
  "new", "null", "return", "static", "super", "switch", "this", "throw", "true", "try", "typeof", "undefined",
  "var", "void", "while", "with", "yield",
];

/// Completions for the text before the cursor: `{token, candidates}`, where `token` is the name being typed
/// and each candidate a full name that starts with it.
function complete(before) {
  const match = RegExpPrototypeExec(/((?:[A-Za-z_$][\w$]*\??\.)*)([A-Za-z_$][\w$]*)?$/, before);
  const token = match?.[2] ?? "";
  if (match === null || (match.index > 0 && before[match.index - 1] === ".")) return { token, candidates: [] };
  const chain = StringPrototypeSplit(match[1], /\??\./);
  chain.length--; // the empty piece after the last dot
  let names;
  if (chain.length === 0) {
    if (token === "") return { token, candidates: [] };
    names = [...propertyNames(globalThis), ...declaredNames, ...keywords];
  } else {
    names = memberNames(chain);
  }
  const seen = new SafeSet();
  const candidates = [];
  for (const name of names) {
    if (typeof name !== "string" || seen.has(name) || !StringPrototypeStartsWith(name, token)) continue;
    if (RegExpPrototypeExec(/^[A-Za-z_$][\w$]*$/, name) === null) continue;
    seen.add(name);
    ArrayPrototypePush(candidates, name);
  }
  return { token, candidates: ArrayPrototypeSort(candidates) };
}

/// The names after `a.b.c.` (`chain` = ["a", "b", "c"]): the object's properties, and for a plugin under
/// `bridge.plugins` its actions, from the plugin registry's manifest.
function memberNames(chain) {
  const evaluate = (names) => internal.evaluateScript(`(${ArrayPrototypeJoin(names, ".")})`, URL_NAME);
  try {
    if (chain.length >= 2) {
      const parent = evaluate(ArrayPrototypeSlice(chain, 0, -1));
      if (parent === internal.bridgePlugins) {
        const actions = internal.manifest()[chain[chain.length - 1]];
        // Private actions (a plugin's glue for its own JavaScript) are not offered.
        return actions === undefined ? [] : ArrayPrototypeFilter(ObjectKeys(actions), (name) => actions[name][2] !== 1);
      }
    }
    return propertyNames(evaluate(chain));
  } catch {
    return [];
  }
}

function propertyNames(value) {
  if (value === null || value === undefined) return [];
  let object = typeof value === "object" || typeof value === "function" ? value : Object(value);
  const names = [];
  for (let level = 0; object !== null && level < 32; level++) {
    for (const name of ObjectGetOwnPropertyNames(object)) ArrayPrototypePush(names, name);
    object = ObjectGetPrototypeOf(object);
  }
  return names;
}
