import EchoPlugin
import HTTPPlugin
import JSBridgeCLI
import LocationPlugin
import ModelPlugin
import StoragePlugin

// The `jsbridge` executable: the CLI with the built-in plugins.
JSBridgeCLI.main(plugins: { [EchoPlugin(), HTTPPlugin(), LocationPlugin(), ModelPlugin(), StoragePlugin()] })
