// What the engine's JavaScript relies on beyond ES2022 and lib.webworker (the TypeScript check's libraries):
// JavaScriptCore's newer built-ins (ES2024/ES2025: well-formed strings, ArrayBuffer transfer, Error.isError,
// Float16Array), which the code uses directly or tests for, and Node's convention of extra properties
// (`code`, `path`) on error objects. Seen by every engine extension's check.

interface Error {
  /** Node's error code (`ERR_INVALID_ARG_TYPE`, `MODULE_NOT_FOUND`, `EIO`, ...). */
  code?: any;
  /** The file an error is about (Node's module and file-system errors). */
  path?: string;
}

interface ErrorConstructor {
  /** ES2025: whether `value` is an Error object (JavaScriptCore has it; older engines do not). */
  isError(value: unknown): value is Error;
}

interface String {
  /** ES2024: the string with each lone surrogate replaced by U+FFFD. */
  toWellFormed(): string;
  /** ES2024: whether the string has no lone surrogates. */
  isWellFormed(): boolean;
}

// Optional: the unit tests' engine (Node 20) lacks them, and the code tests for them. (Required members would
// also make SharedArrayBuffer, hence a view's `buffer`, no longer an ArrayBuffer to TypeScript.)
interface ArrayBuffer {
  /** ES2024: moves the bytes to a new buffer and detaches this one. */
  transfer?(newByteLength?: number): ArrayBuffer;
  /** ES2024: as `transfer`, to a buffer that is not resizable. */
  transferToFixedLength?(newByteLength?: number): ArrayBuffer;
  /** ES2024: whether the buffer was transferred away. */
  readonly detached?: boolean;
}

/** ES2025's typed array of half-precision floats (undefined on engines without it). */
declare var Float16Array: any;
