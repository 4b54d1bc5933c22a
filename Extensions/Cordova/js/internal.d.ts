// The cordova extension's part of `internal` (it has no natives). docs/cordova.md.

interface JSBridgeInternal {
  /** Fires Cordova's document event `type` (`pause`, `resume`) at once. */
  cordovaLifecycle(type: "pause" | "resume"): void;
  /** At the run's natural end: cordova-js's warning when `deviceready` never fired. */
  cordovaRunEnd(): void;
  /** The modules extension's CommonJS loader, when the runtime has it (plugin files are loaded with it). */
  loadCommonJS?(filename: string, parent?: unknown): unknown;
}
