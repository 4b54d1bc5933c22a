/// A plugin's TypeScript typings, written from its declaration (`jsbridge --typings <Plugin>`).
///
/// The file adds the plugin to the `JSBridgePluginTypes` interface that the runtime's own typings
/// (`jsbridge.d.ts`) read, so that `bridge.execSync`, `bridge.call`, `bridge.subscribe`, `bridge.on` and
/// `bridge.plugins.<Plugin>` are typed — sync actions as values, async ones as promises, streams and events
/// with their payloads — and appends the declarations of the plugin's JavaScript API.
public struct PluginTypings: Sendable {
    /// The typings' text.
    public let text: String

    /// The typings of the plugin `declaration` declares, as runtime `runtime` (`jsbridge`, or a custom
    /// runtime's name) writes them.
    init<Plugin: BridgePlugin>(_ declaration: PluginDeclaration<Plugin>, runtime: String) {
        let namespace = "\(Plugin.name)Plugin"
        var interfaces: [TypeScriptType] = []
        // Private actions are the plugin's own glue: not part of what scripts are offered.
        let actions = declaration.actions.filter { !$0.value.isPrivate }.sorted { $0.key < $1.key }.map {
            (
                name: $0.key, kind: $0.value.kind, requires: $0.value.requires,
                arguments: $0.value.arguments.typeScript,
                result: $0.value.result.typeScript
            )
        }
        for action in actions {
            action.arguments.interfaces(into: &interfaces)
            action.result.interfaces(into: &interfaces)
        }
        let events = declaration.events.sorted { $0.key < $1.key }.map { ($0.key, $0.value.typeScript) }
        for (_, payload) in events { payload.interfaces(into: &interfaces) }

        var out = "// Typings of the \(Plugin.name) plugin, written from its declaration by `\(runtime) --typings "
        out += "\(Plugin.name)`.\n// Do not edit: regenerate instead.\n"
        if !interfaces.isEmpty {
            out += "\ndeclare namespace \(namespace) {\n"
            for case .interface(let name, let properties) in Self.uniqueNames(interfaces) {
                out += "  interface \(name) {\n"
                for property in properties {
                    out += "    \(Self.propertyName(property.name))\(property.optional ? "?" : ""): "
                    out += "\(property.type.text(in: namespace));\n"
                }
                out += "  }\n"
            }
            out += "}\n"
        }
        out += "\ninterface JSBridgePluginTypes {\n  \(Self.propertyName(Plugin.name)): {\n    actions: {\n"
        for action in actions {
            let name = action.name
            if let capability = action.requires { out += "      /** Needs \(capability.flag). */\n" }
            let value = action.kind == .stream ? "value" : "result"
            out += "      \(Self.propertyName(name)): { kind: \"\(action.kind.rawValue)\"; "
            out += "args: \(action.arguments.text(in: namespace)); \(value): \(action.result.text(in: namespace)) };\n"
        }
        out += "    };\n    events: {\n"
        for (name, payload) in events {
            out += "      \(Self.propertyName(name)): \(payload.text(in: namespace));\n"
        }
        out += "    };\n  };\n}\n"
        for extra in declaration.typeScript where !extra.isEmpty {
            out += "\n" + extra + (extra.hasSuffix("\n") ? "" : "\n")
        }
        text = out
    }

    /// Interfaces with distinct names: a second, different type of the same Swift name gets a number.
    private static func uniqueNames(_ interfaces: [TypeScriptType]) -> [TypeScriptType] {
        var seen: [String: TypeScriptType] = [:]
        var result: [TypeScriptType] = []
        for case .interface(let name, let properties) in interfaces {
            if let earlier = seen[name] {
                if earlier == .interface(name: name, properties: properties) { continue }
                var n = 2
                while seen["\(name)\(n)"] != nil { n += 1 }
                seen["\(name)\(n)"] = .interface(name: "\(name)\(n)", properties: properties)
                result.append(.interface(name: "\(name)\(n)", properties: properties))
            } else {
                seen[name] = .interface(name: name, properties: properties)
                result.append(.interface(name: name, properties: properties))
            }
        }
        return result
    }

    /// `name` as a property name: as is when it is an identifier, quoted otherwise.
    static func propertyName(_ name: String) -> String {
        let identifier =
            !name.isEmpty && name.first.map { $0.isLetter || $0 == "_" || $0 == "$" } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") }
        return identifier ? name : JSONValue.string(name).serialized()
    }
}
