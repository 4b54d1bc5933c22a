// Plugins see the foundation module's JSON values, errors and clock through `import JSBridgeCore`.
@_exported import JSBridgeBase
