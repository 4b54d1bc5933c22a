import CounterPlugin
import EchoPlugin
import JSBridgeCLI

JSBridgeCLI.main(plugins: { [EchoPlugin(), CounterPlugin()] })
