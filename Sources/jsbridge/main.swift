import JSBridgeRuntime

// The `jsbridge` executable: the command line with every engine extension and built-in plugin.
JSBridgeCLI.main(.jsbridge)
