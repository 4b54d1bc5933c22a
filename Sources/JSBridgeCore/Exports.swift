// Plugins see the foundation module's JSON values, errors and clock, and the paths a permission check resolves
// (and opens without following links), through `import JSBridgeCore`.
@_exported import FileAccess
@_exported import JSBridgeBase
