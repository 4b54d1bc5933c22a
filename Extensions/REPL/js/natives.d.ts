// The natives of the `repl` engine extension, written from its Swift declaration.
// Do not edit: change the declaration (the test suite checks that this file matches it).

interface JSBridgeInternal {
  evaluateScript(source: string, url: string, checkOnly?: boolean): any;
  terminalComplete(token: string, candidatesJSON: string): { output: string; events: { type: string; text?: string; empty?: boolean; before?: string }[] };
  terminalEvaluating(): void;
  terminalFeed(buffer: ArrayBuffer, offset: number, length: number): { output: string; events: { type: string; text?: string; empty?: boolean; before?: string }[] };
  terminalInterject(text: string): string;
  terminalPrompt(prompt: string): { output: string; events: { type: string; text?: string; empty?: boolean; before?: string }[] };
  terminalRestore(): void;
}
