import EchoPlugin
import FileSystemPlugin
import HTTPPlugin
import JSBridgeCLI
import LocationPlugin
import ModelPlugin
import StoragePlugin

// The `jsbridge` executable: the CLI with the built-in plugins.
JSBridgeCLI.main(plugins: {
    [EchoPlugin(), FileSystemPlugin(), HTTPPlugin(), LocationPlugin(), ModelPlugin(), StoragePlugin()]
})
