// The natives of the `web` engine extension, written from its Swift declaration.
// Do not edit: change the declaration (the test suite checks that this file matches it).

interface JSBridgeInternal {
  cryptoRun(operation: string, name: string, first: number, second: number, ...inputs: ArrayBuffer[]): ArrayBuffer[];
  cryptoStart(operation: string, name: string, first: number, second: number, ...inputs: ArrayBuffer[]): number;
  cryptoTake(id: number): ArrayBuffer[];
  domainToASCII(domain: string): string | null;
  randomFill(buffer: ArrayBuffer, offset: number, length: number): void;
  textBase64Decode(text: string): ArrayBuffer;
  textBase64Encode(buffer: ArrayBuffer, offset: number, length: number, url: boolean): string;
  textDecode(handle: object, buffer: ArrayBuffer, offset: number, length: number, flush: boolean): string | null;
  textDecodeUTF16(buffer: ArrayBuffer, offset: number, length: number, bigEndian: boolean, fatal: boolean): string | null;
  textDecodeUTF8(buffer: ArrayBuffer, offset: number, length: number, fatal: boolean): string | null;
  textDecoderOpen(icuName: string, fatal: boolean, flags: number): object | null;
  textEncodeInto(text: string, buffer: ArrayBuffer, offset: number, length: number): [number, number];
  textEncodeUTF8(text: string): ArrayBuffer;
  zlibCreate(format: 0 | 1 | 2, decompress: boolean): (buffer: ArrayBuffer | undefined, offset: number, length: number, finish: boolean) => ArrayBuffer | undefined;
}
