import EchoPlugin
import JSBridgeCLI

// The `jsbridge` executable: the CLI with the built-in plugins.
JSBridgeCLI.main(plugins: { [EchoPlugin()] })
