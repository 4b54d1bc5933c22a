import DevicePlugin
import EchoPlugin
import FileSystemPlugin
import HTTPPlugin
import JSBridge
import JSBridgeCLI
import LocationPlugin
import ModelPlugin
import StoragePlugin

// The `jsbridge` executable: the CLI with the built-in plugins.
JSBridgeCLI.main(plugins: {
    [
        DevicePlugin(runtimeVersion: JSBridgeVersion.string), EchoPlugin(), FileSystemPlugin(), HTTPPlugin(),
        LocationPlugin(), ModelPlugin(), StoragePlugin(),
    ]
})
