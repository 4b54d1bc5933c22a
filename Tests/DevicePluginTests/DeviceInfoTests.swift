import DeviceCore
import DevicePlugin
import Foundation
import JSBridgeTesting
import Testing

/// A fake machine: a directory standing for `/`, with the files a test writes into it.
private struct FakeRoot {
    let directory: String

    init(_ files: [String: String]) throws {
        directory = TemporaryDirectory.make(prefix: "device-root")
        for (path, text) in files {
            let url = URL(fileURLWithPath: directory + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    var reader: DeviceInfoReader { DeviceInfoReader(files: RootedFileReader(root: directory)) }
}

@Suite struct DeviceInfoTests {
    @Test func uuidV5MatchesTheRFCExample() {
        // RFC 9562's DNS namespace and the name "python.org" (the value Python's uuid.uuid5 also gives).
        let dns = UUIDv5.bytes(hex: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(UUIDv5.make(namespace: dns, name: "python.org") == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
        #expect(UUIDv5.bytes(hex: "not a uuid") == nil)
        #expect(UUIDv5.bytes(hex: String(repeating: "g", count: 32)) == nil)
    }

    @Test func aPhysicalMachineFromItsDMITree() throws {
        let root = try FakeRoot([
            "/sys/class/dmi/id/sys_vendor": "LENOVO\n",
            "/sys/class/dmi/id/product_name": "20XW0026GE\n",
            "/sys/class/dmi/id/product_serial": "PF3ABCDE\n",
            "/sys/class/dmi/id/bios_vendor": "LENOVO\n",
            "/etc/os-release": "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nVERSION_ID=\"12\"\nID=debian\n",
            "/etc/machine-id": "0123456789abcdef0123456789abcdef\n",
            "/proc/cpuinfo": "processor\t: 0\nflags\t\t: fpu vme de pse\n",
            "/proc/1/cgroup": "0::/init.scope\n",
        ])
        let info = root.reader.read(appID: "org.example.app", runtimeVersion: "9.9.9")
        #expect(info.platform == "Linux")
        #expect(info.version == "12")
        #expect(info.manufacturer == "LENOVO")
        #expect(info.model == "20XW0026GE")
        #expect(info.serial == "PF3ABCDE")
        #expect(info.isVirtual == false)
        #expect(info.cordova == "9.9.9")
        // uuid.uuid5(UUID("0123456789abcdef0123456789abcdef"), "org.example.app") in Python.
        #expect(info.uuid == "48eb70f7-1d13-5c15-af03-c43c979e38d2")
        // Stable per app, different between apps.
        #expect(root.reader.read(appID: "org.example.app", runtimeVersion: "1").uuid == info.uuid)
        #expect(root.reader.read(appID: "org.example.other", runtimeVersion: "1").uuid != info.uuid)
    }

    @Test func aVirtualMachineAndPlaceholderValues() throws {
        let root = try FakeRoot([
            "/sys/class/dmi/id/sys_vendor": "QEMU\n",
            "/sys/class/dmi/id/product_name": "Standard PC (Q35 + ICH9, 2009)\n",
            "/sys/class/dmi/id/product_serial": "To be filled by O.E.M.\n",
            "/usr/lib/os-release": "VERSION_ID=24.04\n",
            "/var/lib/dbus/machine-id": "fedcba9876543210fedcba9876543210\n",
        ])
        let info = root.reader.read(appID: "a", runtimeVersion: "1")
        #expect(info.manufacturer == "QEMU")
        #expect(info.isVirtual)
        #expect(info.serial == "unknown")
        #expect(info.version == "24.04")
        #expect(info.uuid != "unknown")
    }

    @Test func aContainerWithoutDMI() throws {
        let root = try FakeRoot([
            "/.dockerenv": "",
            "/proc/sys/kernel/osrelease": "6.1.0-18-amd64\n",
            "/etc/machine-id": "garbage\n",
        ])
        let info = root.reader.read(appID: "a", runtimeVersion: "1")
        #expect(info.model == "unknown")
        #expect(info.manufacturer == "unknown")
        #expect(info.serial == "unknown")
        #expect(info.uuid == "unknown")
        #expect(info.version == "6.1.0-18-amd64")
        #expect(info.isVirtual)
    }

    @Test func theRealMachine() throws {
        let info = DeviceInfoReader().read(appID: "org.example.app", runtimeVersion: "1")
        #expect(info.platform == "Linux")
        let dmi = FileManager.default.contents(atPath: "/sys/class/dmi/id/sys_vendor")
            .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(info.manufacturer == (dmi.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown"))
        if let id = FileManager.default.contents(atPath: "/etc/machine-id"),
            let namespace = UUIDv5.bytes(hex: String(decoding: id, as: UTF8.self).trimmingCharacters(in: .newlines))
        {
            #expect(info.uuid == UUIDv5.make(namespace: namespace, name: "org.example.app"))
        }
        if FileManager.default.fileExists(atPath: "/.dockerenv") { #expect(info.isVirtual) }
    }

    @Test func thePluginAnswersGetDeviceInfo() async throws {
        let root = try FakeRoot([
            "/sys/class/dmi/id/sys_vendor": "Dell Inc.\n", "/etc/machine-id": "0123456789abcdef0123456789abcdef",
        ])
        var options = BridgeHost.Options.testing()
        options.runtime = RuntimeIdentity(name: "devices", version: "2.0.0")
        let tester = try await PluginTester(DevicePlugin(reader: root.reader), options: options)
        let info = try await tester.call("getDeviceInfo")
        #expect(info["manufacturer"] == "Dell Inc.")
        #expect(info["platform"] == "Linux")
        #expect(info["cordova"] == "2.0.0")
        #expect(info["isVirtual"] == false)
    }
}
