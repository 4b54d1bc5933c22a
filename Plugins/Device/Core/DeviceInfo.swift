import Foundation
import JSBridgeBase

/// Reads the files that describe the machine; injected so tests can give a fake DMI tree.
public protocol DeviceFileReader: Sendable {
    /// The text of the file at `path` (trailing whitespace kept), or nil when it is absent or unreadable.
    func read(_ path: String) -> String?
}

/// Reads the real file system.
public struct SystemFileReader: DeviceFileReader {
    public init() {}

    public func read(_ path: String) -> String? {
        // The files read here are a few bytes; a cap keeps a misplaced path (a device, a huge file) harmless.
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            // nil at once: an empty file (a marker such as /.dockerenv).
            let data = try handle.read(upToCount: 64 * 1024) ?? Data()
            return String(decoding: data, as: UTF8.self)
        } catch {
            return nil
        }
    }
}

/// Reads files under `root` instead of `/` (a fake tree: `<root>/sys/class/dmi/id/sys_vendor`, …).
public struct RootedFileReader: DeviceFileReader {
    public let root: String

    public init(root: String) { self.root = root }

    public func read(_ path: String) -> String? { SystemFileReader().read(root + path) }
}

/// What Cordova's `device` object reports (cordova-plugin-device's `getDeviceInfo`).
public struct DeviceInfo: Sendable, Hashable, Codable {
    /// Always "Linux".
    public var platform: String
    /// The operating system's version: `VERSION_ID` of /etc/os-release, else the kernel release, else "unknown".
    public var version: String
    /// DMI `product_name`, or "unknown".
    public var model: String
    /// DMI `sys_vendor`, or "unknown".
    public var manufacturer: String
    /// UUIDv5 of the app id in the namespace of /etc/machine-id: stable per machine and app, different per app.
    public var uuid: String
    /// Whether the machine is a virtual machine or a container.
    public var isVirtual: Bool
    /// DMI `product_serial` when readable (usually root only), else "unknown".
    public var serial: String
    /// The runtime's version (Cordova's `device.cordova`).
    public var cordova: String
}

/// Works out ``DeviceInfo`` from the files a Linux machine offers; every missing piece is "unknown".
public struct DeviceInfoReader: Sendable {
    public static let unknown = "unknown"
    static let dmi = "/sys/class/dmi/id/"
    /// Words in DMI vendor/product names that mean a virtual machine.
    static let virtualMarkers = [
        "qemu", "kvm", "vmware", "virtualbox", "xen", "bochs", "hyper-v", "virtual machine", "parallels", "bhyve",
        "openstack", "google compute engine", "amazon ec2", "cloud hypervisor", "firecracker",
    ]

    public let files: any DeviceFileReader

    public init(files: any DeviceFileReader = SystemFileReader()) { self.files = files }

    /// The device as seen by app `appID` of a runtime of `runtimeVersion`.
    public func read(appID: String, runtimeVersion: String) -> DeviceInfo {
        let vendor = dmiValue("sys_vendor")
        let product = dmiValue("product_name")
        return DeviceInfo(
            platform: "Linux",
            version: osVersion(),
            model: product ?? Self.unknown,
            manufacturer: vendor ?? Self.unknown,
            uuid: uuid(appID: appID) ?? Self.unknown,
            isVirtual: isVirtual(vendor: vendor, product: product),
            serial: dmiValue("product_serial") ?? Self.unknown,
            cordova: runtimeVersion)
    }

    /// A DMI field, trimmed; nil when absent, empty or a placeholder firmware left in.
    func dmiValue(_ name: String) -> String? {
        guard let text = files.read(Self.dmi + name)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
        else { return nil }
        let placeholders = ["to be filled by o.e.m.", "default string", "not specified", "none", "system product name"]
        return placeholders.contains(text.lowercased()) ? nil : text
    }

    func osVersion() -> String {
        for path in ["/etc/os-release", "/usr/lib/os-release"] {
            guard let text = files.read(path) else { continue }
            for line in text.split(separator: "\n") where line.hasPrefix("VERSION_ID=") {
                let value = line.dropFirst("VERSION_ID=".count).trimmingCharacters(
                    in: CharacterSet(charactersIn: "\"' "))
                if !value.isEmpty { return value }
            }
        }
        if let release = files.read("/proc/sys/kernel/osrelease")?.trimmingCharacters(in: .whitespacesAndNewlines),
            !release.isEmpty
        {
            return release
        }
        return Self.unknown
    }

    /// The machine id (/etc/machine-id, else D-Bus's copy) as a UUID namespace; nil when neither is valid.
    func machineNamespace() -> [UInt8]? {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            guard let text = files.read(path)?.trimmingCharacters(in: .whitespacesAndNewlines) else { continue }
            if let bytes = UUIDv5.bytes(hex: text) { return bytes }
        }
        return nil
    }

    func uuid(appID: String) -> String? {
        machineNamespace().map { UUIDv5.make(namespace: $0, name: appID) }
    }

    func isVirtual(vendor: String?, product: String?) -> Bool {
        let names = [vendor, product, dmiValue("board_vendor"), dmiValue("bios_vendor")].compactMap { $0?.lowercased() }
        if names.contains(where: { name in Self.virtualMarkers.contains { name.contains($0) } }) { return true }
        // Containers: the markers Docker and Podman leave, or a cgroup path naming one.
        if files.read("/.dockerenv") != nil || files.read("/run/.containerenv") != nil { return true }
        if let cgroup = files.read("/proc/1/cgroup"),
            ["docker", "kubepods", "containerd", "lxc", "libpod"].contains(where: cgroup.contains)
        {
            return true
        }
        // A CPU flag the hypervisor sets for its guests.
        if let cpuinfo = files.read("/proc/cpuinfo"),
            cpuinfo.split(separator: "\n").contains(where: {
                $0.hasPrefix("flags") && $0.split(separator: " ").contains("hypervisor")
            })
        {
            return true
        }
        return false
    }
}
