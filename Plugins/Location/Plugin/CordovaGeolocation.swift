import JSBridgeCore

/// The actions of Cordova's `Geolocation` exec service (cordova-plugin-geolocation's `www/` files), answered
/// by the Location plugin over the same service: the plugin declares the constant `cordovaService:
/// "Geolocation"`, so `cordova.exec(…, "Geolocation", action, args)` reaches these.
///
/// | action | kind | arguments | result |
/// |---|---|---|---|
/// | `getLocation` | async | `[enableHighAccuracy, maximumAge]` | `{latitude, longitude, altitude, accuracy, heading, velocity, altitudeAccuracy, timestamp}` |
/// | `addWatch` | stream | `[id, enableHighAccuracy]` | positions as above, until `clearWatch(id)` |
/// | `clearWatch` | sync | `id` | `true` if a watch with that id was running |
///
/// Failures carry PositionError's numeric `code` (1 permission denied, 2 position unavailable, 3 timeout) and
/// `message`, as Cordova's native side answers.
extension LocationPlugin {
    static func declareCordovaActions(_ plugin: inout PluginDeclaration<Self>) {
        plugin.constant("cordovaService", "Geolocation")
        // cordova-plugin-geolocation's `www/` code compares W3C's numeric codes (`PositionError`): an exec of
        // the `Geolocation` service fails with these as its `code` (the text code stays as `bridgeCode`).
        plugin.constant("cordovaErrorCodes", ["PERMISSION_DENIED": 1, "POSITION_UNAVAILABLE": 2, "TIMEOUT": 3])
        plugin.async("getLocation", args: JSONValue.self, requires: .location) { context, args in
            let maximumAge = args.arrayValue.flatMap { $0.count > 1 ? $0[1].doubleValue : nil } ?? 0
            guard maximumAge >= 0 else {
                throw BridgeError.invalidArgument("maximumAge must be a non-negative number of milliseconds.")
            }
            return Self.cordovaPosition(try await context.state.position(PositionOptions(maximumAge: maximumAge)))
        }
        plugin.stream("addWatch", args: JSONValue.self, of: JSONValue.self, requires: .location) {
            context, args, out in
            guard let id = args.arrayValue?.first.flatMap(Self.watchID) ?? Self.watchID(args) else {
                throw BridgeError.invalidArgument("addWatch needs a watch id: [id, enableHighAccuracy].")
            }
            let (stopped, stop) = AsyncStream<Void>.makeStream()
            let token = context.state.cordovaWatches.add(id, stop)
            defer { context.state.cordovaWatches.remove(id, token: token) }
            let events = context.state.service.watch()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in stopped { return }
                }
                group.addTask {
                    do {
                        for try await event in events {
                            if case .position(let fix) = event { try await out.yield(Self.cordovaPosition(fix)) }
                        }
                    } catch let error as LocationError {
                        throw error.bridgeError
                    }
                }
                // The first to end (the source, or clearWatch) ends the watch.
                try await group.next()
                group.cancelAll()
            }
        }
        plugin.sync("clearWatch", args: JSONValue.self) { context, args in
            guard let id = Self.watchID(args) ?? args.arrayValue?.first.flatMap(Self.watchID) else {
                throw BridgeError.invalidArgument("clearWatch needs the watch id addWatch was given.")
            }
            return context.state.cordovaWatches.stop(id)
        }
    }

    /// A watch id: Cordova passes a string (a UUID); numbers are accepted as their text.
    static func watchID(_ value: JSONValue) -> String? {
        if let text = value.stringValue { return text }
        return value.doubleValue.map { "\($0)" }
    }

    /// A fix as Cordova's native side reports it (flat, `velocity` for speed; unknown values null).
    static func cordovaPosition(_ fix: Fix) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { $0.isFinite ? .number($0) : .null } ?? .null }
        return [
            "latitude": .number(fix.coordinate.latitude),
            "longitude": .number(fix.coordinate.longitude),
            "altitude": number(fix.altitude),
            "accuracy": .number(fix.accuracy),
            "heading": number(fix.heading),
            "velocity": number(fix.speed),
            "altitudeAccuracy": number(fix.altitudeAccuracy),
            "timestamp": .number((fix.timestamp.timeIntervalSince1970 * 1000).rounded()),
        ]
    }
}

/// The Cordova watches running, by the id the script gave `addWatch`.
final class CordovaWatches: Sendable {
    private struct State {
        var next = 0
        var watches: [String: (token: Int, stop: AsyncStream<Void>.Continuation)] = [:]
    }

    private let state = Locked(State())

    /// Registers watch `id`; returns the token that ``remove(_:token:)`` takes.
    func add(_ id: String, _ stop: AsyncStream<Void>.Continuation) -> Int {
        // A second watch with the same id replaces the first, which ends.
        let (token, previous) = state.withLock { state in
            state.next += 1
            return (state.next, state.watches.updateValue((state.next, stop), forKey: id))
        }
        previous?.stop.finish()
        return token
    }

    /// Forgets watch `id` when it is still the one registered with `token`.
    func remove(_ id: String, token: Int) {
        state.withLock { state in
            if state.watches[id]?.token == token { state.watches[id] = nil }
        }
    }

    /// Ends watch `id`; false if none runs.
    func stop(_ id: String) -> Bool {
        guard let entry = state.withLock({ $0.watches.removeValue(forKey: id) }) else { return false }
        entry.stop.finish()
        return true
    }
}
