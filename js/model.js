// The `Model` global: schema-driven JSON ⇄ model conversion (docs/model-conversion.md).
// Conversion runs natively (plugin "Model"); this file keeps the JS-only parts: hooks written in JS
// (`after`), projecting models back to their declared fields (so back-references added by hooks never
// reach the serializer), and the convenience API.

const PLUGIN = "Model";
const schemas = new Map();   // name → { fields: {name: {type}}, options }
const hooks = new Map();     // name → { after }
let hookCache = null;        // name → whether converting it runs any JS hook (transitively)

function sync(action, args) {
  return bridge.execSync(PLUGIN, action, [args]);
}

function checkName(name) {
  if (typeof name !== "string" || name === "") {
    throw new BridgeError("INVALID_ARGUMENT", `A model name must be a non-empty string, got ${typeof name}.`,
      { plugin: PLUGIN, data: { issues: [{ path: "name", message: "expected a string" }] } });
  }
}

/// Model names a type description refers to ("[Room]", "Set<Room>", "{Room}", "Room?").
function parseType(type) {
  let t = type.trim();
  if (t.endsWith("?")) return { kind: "optional", of: parseType(t.slice(0, -1)) };
  if (t.endsWith("[]")) return { kind: "array", of: parseType(t.slice(0, -2)) };
  if (t.startsWith("[") && t.endsWith("]")) return { kind: "array", of: parseType(t.slice(1, -1)) };
  if (t.startsWith("Set<") && t.endsWith(">")) return { kind: "array", of: parseType(t.slice(4, -1)) };
  if (t.startsWith("{") && t.endsWith("}")) return { kind: "map", of: parseType(t.slice(1, -1)) };
  if (t.startsWith("Map<") && t.endsWith(">")) return { kind: "map", of: parseType(t.slice(4, -1)) };
  if (/^[A-Z]/.test(t)) return { kind: "model", name: t };
  return { kind: "scalar", name: t };
}

function modelsIn(type, out) {
  if (type.kind === "model") out.push(type.name);
  else if (type.of) modelsIn(type.of, out);
  return out;
}

function remember(name, described) {
  const fields = Object.create(null);
  for (const [field, spec] of Object.entries(described.fields)) fields[field] = parseType(spec.type);
  schemas.set(name, { fields, options: described.options || {} });
  hookCache = null;
}

function runsHooks(name, seen = new Set()) {
  if (hookCache === null) hookCache = new Map();
  if (hookCache.has(name)) return hookCache.get(name);
  if (seen.has(name)) return false;
  seen.add(name);
  let result = hooks.has(name);
  const schema = schemas.get(name);
  if (schema !== undefined && !result) {
    const disc = schema.options.discriminator;
    const names = [];
    for (const type of Object.values(schema.fields)) modelsIn(type, names);
    if (disc) names.push(...Object.values(disc.mapping));
    result = names.some((n) => runsHooks(n, seen));
  }
  hookCache.set(name, result);
  return result;
}

function concreteName(name, value) {
  const schema = schemas.get(name);
  const disc = schema && schema.options.discriminator;
  if (!disc || value === null || typeof value !== "object") return name;
  const tag = value[disc.key];
  return disc.mapping[String(tag)] ?? name;
}

/// Runs JS `after` hooks bottom-up over a converted value: `after(model, parent)`.
function applyHooks(type, value, parent) {
  if (value === null || value === undefined) return;
  switch (type.kind) {
    case "optional": applyHooks(type.of, value, parent); break;
    case "array": for (const item of value) applyHooks(type.of, item, parent); break;
    case "map": for (const key of Object.keys(value)) applyHooks(type.of, value[key], parent); break;
    case "model": {
      const name = concreteName(type.name, value);
      if (!runsHooks(name)) return;
      const schema = schemas.get(name);
      if (schema !== undefined) {
        for (const [field, fieldType] of Object.entries(schema.fields)) applyHooks(fieldType, value[field], value);
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
  if (value === null || value === undefined || typeof value !== "object" || depth > 10000) return value;
  switch (type.kind) {
    case "optional": return project(type.of, value, depth);
    case "array": return Array.isArray(value) ? value.map((v) => project(type.of, v, depth + 1)) : value;
    case "map": {
      const out = {};
      for (const key of Object.keys(value)) out[key] = project(type.of, value[key], depth + 1);
      return out;
    }
    case "model": {
      const schema = schemas.get(concreteName(type.name, value));
      if (schema === undefined) return value;
      const out = {};
      for (const [field, fieldType] of Object.entries(schema.fields)) {
        if (field in value) out[field] = project(fieldType, value[field], depth + 1);
      }
      return out;
    }
    default: return value instanceof Date ? value.toISOString() : value;
  }
}

function projectModel(name, value) {
  return schemas.has(name) ? project({ kind: "model", name }, value, 0) : value;
}

function finish(name, value) {
  if (hooks.size !== 0 && runsHooks(name)) applyHooks({ kind: "model", name }, value, undefined);
  return value;
}


// ---- Fast path ------------------------------------------------------------------------------------------
// `Model.convert` without options first tries a JS function compiled from the model's plan (native action
// "fastPlans"). It handles only input that needs no coercion and has no issue — every value already of the
// exact JS type, plain objects/arrays, strings well-formed and not null-like, URLs already valid — and returns
// exactly what the native converter would; anything else returns BAIL and the call goes to the native side
// (which reports issues as before). `{native: true}` forces the native path.
const BAIL = Symbol("bail");
const OBJECT_PROTO = Object.prototype;
const ARRAY_PROTO = Array.prototype;
const getProto = Object.getPrototypeOf;
const isArray = Array.isArray;
const isSafeInteger = Number.isSafeInteger;
let fastFns = new Map();     // name → compiled function, or null when the model has no fast path
let nullLikes = null;        // Set of the native default null-like strings
const fastStats = { fast: 0, native: 0 };

/// Whether a URL string would pass the native check (non-empty, no byte ≤ 0x20, '"', '<', '>').
function validURL(s) {
  const n = s.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32 || c === 34 || c === 60 || c === 62) return false;
  }
  return true;
}

function compileModel(name, plans, fns) {
  let counter = 0;
  const tmp = () => `t${counter++}`;
  // Strings of top-level fields whose well-formedness is checked once, on a rope of them
  // all, at the end (a rope of 8-bit strings is well-formed without scanning it).
  const deferredStrings = [];
  let minNull = Infinity, maxNull = -1;
  for (const s of nullLikes) { minNull = Math.min(minNull, s.length); maxNull = Math.max(maxNull, s.length); }
  const notNullLike = (src) => `(${src}.length > ${maxNull} || ${src}.length < ${minNull} || !NL.has(${src}))`;
  // Code validating `src` (never undefined/null unless the type allows it) into `dst`, or `return B`.
  // `top`: `dst` is a field result of this model (its string checks may be deferred).
  function gen(type, src, dst, top) {
    if (typeof type === "string") {
      switch (type) {
        case "string":
          if (top) {
            deferredStrings.push(dst);
            return `if (typeof ${src} !== "string" || !${notNullLike(src)}) return B; ${dst} = ${src};`;
          }
          return `if (typeof ${src} !== "string" || !${src}.isWellFormed() || !${notNullLike(src)}) return B; ${dst} = ${src};`;
        case "url":
          if (top) {
            deferredStrings.push(dst);
            return `if (typeof ${src} !== "string" || !${notNullLike(src)} || !validURL(${src})) return B; ${dst} = ${src};`;
          }
          return `if (typeof ${src} !== "string" || !${src}.isWellFormed() || !${notNullLike(src)} || !validURL(${src})) return B; ${dst} = ${src};`;
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
      return `${dst} = F[${JSON.stringify(type.model)}](${src}, d + 1); if (${dst} === B) return B;`;
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
    throw new Error("fast path: unexpected type " + JSON.stringify(type));
  }
  const plan = plans[name];
  const lines = [`if (typeof o !== "object" || o === null || getProto(o) !== OP || o.toJSON !== undefined || d > 100) return B;`];
  // Every distinct key is read once; the object must have no other own enumerable property (the native
  // path serializes the whole input and rejects functions, symbols, BigInts and cycles anywhere in it).
  const keyVars = new Map();
  for (const field of plan.fields) {
    for (const key of field.keys) {
      if (!keyVars.has(key)) {
        const k = `k${keyVars.size}`;
        keyVars.set(key, k);
        lines.push(`const ${k} = o[${JSON.stringify(key)}];`);
      }
    }
  }
  const present = [...keyVars.values()].map((k) => `(${k} !== undefined)`).join(" + ") || "0";
  lines.push(`if (Object.keys(o).length !== ${present}) return B;`);
  const out = [];
  plan.fields.forEach((field, index) => {
    const r = `r${index}`;
    const optional = typeof field.type === "object" && field.type.optional !== undefined;
    const [v, ...others] = field.keys.map((key) => keyVars.get(key));
    lines.push(`let ${r};`);
    let absent;
    if (!field.required) {
      absent = `${r} = null;`;
    } else if (optional) {
      // Required but nullable: an explicit null (under any key) converts to null; missing everywhere is an issue.
      absent = `if (${[v, ...others].map((x) => `${x} === null`).join(" || ")}) ${r} = null; else return B;`;
    } else {
      absent = "return B;";
    }
    const otherChecks = others.map((w) => `if (${w} !== undefined && ${w} !== null) return B;`).join(" ");
    lines.push(`if (${v} === undefined || ${v} === null) { ${otherChecks} ${absent} } else { ${gen(field.type, v, r, true)} }`);
    out.push(`${JSON.stringify(field.name)}: ${r}`);
  });
  // Joined with "a" so that surrogates of neighbouring strings cannot pair up; a null result joins as "null",
  // which is harmless.
  if (deferredStrings.length !== 0) lines.push(`if (!("" + ${deferredStrings.join(' + "a" + ')}).isWellFormed()) return B;`);
  lines.push(`return { ${out.join(", ")} };`);
  const body = lines.join("\n");
  const factory = new Function("B", "F", "OP", "AP", "getProto", "isArray", "isSafeInteger", "NL", "validURL",
    `return function fast_${name.replace(/[^A-Za-z0-9_]/g, "_")}(o, d) {\n${body}\n};`);
  return factory(BAIL, fns, OBJECT_PROTO, ARRAY_PROTO, getProto, isArray, isSafeInteger, nullLikes, validURL);
}

/// The fast converter of `name` (compiled on first use), or null.
function fastConverter(name) {
  let fn = fastFns.get(name);
  if (fn !== undefined) return fn;
  fn = null;
  try {
    const { plans, nullLikes: list } = sync("fastPlans", { name });
    if (nullLikes === null) nullLikes = new Set(list);
    if (plans[name]) {
      const fns = Object.create(null);
      for (const model of Object.keys(plans)) {
        if (plans[model]) fns[model] = fastFns.get(model) || compileModel(model, plans, fns);
      }
      for (const model of Object.keys(fns)) if (!fastFns.has(model)) fastFns.set(model, fns[model]);
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
  /// Defines a model: `Model.define("Hotel", { name: "string", rooms: ["Room"] }, { after(hotel) {…} })`.
  define(name, schema, options) {
    checkName(name);
    let nativeOptions = options;
    let after;
    if (options !== undefined && options !== null && typeof options === "object") {
      nativeOptions = {};
      for (const [key, value] of Object.entries(options)) {
        if (key === "after") {
          if (typeof value !== "function") throw new TypeError(`Model.define('${name}'): 'after' must be a function.`);
          after = value;
        } else if (typeof value === "function") {
          throw new TypeError(`Model.define('${name}'): '${key}' cannot be a function ` +
            "(only 'after' hooks run in JavaScript; transform the input before Model.convert instead).");
        } else {
          nativeOptions[key] = value;
        }
      }
    }
    const described = sync("define", { name, schema, options: nativeOptions ?? null });
    remember(name, described);
    fastFns = new Map();
    if (after !== undefined) hooks.set(name, { after }); else hooks.delete(name);
    hookCache = null;
    return described;
  },

  /// Converts synchronously; throws `BridgeError` `DATA_FORMAT` with `data.issues`.
  convert(name, value, options) {
    if (options === undefined || options === null) {
      const fast = typeof name === "string" ? fastConverter(name) : null;
      if (fast !== null) {
        const result = fast(value, 0);
        if (result !== BAIL) { fastStats.fast++; return finish(name, result); }
      }
    } else if (typeof options === "object" && options.native === true) {
      const { native, ...rest } = options;
      options = Object.keys(rest).length === 0 ? undefined : rest;
    }
    fastStats.native++;
    return finish(name, sync("convert", conversionArgs(name, value, options)));
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
      return bridge.call(PLUGIN, "convertAsync", conversionArgs(name, value, options)).then((v) => finish(name, v));
    } catch (error) {
      return Promise.reject(error);
    }
  },

  /// Model → JSON (first keys, nested key paths rebuilt, dates as ISO 8601).
  toJSON(name, model) {
    checkName(name);
    return sync("toJSON", { name, value: projectModel(name, model) });
  },

  /// The issues `value` has as model `name` (an empty array when it converts).
  validate(name, value, options) {
    return sync("validate", conversionArgs(name, value, options));
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

internal.defineGlobal("Model", Object.freeze(Model));
