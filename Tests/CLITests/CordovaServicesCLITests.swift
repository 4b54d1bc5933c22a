import Foundation
import NetworkStatusCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Cordova's core services (NetworkStatus, Notification, File) under apps laid out as the Cordova CLI prepares
// `www/`: Specs/fixtures/cordova-services (its README says how the plugins' files there were written).

/// The fixture's `www/` files, by path, plus `files` (the app's own).
private func app(_ files: [String: String]) throws -> Project {
    let root = CLIPaths.specs + "/fixtures/cordova-services/"
    var all = files
    let enumerator = FileManager.default.enumerator(atPath: root + "www")
    while let path = enumerator?.nextObject() as? String {
        guard path.hasSuffix(".js") else { continue }
        all["www/" + path] = try String(contentsOfFile: root + "www/" + path, encoding: .utf8)
    }
    return try Project(all)
}

/// Whether this process may make a network namespace of its own (root, `unshare -n`, `ip`).
private let canUnshareNetwork: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = ["-n", "/usr/sbin/ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

@Suite struct CordovaNetworkStatusTests {
    /// cordova-plugin-network-information's type is the machine's, `online` fires, and the run still ends by
    /// itself: the plugin's keep-callback watch holds the run only until its first answer.
    @Test func theConnectionTypeIsTheMachinesAndTheRunEnds() async throws {
        let project = try app([
            "app.js": """
            require("./www/cordova_plugins.js");
            document.addEventListener("online", () => console.log("online event"));
            document.addEventListener("offline", () => console.log("offline event"));
            document.addEventListener("deviceready", () => {
              console.log("type", navigator.connection.type, navigator.network.connection === navigator.connection,
                Connection.WIFI);
            });
            """
        ])
        let expected = ConnectionType.of(SystemNetworkInterfaces().interfaces()).rawValue
        let result = try await CLI.run(["--cordova", project.path("app.js")], timeLimit: 20)
        #expect(result.exitCode == 0, "\(result.summary)")
        let lines = Set(result.stdout.split(separator: "\n").map(String.init))
        #expect(lines.contains("type \(expected) true wifi"), "\(result.summary)")
        #expect(lines.contains(expected == "none" ? "offline event" : "online event"), "\(result.summary)")
    }

    /// In a network namespace of its own with one cable (a veth pair with an address), the app is online on
    /// `ethernet`; the test takes the cable away and the app gets `offline` and the type `none`.
    @Test(.enabled(if: canUnshareNetwork, "needs root and unshare -n"))
    func offlineWhenTheInterfaceIsTakenAway() async throws {
        let project = try app([
            "config.json": #"{"NetworkStatus": {"pollIntervalMs": 100}}"#,
            "app.js": """
            require("./www/cordova_plugins.js");
            const keepAlive = setTimeout(() => console.log("no offline event"), 15000);
            document.addEventListener("online", () => console.log("online", navigator.connection.type));
            document.addEventListener("offline", () => {
              console.log("offline", navigator.connection.type);
              clearTimeout(keepAlive);
            });
            document.addEventListener("deviceready", () => console.log("deviceready"));
            """,
        ])
        let script = """
            set -e
            ip link add v0 type veth peer name v1
            ip link set v0 up
            ip link set v1 up
            ip addr add 192.0.2.1/24 dev v0
            "$JSBRIDGE" --cordova --config "$APP/config.json" "$APP/app.js" > "$APP/out" 2>&1 &
            pid=$!
            i=0
            until grep -q deviceready "$APP/out"; do sleep 0.1; i=$((i+1)); [ $i -lt 150 ] || break; done
            ip link del v0
            wait $pid
            cat "$APP/out"
            """
        let result = try await CLI.run(
            ["-n", "sh", "-c", script],
            environment: [
                "JSBRIDGE": try CLIPaths.binary(), "APP": project.root, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
            ], timeLimit: 40, binary: "/usr/bin/unshare")
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "online ethernet\ndeviceready\noffline none\n", "\(result.summary)")
    }
}

@Suite struct CordovaNotificationTests {
    /// cordova-plugin-dialogs on a pseudo-terminal: confirm, prompt, alert and beep, answered as a person would.
    @Test func dialogsOnTheTerminal() async throws {
        let project = try app([
            "app.js": """
            require("./www/cordova_plugins.js");
            document.addEventListener("deviceready", () => {
              navigator.notification.confirm("Keep the draft?", (index) => {
                console.log("confirm answered", index);
                navigator.notification.prompt("Your name?", (answer) => {
                  console.log("prompt answered", JSON.stringify(answer));
                  navigator.notification.alert("Saved.", () => {
                    console.log("alert closed");
                    navigator.notification.beep(2);
                  }, "Notes");
                }, "Hello", ["OK", "Cancel"], "you");
              }, "Drafts", ["Keep", "Discard"]);
            });
            """
        ])
        let terminal = try ReplTerminal(
            binary: try CLIPaths.binary(), arguments: ["--cordova", project.path("app.js")],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": project.root, "TERM": "dumb"])
        #expect(
            await terminal.waitFor("Drafts\nKeep the draft?\n1) Keep  2) Discard\nChoose 1-2: "), "\(terminal.plain)")
        terminal.type("3\r")
        #expect(await terminal.waitFor("Choose 1-2: 3\nChoose 1-2: "), "\(terminal.plain)")
        terminal.type("discard\r")
        #expect(await terminal.waitFor("confirm answered 2"), "\(terminal.plain)")
        #expect(await terminal.waitFor("Hello\nYour name?\n[you] > "), "\(terminal.plain)")
        terminal.type("Ada\r")
        #expect(await terminal.waitFor("1) OK  2) Cancel\nChoose 1-2: "), "\(terminal.plain)")
        terminal.type("1\r")
        #expect(await terminal.waitFor(#"prompt answered {"buttonIndex":1,"input1":"Ada"}"#), "\(terminal.plain)")
        #expect(await terminal.waitFor("Notes\nSaved.\n[OK] "), "\(terminal.plain)")
        terminal.type("\r")
        #expect(await terminal.waitFor("alert closed"), "\(terminal.plain)")
        #expect(await terminal.waitFor("\u{7}\u{7}"), "\(terminal.plain)")
        let status = await terminal.waitForExit(seconds: 20)
        #expect(status == .exited(0), "\(terminal.plain)")
    }

    /// Without a terminal (a session of its own, none opened), a dialog fails at once with NO_TERMINAL, and the
    /// www code's exec without a fail callback still prints it: never a hang, never silent.
    @Test func withoutATerminalADialogFailsAtOnce() async throws {
        let project = try app([
            "app.js": """
            require("./www/cordova_plugins.js");
            document.addEventListener("deviceready", () => {
              navigator.notification.alert("Saved.", () => console.log("unexpected"));
              navigator.notification.alert("Again.", () => console.log("unexpected"));
              cordova.exec(null, (e) => console.log("fail callback", e.code), "Notification", "confirm", ["?", "t", "A,B"]);
            });
            """
        ])
        let result = try await CLI.run(
            ["-w", try CLIPaths.binary(), "--cordova", project.path("app.js")], timeLimit: 20,
            binary: "/usr/bin/setsid")
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "fail callback NO_TERMINAL\n", "\(result.summary)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("Notification.alert failed") }
        #expect(lines.count == 1, "\(result.summary)")
        #expect(
            lines.first?.hasPrefix("ERROR: Notification.alert failed and the exec has no fail callback: [NO_TERMINAL]")
                == true, "\(result.summary)")
    }
}

@Suite struct CordovaFileTests {
    private static let fileApp = """
        require("./www/cordova_plugins.js");
        const fail = (what) => (error) => console.log(what, "failed:", error.code);
        document.addEventListener("deviceready", () => {
          console.log("dataDirectory", cordova.file.dataDirectory.replace(/^file:\\/\\/.*\\/files\\//, "…/files/"));
          window.requestFileSystem(1, 0, (fs) => {
            console.log("fs", fs.name, fs.root.fullPath, fs.root.isDirectory);
            fs.root.getDirectory("notes", { create: true }, (dir) => {
              dir.getFile("todo.txt", { create: true }, (entry) => {
                entry.createWriter((writer) => {
                  writer.onwriteend = () => {
                    console.log("written", writer.length);
                    entry.file((file) => {
                      const reader = new FileReader();
                      reader.onloadend = () => {
                        console.log("read", JSON.stringify(reader.result), file.size, file.type);
                        dir.createReader().readEntries((entries) => {
                          console.log("entries", entries.map((e) => e.name + (e.isDirectory ? "/" : "")).join(","));
                          entry.remove(() => {
                            dir.createReader().readEntries((after) => {
                              console.log("after remove", after.length);
                              window.resolveLocalFileSystemURL("file:///etc/passwd", () => console.log("unexpected"),
                                (error) => console.log("outside", error.code === FileError.SECURITY_ERR, error.code));
                            }, fail("readEntries"));
                          }, fail("remove"));
                        }, fail("readEntries"));
                      };
                      reader.readAsText(file);
                    }, fail("file"));
                  };
                  writer.write("buy milk ✓");
                }, fail("createWriter"));
              }, fail("getFile"));
            }, fail("getDirectory"));
          }, fail("requestFileSystem"));
        });
        """

    /// cordova-plugin-file's calls: write, read, list and remove under the storage directory; a URL outside it
    /// is refused with SECURITY_ERR.
    @Test func readWriteListAndRemoveUnderTheStorageDirectory() async throws {
        let project = try app(["app.js": Self.fileApp])
        let result = try await CLI.run([
            "--cordova", "--allow-read", "--allow-write", "--storage-dir", "$TMP/store", "--app-id", "notes",
            project.path("app.js"),
        ])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                dataDirectory …/files/notes/data/
                fs persistent / true
                written 12
                read "buy milk ✓" 12 text/plain
                entries todo.txt
                after remove 0
                outside true 2

                """, "\(result.summary)")
    }

    /// Without --allow-read/--allow-write the service refuses (SECURITY_ERR) and start-up still completes:
    /// `cordova.file`'s paths need no capability.
    @Test func withoutTheCapabilitiesEveryFileCallIsRefused() async throws {
        let project = try app(["app.js": Self.fileApp])
        let result = try await CLI.run([
            "--cordova", "--storage-dir", "$TMP/store", "--app-id", "notes", project.path("app.js"),
        ])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == "dataDirectory …/files/notes/data/\nrequestFileSystem failed: 2\n", "\(result.summary)")
        // Read but no write: the file system opens, creating in it is refused.
        let readOnly = try await CLI.run([
            "--cordova", "--allow-read", "--storage-dir", "$TMP/store", "--app-id", "notes", project.path("app.js"),
        ])
        #expect(
            readOnly.stdout == "dataDirectory …/files/notes/data/\nfs persistent / true\ngetDirectory failed: 2\n",
            "\(readOnly.summary)")
    }
}
