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
    if (after !== undefined) hooks.set(name, { after }); else hooks.delete(name);
    hookCache = null;
    return described;
  },

  /// Converts synchronously; throws `BridgeError` `DATA_FORMAT` with `data.issues`.
  convert(name, value, options) {
    return finish(name, sync("convert", conversionArgs(name, value, options)));
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
