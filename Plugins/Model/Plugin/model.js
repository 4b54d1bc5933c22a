// The `Model` global: schema-driven JSON <-> model conversion (docs/model-conversion.md).
// Conversion runs natively (plugin "Model"); this file keeps the JS-only parts: hooks written in JS
// (`before`, `resolve`, `after`), projecting models back to their declared fields (so back-references added
// by hooks never reach the serializer), and the convenience API.

const PLUGIN = "Model";
const { BridgeError } = runtime;
// The built-ins as captured before the script ran: a script's `Map.prototype.get = ...` does not reach here.
const {
  Array: ArrayConstructor, ArrayIsArray, ArrayPrototypePop, ArrayPrototypePush, JSONParse, JSONStringify, MathMax,
  MathMin,
  MethodEndsWith, MethodForEach, MethodIncludes, MethodJoin, MethodMap, MethodReplace, MethodSlice, MethodSome,
  MethodSplit, MethodStartsWith, MethodTrim, NumberIsSafeInteger, Object: ObjectConstructor, ObjectCreate,
  ObjectEntries, ObjectFreeze, ObjectGetPrototypeOf, ObjectHasOwn, ObjectKeys, ObjectValues, PromisePrototypeThen,
  PromiseReject, RegExpPrototypeExec, RegExpPrototypeTest, SafeMap, SafeRegExp, SafeSet,
  StringPrototypeIsWellFormed,
} = runtime.primordials;
const schemas = new SafeMap();   // name -> { fields: {name: {type}}, options }
const hooks = new SafeMap();     // name -> { after, before, resolve }
let hookCache = null;        // name -> whether converting it runs any JS `after` hook (transitively)
let prepCache = null;        // name -> whether converting it runs any JS `before`/`resolve` hook (transitively)
const inputKeys = new SafeMap(); // name -> { field: [candidate input keys] } (from the native schema)
// Added to an input object whose model a `resolve` hook chose; the model's native resolver reads it
// (ModelPlugin.resolvedModelKey).
const RESOLVED_KEY = "\u0000model";
// Depth limits, declared once by ModelPlugin.swift: the pre-pass that runs `before`/`resolve` hooks stops at the
// deepest `maxDepth` the native converter allows; projection stops at the bridge's JSON limit.
const { defaultMaxDepth, maxDepthLimit, maxBridgeDepth } = plugin.constants;

/// `[Name]` and `{Name}`: a collection of models.
const COLLECTION = /^([[{])([A-Za-z_$][\w$.]*)[\]}]$/;

/// The collection (`[Name]` or `{Name}`) `name` names, as `[isArray, model name]`, or null.
function collectionOf(name) {
  // The regex only for a name that can be a collection's (an uncurried exec costs ~0.1 us a call).
  const match = typeof name === "string" && (name[0] === "[" || name[0] === "{") ? RegExpPrototypeExec(COLLECTION, name) : null;
  return match === null ? null : [match[1] === "[", match[2]];
}

/// Each item of an array (`isArray`) or object `value` passed through `one` (`Model.convert` or `Model.toJSON`
/// of model `name`, by `action`), the issues of all of them in one `DATA_FORMAT` error.
function eachInCollection(isArray, name, value, action, one) {
  const label = isArray ? `[${name}]` : `{${name}}`;
  if (!schemas.has(name)) sync("schema", { name });   // UNKNOWN_MODEL, even for an empty collection
  const valid = isArray ? ArrayIsArray(value) : value !== null && typeof value === "object" && !ArrayIsArray(value);
  if (!valid) {
    throw new BridgeError("DATA_FORMAT", `Invalid ${label}: expected ${isArray ? "an array" : "an object"} of ${name}.`, {
      plugin: PLUGIN, action,
      data: { model: label, issues: [{ path: "", code: "TYPE", message: `expected ${isArray ? "an array" : "an object"}`, input: null }] },
    });
  }
  const issues = [];
  const convertItem = (item, at) => {
    try {
      return one(item);
    } catch (error) {
      if (!(error instanceof BridgeError) || error.code !== "DATA_FORMAT") throw error;
      for (const issue of error.data?.issues ?? []) {
        ArrayPrototypePush(issues, { ...issue, path: at + (issue.path === "" || MethodStartsWith(issue.path, "[") ? "" : ".") + issue.path });
      }
      return undefined;
    }
  };
  let out;
  if (isArray) {
    out = MethodMap(value, (item, index) => convertItem(item, `[${index}]`));
  } else {
    out = {};
    for (const key of ObjectKeys(value)) out[key] = convertItem(value[key], RegExpPrototypeTest(/^[A-Za-z_$][\w$]*$/, key) ? key : `[${JSONStringify(key)}]`);
  }
  if (issues.length > 0) {
    throw new BridgeError("DATA_FORMAT", `Invalid ${label}: ` + MethodJoin(MethodMap(MethodSlice(issues, 0, 3), (i) => `${i.path}: ${i.message}`), "; "), {
      plugin: PLUGIN, action, data: { model: label, issues },
    });
  }
  return out;
}

function sync(action, args) {
  try {
    return plugin.execSync(action, [args]);
  } catch (error) {
    throw callError(error, args);
  }
}

/// The bridge cannot carry a value nested deeper than its JSON limit (`maxBridgeDepth` levels); such a call reports what the
/// native converter reports for deep input instead: `TOO_DEEP` at the path where its depth limit is reached.
function callError(error, args) {
  if (error instanceof TypeError && RegExpPrototypeTest(/Nesting deeper than/, error.message) && args !== null &&
      typeof args === "object" && "value" in args && typeof args.name === "string") {
    return tooDeep(args.name, args.value, (args.options && args.options.maxDepth) || defaultMaxDepth);
  }
  return error;
}

/// A `DATA_FORMAT` error with one `TOO_DEEP` issue at the first path (depth first) `limit` levels down.
function tooDeep(name, value, limit) {
  let found = null;
  const stack = [{ value, depth: 0, parent: null, part: "" }];
  while (stack.length !== 0 && found === null) {
    const node = ArrayPrototypePop(stack);
    if (node.depth >= limit) { found = node; break; }
    const v = node.value;
    if (v === null || typeof v !== "object") continue;
    if (ArrayIsArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) ArrayPrototypePush(stack, { value: v[i], depth: node.depth + 1, parent: node, part: `[${i}]` });
    } else {
      const keys = ObjectKeys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        ArrayPrototypePush(stack, { value: v[keys[i]], depth: node.depth + 1, parent: node, part: keys[i] });
      }
    }
  }
  const parts = [];
  for (let n = found; n !== null && n.parent !== null; n = n.parent) ArrayPrototypePush(parts, n.part);
  let path = "";
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i];
    path += MethodStartsWith(part, "[") || path === "" ? part : "." + part;
  }
  const issue = { path, code: "TOO_DEEP", message: `nesting deeper than ${limit} levels`, input: null };
  return new BridgeError("DATA_FORMAT", `${name}: ${path}: ${issue.message}`,
    { plugin: PLUGIN, data: { model: name, issues: [issue] } });
}

function checkName(name) {
  if (typeof name !== "string" || name === "") {
    throw new BridgeError("INVALID_ARGUMENT", `A model name must be a non-empty string, got ${typeof name}.`,
      { plugin: PLUGIN, data: { issues: [{ path: "name", message: "expected a string" }] } });
  }
}

/// Model names a type description refers to ("[Room]", "Set<Room>", "{Room}", "Room?").
function parseType(type) {
  let t = MethodTrim(type);
  if (MethodEndsWith(t, "?")) return { kind: "optional", of: parseType(MethodSlice(t, 0, -1)) };
  if (MethodEndsWith(t, "[]")) return { kind: "array", of: parseType(MethodSlice(t, 0, -2)) };
  if (MethodStartsWith(t, "[") && MethodEndsWith(t, "]")) return { kind: "array", of: parseType(MethodSlice(t, 1, -1)) };
  if (MethodStartsWith(t, "Set<") && MethodEndsWith(t, ">")) return { kind: "array", of: parseType(MethodSlice(t, 4, -1)) };
  if (MethodStartsWith(t, "{") && MethodEndsWith(t, "}")) return { kind: "map", of: parseType(MethodSlice(t, 1, -1)) };
  if (MethodStartsWith(t, "Map<") && MethodEndsWith(t, ">")) return { kind: "map", of: parseType(MethodSlice(t, 4, -1)) };
  if (RegExpPrototypeTest(/^[A-Z]/, t)) return { kind: "model", name: t };
  return { kind: "scalar", name: t };
}

function modelsIn(type, out) {
  if (type.kind === "model") ArrayPrototypePush(out, type.name);
  else if (type.of) modelsIn(type.of, out);
  return out;
}

function remember(name, described) {
  const fields = ObjectCreate(null);
  for (const [field, spec] of ObjectEntries(described.fields)) fields[field] = parseType(spec.type);
  schemas.set(name, { fields, options: described.options || {} });
  hookCache = null;
  prepCache = null;
  inputKeys.clear();
}

/// Whether model `name`, or a model it may contain, has a hook that `test` accepts (memoized in `cache`).
function reachesHook(name, cache, test, seen = new SafeSet()) {
  if (cache.has(name)) return cache.get(name);
  if (seen.has(name)) return false;
  seen.add(name);
  const hook = hooks.get(name);
  let result = hook !== undefined && test(hook);
  const schema = schemas.get(name);
  if (schema !== undefined && !result) {
    const disc = schema.options.discriminator;
    const names = [];
    for (const type of ObjectValues(schema.fields)) modelsIn(type, names);
    if (disc) ArrayPrototypePush(names, ...ObjectValues(disc.mapping));
    result = MethodSome(names, (n) => reachesHook(n, cache, test, seen));
  }
  cache.set(name, result);
  return result;
}

// A resolver may pick any model, so a model with one always takes the walk.
const hasAfterHook = (hook) => hook.after !== undefined || hook.resolve !== undefined;
const hasPrepassHook = (hook) => hook.before !== undefined || hook.resolve !== undefined;

function runsHooks(name) {
  if (hookCache === null) hookCache = new SafeMap();
  return reachesHook(name, hookCache, hasAfterHook);
}

function concreteName(name, value) {
  const schema = schemas.get(name);
  const disc = schema && schema.options.discriminator;
  if (!disc || value === null || typeof value !== "object") return name;
  const tag = String(ObjectHasOwn(value, disc.key) ? value[disc.key] : undefined);
  return ObjectHasOwn(disc.mapping, tag) ? disc.mapping[tag] : name;
}

/// Runs JS `after` hooks bottom-up over a converted value: `after(model, parent)`. `resolved` maps the output
/// paths of values whose model a `resolve` hook chose to that model (or is null).
function applyHooks(type, value, parent, path, resolved) {
  if (value === null || value === undefined) return;
  switch (type.kind) {
    case "optional": applyHooks(type.of, value, parent, path, resolved); break;
    case "array":
      for (let i = 0; i < value.length; i++) applyHooks(type.of, value[i], parent, resolved && `${path}[${i}]`, resolved);
      break;
    case "map":
      for (const key of ObjectKeys(value)) applyHooks(type.of, value[key], parent, resolved && `${path}/${key}`, resolved);
      break;
    case "model": {
      const chosen = resolved && resolved.get(path);
      const name = concreteName(chosen ?? type.name, value);
      if (!runsHooks(name)) return;
      const schema = schemas.get(name);
      if (schema !== undefined) {
        for (const [field, fieldType] of ObjectEntries(schema.fields)) {
          applyHooks(fieldType, value[field], value, resolved && `${path}/${field}`, resolved);
        }
      }
      const hook = hooks.get(name);
      if (hook !== undefined && hook.after !== undefined) {
        const replaced = hook.after(value, parent);
        if (replaced !== undefined && replaced !== value) throw new TypeError(`The 'after' hook of model '${name}' must modify the model in place and return nothing.`);
      }
      break;
    }
  }
}

/// A copy of a model restricted to its declared fields (drops back-references and extra properties;
/// cycles through undeclared properties cannot reach the serializer).
function project(type, value, depth) {
  if (value === null || value === undefined || typeof value !== "object" || depth > maxBridgeDepth) return value;
  switch (type.kind) {
    case "optional": return project(type.of, value, depth);
    case "array": return ArrayIsArray(value) ? MethodMap(value, (v) => project(type.of, v, depth + 1)) : value;
    case "map": {
      const out = ObjectCreate(null);   // a key `__proto__` stays a key
      for (const key of ObjectKeys(value)) out[key] = project(type.of, value[key], depth + 1);
      return out;
    }
    case "model": {
      if (ArrayIsArray(value)) return value;   // not a model: the native side says so
      // A `resolve` hook is asked with the model object; the native side reads its choice from RESOLVED_KEY.
      const hook = hooks.get(type.name);
      const target = hook !== undefined && hook.resolve !== undefined ? hook.resolve(value) : undefined;
      const chosen = typeof target === "string" && target !== "" ? target : undefined;
      const schema = schemas.get(concreteName(chosen ?? type.name, value));
      if (schema === undefined) return value;
      // Own properties only: an inherited `constructor` (a function) or a polluted `Object.prototype.x` is no
      // field of the model.
      const out = ObjectCreate(null);
      for (const [field, fieldType] of ObjectEntries(schema.fields)) {
        if (ObjectHasOwn(value, field)) out[field] = project(fieldType, value[field], depth + 1);
      }
      if (chosen !== undefined) out[RESOLVED_KEY] = chosen;
      return out;
    }
    default: return value instanceof Date ? value.toISOString() : value;
  }
}

function projectModel(name, value) {
  return schemas.has(name) ? project({ kind: "model", name }, value, 0) : value;
}

function finish(name, value, resolved) {
  if (hooks.size !== 0 && runsHooks(name)) applyHooks({ kind: "model", name }, value, undefined, "", resolved);
  return value;
}

// ---- `before` and `resolve` hooks -------------------------------------------------------------------------
// They run in a JS pre-pass over the input, walking it by the schema (fields found by their candidate input
// keys, as the native converter finds them), before the (native or fast-path) conversion. Input objects are
// never modified by the walk itself: a changed child gives its parent a shallow copy.

function runsPrepass(name) {
  if (prepCache === null) prepCache = new SafeMap();
  return reachesHook(name, prepCache, hasPrepassHook);
}

function typeRunsPrepass(type) {
  return MethodSome(modelsIn(type, []), (n) => runsPrepass(n));
}

function keysOf(name) {
  let keys = inputKeys.get(name);
  if (keys === undefined) {
    keys = sync("inputKeys", { name });
    inputKeys.set(name, keys);
  }
  return keys;
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !ArrayIsArray(value);
}

/// Reads a candidate key (a literal key first, then a dotted path), or undefined.
function readKey(object, key) {
  if (ObjectHasOwn(object, key)) return object[key];
  if (!MethodIncludes(key, ".")) return undefined;
  let current = object;
  for (const part of MethodSplit(key, ".")) {
    if (!isPlainObject(current) || !ObjectHasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

/// A copy of `object` with `key` (a literal key, else a dotted path) set to `value`.
function writeKey(object, key, value) {
  if (ObjectHasOwn(object, key) || !MethodIncludes(key, ".")) return { ...object, [key]: value };
  const [first, ...rest] = MethodSplit(key, ".");
  return { ...object, [first]: writeKey(object[first], MethodJoin(rest, "."), value) };
}

/// YYModel's `yy_modelWithJSON:` and YFProtocolModel take JSON text as well as a dictionary: a string that
/// parses as a JSON object or array is converted as that value; any other string is converted as itself (a
/// model's `TYPE` issue, as before).
function fromJSONText(value) {
  if (typeof value !== "string") return value;
  const text = MethodTrim(value);
  if (text[0] !== "{" && text[0] !== "[") return value;
  try {
    const parsed = JSONParse(text);
    return parsed !== null && typeof parsed === "object" ? parsed : value;
  } catch {
    return value;
  }
}

/// Runs the `before`/`resolve` hooks in `value` (of `type`); returns the value to convert.
function prepare(type, value, depth, path, resolved) {
  if (value === null || value === undefined || depth > maxDepthLimit) return value;
  switch (type.kind) {
    case "optional": return prepare(type.of, value, depth, path, resolved);
    case "array": {
      if (!ArrayIsArray(value)) return value;
      let out = value;
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        const next = prepare(type.of, item, depth + 1, `${path}[${i}]`, resolved);
        if (next !== item) {
          if (out === value) out = MethodSlice(value);
          out[i] = next;
        }
      }
      return out;
    }
    case "map": {
      if (!isPlainObject(value)) return value;
      let out = value;
      for (const key of ObjectKeys(value)) {
        const item = value[key];
        const next = prepare(type.of, item, depth + 1, `${path}/${key}`, resolved);
        if (next !== item) {
          if (out === value) out = { ...value };
          out[key] = next;
        }
      }
      return out;
    }
    case "model": return prepareModel(type.name, value, depth, path, resolved);
    default: return value;
  }
}

function prepareModel(name, value, depth, path, resolved) {
  if (value === null || value === undefined || depth > maxDepthLimit || !runsPrepass(name)) return value;
  // The native order: the resolver of the declared model, then the chosen model's discriminator, then `before`.
  let chosen;
  const hook = hooks.get(name);
  if (hook !== undefined && hook.resolve !== undefined) {
    const target = hook.resolve(value);
    if (target !== undefined && target !== null && target !== name) {
      if (typeof target !== "string" || target === "") {
        throw new TypeError(`The 'resolve' hook of model '${name}' must return a model name (a string), null or undefined.`);
      }
      chosen = target;
      resolved.set(path, target);
    }
  }
  const concrete = concreteName(chosen ?? name, value);
  let input = value;
  const own = hooks.get(concrete);
  if (own !== undefined && own.before !== undefined) {
    const replaced = own.before(value);
    if (replaced !== undefined) input = replaced;
  }
  const schema = schemas.get(concrete);
  if (schema !== undefined && isPlainObject(input)) {
    let keys;
    for (const [field, fieldType] of ObjectEntries(schema.fields)) {
      if (!typeRunsPrepass(fieldType)) continue;
      if (keys === undefined) keys = keysOf(concrete);
      for (const key of keys[field] || []) {
        const child = readKey(input, key);
        if (child === undefined) continue;
        const next = prepare(fieldType, child, depth + 1, `${path}/${field}`, resolved);
        if (next !== child) input = writeKey(input, key, next);
      }
    }
  }
  if (chosen !== undefined && isPlainObject(input)) input = { ...input, [RESOLVED_KEY]: chosen };
  return input;
}

/// `[value to convert, resolved paths or null]` for a top-level conversion of `name`.
function prepareInput(name, value) {
  if (hooks.size === 0 || typeof name !== "string" || !runsPrepass(name)) return [value, null];
  const resolved = new SafeMap();
  const input = prepareModel(name, value, 0, "", resolved);
  return [input, resolved.size === 0 ? null : resolved];
}


// ---- Fast path ------------------------------------------------------------------------------------------
// `Model.convert` without options first tries a JS function compiled from the model's plan (native action
// "fastPlans"). It handles only input that needs no coercion and has no issue - every value already of the
// exact JS type, plain objects/arrays, strings well-formed and not null-like, URLs already valid - and returns
// exactly what the native converter would; anything else returns BAIL and the call goes to the native side
// (which reports issues as before). `{native: true}` forces the native path.
const BAIL = Symbol("bail");
const OBJECT_PROTO = ObjectConstructor.prototype;
const ARRAY_PROTO = ArrayConstructor.prototype;
const getProto = ObjectGetPrototypeOf;
const isArray = ArrayIsArray;
const isSafeInteger = NumberIsSafeInteger;
let fastFns = new SafeMap();     // name -> compiled function, or null when the model has no fast path
let nullLikes = null;        // Set of the native default null-like strings
const fastStats = { fast: 0, native: 0 };

/// What passes the native URL check (Coerce.urlString), for a non-empty string: either a valid scheme and its
/// colon, or no colon before the first '/', '?' or '#'; then no character <= U+0020, '"', '<' or '>', and no
/// surrogate (so a URL needs no separate well-formedness check; a URL with a valid pair only takes the native
/// path). One anchored pass: JSC scans it at ~1 ns per character (as a charCodeAt loop does), as fast as the
/// character class alone, where searching for a bad character or a bad colon took ~1.3 times as long; the
/// scan is most of a URL field's cost (docs/model-conversion.md). A `SafeRegExp`: the generated code calls
/// `URL_OK.test` as a method, which a script cannot replace.
const URL_OK = new SafeRegExp(/^(?:[A-Za-z][A-Za-z0-9+.\-]*:|(?=[^:\/?#]*(?:[\/?#]|$)))[^\x00-\x20"<>\ud800-\udfff]*$/);

function compileModel(name, plans, fns) {
  let counter = 0;
  const tmp = () => `t${counter++}`;
  // Strings of top-level fields whose well-formedness is checked once, on a rope of them
  // all, at the end (a rope of 8-bit strings is well-formed without scanning it).
  const deferredStrings = [];
  let minNull = Infinity, maxNull = -1;
  for (const s of nullLikes) { minNull = MathMin(minNull, s.length); maxNull = MathMax(maxNull, s.length); }
  const notNullLike = (src) => `(${src}.length > ${maxNull} || ${src}.length < ${minNull} || !NL.has(${src}))`;
  // Code validating `src` (never undefined/null unless the type allows it) into `dst`, or `return B`.
  // `top`: `dst` is a field result of this model (its string checks may be deferred).
  function gen(type, src, dst, top) {
    if (typeof type === "string") {
      switch (type) {
        case "string":
          if (top) {
            ArrayPrototypePush(deferredStrings, dst);
            return `if (typeof ${src} !== "string" || !${notNullLike(src)}) return B; ${dst} = ${src};`;
          }
          return `if (typeof ${src} !== "string" || !wellFormed(${src}) || !${notNullLike(src)}) return B; ${dst} = ${src};`;
        case "url":
          return `if (typeof ${src} !== "string" || !${notNullLike(src)} || ${src}.length === 0 || !URL_OK.test(${src})) return B; ${dst} = ${src};`;
        case "int":
          return `if (typeof ${src} !== "number" || !isSafeInteger(${src})) return B; ${dst} = ${src} + 0;`;
        case "double":
          return `if (typeof ${src} !== "number" || ${src} - ${src} !== 0) return B; ${dst} = ${src} + 0;`;
        case "bool":
          return `if (typeof ${src} !== "boolean") return B; ${dst} = ${src};`;
      }
      throw new Error("fast path: unexpected type " + type);
    }
    if (type.model !== undefined) {
      return `${dst} = F[${JSONStringify(type.model)}](${src}, d + 1); if (${dst} === B) return B;`;
    }
    if (type.optional !== undefined) {
      const inner = type.optional;
      // `url?`: an empty string converts to null (lenient).
      const emptyURL = inner === "url" ? ` else if (${src} === "") ${dst} = null;` : "";
      return `if (${src} === null) ${dst} = null;${emptyURL} else { ${gen(inner, src, dst, top)} }`;
    }
    if (type.array !== undefined) {
      const i = tmp(), e = tmp(), a = tmp(), n = tmp();
      return `if (!isArray(${src}) || getProto(${src}) !== AP || ${src}.toJSON !== undefined || d > 100) return B;` +
        ` const ${n} = ${src}.length; const ${a} = new Array(${n});` +
        ` for (let ${i} = 0; ${i} < ${n}; ${i}++) { const ${e} = ${src}[${i}]; if (${e} === undefined) return B; let x; ${gen(type.array, e, "x")} ${a}[${i}] = x; }` +
        ` ${dst} = ${a};`;
    }
    throw new Error("fast path: unexpected type " + JSONStringify(type));
  }
  const plan = plans[name];
  const lines = [`if (typeof o !== "object" || o === null || getProto(o) !== OP || o.toJSON !== undefined || d > 100) return B;`];
  // Every distinct key is read once; the object must have no other own enumerable property (the native
  // path serializes the whole input and rejects functions, symbols, BigInts and cycles anywhere in it).
  const keyVars = new SafeMap();
  for (const field of plan.fields) {
    for (const key of field.keys) {
      if (!keyVars.has(key)) {
        const k = `k${keyVars.size}`;
        keyVars.set(key, k);
        ArrayPrototypePush(lines, `const ${k} = o[${JSONStringify(key)}];`);
      }
    }
  }
  // A sum that starts at 0, so that one key's `(k0 !== undefined)` is a number, not a boolean `!==` a count.
  const present = "0" + MethodJoin(MethodMap([...keyVars.values()], (k) => ` + (${k} !== undefined)`), "");
  ArrayPrototypePush(lines, `if (keys(o).length !== ${present}) return B;`);
  const out = [];
  MethodForEach(plan.fields, (field, index) => {
    const r = `r${index}`;
    const optional = typeof field.type === "object" && field.type.optional !== undefined;
    const [v, ...others] = MethodMap(field.keys, (key) => keyVars.get(key));
    ArrayPrototypePush(lines, `let ${r};`);
    let absent;
    if (!field.required) {
      absent = `${r} = null;`;
    } else if (optional) {
      // Required but nullable: an explicit null (under any key) converts to null; missing everywhere is an issue.
      absent = `if (${MethodJoin(MethodMap([v, ...others], (x) => `${x} === null`), " || ")}) ${r} = null; else return B;`;
    } else {
      absent = "return B;";
    }
    const otherChecks = MethodJoin(MethodMap(others, (w) => `if (${w} !== undefined && ${w} !== null) return B;`), " ");
    ArrayPrototypePush(lines, `if (${v} === undefined || ${v} === null) { ${otherChecks} ${absent} } else { ${gen(field.type, v, r, true)} }`);
    ArrayPrototypePush(out, `${JSONStringify(field.name)}: ${r}`);
  });
  // Joined with "a" so that surrogates of neighbouring strings cannot pair up; a null result joins as "null",
  // which is harmless.
  if (deferredStrings.length !== 0) ArrayPrototypePush(lines, `if (!wellFormed("" + ${MethodJoin(deferredStrings, ' + "a" + ')})) return B;`);
  ArrayPrototypePush(lines, `return { ${MethodJoin(out, ", ")} };`);
  const body = MethodJoin(lines, "\n");
  const factory = new Function("B", "F", "OP", "AP", "getProto", "isArray", "isSafeInteger", "NL", "URL_OK", "keys",
    "wellFormed", `return function fast_${MethodReplace(name, /[^A-Za-z0-9_]/g, "_")}(o, d) {\n${body}\n};`);
  return factory(BAIL, fns, OBJECT_PROTO, ARRAY_PROTO, getProto, isArray, isSafeInteger, nullLikes, URL_OK, ObjectKeys,
    StringPrototypeIsWellFormed);
}

/// The fast converter of `name` (compiled on first use), or null.
function fastConverter(name) {
  let fn = fastFns.get(name);
  if (fn !== undefined) return fn;
  fn = null;
  try {
    const { plans, nullLikes: list } = sync("fastPlans", { name });
    if (nullLikes === null) nullLikes = new SafeSet(list);
    if (plans[name]) {
      const fns = ObjectCreate(null);
      for (const model of ObjectKeys(plans)) {
        if (plans[model]) fns[model] = fastFns.get(model) || compileModel(model, plans, fns);
      }
      for (const model of ObjectKeys(fns)) if (!fastFns.has(model)) fastFns.set(model, fns[model]);
      fn = fns[name];
    }
  } catch (error) {
    fn = null;
  }
  fastFns.set(name, fn);
  return fn;
}

function conversionArgs(name, value, options) {
  checkName(name);
  const args = { name, value };
  if (options !== undefined && options !== null) args.options = options;
  return args;
}

const Model = {
  /// Defines a model: `Model.define("Hotel", { name: "string", rooms: ["Room"] }, { after(hotel) {...} })`.
  define(name, schema, options) {
    checkName(name);
    let nativeOptions = options;
    const jsHooks = {};
    if (options !== undefined && options !== null && typeof options === "object") {
      nativeOptions = {};
      for (const [key, value] of ObjectEntries(options)) {
        if (key === "after" || key === "before" || key === "resolve") {
          if (typeof value !== "function") throw new TypeError(`Model.define('${name}'): '${key}' must be a function.`);
          jsHooks[key] = value;
        } else if (typeof value === "function") {
          throw new TypeError(`Model.define('${name}'): '${key}' cannot be a function ` +
            "(only the 'before', 'resolve' and 'after' hooks run in JavaScript).");
        } else {
          nativeOptions[key] = value;
        }
      }
      // Tells the plugin to install the native resolver that reads RESOLVED_KEY.
      if (jsHooks.resolve !== undefined) nativeOptions.resolve = true;
    }
    const described = sync("define", { name, schema, options: nativeOptions ?? null });
    remember(name, described);
    fastFns = new SafeMap();
    if (ObjectKeys(jsHooks).length !== 0) hooks.set(name, jsHooks); else hooks.delete(name);
    hookCache = null;
    prepCache = null;
    return described;
  },

  /// Converts synchronously; throws `BridgeError` `DATA_FORMAT` with `data.issues`. `"[User]"` converts an
  /// array of models and `"{User}"` an object of them (YYModel's modelArrayWithClass /
  /// modelDictionaryWithClass), every item as `Model.convert("User", item)` would, issues under `[i]` / `key`.
  convert(name, value, options) {
    value = fromJSONText(value);
    const collection = collectionOf(name);
    if (collection !== null) {
      const [isArray, item] = collection;
      return eachInCollection(isArray, item, value, "convert", (v) => Model.convert(item, v, options));
    }
    let input = value, resolved = null;
    if (hooks.size !== 0) [input, resolved] = prepareInput(name, value);
    if (options === undefined || options === null) {
      const fast = typeof name === "string" ? fastConverter(name) : null;
      if (fast !== null) {
        const result = fast(input, 0);
        if (result !== BAIL) { fastStats.fast++; return finish(name, result, resolved); }
      }
    } else if (typeof options === "object" && options.native === true) {
      const { native, ...rest } = options;
      options = ObjectKeys(rest).length === 0 ? undefined : rest;
    }
    fastStats.native++;
    return finish(name, sync("convert", conversionArgs(name, input, options)), resolved);
  },

  /// Diagnostics of the JS fast path: `{fast, native}` call counts, and whether `name` has a fast path.
  fastPath(name) {
    const fn = name === undefined ? null : fastConverter(name);
    return { fast: fastStats.fast, native: fastStats.native, available: name === undefined ? undefined : fn !== null,
      source: fn === null ? undefined : fn.toString() };
  },

  /// Converts off the JS thread (for large payloads); rejects like `convert` throws.
  convertAsync(name, value, options) {
    try {
      value = fromJSONText(value);
      const [input, resolved] = prepareInput(name, value);
      const args = conversionArgs(name, input, options);
      try {
        return PromisePrototypeThen(plugin.call("convertAsync", args), (v) => finish(name, v, resolved), (error) => {
          throw callError(error, args);
        });
      } catch (error) {
        return PromiseReject(callError(error, args));
      }
    } catch (error) {
      return PromiseReject(error);
    }
  },

  /// Model -> JSON (first keys, nested key paths rebuilt, dates as ISO 8601); `"[User]"` and `"{User}"` as in
  /// `convert`. Only the model's own properties are read.
  toJSON(name, model) {
    checkName(name);
    const collection = collectionOf(name);
    if (collection !== null) {
      const [isArray, item] = collection;
      return eachInCollection(isArray, item, model, "toJSON", (v) => Model.toJSON(item, v));
    }
    return sync("toJSON", { name, value: projectModel(name, model) });
  },

  /// The issues `value` has as model `name` (an empty array when it converts).
  validate(name, value, options) {
    const args = conversionArgs(name, prepareInput(name, value)[0], options);
    try {
      return plugin.execSync("validate", [args]);
    } catch (error) {
      const mapped = callError(error, args);
      if (mapped !== error) return mapped.data.issues;
      throw error;
    }
  },

  /// Plausible data guessed from field names and types; `{ json: true }` gives the JSON (wire) form.
  sample(name, options) {
    checkName(name);
    const value = sync("sample", { name, json: !!(options && options.json) });
    return options && options.json ? value : finish(name, value);
  },

  /// The schema as defined, `{name, fields, options}`.
  schema(name) { checkName(name); return sync("schema", { name }); },
  /// Names of the defined models.
  names() { return sync("names", null); },

  /// A stable text form to persist (e.g. in Storage); `Model.unarchive` restores `{model, value}`.
  archive(name, model) { checkName(name); return sync("archive", { name, value: projectModel(name, model) }); },
  unarchive(text) {
    const result = sync("unarchive", { archive: text });
    result.value = finish(result.model, result.value);
    return result;
  },

  equals(name, a, b) { checkName(name); return sync("equals", { name, a: projectModel(name, a), b: projectModel(name, b) }); },
  hash(name, model) { checkName(name); return sync("hash", { name, value: projectModel(name, model) }); },
  copy(name, model) { return Model.convert(name, Model.toJSON(name, model)); },
  describe(name, model) { checkName(name); return sync("describe", { name, value: projectModel(name, model) }); },
};

runtime.defineGlobal("Model", ObjectFreeze(Model));
