import CounterPlugin
import JSBridgeRuntime

JSBridgeCLI.main(.jsbridge.named("counter").adding { [CounterPlugin()] })
