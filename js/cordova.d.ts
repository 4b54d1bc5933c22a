// The globals a script sees only when it runs with `--cordova` (or `"cordova": true` in `--config`):
// Cordova's `document` and `window` (docs/cordova.md). Add this file beside jsbridge.d.ts in such a project;
// without the switch they are undefined, as in Node and Deno.
/// <reference path="jsbridge.d.ts" />

/** A minimal `document`: an event target for Cordova's `deviceready` (sticky), `pause`, `resume`. */
declare var document: {
  addEventListener(type: string, listener: ((event: Event) => void) | { handleEvent(event: Event): void }, options?: unknown): void;
  removeEventListener(type: string, listener: ((event: Event) => void) | { handleEvent(event: Event): void }): void;
  dispatchEvent(event: Event): boolean;
  /** An `Event` to `initEvent(type, bubbles, cancelable)` and dispatch (any kind: "Events", "HTMLEvents", ...). */
  createEvent(kind: string): Event;
};
/** The global object (Cordova code reads `window`). */
declare var window: typeof globalThis;
/** `window`'s events (`online`, `offline`, `cordovacallbackerror`, any event `cordova.fireWindowEvent` fires). */
declare function addEventListener(type: string, listener: ((event: Event) => void) | { handleEvent(event: Event): void }, options?: unknown): void;
declare function removeEventListener(type: string, listener: ((event: Event) => void) | { handleEvent(event: Event): void }): void;
declare function dispatchEvent(event: Event): boolean;
/** JSCoreBridge's transport, for an app's own `jscorebridge.js`: `[callbackId, plugin, method, args]`. */
declare function jscExecuteCommand(command: [string, string, string, unknown[]?]): any;
