import JSBridgeCLI
import SensorsPlugin

// `sensors-runtime`: jsbridge's command line with the Sensors plugin (its --allow-sensors and --sensors-root).
JSBridgeCLI.main(
    RuntimeDescription(
        name: "sensors-runtime", version: "1.0.0",
        abstract: "Run JavaScript that reads the machine's temperatures.", plugins: { [SensorsPlugin()] }))
