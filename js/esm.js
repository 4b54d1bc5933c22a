// ES modules (loaded on first use). JavaScriptCore's C API has no module loader, so this file is one: a
// token-level scanner finds each module's import/export declarations, `import.meta` and `import(`, and
// rewrites the module, keeping every line and column, into a generator function whose first step registers
// getters for its exports (so cycles see hoisted functions, and let/const/class exports are in their TDZ)
// and whose second step runs the body (an async generator for top-level await). Imported names are getters
// on an object the strict body sees through a `with` scope in a sloppy wrapper: live bindings. The loader
// then loads the graph, links every import to the exporting module's getter, and evaluates in post-order.
// docs/architecture.md ("ES modules") explains the design and its costs.

const {
  ArrayIsArray, ArrayPrototypeJoin, ArrayPrototypePush, ArrayPrototypeSort, JSONParse, JSONStringify, ObjectCreate,
  ObjectDefineProperty, ObjectHasOwn, ObjectKeys, Promise, PromisePrototypeThen, PromiseReject, PromiseResolve,
  SafeMap, SafeSet, StringPrototypeCharCodeAt, StringPrototypeEndsWith, StringPrototypeIncludes,
  StringPrototypeIndexOf, StringPrototypeReplace, StringPrototypeSlice, StringPrototypeSplit, StringPrototypeStartsWith,
  SymbolToStringTag,
  SyntaxError, TypeError,
} = { ...internal.primordials, SyntaxError: globalThis.SyntaxError };
const PromiseAll = Promise.all.bind(Promise);
const ObjectPreventExtensions = Object.preventExtensions;
const encodeURIPrimordial = encodeURI;
const decodeURIComponentPrimordial = decodeURIComponent;

// MARK: - Scanner

const NAME = 1, PUNCT = 2, STRING = 3, TEMPLATE = 4, REGEX = 5, NUMBER = 6;

/// Names after which a `/` starts a regular expression (after any other name it divides).
const regexAfterName = new SafeSet([
  "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield",
  "await", "extends",
]);

function isNameChar(c) {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 ||
    c === 92 || c >= 128;
}

function isNewline(c) {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

/// Splits `src` into tokens: parallel arrays of type, start, end, value (names and punctuators) and whether a
/// line break came before. Comments and whitespace are skipped; template literals are TEMPLATE pieces around
/// the tokens of their `${...}` substitutions (each opened by a "${" and closed by a "}" punctuator).
function tokenize(src) {
  const types = [], starts = [], ends = [], values = [], newlines = [];
  const n = src.length;
  const templateDepths = []; // brace depth at which each open `${` closes
  let depth = 0, i = 0, newline = false, regexAllowed = true, count = 0;
  const original = internal.originalStringMethods;
  const intact = String.prototype.charCodeAt === original.charCodeAt && String.prototype.slice === original.slice;
  const charAt = intact ? (index) => src.charCodeAt(index) : (index) => StringPrototypeCharCodeAt(src, index);
  const sliceOf = intact ? (start, end) => src.slice(start, end) : (start, end) => StringPrototypeSlice(src, start, end);
  // Indexed stores, not push: no method call per token.
  const push = (type, start, end, value) => {
    types[count] = type;
    starts[count] = start;
    ends[count] = end;
    values[count] = value;
    newlines[count] = newline;
    count++;
    newline = false;
  };
  // Scans template characters from `from` (after "`" or a substitution's "}"); pushes the piece.
  const template = (start, from) => {
    let j = from;
    while (j < n) {
      const c = charAt(j);
      if (c === 92) { j += 2; continue; }
      if (c === 96) {
        push(TEMPLATE, start, j + 1, undefined);
        return j + 1;
      }
      if (c === 36 && charAt(j + 1) === 123) {
        push(TEMPLATE, start, j, undefined);
        push(PUNCT, j, j + 2, "${");
        depth++;
        ArrayPrototypePush(templateDepths, depth);
        return j + 2;
      }
      j++;
    }
    throw scanError("Unterminated template literal", start);
  };
  const scanError = (message, at) => {
    const error = new SyntaxError(message);
    error.offset = at;
    return error;
  };
  if (charAt(0) === 35 && charAt(1) === 33) { // #!
    while (i < n && !isNewline(charAt(i))) i++;
  }
  while (i < n) {
    const c = charAt(i);
    if (isNewline(c)) { newline = true; i++; continue; }
    if (c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff) { i++; continue; }
    if (c === 47) { // /
      const d = charAt(i + 1);
      if (d === 47) {
        while (i < n && !isNewline(charAt(i))) i++;
        continue;
      }
      if (d === 42) {
        const close = StringPrototypeIndexOf(src, "*/", i + 2);
        if (close === -1) throw scanError("Unterminated comment", i);
        for (let j = i + 2; j < close; j++) if (isNewline(charAt(j))) { newline = true; break; }
        i = close + 2;
        continue;
      }
      if (regexAllowed) {
        let j = i + 1, inClass = false;
        for (; j < n; j++) {
          const r = charAt(j);
          if (r === 92) { j++; continue; }
          if (isNewline(r)) throw scanError("Invalid regular expression: missing /", i);
          if (r === 91) inClass = true;
          else if (r === 93) inClass = false;
          else if (r === 47 && !inClass) break;
        }
        j++;
        while (j < n && isNameChar(charAt(j))) j++;
        push(REGEX, i, j, undefined);
        i = j;
        regexAllowed = false;
        continue;
      }
      const end = d === 61 ? i + 2 : i + 1;
      push(PUNCT, i, end, sliceOf(i, end));
      i = end;
      regexAllowed = true;
      continue;
    }
    if (c === 39 || c === 34) { // ' "
      let j = i + 1;
      for (; j < n; j++) {
        const s = charAt(j);
        if (s === 92) { j++; continue; }
        if (s === c) break;
        if (s === 10 || s === 13) throw scanError("Unterminated string literal", i);
      }
      if (j >= n) throw scanError("Unterminated string literal", i);
      push(STRING, i, j + 1, undefined);
      i = j + 1;
      regexAllowed = false;
      continue;
    }
    if (c === 96) { // `
      i = template(i, i + 1);
      regexAllowed = false;
      continue;
    }
    if (c === 125 && templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === depth) {
      templateDepths.length--;
      depth--;
      push(PUNCT, i, i + 1, "}");
      i = template(i + 1, i + 1);
      regexAllowed = false;
      continue;
    }
    if (isNameChar(c) && !(c >= 48 && c <= 57) || c === 35) { // names, keywords, #private
      let j = i + 1;
      while (j < n && isNameChar(charAt(j))) j++;
      const value = sliceOf(i, j);
      push(NAME, i, j, value);
      i = j;
      regexAllowed = regexAfterName.has(value);
      continue;
    }
    if ((c >= 48 && c <= 57) || (c === 46 && charAt(i + 1) >= 48 && charAt(i + 1) <= 57)) {
      let j = i + 1;
      while (j < n) {
        const d = charAt(j);
        if (isNameChar(d) || d === 46) j++;
        else if ((d === 43 || d === 45) && (charAt(j - 1) === 101 || charAt(j - 1) === 69)) j++;
        else break;
      }
      push(NUMBER, i, j, undefined);
      i = j;
      regexAllowed = false;
      continue;
    }
    // Punctuators: the few multi-character ones that matter here, else one character.
    let end = i + 1;
    const d = charAt(i + 1);
    if (c === 46 && d === 46 && charAt(i + 2) === 46) end = i + 3; // ...
    else if (c === 61 && d === 62) end = i + 2; // =>
    else if (c === 63 && d === 46 && !(charAt(i + 2) >= 48 && charAt(i + 2) <= 57)) end = i + 2; // ?.
    else if ((c === 43 || c === 45) && d === c) end = i + 2; // ++ --
    const value = sliceOf(i, end);
    push(PUNCT, i, end, value);
    if (c === 123) depth++;
    else if (c === 125) depth--;
    i = end;
    // After `)` `]` `++` `--` a `/` divides; after `}` (a block's end, usually) a regular expression may start.
    regexAllowed = !(c === 41 || c === 93 || value === "++" || value === "--");
  }
  if (templateDepths.length > 0) throw scanError("Unterminated template literal", n);
  return { types, starts, ends, values, newlines, count };
}

/// The value of a string literal token.
function stringValue(raw) {
  const inner = StringPrototypeSlice(raw, 1, raw.length - 1);
  if (!StringPrototypeIncludes(inner, "\\")) return inner;
  return StringPrototypeReplace(inner, /\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])/g, (_, e) => {
    if (e[0] === "u") return String.fromCodePoint(parseInt(e[1] === "{" ? StringPrototypeSlice(e, 2, -1) : StringPrototypeSlice(e, 1), 16));
    if (e[0] === "x") return String.fromCharCode(parseInt(StringPrototypeSlice(e, 1), 16));
    const simple = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", 0: "\0", "\n": "", "\r\n": "" };
    return ObjectHasOwn(simple, e) ? simple[e] : e;
  });
}

/// `line:column` (1-based) of `offset` in `src`.
function positionOf(src, offset) {
  let line = 1, lineStart = 0;
  for (let j = 0; j < offset; j++) {
    if (StringPrototypeCharCodeAt(src, j) === 10) {
      line++;
      lineStart = j + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}

/// A SyntaxError at `offset` of module `filename` (its position reported like the engine's own).
function syntaxErrorAt(message, filename, src, offset) {
  const error = new SyntaxError(message);
  const [line, column] = StringPrototypeSplit(positionOf(src, offset), ":");
  ObjectDefineProperty(error, "sourceURL", { value: filename, writable: true, configurable: true });
  ObjectDefineProperty(error, "line", { value: Number(line), writable: true, configurable: true });
  ObjectDefineProperty(error, "column", { value: Number(column), writable: true, configurable: true });
  return error;
}

/// What a module's source declares, and the edits that turn it into a function body:
/// - `requests`: `{specifier, offset, type}` in source order (import and export-from declarations);
/// - `bindings`: `[importName | "*", localName, request]`;
/// - `locals`: `[exportName, localName]`; `indirect`: `[exportName, importName | "*", request]`;
///   `stars`: request indices of `export * from`;
/// - `moduleSyntax`: whether any import/export declaration or `import.meta` appears; `hasAwait`.
/// With `dynamicOnly` (CommonJS), only `import(` is rewritten and declarations are ignored.
function analyze(src, filename, dynamicOnly = false) {
  const tokens = tokenize(src);
  const { types, starts, ends, values, newlines, count } = tokens;
  const result = {
    requests: [], bindings: [], locals: [], indirect: [], stars: [], edits: [], moduleSyntax: false,
    hasAwait: false,
  };
  const fail = (message, k) => {
    throw syntaxErrorAt(message, filename, src, k < count ? starts[k] : src.length);
  };
  const expect = (k, value) => {
    if (values[k] !== value) fail(values[k] === undefined ? `Unexpected token; expected '${value}'`
      : `Unexpected token '${values[k]}'; expected '${value}'`, k);
    return k + 1;
  };
  const edit = (start, end, replacement) => ArrayPrototypePush(result.edits, [start, end, replacement]);
  // Reads `from "x" [with {...}] [;]` style specifier + attributes at k; returns the next index.
  const request = (k) => {
    if (types[k] !== STRING) fail("Unexpected token; expected a module specifier string", k);
    const entry = { specifier: stringValue(StringPrototypeSlice(src, starts[k], ends[k])), offset: starts[k],
      type: undefined };
    k++;
    if ((values[k] === "with" || (values[k] === "assert" && !newlines[k])) && values[k + 1] === "{") {
      k += 2;
      while (k < count && values[k] !== "}") {
        const key = types[k] === STRING ? stringValue(StringPrototypeSlice(src, starts[k], ends[k])) : values[k];
        k = expect(k + 1, ":");
        if (types[k] !== STRING) fail("Import attribute values must be strings", k);
        const value = stringValue(StringPrototypeSlice(src, starts[k], ends[k]));
        if (key === "type") entry.type = value;
        else fail(`Unsupported import attribute '${key}'`, k - 2);
        k++;
        if (values[k] === ",") k++;
      }
      k = expect(k, "}");
    }
    if (values[k] === ";") k++;
    ArrayPrototypePush(result.requests, entry);
    return k;
  };
  const nameAt = (k) => types[k] === STRING ? stringValue(StringPrototypeSlice(src, starts[k], ends[k])) :
    types[k] === NAME ? values[k] : fail(`Unexpected token '${values[k]}'`, k);

  // An initializer's end: `,` or `;` or a closing bracket at its own depth, or a line break between two
  // tokens that cannot continue one expression.
  const skipInitializer = (k) => {
    let level = 0;
    const first = k;
    for (; k < count; k++) {
      const type = types[k], value = values[k];
      if (type === PUNCT) {
        if (value === "{" || value === "(" || value === "[" || value === "${") level++;
        else if (value === "}" || value === ")" || value === "]") {
          if (level === 0) return k;
          level--;
        } else if (level === 0 && (value === "," || value === ";")) return k;
      } else if (level === 0 && k > first && newlines[k]) {
        const previous = types[k - 1], before = values[k - 1];
        if (previous !== PUNCT || before === ")" || before === "]" || before === "}") return k;
      }
    }
    return k;
  };
  const pattern = (k, names) => {
    if (types[k] === NAME) {
      ArrayPrototypePush(names, values[k]);
      return k + 1;
    }
    const open = values[k];
    if (open !== "[" && open !== "{") fail(`Unexpected token '${values[k]}' in a declaration`, k);
    const close = open === "[" ? "]" : "}";
    k++;
    while (k < count && values[k] !== close) {
      const start = k;
      if (values[k] === ",") { k++; continue; }
      if (values[k] === "...") {
        k = pattern(k + 1, names);
      } else if (open === "[") {
        k = pattern(k, names);
      } else {
        let key = k;
        if (values[k] === "[") {
          k = skipInitializer(k + 1) + 1;
          key = -1;
        } else k++;
        if (values[k] === ":") k = pattern(k + 1, names);
        else if (key >= 0 && types[key] === NAME) ArrayPrototypePush(names, values[key]);
      }
      if (values[k] === "=") k = skipInitializer(k + 1);
      if (k === start) fail(`Unexpected token '${values[k]}' in a declaration`, k);
    }
    return expect(k, close);
  };
  const declarators = (k, names) => {
    for (;;) {
      k = pattern(k, names);
      if (values[k] === "=") k = skipInitializer(k + 1);
      if (values[k] !== ",") return k;
      k++;
    }
  };

  const importDeclaration = (k) => {
    let j = k + 1;
    const bindings = [];
    if (types[j] !== STRING) {
      if (types[j] === NAME && values[j] !== "from" || (values[j] === "from" && values[j + 1] === "from")) {
        ArrayPrototypePush(bindings, ["default", values[j]]);
        j++;
        if (values[j] === ",") j++;
      }
      if (values[j] === "*") {
        j = expect(j + 1, "as");
        ArrayPrototypePush(bindings, ["*", nameAt(j)]);
        j++;
      } else if (values[j] === "{") {
        j++;
        while (j < count && values[j] !== "}") {
          const imported = nameAt(j);
          let local = imported;
          j++;
          if (values[j] === "as") {
            local = nameAt(j + 1);
            j += 2;
          } else if (types[j - 1] === STRING) fail("A string import name needs 'as' and a local name", j - 1);
          ArrayPrototypePush(bindings, [imported, local]);
          if (values[j] === ",") j++;
          else if (values[j] !== "}") fail(`Unexpected token '${values[j]}' in an import list`, j);
        }
        j++;
      }
      j = expect(j, "from");
    }
    const index = result.requests.length;
    j = request(j);
    for (const [imported, local] of bindings) ArrayPrototypePush(result.bindings, [imported, local, index]);
    edit(starts[k], ends[j - 1], null);
    return j;
  };

  const exportDeclaration = (k) => {
    let j = k + 1;
    const value = values[j];
    if (value === "*") {
      j++;
      let as;
      if (values[j] === "as") {
        as = nameAt(j + 1);
        j += 2;
      }
      j = expect(j, "from");
      const index = result.requests.length;
      j = request(j);
      if (as === undefined) ArrayPrototypePush(result.stars, index);
      else ArrayPrototypePush(result.indirect, [as, "*", index]);
      edit(starts[k], ends[j - 1], null);
      return j;
    }
    if (value === "{") {
      j++;
      const list = [];
      while (j < count && values[j] !== "}") {
        const local = nameAt(j);
        let exported = local;
        j++;
        if (values[j] === "as") {
          exported = nameAt(j + 1);
          j += 2;
        }
        ArrayPrototypePush(list, [exported, local, types[j - 1] === STRING || types[j - 3] === STRING]);
        if (values[j] === ",") j++;
        else if (values[j] !== "}") fail(`Unexpected token '${values[j]}' in an export list`, j);
      }
      j++;
      if (values[j] === "from" && types[j] === NAME) {
        const index = result.requests.length;
        j = request(j + 1);
        for (const [exported, imported] of list) ArrayPrototypePush(result.indirect, [exported, imported, index]);
      } else {
        if (values[j] === ";") j++;
        for (const [exported, local] of list) ArrayPrototypePush(result.locals, [exported, local]);
      }
      edit(starts[k], ends[j - 1], null);
      return j;
    }
    if (value === "default") {
      let m = j + 1;
      const isAsyncFunction = values[m] === "async" && values[m + 1] === "function" && !newlines[m + 1];
      if (values[m] === "function" || values[m] === "class" || isAsyncFunction) {
        if (isAsyncFunction) m++;
        m++;
        if (values[m] === "*") m++;
        if (types[m] === NAME && values[m] !== "extends") {
          ArrayPrototypePush(result.locals, ["default", values[m]]);
          edit(starts[k], starts[j + 1], null);
          return j + 1;
        }
      }
      // `export default <expression>` (and anonymous functions and classes): a const of the same length.
      ArrayPrototypePush(result.locals, ["default", "__jsbD"]);
      edit(starts[k], ends[j], "const __jsbD =");
      return j + 1;
    }
    if (value === "var" || value === "let" || value === "const") {
      const names = [];
      declarators(j + 1, names);
      for (const name of names) ArrayPrototypePush(result.locals, [name, name]);
      edit(starts[k], ends[k], null);
      return j;
    }
    let m = j;
    if (value === "async" && values[j + 1] === "function") m++;
    if (values[m] === "function" || values[m] === "class") {
      m++;
      if (values[m] === "*") m++;
      if (types[m] !== NAME) fail("An exported declaration needs a name", m);
      ArrayPrototypePush(result.locals, [values[m], values[m]]);
      edit(starts[k], ends[k], null);
      return j;
    }
    fail(`Unexpected token '${value ?? "end of input"}' after 'export'`, j);
  };

  let depth = 0;
  for (let k = 0; k < count; k++) {
    const type = types[k];
    if (type === PUNCT) {
      const value = values[k];
      if (value === "{" || value === "(" || value === "[" || value === "${") depth++;
      else if (value === "}" || value === ")" || value === "]") depth--;
      continue;
    }
    if (type !== NAME) continue;
    const value = values[k];
    if (value === "await") {
      result.hasAwait = true;
      continue;
    }
    if (value !== "import" && value !== "export") continue;
    if (k > 0 && types[k - 1] === PUNCT && (values[k - 1] === "." || values[k - 1] === "?.")) continue;
    const next = values[k + 1];
    if (value === "import") {
      if (next === "(") {
        // `import(...) {` is a method named import (in a class or object literal), not a dynamic import.
        let level = 0, m = k + 1;
        for (; m < count; m++) {
          const v = values[m];
          if (v === "(" || v === "[" || v === "{" || v === "${") level++;
          else if ((v === ")" || v === "]" || v === "}") && --level === 0) break;
        }
        if (values[m + 1] !== "{") edit(starts[k], ends[k], "__jsbI");
        continue;
      }
      if (next === "." && values[k + 2] === "meta") {
        if (dynamicOnly) continue;
        edit(starts[k], ends[k + 2], "__jsbMeta__");
        result.moduleSyntax = true;
        k += 2;
        continue;
      }
      if (depth !== 0 || dynamicOnly || next === ":" || next === "=") continue;
      result.moduleSyntax = true;
      k = importDeclaration(k) - 1;
    } else {
      if (depth !== 0 || dynamicOnly || next === ":" || next === "=" || next === "(") continue;
      result.moduleSyntax = true;
      k = exportDeclaration(k) - 1;
    }
  }
  return result;
}

/// Spaces for `text`, keeping its line breaks (so positions after it stay).
function blank(text) {
  return StringPrototypeReplace(text, /[^\n\r\u2028\u2029]/g, " ");
}

function applyEdits(src, edits) {
  if (edits.length === 0) return src;
  const pieces = [];
  let at = 0;
  for (const [start, end, replacement] of edits) {
    ArrayPrototypePush(pieces, StringPrototypeSlice(src, at, start));
    const original = StringPrototypeSlice(src, start, end);
    ArrayPrototypePush(pieces, replacement === null ? blank(original)
      : replacement + blank(StringPrototypeSlice(original, replacement.length)));
    at = end;
  }
  ArrayPrototypePush(pieces, StringPrototypeSlice(src, at));
  return ArrayPrototypeJoin(pieces, "");
}

// MARK: - Module records

const moduleParams = ["__jsbImports", "__jsbMeta__", "__jsbI", "__jsbExport"];
const outerHeaderLength = `(function (${ArrayPrototypeJoin(moduleParams, ", ")}) {`.length;

/// Records by key: the real path of a file module, `node:<name>` / `jsbridge:<name>` for built-ins.
const registry = new SafeMap();

class ModuleRecord {
  constructor(key, filename, kind) {
    this.key = key;
    this.filename = filename;
    this.kind = kind; // "esm" | "cjs" | "json" | "builtin"
    this.status = "new"; // -> "linked" -> "evaluating" -> ("evaluating-async" ->) "evaluated" | "errored"
    this.source = undefined;
    this.analysis = undefined;
    this.deps = [];
    this.getters = undefined;
    this.generator = undefined;
    this.isAsync = false;
    this.promise = undefined;
    this.error = undefined;
    this.namespace = undefined;
    this.value = undefined; // a CommonJS / JSON / built-in module's exports
    this.meta = undefined;
  }
}

function fileURL(path) {
  return "file://" + StringPrototypeReplace(encodeURIPrimordial(path), /[?#]/g, (c) => c === "?" ? "%3F" : "%23");
}

function fileURLToPath(url) {
  const parsed = new internal.URL(url);
  if (parsed.protocol !== "file:") {
    const error = new TypeError(`The URL must be of scheme file: ${url}`);
    error.code = "ERR_INVALID_URL_SCHEME";
    throw error;
  }
  return decodeURIComponentPrimordial(parsed.pathname);
}
internal.fileURLToPath = fileURLToPath;

function codedError(Type, message, code) {
  const error = new Type(message);
  error.code = code;
  return error;
}

/// Where `request` of `record` is written: `file:line:column`.
function requestPosition(record, request) {
  return `${record.filename}:${positionOf(record.source, request.offset)}`;
}

/// Resolves `specifier` imported by `importer` (a file path; `where` names the import's position):
/// `{path}` or `{exports, builtin}`.
function resolve(specifier, importer, where) {
  if (StringPrototypeStartsWith(specifier, "file:")) specifier = fileURLToPath(specifier);
  if (StringPrototypeStartsWith(specifier, "./") || StringPrototypeStartsWith(specifier, "../") ||
    StringPrototypeStartsWith(specifier, "/") || specifier === "." || specifier === "..") {
    const path = internal.normalizePath(StringPrototypeStartsWith(specifier, "/") ? specifier
      : internal.dirname(importer) + "/" + specifier);
    const kind = internal.stat(path);
    if (kind === 1) return { path: internal.realpath(path) };
    if (kind === 2) {
      throw codedError(Error, `Directory import '${path}' is not supported resolving ES modules imported from ` +
        where, "ERR_UNSUPPORTED_DIR_IMPORT");
    }
    let hint = "";
    for (const extension of [".js", ".mjs", ".cjs", ".json", "/index.js"]) {
      if (internal.stat(path + extension) === 1) {
        hint = `\nDid you mean to import '${specifier}${extension}'?`;
        break;
      }
    }
    throw codedError(Error, `Cannot find module '${path}' (from '${specifier}') imported from ${where}${hint}`,
      "ERR_MODULE_NOT_FOUND");
  }
  try {
    return internal.resolveBare(specifier, internal.dirname(importer), where, "import");
  } catch (error) {
    if (error.code === "ERR_MODULE_NOT_FOUND" && !StringPrototypeIncludes(error.message, where)) {
      error.message += ` imported from ${where}`;
    }
    throw error;
  }
}

/// The record for a resolved module (created, not loaded, when new).
function recordFor(resolved, type, where) {
  if (resolved.path === undefined) {
    const key = resolved.builtin;
    let record = registry.get(key);
    if (record === undefined) {
      record = new ModuleRecord(key, key, "builtin");
      record.value = resolved.exports;
      record.status = "evaluated";
      registry.set(key, record);
    }
    return record;
  }
  const path = resolved.path;
  let record = registry.get(path);
  if (record === undefined) {
    const format = internal.moduleFormat(path);
    record = new ModuleRecord(path, path, format === "detect" ? "detect" : format);
    registry.set(path, record);
  }
  if (type === "json" && record.kind !== "json") {
    throw codedError(TypeError, `Module '${path}' is not a JSON module, imported with type "json" from ${where}`,
      "ERR_IMPORT_ATTRIBUTE_TYPE_INCOMPATIBLE");
  }
  if (type !== undefined && type !== "json") {
    throw codedError(TypeError, `Import attribute type "${type}" is unsupported (imported from ${where})`,
      "ERR_IMPORT_ATTRIBUTE_UNSUPPORTED");
  }
  if (record.kind === "json" && type !== "json") {
    throw codedError(TypeError, `Module '${path}' needs an import attribute of type "json" (imported from ${where})`,
      "ERR_IMPORT_ATTRIBUTE_MISSING");
  }
  return record;
}

/// Reads and compiles an ES module record (`source` given for `-e` code).
function parse(record, source) {
  record.source = source ?? internal.readFile(record.filename);
  let analysis;
  try {
    analysis = analyze(record.source, record.filename);
  } catch (error) {
    if (error instanceof SyntaxError && error.offset !== undefined) {
      throw syntaxErrorAt(error.message, record.filename, record.source, error.offset);
    }
    throw error;
  }
  if (record.kind === "detect") {
    if (!analysis.moduleSyntax) {
      record.kind = "cjs";
      record.source = undefined;
      return;
    }
    record.kind = "esm";
  }
  record.analysis = analysis;
  const getters = [];
  for (const [exported, local] of analysis.locals) ArrayPrototypePush(getters, `${JSONStringify(exported)}: () => ${local}`);
  const scope = analysis.bindings.length > 0 ? "with (__jsbImports) " : "";
  const header = (isAsync) => `${scope}{ return (${isAsync ? "async " : ""}function* () { "use strict"; ` +
    `__jsbExport({${ArrayPrototypeJoin(getters, ", ")}}); yield; `;
  const body = applyEdits(record.source, analysis.edits);
  const source0 = StringPrototypeStartsWith(body, "#!") ? "//" + StringPrototypeSlice(body, 2) : body;
  let text = header(false);
  try {
    record.compiled = internal.compile(text + source0 + "\n})(); }", record.filename, ...moduleParams);
  } catch (error) {
    if (!(error instanceof SyntaxError) || !analysis.hasAwait) throw error;
    text = header(true);
    record.compiled = internal.compile(text + source0 + "\n})(); }", record.filename, ...moduleParams);
    record.isAsync = true;
  }
  internal.setHeaderLength(record.filename, outerHeaderLength + text.length);
}

/// Loads every module `root` depends on (reading, resolving, compiling), then instantiates and links the new
/// ES modules. On failure the records created for this graph are dropped. Returns a promise when a new module
/// is async (its generator reaches its first `yield` only after a microtask): evaluate after it settles.
function loadGraph(root, rootSource) {
  const created = [];
  let ready;
  const stack = [root];
  try {
    while (stack.length > 0) {
      const record = stack.pop();
      if (record.status !== "new") continue;
      ArrayPrototypePush(created, record);
      record.status = "loading";
      if (record.kind !== "esm" && record.kind !== "detect") continue;
      parse(record, record === root ? rootSource : undefined);
      if (record.kind !== "esm") continue;
      for (const request of record.analysis.requests) {
        let dep;
        try {
          dep = recordFor(resolve(request.specifier, record.filename, record.filename), request.type, record.filename);
        } catch (error) {
          // Messages name the importer; only a failure pays for working out the import's line and column.
          if (error !== null && typeof error === "object" && typeof error.message === "string") {
            error.message = StringPrototypeReplace(error.message, " from " + record.filename,
              " from " + requestPosition(record, request));
          }
          pointAt(error, record, request.offset);
          throw error;
        }
        ArrayPrototypePush(record.deps, dep);
        if (dep.status === "new") ArrayPrototypePush(stack, dep);
      }
    }
    for (const record of created) {
      if (record.kind !== "esm") continue;
      const step = instantiate(record);
      if (record.isAsync) ArrayPrototypePush(ready ??= [], step);
    }
    for (const record of created) if (record.kind === "esm") link(record);
  } catch (error) {
    for (const record of created) if (registry.get(record.key) === record) registry.delete(record.key);
    throw error;
  }
  for (const record of created) if (record.status === "loading") record.status = "linked";
  return ready === undefined ? undefined : PromiseAll(ready);
}

/// Makes an error's reported position the import at `offset` of `record`.
function pointAt(error, record, offset) {
  if (error === null || typeof error !== "object") return;
  const [line, column] = StringPrototypeSplit(positionOf(record.source, offset), ":");
  try {
    ObjectDefineProperty(error, "sourceURL", { value: record.filename, writable: true, configurable: true });
    ObjectDefineProperty(error, "line", { value: Number(line), writable: true, configurable: true });
    ObjectDefineProperty(error, "column", { value: Number(column), writable: true, configurable: true });
  } catch {}
  // The position is in the module's own text, not after a wrapper header.
  internal.setHeaderLength(record.filename, 0);
}

function instantiate(record) {
  record.imports = ObjectCreate(null);
  const importer = (specifier, options) => importFrom(specifier, options, record.filename);
  const meta = makeMeta(record);
  record.generator = record.compiled(record.imports, meta, importer, (getters) => { record.getters = getters; });
  record.compiled = undefined;
  return record.generator.next();
}

function makeMeta(record) {
  const filename = record.filename;
  const meta = ObjectCreate(null);
  meta.url = StringPrototypeStartsWith(filename, "/") ? fileURL(filename) : filename;
  meta.filename = filename;
  meta.dirname = internal.dirname(filename);
  meta.main = record === mainRecord;
  meta.resolve = (specifier) => {
    specifier = String(specifier);
    if (StringPrototypeStartsWith(specifier, "./") || StringPrototypeStartsWith(specifier, "../") ||
      StringPrototypeStartsWith(specifier, "/")) {
      return fileURL(internal.normalizePath(StringPrototypeStartsWith(specifier, "/") ? specifier
        : meta.dirname + "/" + specifier));
    }
    if (StringPrototypeStartsWith(specifier, "file:")) return specifier;
    const resolved = resolve(specifier, filename, filename);
    return resolved.path !== undefined ? fileURL(resolved.path)
      : StringPrototypeStartsWith(resolved.builtin, "jsbridge:") ? resolved.builtin : "node:" + resolved.builtin;
  };
  return meta;
}

/// Resolves export `name` of `record`: `{record, name}` for an ES module's own export (its getter),
/// `{namespace}` for a namespace re-export, `{dynamic, name}` for a CommonJS/JSON/built-in module's property;
/// null when there is none.
function resolveExport(record, name, visited) {
  if (record.kind !== "esm") return { dynamic: record, name };
  const key = record.key + "\0" + name;
  if (visited.has(key)) return null;
  visited.add(key);
  const analysis = record.analysis;
  for (const [exported] of analysis.locals) if (exported === name) return { record, name };
  for (const [exported, imported, index] of analysis.indirect) {
    if (exported !== name) continue;
    if (imported === "*") return { namespace: record.deps[index] };
    return resolveExport(record.deps[index], imported, visited);
  }
  if (name === "default") return null;
  for (const index of analysis.stars) {
    const dep = record.deps[index];
    if (dep.kind !== "esm") {
      if (dep.status === "evaluated" && dep.value != null && name in Object(dep.value)) return { dynamic: dep, name };
      continue;
    }
    const found = resolveExport(dep, name, visited);
    if (found !== null) return found;
  }
  return null;
}

/// The getter that reads a resolved export.
function getterFor(resolution) {
  if (resolution.record !== undefined) return resolution.record.getters[resolution.name];
  if (resolution.namespace !== undefined) {
    const target = resolution.namespace;
    return () => namespaceOf(target);
  }
  const { dynamic, name } = resolution;
  return name === "default" ? () => dynamic.value : () => dynamic.value?.[name];
}

function link(record) {
  const { bindings, requests } = record.analysis;
  for (const [imported, local, index] of bindings) {
    const dep = record.deps[index];
    let get;
    if (imported === "*") {
      get = () => namespaceOf(dep);
    } else {
      const resolution = resolveExport(dep, imported, new SafeSet());
      if (resolution === null) {
        const request = requests[index];
        const error = syntaxErrorAt(`The requested module '${request.specifier}' does not provide an export named ` +
          `'${imported}'`, record.filename, record.source, request.offset);
        internal.setHeaderLength(record.filename, 0);
        throw error;
      }
      get = getterFor(resolution);
    }
    ObjectDefineProperty(record.imports, local, { get, enumerable: true, configurable: false });
  }
}

/// Every export name of `record` (its own, re-exported, and from `export *` except `default`).
function exportNames(record, names, visited) {
  if (visited.has(record)) return;
  visited.add(record);
  if (record.kind !== "esm") {
    const value = record.value;
    if (value !== null && (typeof value === "object" || typeof value === "function")) {
      for (const key of ObjectKeys(value)) if (key !== "default") names.add(key);
    }
    return;
  }
  for (const [exported] of record.analysis.locals) names.add(exported);
  for (const [exported] of record.analysis.indirect) names.add(exported);
  for (const index of record.analysis.stars) {
    const inner = new SafeSet();
    exportNames(record.deps[index], inner, visited);
    for (const name of inner) if (name !== "default") names.add(name);
  }
}

/// The module namespace object: one live getter per export name, sorted, not extensible.
function namespaceOf(record) {
  if (record.namespace !== undefined) return record.namespace;
  const namespace = ObjectCreate(null);
  const names = [];
  if (record.kind === "esm") {
    const set = new SafeSet();
    exportNames(record, set, new SafeSet());
    for (const name of set) ArrayPrototypePush(names, name);
  } else {
    ArrayPrototypePush(names, "default");
    const value = record.value;
    if (value !== null && (typeof value === "object" || typeof value === "function")) {
      for (const key of ObjectKeys(value)) if (key !== "default") ArrayPrototypePush(names, key);
    }
  }
  ArrayPrototypeSort(names);
  for (const name of names) {
    const resolution = record.kind === "esm" ? resolveExport(record, name, new SafeSet()) : { dynamic: record, name };
    if (resolution === null) continue;
    ObjectDefineProperty(namespace, name, { get: getterFor(resolution), enumerable: true, configurable: false });
  }
  ObjectDefineProperty(namespace, SymbolToStringTag, { value: "Module" });
  ObjectPreventExtensions(namespace);
  // A CommonJS module's namespace is complete only once it ran.
  if (record.kind === "esm" || record.status === "evaluated") record.namespace = namespace;
  return namespace;
}

// MARK: - Evaluation

/// Evaluates `record` after its dependencies (post-order); returns a promise when it, or a dependency,
/// awaits (top-level await), else undefined. A module in a cycle that is already evaluating is skipped.
function evaluate(record) {
  switch (record.status) {
    case "evaluated":
    case "evaluating":
      return undefined;
    case "evaluating-async":
      return record.promise;
    case "errored":
      throw record.error;
  }
  record.status = "evaluating";
  let pending;
  try {
    for (const dep of record.deps) {
      const promise = evaluate(dep);
      if (promise !== undefined) ArrayPrototypePush(pending ??= [], promise);
    }
    if (pending === undefined && !record.isAsync) {
      run(record);
      record.status = "evaluated";
      return undefined;
    }
  } catch (error) {
    record.status = "errored";
    record.error = error;
    throw error;
  }
  record.status = "evaluating-async";
  // An async module whose dependencies are done starts at once (its body runs up to its first await).
  record.promise = pending === undefined ? run(record) : PromisePrototypeThen(PromiseAll(pending), () => run(record));
  PromisePrototypeThen(record.promise, () => {
    record.status = "evaluated";
  }, (error) => {
    record.status = "errored";
    record.error = error;
  });
  return record.promise;
}

/// Runs one module's body (a promise for an async ES module).
function run(record) {
  switch (record.kind) {
    case "esm": {
      const generator = record.generator;
      record.generator = undefined;
      const step = generator.next();
      return record.isAsync ? PromisePrototypeThen(step, () => undefined) : undefined;
    }
    case "cjs":
      record.value = internal.loadCommonJS(record.filename, null);
      return undefined;
    case "json":
      try {
        record.value = JSONParse(internal.readFile(record.filename));
      } catch (error) {
        error.message = record.filename + ": " + error.message;
        throw error;
      }
      return undefined;
  }
  return undefined;
}

// MARK: - Entry points

/// `file:line:column` of the script code calling into the runtime (from a stack trace), else `fallback`.
function callerPosition(fallback) {
  const stack = new Error().stack;
  if (typeof stack !== "string") return fallback;
  for (const line of StringPrototypeSplit(stack, "\n")) {
    const at = StringPrototypeIndexOf(line, "@");
    const location = StringPrototypeSlice(line, at + 1);
    if (at === -1 || StringPrototypeStartsWith(location, "jsbridge:") || location === "[native code]") continue;
    return /:\d+:\d+$/.test(location) ? internal.sourcePosition(location) : fallback;
  }
  return fallback;
}

let mainRecord;
let evalCount = 0;

/// `import(specifier, options)` from the module (or CommonJS file) `filename`: a promise of the namespace.
function importFrom(specifier, options, filename) {
  const where = callerPosition(filename);
  return new Promise((resolvePromise, reject) => {
    let type;
    if (options !== undefined && options !== null) {
      const attributes = options.with ?? options.assert;
      if (attributes !== undefined && attributes !== null) type = attributes.type;
    }
    const record = recordFor(resolve(String(specifier), filename, where), type, where);
    const ready = record.status === "new" ? loadGraph(record, undefined) : undefined;
    const finish = () => {
      const promise = evaluate(record);
      if (promise === undefined) resolvePromise(namespaceOf(record));
      else PromisePrototypeThen(promise, () => resolvePromise(namespaceOf(record)), reject);
    };
    if (ready === undefined) finish();
    else PromisePrototypeThen(ready, () => {
      try {
        finish();
      } catch (error) {
        reject(error);
      }
    }, reject);
  });
}

/// As Node: when nothing is left to run but the main module is still awaiting (a promise that can never
/// settle), the process warns and exits with code 13 rather than ending as if it had finished.
function warnIfUnsettled(record) {
  globalThis.process.on("exit", (code) => {
    if (code !== 0 || record.status !== "evaluating-async") return;
    internal.print(2, `Warning: Detected unsettled top-level await in ${record.filename}\n`);
    globalThis.process.exitCode = 13;
  });
}

function runRoot(record, source) {
  mainRecord = record;
  const ready = loadGraph(record, source);
  const report = (error) => internal.reportUncaught(error, "exception");
  const start = () => {
    const promise = evaluate(record);
    if (promise === undefined) return;
    PromisePrototypeThen(promise, undefined, report);
    warnIfUnsettled(record);
  };
  if (ready === undefined) start();
  else PromisePrototypeThen(ready, () => {
    try {
      start();
    } catch (error) {
      report(error);
    }
  }, report);
}

/// The runtime's ES module entry points (module.js calls them).
internal.esm = {
  runMainFile(path) {
    const record = new ModuleRecord(path, path, "esm");
    registry.set(path, record);
    runRoot(record, undefined);
  },
  runMainEval(code) {
    const filename = internal.cwd() + `/[eval${++evalCount}]`;
    const record = new ModuleRecord(filename, filename, "esm");
    registry.set(filename, record);
    runRoot(record, code);
  },
  importFrom,
  /// `require()` of an ES module: its namespace, when it evaluates without awaiting.
  requireModule(path, parent) {
    let record = registry.get(path);
    if (record === undefined) {
      record = new ModuleRecord(path, path, "esm");
      registry.set(path, record);
    }
    const ready = record.status === "new" ? loadGraph(record, undefined) : undefined;
    const promise = ready ?? evaluate(record);
    if (promise !== undefined) {
      throw codedError(Error, `require() cannot load ${path}` + (parent ? ` (from ${parent})` : "") +
        ": it (or a module it imports) uses top-level await; use import() instead", "ERR_REQUIRE_ASYNC_MODULE");
    }
    return namespaceOf(record);
  },
  hasModuleSyntax(source) {
    try {
      const analysis = analyze(source, "");
      // Called after the source failed to compile as CommonJS: `await` there means top-level await.
      return analysis.moduleSyntax || analysis.hasAwait;
    } catch {
      return false;
    }
  },
  rewriteDynamicImports(source) {
    let analysis;
    try {
      analysis = analyze(source, "", true);
    } catch {
      return source; // the engine reports the syntax error itself
    }
    return applyEdits(source, analysis.edits);
  },
  analyze,
  /// The scanner, for js/repl.js (its top-level await rewrite).
  tokenize,
};
