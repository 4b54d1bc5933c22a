// Tests see the plugin API (values, errors, permissions, clocks) through `import JSBridgeTesting`.
@_exported import JSBridgeCore
