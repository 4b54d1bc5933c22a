import EchoPlugin
import JSBridgeCLI
import LocationPlugin
import StoragePlugin

// The `jsbridge` executable: the CLI with the built-in plugins.
JSBridgeCLI.main(plugins: { [EchoPlugin(), LocationPlugin(), StoragePlugin()] })
