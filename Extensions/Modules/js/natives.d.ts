// The natives of the `modules` engine extension, written from its Swift declaration.
// Do not edit: change the declaration (the test suite checks that this file matches it).

interface JSBridgeInternal {
  compile(source: string, filename: string, ...parameters: string[]): Function;
  compileModule(filename: string, source: string | undefined, detect: boolean): JSBridgeCompiledModule;
  realpath(path: string): string;
  scanModule(source: string, dynamicOnly?: boolean): JSBridgeModuleScan;
  stat(path: string): 0 | 1 | 2;
  stripTypeScript(source: string): string | JSBridgeTypeScriptError;
  tokenize(source: string): JSBridgeTokens;
}
