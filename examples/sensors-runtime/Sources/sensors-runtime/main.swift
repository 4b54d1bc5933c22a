import JSBridgeRuntime
import SensorsPlugin

// `sensors-runtime`: jsbridge with the Sensors plugin (its --allow-sensors and --sensors-root) beside the
// built-in ones.
JSBridgeCLI.main(.jsbridge.named("sensors-runtime", version: "1.0.0").adding { [SensorsPlugin()] })
