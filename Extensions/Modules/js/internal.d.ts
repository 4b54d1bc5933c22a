// The modules extension's part of `internal`: the names its files provide, beside its natives (natives.d.ts).
// docs/architecture.md, "Engine extensions" and "ES modules and packages".

/** A module's import and export declarations, as `scanModule` and `compileModule` find them. */
interface JSBridgeModuleAnalysis {
  requests: { specifier: string; offset: number; type?: string }[];
  /** [imported, local, request index] */
  bindings: [string, string, number][];
  /** [exported, local] */
  locals: [string, string][];
  /** [exported, imported, request index] */
  indirect: [string, string, number][];
  stars: number[];
  moduleSyntax: boolean;
  hasAwait: boolean;
}

// The natives' answers below hold, for malformed input, only `error` and `offset` (and `source`). They are
// written as one object type with those optional, not as a union: the check runs without strictNullChecks,
// where testing `error !== undefined` does not narrow a union.

/** `scanModule`'s answer: the analysis and the rewritten text, or the error of a malformed module. */
type JSBridgeModuleScan = JSBridgeModuleAnalysis & { body: string; error?: string; offset?: number };

/** `compileModule`'s answer: the analysis with the source and the compiled module function (absent when
 *  `detect` found no module syntax), or the error of a malformed module with its source. */
type JSBridgeCompiledModule = JSBridgeModuleAnalysis & {
  source: string;
  compiled?: Function;
  isAsync?: boolean;
  headerLength?: number;
  error?: string;
  offset?: number;
  /** Set when the source is TypeScript whose syntax cannot be erased (`ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX`). */
  code?: string;
  line?: number;
  column?: number;
};

/** `stripTypeScript`'s answer for TypeScript syntax that cannot be erased. */
type JSBridgeTypeScriptError = {
  error: string;
  offset: number;
  line: number;
  column: number;
  code: string;
};

/** `tokenize`'s answer: one entry per token in each array, or the error of malformed source. */
type JSBridgeTokens = {
  types: number[];
  starts: number[];
  ends: number[];
  values: (string | null)[];
  newlines: boolean[];
  count: number;
  error?: string;
  offset?: number;
};

interface JSBridgeInternal {
  // module.js
  setHeaderLength(file: string, length: number): void;
  normalizePath(path: string): string;
  dirname(path: string): string;
  readPackageJson(directory: string): any;
  packageScope(file: string): { directory: string; json: any } | null;
  moduleFormat(path: string): "esm" | "cjs" | "json" | "detect";
  requireNotFound(request: string, parent?: string): Error;
  resolveCommonJSFile(base: string): string | undefined;
  CommonJSModule: any;
  makeRequire(module: any): any;
  loadCommonJS(filename: string, parent?: any): any;
  commonJSCache: Record<string, any>;
  /** The SyntaxError (with its code, line and column) for TypeScript that cannot be erased in `filename`. */
  typeScriptError(result: { error?: string; line?: number; column?: number; code?: string }, filename: string): SyntaxError;

  // resolve.js
  /** Resolves a bare specifier (built-in, plugin module or package): `{path}` or `{exports}`. */
  resolveBare(request: string, fromDirectory: string, parent: string | undefined, mode: "require" | "import"): any;
  importNotFound: any;

  // esm.js
  /** The ES module loader. */
  esm: Record<string, any>;
}
