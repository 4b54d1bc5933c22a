@_exported import JSBridge
@_exported import JSBridgeCordova
@_exported import JSBridgeModules
@_exported import JSBridgeNode
@_exported import JSBridgeREPL
@_exported import JSBridgeWeb

extension Array where Element == EngineExtension {
    /// Every engine extension `jsbridge` has: `web`, `node`, `modules`, `cordova`, `repl` (the runtime orders them
    /// by what they require).
    public static var jsbridge: [EngineExtension] { [.web, .node, .modules, .cordova, .repl] }
}
