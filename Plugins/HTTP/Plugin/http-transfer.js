// http-transfer.js - `HTTP.download` and `HTTP.upload` (loaded on first use through `plugin.shared.httpTransfer`).
// Both run the HTTP plugin's stream actions `download` / `upload`: progress values, then the result
// (see docs/http.md, "Downloads and uploads").

const PLUGIN = "HTTP";
const { DOMException, AbortSignal, BridgeError, utf8Decode } = runtime;
const {
  ArrayBuffer, ArrayBufferIsView, ArrayIsArray, ArrayPrototypePush, FunctionPrototypeCall, MethodFilter,
  MethodIncludes, MethodLastIndexOf, MethodMap, MethodSlice, MethodSplit, MethodToLowerCase, NumberIsInteger,
  ObjectDefineProperty, ObjectEntries, ObjectFreeze, ObjectPrototypeHasOwnProperty, PromisePrototypeThen,
  PromiseReject,
} = runtime.primordials;

// MARK: - Helpers

function abortReason(signal) {
  return signal.reason !== undefined ? signal.reason : new DOMException("This operation was aborted", "AbortError");
}

function urlString(url, fn) {
  if (typeof url === "string") return url;
  if (url !== null && typeof url === "object" && typeof url.href === "string") return url.href;
  throw new TypeError(`${fn}: the URL must be a string or a URL.`);
}

/// `[[name, value], ...]` from a HeadersInit (validated by `Headers`).
function headerList(headers) {
  if (headers === undefined || headers === null) return undefined;
  return [...new Headers(headers)];
}

function checkOptions(options, fn) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object") throw new TypeError(`${fn}: options must be an object.`);
  if (options.onProgress !== undefined && options.onProgress !== null && typeof options.onProgress !== "function") {
    throw new TypeError(`${fn}: options.onProgress must be a function.`);
  }
  if (options.signal !== undefined && options.signal !== null && !(options.signal instanceof AbortSignal)) {
    throw new TypeError(`${fn}: options.signal must be an AbortSignal.`);
  }
  if (options.progressIntervalMs !== undefined && !(NumberIsInteger(options.progressIntervalMs) && options.progressIntervalMs >= 0)) {
    throw new RangeError(`${fn}: options.progressIntervalMs must be a non-negative integer.`);
  }
  return options;
}

/// Runs stream action `action` with `args`: `onProgress({loaded, total, lengthComputable})` per progress
/// value; resolves with `finish(result)`; the signal cancels the native side and rejects with its reason.
function run(action, args, options, finish) {
  const { onProgress, signal } = options;
  if (signal !== undefined && signal !== null && signal.aborted) return PromiseReject(abortReason(signal));
  args.progress = typeof onProgress === "function";
  if (options.progressIntervalMs !== undefined) args.progressIntervalMs = options.progressIntervalMs;
  return new Promise((resolve, reject) => {
    let settled = false;
    let result;
    let onAbort;
    const settle = (fn, value) => {
      if (settled) return;
      settled = true;
      if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
      fn(value);
    };
    const subscription = plugin.subscribe(action, args, (value) => {
      if (settled) return;
      if (value.type === "progress") {
        if (typeof onProgress !== "function") return;
        const total = value.total === null ? undefined : value.total;
        try {
          onProgress({ loaded: value.loaded, total, lengthComputable: total !== undefined });
        } catch (error) {
          runtime.reportError(error);
        }
      } else if (value.type === "result") {
        result = value;
      }
    }, (error) => settle(reject, error));
    PromisePrototypeThen(subscription.done, () => {
      if (settled) return;
      if (result === undefined) {
        settle(reject, new BridgeError("DROPPED", `HTTP.${action} ended without a result.`, { plugin: PLUGIN, action }));
        return;
      }
      let value;
      try {
        value = finish(result);
      } catch (error) {
        settle(reject, error);
        return;
      }
      settle(resolve, value);
    });
    if (signal !== undefined && signal !== null) {
      onAbort = () => {
        subscription.cancel();
        settle(reject, abortReason(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
    }
  });
}

// MARK: - download

/// Downloads `url` into the downloads folder; resolves with `{ filePath, mimeType, length, suggestedFilename }`.
function download(url, options) {
  let args;
  try {
    options = checkOptions(options, "HTTP.download");
    args = { url: urlString(url, "HTTP.download") };
    if (options.method !== undefined) args.method = `${options.method}`;
    const headers = headerList(options.headers);
    if (headers !== undefined) args.headers = headers;
    if (options.filename !== undefined && options.filename !== null) args.filename = `${options.filename}`;
    if (options.overwrite !== undefined) args.overwrite = options.overwrite === true;
  } catch (error) {
    return PromiseReject(error);
  }
  return run("download", args, options, (result) => ({
    filePath: result.filePath, mimeType: result.mimeType, length: result.length,
    suggestedFilename: result.suggestedFilename,
  }));
}

// MARK: - upload

function fieldList(fields) {
  if (fields === undefined || fields === null) return [];
  if (typeof fields !== "object") throw new TypeError("HTTP.upload: options.fields must be an object or [name, value] pairs.");
  const pairs = typeof fields[Symbol.iterator] === "function" ? [...fields] : ObjectEntries(fields);
  return MethodMap(pairs, (pair) => {
    if (pair === null || typeof pair !== "object" || pair.length !== 2) {
      throw new TypeError("HTTP.upload: each field must be a [name, value] pair.");
    }
    return [`${pair[0]}`, `${pair[1]}`];
  });
}

function fileEntry(file, index) {
  if (file === null || typeof file !== "object") throw new TypeError(`HTTP.upload: files[${index}] must be an object.`);
  if (file.name === undefined || file.name === null) throw new TypeError(`HTTP.upload: files[${index}].name is required.`);
  const hasPath = file.path !== undefined && file.path !== null;
  const hasData = file.data !== undefined && file.data !== null;
  if (hasPath === hasData) throw new TypeError(`HTTP.upload: files[${index}] needs exactly one of path or data.`);
  const entry = { name: `${file.name}` };
  if (hasPath) {
    entry.path = `${file.path}`;
  } else if (typeof file.data === "string") {
    entry.text = file.data;
  } else if (runtime.blobInternals.bytesOf(file.data) !== undefined) {
    // A Blob or File: its bytes (beside the JSON), and its name and type unless the entry gives them.
    entry.bytes = runtime.blobInternals.bytesOf(file.data);
    if (file.filename === undefined && runtime.blobInternals.isFile(file.data)) entry.filename = file.data.name;
    if (file.contentType === undefined && file.data.type !== "") entry.contentType = file.data.type;
  } else if (file.data instanceof ArrayBuffer) {
    entry.bytes = new Uint8Array(file.data);
  } else if (ArrayBufferIsView(file.data)) {
    entry.bytes = new Uint8Array(file.data.buffer, file.data.byteOffset, file.data.byteLength);
  } else {
    throw new TypeError(`HTTP.upload: files[${index}].data must be a string, an ArrayBuffer, a typed array or a Blob.`);
  }
  if (file.filename !== undefined && file.filename !== null) entry.filename = `${file.filename}`;
  if (file.contentType !== undefined && file.contentType !== null) entry.contentType = `${file.contentType}`;
  return entry;
}

const NULL_BODY_STATUS = [101, 103, 204, 205, 304];

/// The upload's response as a `Response` (with `url` and `redirected` of the answer).
function responseFrom(result) {
  const body = MethodIncludes(NULL_BODY_STATUS, result.status) ? null
    : result.body !== undefined ? result.body : result.bodyBytes;
  const response = new Response(body, { status: result.status, statusText: result.statusText, headers: result.headers });
  ObjectDefineProperty(response, "url", { value: result.url, enumerable: false });
  ObjectDefineProperty(response, "redirected", { value: result.redirected, enumerable: false });
  return response;
}

/// The type of an upload part without one: by its file name's extension (the plugin's table), else
/// `application/octet-stream`.
function guessType(filename) {
  const dot = MethodLastIndexOf(filename, ".");
  if (dot <= 0) return "application/octet-stream";
  const table = plugin.constants.mimeTypesByExtension;
  const extension = MethodToLowerCase(MethodSlice(filename, dot + 1));
  return ObjectPrototypeHasOwnProperty(table, extension) ? table[extension] : "application/octet-stream";
}

/// The form as the `upload` action's `multipart` argument: framed by the engine's one multipart serialiser
/// (js/form-data.js), each file part's bytes left as its source (`path` files are streamed natively; bytes
/// cross beside the JSON).
function framedMultipart(fields, files) {
  const { multipartSegments, makeBoundary } = runtime.formDataInternals;
  const entries = MethodMap(fields, ([name, value]) => [name, value]);
  for (const file of files) {
    const filename = file.filename ?? (file.path !== undefined ? MethodFilter(MethodSplit(file.path, "/"), (s) => s !== "").pop() ?? file.path : "blob");
    ArrayPrototypePush(entries, [file.name, { name: filename, type: file.contentType ?? guessType(filename), source: file }]);
  }
  const boundary = makeBoundary();
  const pieces = MethodMap(multipartSegments(entries, boundary), (segment) => {
    if (typeof segment === "string") return { text: segment };
    const { path, text, bytes } = segment.file.source;
    return path !== undefined ? { path } : text !== undefined ? { text } : { bytes };
  });
  return { boundary, pieces };
}

function uploadArgs(url, options, where) {
  const args = { url: urlString(url, where), method: options.method === undefined ? "POST" : `${options.method}` };
  const headers = headerList(options.headers);
  if (headers !== undefined) args.headers = headers;
  const fields = fieldList(options.fields);
  const files = options.files === undefined || options.files === null ? [] : options.files;
  if (!ArrayIsArray(files)) throw new TypeError(`${where}: options.files must be an array.`);
  args.multipart = framedMultipart(fields, MethodMap(files, fileEntry));
  return args;
}

/// Sends a multipart form; resolves with a `Response` for any HTTP status (check `ok`).
function upload(url, options) {
  let args;
  try {
    options = checkOptions(options, "HTTP.upload");
    args = uploadArgs(url, options, "HTTP.upload");
  } catch (error) {
    return PromiseReject(error);
  }
  return run("upload", args, options, responseFrom);
}

/// A multipart DAO's exchange: like `upload`, resolving with the plugin's answer (the `request` action's shape).
/// `connectTimeoutMs`, `totalTimeoutMs` and `retry` are the DAO's, as the `request` action takes them.
function sendMultipart(url, options) {
  let args;
  try {
    args = uploadArgs(url, options, "multipart DAO");
    for (const key of ["connectTimeoutMs", "totalTimeoutMs", "retry"]) {
      if (options[key] !== undefined) args[key] = options[key];
    }
  } catch (error) {
    return PromiseReject(error);
  }
  return run("upload", args, options, (result) => result);
}

plugin.shared.httpTransfer = ObjectFreeze({ download, upload, sendMultipart });
