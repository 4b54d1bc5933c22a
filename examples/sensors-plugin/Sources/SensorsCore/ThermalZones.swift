import Foundation
import JSBridgeBase

/// The thermal zones of a machine, as Linux shows them: `<root>/thermal_zone<N>/temp` holds the temperature
/// in millidegrees Celsius (the root is `/sys/class/thermal`; tests use a folder of their own).
public struct ThermalZones: Sendable {
    /// The folder holding the `thermal_zone<N>` folders.
    public let root: String

    public init(root: String) { self.root = root }

    /// How many zones there are (`thermal_zone0` … without a gap).
    public func count() -> Int {
        var count = 0
        while FileManager.default.fileExists(atPath: "\(root)/thermal_zone\(count)/temp") { count += 1 }
        return count
    }

    /// The temperature of zone `zone`, in degrees Celsius.
    public func celsius(zone: Int) throws(SensorError) -> Double {
        let path = "\(root)/thermal_zone\(zone)/temp"
        guard zone >= 0, let data = FileManager.default.contents(atPath: path) else {
            throw .noSuchZone(zone, root: root)
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let millidegrees = Double(text) else { throw .unreadable(path: path, text: text) }
        return millidegrees / 1000
    }
}

/// Why a reading failed; each case has a stable code for JavaScript.
public enum SensorError: Error, Hashable, BridgeErrorConvertible {
    case noSuchZone(Int, root: String)
    case unreadable(path: String, text: String)

    public var bridgeError: BridgeError {
        switch self {
        case .noSuchZone(let zone, let root):
            BridgeError(
                code: "NO_SUCH_ZONE", message: "There is no thermal zone \(zone) under '\(root)'.",
                data: ["zone": .number(Double(zone))])
        case .unreadable(let path, let text):
            BridgeError(
                code: "SENSOR_UNREADABLE", message: "'\(path)' holds '\(text)', not a temperature.",
                data: ["path": .string(path)])
        }
    }
}
