// The natives of the `node` engine extension, written from its Swift declaration.
// Do not edit: change the declaration (the test suite checks that this file matches it).

interface JSBridgeInternal {
  brotliOpen(id: number, mode: number, params: string): JSBridgeZlibHandle | undefined;
  bufferHexDecode(text: string): ArrayBuffer;
  bufferLatin1Encode(text: string): ArrayBuffer;
  bufferUTF16LEEncode(text: string): ArrayBuffer;
  childSpawn(id: number, request: string): [JSBridgeChildHandle, number] | [undefined, string, number];
  childSpawnSync(request: string, input: ArrayBuffer | undefined, offset: number, length: number, timeout: number, maxBuffer: number, killSignal: number): [number, number | null, number | null, ArrayBuffer | null, ArrayBuffer | null, string | null, number | null];
  cpus(): { model: string; speed: number; times: Record<string, number> }[];
  dnsDone(): void;
  dnsLookup(id: number, host: string, family: number): void;
  httpConnection(connection: number, op: number): void;
  httpListen(server: number, host: string, port: number, backlog: number): void;
  httpRespond(connection: number, status: number, reason: string, headers: string, body: ArrayBuffer | undefined, offset: number, length: number, end: boolean, keepAlive: boolean): boolean;
  httpServer(server: number, op: number): void;
  httpWrite(connection: number, body: ArrayBuffer | undefined, offset: number, length: number, end: boolean, keepAlive: boolean): boolean;
  isatty(fd: number): boolean;
  netConnect(socket: number, host: string, port: number): void;
  netListen(server: number, host: string, port: number, backlog: number): void;
  netServer(server: number, op: number): void;
  netSocket(socket: number, op: number, value: boolean): void;
  netWrite(socket: number, data: ArrayBuffer, offset: number, length: number): boolean;
  rss(): number;
  signalListened(signo: number, listened: boolean): void;
  stdinRef(consuming: boolean): void;
  stdinStart(): void;
  systemInfo(): JSBridgeSystemInfo;
  vmCheckSyntax(code: string, filename: string, line: number): void;
  vmCreateContext(sandbox: object): object;
  vmRun(global: object | undefined, code: string, filename: string, line: number): unknown;
  zlibCrc32(crc: number, buffer: ArrayBuffer, offset: number, length: number): number;
  zlibOpen(id: number, mode: number, windowBits: number, level: number, memLevel: number, strategy: number, dictionary?: ArrayBuffer, offset?: number, length?: number): JSBridgeZlibHandle;
  zlibVersionNumber(): number;
}
