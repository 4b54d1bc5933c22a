// The natives of the `host` engine extension, written from its Swift declaration.
// Do not edit: change the declaration (the test suite checks that this file matches it).

interface JSBridgeInternal {
  callAsync(action: number, id: number, json: string, bytesPaths?: string, bytes?: ArrayLike<ArrayBuffer | ArrayBufferView>): void;
  cancel(id: number): void;
  cwd(): string;
  defineGlobal(name: string, value: unknown): void;
  evaluatePluginFile(plugin: string, file: string, runtime: object, handle: object): any;
  evaluateRuntimeFile(name: string): void;
  exit(code: number): never;
  fatal(text: string): void;
  manifest(): Record<string, Record<string, [number, 0 | 1 | 2] | [number, 0 | 1 | 2, 1]>>;
  notFound(plugin: string, action: string): never;
  now(): number;
  pluginConstants(plugin: string): Record<string, any>;
  print(stream: 1 | 2, text: string): void;
  readFile(path: string): string;
  setUpAll(id: number): void;
  readonly startup: JSBridgeStartup;
  readonly syncFunctions: ReadonlyArray<((args: unknown) => any) | null>;
  timerClear(id: number): void;
  timerRef(id: number, referenced: boolean): void;
  timerStart(id: number, delayMs: number, repeats: boolean): void;
  traceNote(text: string): void;
}
