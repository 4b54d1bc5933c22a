// The globals a script sees only when it runs with `--cordova` (or `"cordova": true` in `--config`):
// Cordova's `document` and `window` (docs/cordova.md). Add this file beside jsbridge.d.ts in such a project;
// without the switch they are undefined, as in Node and Deno.
/// <reference path="jsbridge.d.ts" />

/** A minimal `document`: an event target for Cordova's `deviceready` (sticky), `pause`, `resume`. */
declare var document: {
  addEventListener(type: string, listener: ((event: Event) => void) | { handleEvent(event: Event): void }, options?: unknown): void;
  removeEventListener(type: string, listener: ((event: Event) => void) | { handleEvent(event: Event): void }): void;
  dispatchEvent(event: Event): boolean;
};
/** The global object (Cordova code reads `window`). */
declare var window: typeof globalThis;
