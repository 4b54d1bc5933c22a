// Typings of the Model plugin, written from its declaration by `jsbridge --typings Model`.
// Do not edit: regenerate instead.

interface JSBridgePluginTypes {
  Model: {
    actions: {
      archive: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: string };
      convert: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      convertAsync: { kind: "async"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      define: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      describe: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: string };
      equals: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: boolean };
      fastPlans: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      hash: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: number };
      inputKeys: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      names: { kind: "sync"; args: void; result: string[] };
      sample: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      schema: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      toJSON: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      unarchive: { kind: "sync"; args: { archive: string }; result: unknown };
      validate: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
    };
    events: {
    };
  };
}

// Model (docs/model-conversion.md): the JavaScript API of the plugin (declared beside its JavaScript; added to its generated
// typings, `jsbridge --typings`).

/** The plugin's error codes (with `INVALID_ARGUMENT`, `PERMISSION_DENIED`, `TIMEOUT` from the bridge). */
interface BridgeErrorCodes {
  /** The value does not convert; `data.model` and `data.issues` (`ModelIssue`s). */
  DATA_FORMAT: true;
  /** No model of that name is defined; `data.model`. */
  UNKNOWN_MODEL: true;
  /** A schema names an unknown type (`"strng"`); `data.path` in the schema. */
  UNKNOWN_TYPE: true;
  /** A malformed schema or option; `data.path` in the schema. */
  INVALID_SCHEMA: true;
  /** A different schema under an existing name without `replace: true`. */
  REDEFINITION: true;
}

/** Scalar type names. Other names are models (`"Room"`); `"[T]"`, `"T[]"`, `"Set<T>"`, `"{T}"`, `"T?"`, … compose. */
type ModelScalarType =
  | "string"
  | "int"
  | "integer"
  | "double"
  | "number"
  | "float"
  | "bool"
  | "boolean"
  | "date"
  | "url"
  | "any"
  | "raw"
  | "json";

/** A type: a name (scalar or model, composable), `[T]` (an array), `{set: T}`, `{map: T}` or `{optional: T}`. */
type ModelType =
  | ModelScalarType
  | (string & {})
  | [ModelType]
  | { set: ModelType }
  | { map: ModelType }
  | { optional: ModelType };

/** A field with options. */
interface ModelFieldOptions {
  type: ModelType;
  /** The JSON key (a dotted key path is allowed). */
  key?: string;
  /** Candidate JSON keys, tried in order: the first present with a non-null value wins. */
  keys?: string[];
  optional?: boolean;
  /** Fields are required unless optional, with a `default`, or `required: false`. */
  required?: boolean;
  /** The value for a missing or null key. */
  default?: unknown;
  /** The allowed values, compared after conversion (`oneOf` and `scope` are aliases). */
  enum?: unknown[];
  oneOf?: unknown[];
  scope?: unknown[];
  /** Numbers: the value; strings: the length; arrays, sets, maps: the count (`minimum`/`maximum` are aliases). */
  min?: number;
  max?: number;
  minimum?: number;
  maximum?: number;
  /** `"default"` (alias `"null"`): an invalid value becomes the `default` (or null) and a warning. */
  onInvalid?: "fail" | "default" | "null";
  strict?: boolean;
}

/** A field of `Model.define`'s schema: a type name, `[T]`, or a type with options. */
type ModelFieldSpec = ModelScalarType | (string & {}) | [ModelType] | ModelFieldOptions;

/** `Model.define`'s third argument. */
interface ModelDefineOptions<M = any> {
  /** Only the exact JSON types convert (see the conversion table). */
  strict?: boolean;
  /** `"snake_case"` (alias `"snake"`): `avatarURL` reads `avatar_url` first, then `avatarURL`. */
  keyStrategy?: "none" | "snake_case" | "snake";
  onInvalid?: "fail" | "default" | "null";
  /** Fields to convert (the others are left out); `whitelist` is an alias. */
  only?: string[];
  whitelist?: string[];
  /** Fields to leave out; `blacklist` is an alias. */
  ignore?: string[];
  blacklist?: string[];
  /** The input's `key` picks the concrete model: `{ key: "kind", mapping: { circle: "Circle" } }`. */
  discriminator?: { key: string; mapping: { [value: string]: string } };
  /** Allows a different schema under an existing name. */
  replace?: boolean;
  /** Runs on each converted model, innermost first; modifies it in place (e.g. adds back-references). */
  after?(model: M, parent: any): void;
}

/** A field as `Model.define` and `Model.schema` describe it (only the options that were given). */
interface ModelFieldDescription {
  /** The normalized type (`"int"`, `"[Room]"`, `"Set<string>?"`, …). */
  type: string;
  keys?: string[];
  required?: boolean;
  default?: unknown;
  enum?: unknown[];
  min?: number;
  max?: number;
  onInvalid?: "fail" | "default";
  strict?: boolean;
}

/** A model's schema: what `Model.define` returns and `Model.schema` gives. */
interface ModelSchemaDescription {
  name: string;
  fields: { [field: string]: ModelFieldDescription };
  options: {
    strict?: boolean;
    keyStrategy?: "snake_case";
    onInvalid?: "default";
    only?: string[];
    ignore?: string[];
    discriminator?: { key: string; mapping: { [value: string]: string } };
  };
}

/** Options of `convert`, `convertAsync` and `validate`. */
interface ModelConversionOptions {
  strict?: boolean;
  /** Strings that count as null in lenient mode (default `"null"`, `"<null>"`, `"nil"`, `"undefined"`, …). */
  nullLikes?: string[];
  /** How deep conversion descends (1…500, default 200); deeper is `TOO_DEEP`. */
  maxDepth?: number;
  /** How many issues are collected (default 1000), then `TOO_MANY_ISSUES`. */
  maxIssues?: number;
}

/** The codes of `ModelIssue`s (Swift transforms can add their own). */
type ModelIssueCode =
  | "REQUIRED"
  | "NULL"
  | "TYPE"
  | "NOT_INTEGER"
  | "OUT_OF_RANGE"
  | "NOT_FINITE"
  | "NOT_IN_ENUM"
  | "DATE_FORMAT"
  | "URL_FORMAT"
  | "UNKNOWN_MODEL"
  | "UNKNOWN_DISCRIMINATOR"
  | "TOO_DEEP"
  | "JSON_PARSE"
  | "INVALID_UNICODE"
  | "TOO_MANY_ISSUES"
  | (string & {});

/** One problem converting a value: where in the input (`rooms[2].price`, `""` for the root), what, and the input. */
interface ModelIssue {
  path: string;
  code: ModelIssueCode;
  message: string;
  /** The offending input value (large containers summarized); absent for a missing key. */
  input?: unknown;
}

/** The `Model` global: schema-driven JSON ⇄ model conversion. Failures throw `BridgeError`s. */
interface JSBridgeModel {
  /** Defines a model (names start with an uppercase letter); redefining the same schema is accepted. */
  define<M = any>(
    name: string,
    schema: { [field: string]: ModelFieldSpec },
    options?: ModelDefineOptions<M> | null,
  ): ModelSchemaDescription;
  /** Converts synchronously; throws `DATA_FORMAT` with `data.issues`, `UNKNOWN_MODEL`. */
  convert<T = any>(name: string, value: unknown, options?: ModelConversionOptions | null): T;
  /** Converts off the JS thread (large payloads); rejects as `convert` throws. */
  convertAsync<T = any>(name: string, value: unknown, options?: ModelConversionOptions | null): Promise<T>;
  /** Model → JSON: the first keys, key paths rebuilt, dates as ISO 8601 (`Date` objects accepted). */
  toJSON(name: string, model: unknown): any;
  /** The issues `value` has as model `name` (`[]` when it converts). */
  validate(name: string, value: unknown, options?: ModelConversionOptions | null): ModelIssue[];
  /** Plausible data guessed from field names and types; `{ json: true }` gives the JSON (wire) form. */
  sample<T = any>(name: string, options?: { json?: boolean }): T;
  /** The schema as defined. */
  schema(name: string): ModelSchemaDescription;
  /** The names of the defined models. */
  names(): string[];
  /** A stable text form `{"$model", "$version": 1, "value"}` (same model → same text), e.g. for `Storage`. */
  archive(name: string, model: unknown): string;
  /** Converts an archive again: `{model, value}`. */
  unarchive<T = any>(text: string): { model: string; value: T };
  /** Field-wise equality of the declared fields (null = missing). */
  equals(name: string, a: unknown, b: unknown): boolean;
  /** A hash consistent with `equals` (a non-negative integer). */
  hash(name: string, model: unknown): number;
  /** A deep copy (converted again, so `after` hooks run). */
  copy<T = any>(name: string, model: T): T;
  /** A readable form: `Room(number: 1, price: 2)`. */
  describe(name: string, model: unknown): string;
}

declare var Model: Readonly<JSBridgeModel>;
