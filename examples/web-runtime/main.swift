import EchoPlugin
import JSBridgeCLI
import JSBridgeWeb

// `web-runtime`: a runtime of the host, the web extension and one plugin — no Node built-ins, no module
// loaders, no Cordova, no REPL (its main script runs as a classic script). Benchmarks/run measures its start-up
// and memory beside jsbridge's.
JSBridgeCLI.main(
    RuntimeDescription(
        name: "web-runtime", abstract: "Run JavaScript with the web platform's APIs and the Echo plugin.",
        extensions: [.web], plugins: { [EchoPlugin()] }))
