// The web extension's part of `internal`: the names its files provide (each file is lazy: reading a name
// loads it), beside its natives (natives.d.ts). docs/architecture.md, "Engine extensions".

interface JSBridgeInternal {
  // events.js
  DOMException: any;
  Event: any;
  CustomEvent: any;
  EventTarget: any;
  AbortSignal: any;
  AbortController: any;
  /** Aborts `signal` with `reason` (an AbortError DOMException when undefined). */
  abortSignal(signal: any, reason?: unknown): void;
  isDOMException(value: unknown): boolean;

  // encoding.js
  utf8Encode(text: string): Uint8Array;
  utf8Decode(bytes: Uint8Array | ArrayBuffer): string;
  /** Throws a RangeError (`ERR_STRING_TOO_LONG`) unless a string of `units` UTF-16 code units can be made. */
  checkStringLength(units: number): void;
  /** Base64 (with `url`: base64url, unpadded) of `bytes`. */
  base64Encode(bytes: Uint8Array, url?: boolean): string;
  /** Base64 or base64url as Node reads it: other characters skipped, up to the first "=". */
  base64Decode(text: string): Uint8Array;
  /** The Infra standard's forgiving-base64 decode (atob, data: URLs), or null. */
  forgivingBase64Decode(text: string): Uint8Array | null;
  TextEncoder: any;
  TextDecoder: any;

  // url.js
  URL: any;
  URLSearchParams: any;
  /** The path a file: URL names, as Node's url.fileURLToPath on Linux (ERR_INVALID_FILE_URL_HOST/_PATH). */
  fileURLToPath(url: string | object): string;
  /** URLPattern's view of `input` parsed against `base`: each component as a string (no null), or null on failure. */
  parseURLComponents(input: string, base: string | undefined): {
    protocol: string; username: string; password: string; hostname: string; port: string; pathname: string;
    search: string; hash: string; opaquePath: boolean;
  } | null;
  /**
   * The URL Pattern standard's "canonicalize a protocol" (and username, password, hostname, port, pathname,
   * opaquePathname, search, hash): the URL parser run on a dummy URL with a state override, null on failure.
   */
  canonicalizeURLComponent(kind: string, value: string, protocol?: string): string | null;

  // urlpattern.js
  URLPattern: any;

  // structured-clone.js
  structuredClone(value: unknown, options?: { transfer?: unknown[] }): any;

  // blob.js, form-data.js
  Blob: any;
  File: any;
  /** Blob's bytes, parts and MIME rules, for form-data.js and plugins' JavaScript (fetch bodies). */
  blobInternals: Record<string, any>;
  FormData: any;
  /** FormData's multipart writer and reader. */
  formDataInternals: Record<string, any>;

  // streams.js
  /** The streams' internals: create, read, pipe, and tell streams apart. */
  streams: Record<string, any>;
  ReadableStream: any;
  TransformStream: any;

  // message-channel.js
  /** MessagePort's transfer and delivery, for structuredClone. */
  messagePorts: Record<string, any>;
  /** MessageEvent, for plugins' JavaScript (the Queue plugin's BroadcastChannel). */
  MessageEvent: any;

  // crypto.js
  /** The global `crypto` (a `Crypto`), for node:crypto's `webcrypto`. */
  webcrypto: any;
  /** Web Crypto's getRandomValues (integer typed arrays, at most 65536 bytes). */
  getRandomValues(array: ArrayBufferView): ArrayBufferView;
  /** A version 4 UUID. */
  randomUUID(): string;
  /** Runs a crypto request (CryptoNatives.swift) on the JS thread: its outputs, or throws its DOMException. */
  cryptoRunSync(operation: string, name: string, first: number, second: number, inputs: ArrayBuffer[]): ArrayBuffer[];
}
