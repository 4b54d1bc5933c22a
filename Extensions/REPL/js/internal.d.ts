// The repl extension's part of `internal` beyond the host's hooks it fills (`startRepl`, `replUncaught`):
// nothing else; its natives are in natives.d.ts.

interface JSBridgeInternal {}
