import JSBridgeCore
import SensorsCore

/// `Sensors`: temperatures of the machine's thermal zones, for scripts granted `--allow-sensors`.
public struct SensorsPlugin: BridgePlugin {
    public static let name = "Sensors"
    public struct Configuration: PluginConfiguration { var root: String?, hotCelsius: Double? }
    public struct Reading: Codable, Sendable { var zone: Int, celsius: Double }
    struct Zone: Codable, Sendable { var zone: Int }
    struct Watch: Codable, Sendable { var zone: Int, intervalMs: Int? }

    public init() {}
    public func setUp(_ context: SetUpContext<Self>) async throws -> ThermalZones {
        ThermalZones(root: context.configuration.root ?? "/sys/class/thermal")
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.option("sensors-root", value: "dir", setting: "root", help: "Where the thermal zones are.")
        plugin.script(.global("sensors.js", source: PackageResources.sensors_js, defines: ["Sensors"]))
        plugin.typeScript(utf8: PackageResources.sensors_d_ts)
        plugin.event("hot", of: Reading.self)
        plugin.sync("zones", requires: .sensors) { context in context.state.count() }
        plugin.async("read", args: Zone.self, requires: .sensors) { context, args in
            let reading = Reading(zone: args.zone, celsius: try context.state.celsius(zone: args.zone))
            if reading.celsius >= context.configuration.hotCelsius ?? 80 { try context.emit("hot", reading) }
            return reading
        }
        plugin.stream("watch", args: Watch.self, of: Reading.self, requires: .sensors) { context, args, out in
            while true {
                try await out.yield(Reading(zone: args.zone, celsius: try context.state.celsius(zone: args.zone)))
                try await context.clock.sleep(for: .milliseconds(args.intervalMs ?? 1000))
            }
        }
    }
}

extension Capability {
    /// Reading the machine's sensors: `--allow-sensors`.
    public static let sensors = Capability("sensors", guards: "sensor access")
}
