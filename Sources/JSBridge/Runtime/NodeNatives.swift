import CJavaScriptCore
import Foundation
import JSBridgeCore

/// The natives behind the Node built-in modules (js/node/*.js): Buffer's UTF-8 and base64 codecs, random
/// bytes, and the facts `node:os` reports.
extension JSRuntime {
    func installNodeNatives() {
        installBufferNatives()
        installSystemNatives()
        installStdinNatives()
    }

    /// `process.stdin`: a thread reads fd 0 and posts each chunk to the inbox as event `("", "stdin")` with
    /// `{data: base64}`, then `{end: true}` or `{error: message}`. The loop stays alive for it only while
    /// JS says it is listening (`stdinRef(true)`).
    private func installStdinNatives() {
        defineNative("stdinStart") { [unowned(unsafe) self] _ throws(NativeError) in
            guard !stdin.started else { return nil }
            stdin.started = true
            let inbox = self.inbox
            let thread = Thread {
                let size = 65536
                let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
                defer { buffer.deallocate() }
                while true {
                    let count = read(0, buffer, size)
                    if count > 0 {
                        let chunk = Data(bytes: buffer, count: count).base64EncodedString()
                        inbox.post(InboxMessage(plugin: "", event: "stdin", payload: ["data": .string(chunk)]))
                        continue
                    }
                    if count < 0, errno == EINTR { continue }
                    let payload: JSONValue =
                        count == 0 ? ["end": true] : ["error": .string(String(cString: strerror(errno)))]
                    inbox.post(InboxMessage(plugin: "", event: "stdin", payload: payload))
                    return
                }
            }
            thread.name = "jsbridge-stdin"
            thread.start()
            return nil
        }
        defineNative("isatty") { call in
            JSValueMakeBoolean(call.context, isatty(Int32(call.number(0))) == 1)
        }
        // stdinRef(bool): whether reading stdin keeps the process alive (a 'data' listener, not paused).
        defineNative("stdinRef") { [unowned(unsafe) self] call throws(NativeError) in
            stdin.referenced = call.bool(0)
            return nil
        }
    }

    /// The bytes of ArrayBuffer argument `index` from byte `start` (argument `index + 1`) for `count`
    /// (argument `index + 2`) bytes, clamped to the buffer; nil when it is not an ArrayBuffer.
    private func byteRange(_ call: NativeCall, _ index: Int) -> UnsafeMutableBufferPointer<UInt8>? {
        guard let object = JSValueToObject(context, call[index], nil),
            JSValueGetTypedArrayType(context, call[index], nil) == kJSTypedArrayTypeArrayBuffer,
            let base = JSObjectGetArrayBufferBytesPtr(context, object, nil)
        else { return nil }
        let size = JSObjectGetArrayBufferByteLength(context, object, nil)
        let start = min(size, Int(max(0, call.number(index + 1))))
        let count = min(size - start, Int(max(0, call.number(index + 2))))
        return UnsafeMutableBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + start, count: count)
    }

    /// A new ArrayBuffer that takes over `bytes` (allocated with `malloc`).
    private func makeArrayBuffer(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> JSValueRef {
        JSObjectMakeArrayBufferWithBytesNoCopy(
            context, bytes, count, { pointer, _ in free(pointer) }, nil, nil)
    }

    /// Calls `body` with the UTF-16 code units of string argument `index`.
    private func withUTF16<R>(_ call: NativeCall, _ index: Int, _ body: (UnsafeBufferPointer<UInt16>) -> R) -> R {
        guard let ref = JSValueToStringCopy(context, call[index], nil) else {
            return body(UnsafeBufferPointer(start: nil, count: 0))
        }
        defer { JSStringRelease(ref) }
        let length = JSStringGetLength(ref)
        return body(UnsafeBufferPointer(start: JSStringGetCharactersPtr(ref), count: length))
    }

    /// A JS string of the UTF-16 units `fill` writes (it answers how many, or nil for `null`).
    func makeUTF16String(capacity: Int, _ fill: (UnsafeMutablePointer<UInt16>) -> Int?) -> JSValueRef {
        let units = UnsafeMutablePointer<UInt16>.allocate(capacity: max(1, capacity))
        defer { units.deallocate() }
        guard let count = fill(units) else { return JSValueMakeNull(context) }
        let ref = JSStringCreateWithCharacters(units, count)!
        defer { JSStringRelease(ref) }
        return JSValueMakeString(context, ref)
    }

    private func installBufferNatives() {
        // utf8Encode(string) → ArrayBuffer of its UTF-8 (lone surrogates become U+FFFD, as Node).
        defineNative("bufferUTF8Encode") { [unowned(unsafe) self] call throws(NativeError) in
            withUTF16(call, 0) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count * 3))
                let written = NodeCodecs.utf8Encode(units, into: bytes, capacity: units.count * 3).written
                let result = realloc(bytes, max(1, written))!.assumingMemoryBound(to: UInt8.self)
                return makeArrayBuffer(result, count: written)
            }
        }
        // bufferUTF8Write(string, arrayBuffer, offset, length) → [units read, bytes written]; no character is split.
        defineNative("bufferUTF8Write") { [unowned(unsafe) self] call throws(NativeError) in
            guard let range = byteRange(call, 1) else { throw .type("bufferUTF8Write needs an ArrayBuffer.") }
            let written = withUTF16(call, 0) { units in
                NodeCodecs.utf8Encode(
                    units, into: range.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!, capacity: range.count
                )
                .written
            }
            return JSValueMakeNumber(context, Double(written))
        }
        // bufferUTF8Decode(arrayBuffer, offset, length) → string (WHATWG decoding: U+FFFD per maximal subpart).
        defineNative("bufferUTF8Decode") { [unowned(unsafe) self] call throws(NativeError) in
            guard let range = byteRange(call, 0) else { throw .type("bufferUTF8Decode needs an ArrayBuffer.") }
            return makeUTF16String(capacity: range.count) {
                TextCodecs.utf8Decode(UnsafeBufferPointer(range), into: $0, fatal: false)
            }
        }
        // bufferBase64Encode(arrayBuffer, offset, length, url) → string (url: base64url without padding).
        defineNative("bufferBase64Encode") { [unowned(unsafe) self] call throws(NativeError) in
            guard let range = byteRange(call, 0) else { throw .type("bufferBase64Encode needs an ArrayBuffer.") }
            let url = call.bool(3)
            return makeUTF16String(capacity: (range.count + 2) / 3 * 4) {
                NodeCodecs.base64Encode(UnsafeBufferPointer(range), into: $0, url: url)
            }
        }
        // bufferLatin1Encode(string) → ArrayBuffer: each UTF-16 unit's low byte (Node's "latin1" and "ascii").
        defineNative("bufferLatin1Encode") { [unowned(unsafe) self] call throws(NativeError) in
            withUTF16(call, 0) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count))
                for (i, unit) in units.enumerated() { bytes[i] = UInt8(truncatingIfNeeded: unit) }
                return makeArrayBuffer(bytes, count: units.count)
            }
        }
        // bufferUTF16LEEncode(string) → ArrayBuffer: each UTF-16 unit, little-endian.
        defineNative("bufferUTF16LEEncode") { [unowned(unsafe) self] call throws(NativeError) in
            withUTF16(call, 0) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count * 2))
                for (i, unit) in units.enumerated() {
                    bytes[2 * i] = UInt8(truncatingIfNeeded: unit)
                    bytes[2 * i + 1] = UInt8(truncatingIfNeeded: unit >> 8)
                }
                return makeArrayBuffer(bytes, count: units.count * 2)
            }
        }
        // bufferHexDecode(string) → ArrayBuffer: digit pairs up to the first pair that is not hex (as Node).
        defineNative("bufferHexDecode") { [unowned(unsafe) self] call throws(NativeError) in
            withUTF16(call, 0) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count / 2))
                return makeArrayBuffer(bytes, count: NodeCodecs.hexDecode(units, into: bytes))
            }
        }
        // bufferBase64Decode(string) → ArrayBuffer (either alphabet; other characters skipped, as Node).
        defineNative("bufferBase64Decode") { [unowned(unsafe) self] call throws(NativeError) in
            withUTF16(call, 0) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count * 3 / 4 + 3))
                let written = NodeCodecs.base64Decode(units, into: bytes)
                return makeArrayBuffer(bytes, count: written)
            }
        }
        // randomFill(arrayBuffer, offset, length): cryptographically secure bytes from the kernel.
        defineNative("randomFill") { [unowned(unsafe) self] call throws(NativeError) in
            guard let range = byteRange(call, 0) else { throw .type("randomFill needs an ArrayBuffer.") }
            var filled = 0
            while filled < range.count {
                let got = getrandom(range.baseAddress! + filled, range.count - filled, 0)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw .plain("getrandom failed (errno \(errno))", code: "ERR_CRYPTO_OPERATION_FAILED")
                }
                filled += got
            }
            return nil
        }
    }

    private func installSystemNatives() {
        // systemInfo() → uname, user, memory, uptime and load averages, read now.
        defineNative("systemInfo") { [unowned(unsafe) self] _ throws(NativeError) in
            makeValue(NodeSystem.info())
        }
        // cpus() → one entry per CPU (model, speed, times), as `os.cpus()`.
        defineNative("cpus") { [unowned(unsafe) self] _ throws(NativeError) in
            makeValue(.array(NodeSystem.cpus()))
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

/// Buffer's byte codecs, over raw memory (they run per call of Buffer.from / toString, so no Swift strings).
enum NodeCodecs {
    /// Encodes UTF-16 `units` as UTF-8 into `output` up to `capacity` bytes, never splitting a character.
    static func utf8Encode(
        _ units: UnsafeBufferPointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, capacity: Int
    )
        -> (read: Int, written: Int)
    {
        var read = 0, written = 0
        let count = units.count
        while read < count {
            var code = UInt32(units[read])
            var consumed = 1
            if code < 0x80 {
                if written >= capacity { break }
                output[written] = UInt8(code)
                written += 1
                read += 1
                continue
            }
            if code >= 0xD800 && code <= 0xDFFF {
                if code <= 0xDBFF, read + 1 < count, units[read + 1] >= 0xDC00, units[read + 1] <= 0xDFFF {
                    code = 0x10000 + ((code - 0xD800) << 10) + (UInt32(units[read + 1]) - 0xDC00)
                    consumed = 2
                } else {
                    code = 0xFFFD
                }
            }
            let size = code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
            if written + size > capacity { break }
            switch size {
            case 2:
                output[written] = UInt8(0xC0 | (code >> 6))
                output[written + 1] = UInt8(0x80 | (code & 0x3F))
            case 3:
                output[written] = UInt8(0xE0 | (code >> 12))
                output[written + 1] = UInt8(0x80 | ((code >> 6) & 0x3F))
                output[written + 2] = UInt8(0x80 | (code & 0x3F))
            default:
                output[written] = UInt8(0xF0 | (code >> 18))
                output[written + 1] = UInt8(0x80 | ((code >> 12) & 0x3F))
                output[written + 2] = UInt8(0x80 | ((code >> 6) & 0x3F))
                output[written + 3] = UInt8(0x80 | (code & 0x3F))
            }
            written += size
            read += consumed
        }
        return (read, written)
    }

    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf16)
    private static let urlSafe = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf16)
    /// Each character's 6-bit value in either alphabet; 255 for others.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 128)
        for (index, unit) in standard.enumerated() { table[Int(unit)] = UInt8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// base64 (padded) or base64url (unpadded) text of `bytes`; answers the units written.
    static func base64Encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt16>, url: Bool)
        -> Int
    {
        let alphabet = url ? urlSafe : standard
        return alphabet.withUnsafeBufferPointer { table in
            var index = 0, written = 0
            let count = bytes.count
            while index + 3 <= count {
                let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                output[written] = table[Int(value >> 18)]
                output[written + 1] = table[Int((value >> 12) & 63)]
                output[written + 2] = table[Int((value >> 6) & 63)]
                output[written + 3] = table[Int(value & 63)]
                index += 3
                written += 4
            }
            let rest = count - index
            if rest > 0 {
                let value = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                output[written] = table[Int(value >> 18)]
                output[written + 1] = table[Int((value >> 12) & 63)]
                written += 2
                if rest == 2 {
                    output[written] = table[Int((value >> 6) & 63)]
                    written += 1
                } else if !url {
                    output[written] = 61  // "="
                    written += 1
                }
                if !url {
                    output[written] = 61
                    written += 1
                }
            }
            return written
        }
    }

    /// Decodes pairs of hex digits (either case) until a pair that is not one; returns the bytes written.
    static func hexDecode(_ units: UnsafeBufferPointer<UInt16>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        func value(_ unit: UInt16) -> UInt8? {
            switch unit {
            case 48...57: UInt8(unit - 48)
            case 65...70: UInt8(unit - 55)
            case 97...102: UInt8(unit - 87)
            default: nil
            }
        }
        var written = 0
        while 2 * written + 1 < units.count, let high = value(units[2 * written]),
            let low = value(units[2 * written + 1])
        {
            output[written] = high << 4 | low
            written += 1
        }
        return written
    }

    /// Decodes base64 or base64url, skipping characters outside both alphabets and stopping at "=" (as Node).
    static func base64Decode(_ units: UnsafeBufferPointer<UInt16>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        decodeTable.withUnsafeBufferPointer { table in
            var accumulator: UInt32 = 0, bits = 0, written = 0
            for unit in units {
                if unit == 61 { break }
                guard unit < 128 else { continue }
                let value = table[Int(unit)]
                if value == 255 { continue }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output[written] = UInt8((accumulator >> UInt32(bits)) & 0xFF)
                    written += 1
                }
            }
            return written
        }
    }
}

/// The state of `process.stdin`'s reader (JS thread only).
struct StdinState {
    /// Whether the reader thread runs (it is started once and reads until end of input).
    var started = false
    /// Whether the loop waits for stdin's data (JS has a listener and has not paused).
    var referenced = false
}
