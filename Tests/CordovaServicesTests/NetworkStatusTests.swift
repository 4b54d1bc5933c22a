import Foundation
import JSBridgeTesting
import NetworkStatusCore
import NetworkStatusPlugin
import Testing

/// A fake interface list the test changes.
final class FakeInterfaces: NetworkInterfaceSource {
    let list: Locked<[NetworkInterface]>

    init(_ list: [NetworkInterface]) { self.list = Locked(list) }

    func interfaces() -> [NetworkInterface] { list.withLock { $0 } }
    func set(_ list: [NetworkInterface]) { self.list.withLock { $0 = list } }
}

let loopback = NetworkInterface(name: "lo", kind: .loopback, isRunning: true, hasRoutableAddress: true)
let cable = NetworkInterface(name: "eth0", kind: .ethernet, isRunning: true, hasRoutableAddress: true)
let radio = NetworkInterface(name: "wlan0", kind: .wifi, isRunning: true, hasRoutableAddress: true)
let modem = NetworkInterface(name: "wwan0", kind: .cellular, isRunning: true, hasRoutableAddress: true)
let tunnel = NetworkInterface(name: "wg0", kind: .other, isRunning: true, hasRoutableAddress: true)

@Suite struct ConnectionTypeTests {
    @Test func theBestRunningInterfaceWithAnAddressDecides() {
        #expect(ConnectionType.of([]) == .none)
        #expect(ConnectionType.of([loopback]) == .none)
        #expect(ConnectionType.of([loopback, radio]) == .wifi)
        #expect(ConnectionType.of([loopback, radio, cable]) == .ethernet)
        #expect(ConnectionType.of([modem]) == .cellular)
        #expect(ConnectionType.of([modem, radio]) == .wifi)
        #expect(ConnectionType.of([tunnel]) == .unknown)
        var unplugged = cable
        unplugged.isRunning = false
        #expect(ConnectionType.of([loopback, unplugged]) == .none)
        var linkLocalOnly = radio
        linkLocalOnly.hasRoutableAddress = false
        #expect(ConnectionType.of([linkLocalOnly]) == .none)
    }

    @Test func routableAddresses() {
        #expect(SystemNetworkInterfaces.isRoutable(ipv4: 0xC000_0201))  // 192.0.2.1
        #expect(!SystemNetworkInterfaces.isRoutable(ipv4: 0x7F00_0001))  // 127.0.0.1
        #expect(!SystemNetworkInterfaces.isRoutable(ipv4: 0xA9FE_0102))  // 169.254.1.2
        #expect(!SystemNetworkInterfaces.isRoutable(ipv4: 0))
        var linkLocal = [UInt8](repeating: 0, count: 16)
        linkLocal[0] = 0xFE
        linkLocal[1] = 0x80
        #expect(!SystemNetworkInterfaces.isRoutable(ipv6: linkLocal))
        var one = [UInt8](repeating: 0, count: 16)
        one[15] = 1
        #expect(!SystemNetworkInterfaces.isRoutable(ipv6: one))
        var global = [UInt8](repeating: 0, count: 16)
        global[0] = 0x20
        global[1] = 0x01
        global[2] = 0x0D
        global[3] = 0xB8
        #expect(SystemNetworkInterfaces.isRoutable(ipv6: global))
    }

    @Test func theMachinesOwnInterfacesAreRead() {
        let interfaces = SystemNetworkInterfaces().interfaces()
        // Every Linux network namespace has a loopback interface.
        #expect(interfaces.contains { $0.name == "lo" && $0.kind == .loopback }, "\(interfaces)")
        let type = ConnectionType.of(interfaces)
        #expect([.ethernet, .wifi, .cellular, .unknown, .none].contains(type))
    }
}

@Suite struct NetworkStatusPluginTests {
    @Test func getConnectionInfoAnswersNowAndEachChange() async throws {
        let interfaces = FakeInterfaces([loopback, cable])
        let clock = ManualClock()
        let tester = try await PluginTester(
            NetworkStatusPlugin(source: interfaces), options: .testing(clock: clock))
        let stream = try tester.stream("getConnectionInfo")
        var values = stream.makeAsyncIterator()
        #expect(try await values.next() == "ethernet")
        // No change: nothing is sent.
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        try await clock.waitForSleepers()
        interfaces.set([loopback])
        clock.advance(by: .seconds(1))
        #expect(try await values.next() == "none")
        try await clock.waitForSleepers()
        interfaces.set([loopback, radio])
        clock.advance(by: .seconds(1))
        #expect(try await values.next() == "wifi")
        stream.cancel()
        #expect(try await tester.call("getType") == "wifi")
        await tester.shutdown()
    }

    @Test func thePollIntervalIsConfigured() async throws {
        let tester = try await PluginTester(
            NetworkStatusPlugin(source: FakeInterfaces([])),
            options: .testing(configuration: ["NetworkStatus": ["pollIntervalMs": 100]]))
        await #expect(throws: BridgeError.self) {
            _ = try await PluginTester(
                NetworkStatusPlugin(source: FakeInterfaces([])),
                options: .testing(configuration: ["NetworkStatus": ["pollIntervalMs": 1]])
            ).call("getType")
        }
        #expect(try await tester.call("getType") == "none")
        await tester.shutdown()
    }
}
