import CJavaScriptCore
import CProcess
import Foundation
import JSBridge
import JSBridgeBase

/// The natives behind Node's built-in modules and `process`: Buffer's latin1, UTF-16LE and hex codecs (its
/// UTF-8 and base64 are the web extension's), the facts `node:os` reports, stdin's reader, and the signals a
/// script listens to.
extension NodeExtension {
    static func declareBufferNatives(_ ext: inout ExtensionDeclaration<NodeState>) {
        ext.native("bufferLatin1Encode", "(text: string): ArrayBuffer") { call, _ throws(NativeError) in
            // Each UTF-16 unit's low byte (Node's "latin1" and "ascii").
            call.engine.withUTF16(call[0]) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count))
                for (i, unit) in units.enumerated() { bytes[i] = UInt8(truncatingIfNeeded: unit) }
                return call.engine.makeArrayBuffer(bytes, count: units.count)
            }
        }
        ext.native("bufferUTF16LEEncode", "(text: string): ArrayBuffer") { call, _ throws(NativeError) in
            call.engine.withUTF16(call[0]) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count * 2))
                for (i, unit) in units.enumerated() {
                    bytes[2 * i] = UInt8(truncatingIfNeeded: unit)
                    bytes[2 * i + 1] = UInt8(truncatingIfNeeded: unit >> 8)
                }
                return call.engine.makeArrayBuffer(bytes, count: units.count * 2)
            }
        }
        ext.native("bufferHexDecode", "(text: string): ArrayBuffer") { call, _ throws(NativeError) in
            // Digit pairs up to the first pair that is not hex, as Node does.
            call.engine.withUTF16(call[0]) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count / 2))
                return call.engine.makeArrayBuffer(bytes, count: Hex.decodeForgiving(units, into: bytes))
            }
        }
    }

    static func declareProcessNatives(_ ext: inout ExtensionDeclaration<NodeState>) {
        ext.native("systemInfo", "(): JSBridgeSystemInfo") { call, _ throws(NativeError) in
            call.engine.makeValue(NodeSystem.info())
        }
        ext.native("cpus", "(): { model: string; speed: number; times: Record<string, number> }[]") {
            call, _ throws(NativeError) in
            call.engine.makeValue(.array(NodeSystem.cpus()))
        }
        ext.native("rss", "(): number") { call, _ throws(NativeError) in
            JSValueMakeNumber(call.context, Double(jsb_resident_bytes()))
        }
        ext.native("isatty", "(fd: number): boolean") { call, _ throws(NativeError) in
            JSValueMakeBoolean(call.context, isatty(Int32(call.number(0))) == 1)
        }
        // signalListened(number, listened): whether a `process.on(signal)` listener exists.
        ext.native("signalListened", "(signo: number, listened: boolean): void") { call, state throws(NativeError) in
            state.host.setSignalListened(Int32(call.number(0)), call.bool(1))
            return nil
        }
        // `process.stdin`: a thread reads fd 0 and posts each chunk as the native event "stdin" with `{data:
        // Uint8Array}`, then `{end: true}` or `{error: message}`. The loop waits for it only while JavaScript
        // says it consumes stdin (`stdinRef(true)`).
        ext.native("stdinStart", "(): void") { _, state throws(NativeError) in
            state.startReadingStdin()
            return nil
        }
        ext.native("stdinRef", "(consuming: boolean): void") { call, state throws(NativeError) in
            state.stdinReferenced = call.bool(0)
            return nil
        }
    }

}

/// Facts about the machine and the user, for `node:os`.
enum NodeSystem {
    static func info() -> JSONValue {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        }
        var system = sysinfo()
        sysinfo(&system)
        let unit = Double(system.mem_unit)
        let loadScale = Double(1 << SI_LOAD_SHIFT)
        var user: JSONObject = ["uid": .number(Double(getuid())), "gid": .number(Double(getgid()))]
        if let entry = getpwuid(getuid()) {
            user["username"] = .string(String(cString: entry.pointee.pw_name))
            user["homedir"] = .string(String(cString: entry.pointee.pw_dir))
            user["shell"] = .string(String(cString: entry.pointee.pw_shell))
        }
        return .object([
            "sysname": .string(field(names.sysname)), "nodename": .string(field(names.nodename)),
            "release": .string(field(names.release)), "version": .string(field(names.version)),
            "machine": .string(field(names.machine)),
            "totalmem": .number(Double(system.totalram) * unit),
            "freemem": .number(Double(availableMemory() ?? Double(system.freeram) * unit)),
            "uptime": .number(Double(system.uptime)),
            "loadavg": .array(
                [system.loads.0, system.loads.1, system.loads.2].map { .number(Double($0) / loadScale) }),
            "user": .object(user),
        ])
    }

    /// MemAvailable from /proc/meminfo (what Node reports as free memory), in bytes.
    private static func availableMemory() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let kb = Double(parts[1]) { return kb * 1024 }
        }
        return nil
    }

    /// One entry per online CPU: model, speed (MHz) and times (ms) from /proc/cpuinfo and /proc/stat.
    static func cpus() -> [JSONValue] {
        var models: [String] = [], speeds: [Double] = []
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                if parts[0] == "model name" { models.append(parts[1]) }
                if parts[0] == "cpu MHz" { speeds.append(Double(parts[1]) ?? 0) }
            }
        }
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        let msPerTick = tick > 0 ? 1000 / tick : 10
        var result: [JSONValue] = []
        if let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("cpu") && !line.hasPrefix("cpu ") {
                let values = line.split(separator: " ").dropFirst().map { (Double($0) ?? 0) * msPerTick }
                guard values.count >= 6 else { continue }
                let index = result.count
                result.append([
                    "model": .string(index < models.count ? models[index] : "unknown"),
                    "speed": .number(index < speeds.count ? speeds[index].rounded(.down) : 0),
                    "times": [
                        "user": .number(values[0]), "nice": .number(values[1]), "sys": .number(values[2]),
                        "idle": .number(values[3]), "irq": .number(values[5]),
                    ],
                ])
            }
        }
        return result
    }
}
