// The natives of the `node` engine extension, written from its Swift declaration.
// Do not edit: change the declaration (the test suite checks that this file matches it).

interface JSBridgeInternal {
  bufferHexDecode(text: string): ArrayBuffer;
  bufferLatin1Encode(text: string): ArrayBuffer;
  bufferUTF16LEEncode(text: string): ArrayBuffer;
  cpus(): { model: string; speed: number; times: Record<string, number> }[];
  isatty(fd: number): boolean;
  rss(): number;
  signalListened(signo: number, listened: boolean): void;
  stdinRef(consuming: boolean): void;
  stdinStart(): void;
  systemInfo(): JSBridgeSystemInfo;
}
