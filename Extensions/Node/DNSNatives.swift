import CJavaScriptCore
import Dispatch
import Foundation
import JSBridge
import JSBridgeBase
import JSBridgeCore
import Synchronization

/// The native behind `node:dns` (node-dns.js): the system resolver's `getaddrinfo`, run on a worker thread (it
/// blocks), behind the `net` capability for the name looked up (a grant of the host without a port). The answer
/// is the native event "dns": `{id, addresses: [[address, family], ...]}` or `{id, code, errno}` with Node's
/// code (`ENOTFOUND`, `EAI_AGAIN`...).
extension NodeExtension {
    static func declareDNSNatives(_ ext: inout ExtensionDeclaration<NodeState>) {
        // dnsLookup(id, host, family): family 0 (any), 4 or 6; the answer comes as the native event "dns".
        ext.native("dnsLookup", "(id: number, host: string, family: number): void") {
            call, state throws(NativeError) in
            let id = call.number(0)
            let name = call.string(1)
            let family = Int(call.number(2))
            do throws(BridgeError) {
                try state.host.permissions.check(.net, scope: HostPattern(host: name).description)
            } catch {
                throw .bridge(error, plugin: "node:dns", action: "lookup")
            }
            let events = state.host.events
            let lookups = state.dnsLookups
            lookups.add(1)
            DispatchQueue.global().async {
                let answer = DNSLookups.resolve(name, family: family)
                var payload: [(String, JSONValue)] = [("id", .number(id))]
                switch answer {
                case .success(let addresses):
                    payload.append(
                        ("addresses", .array(addresses.map { .array([.string($0.0), .number(Double($0.1))]) })))
                case .failure(let failure):
                    payload += [("code", .string(failure.code)), ("errno", .number(Double(failure.errno)))]
                }
                events.post("dns", BridgeValue(.object(JSONObject(payload))))
            }
            return nil
        }
        // The answer was taken: the run no longer waits for it.
        ext.native("dnsDone", "(): void") { _, state throws(NativeError) in
            state.dnsLookups.add(-1)
            return nil
        }
    }
}

/// How many lookups run on workers or wait to be taken (the loop stays alive for them).
final class DNSLookups: Sendable {
    private let count = Mutex(0)
    func add(_ delta: Int) { count.withLock { $0 += delta } }
    var pending: Bool { count.withLock { $0 > 0 } }

    /// A failed lookup: Node's code and errno.
    struct Failure: Error {
        var code: String
        var errno: Int32
    }

    /// The addresses `name` resolves to, in the resolver's order, each once with its family (4 or 6).
    static func resolve(_ name: String, family: Int) -> Result<[(String, Int)], Failure> {
        var hints = addrinfo()
        hints.ai_family = family == 4 ? AF_INET : family == 6 ? AF_INET6 : AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0 else {
            // Node's codes (its errno numbers are libuv's): a name without addresses is ENOTFOUND.
            switch status {
            case EAI_AGAIN: return .failure(Failure(code: "EAI_AGAIN", errno: -3001))
            case EAI_FAIL: return .failure(Failure(code: "EAI_FAIL", errno: -3007))
            default: return .failure(Failure(code: "ENOTFOUND", errno: -3008))
            }
        }
        defer { freeaddrinfo(list) }
        var addresses: [(String, Int)] = []
        var node = list
        while let entry = node {
            node = entry.pointee.ai_next
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard let address = entry.pointee.ai_addr,
                getnameinfo(address, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
                    == 0
            else { continue }
            let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let version = entry.pointee.ai_family == AF_INET6 ? 6 : 4
            if !addresses.contains(where: { $0 == (string, version) }) { addresses.append((string, version)) }
        }
        if addresses.isEmpty { return .failure(Failure(code: "ENOTFOUND", errno: -3008)) }
        return .success(addresses)
    }
}
