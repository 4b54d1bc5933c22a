import JSBridgeCore
import JSBridgeTesting
import ModelPlugin
import StoragePlugin
import Testing

/// Archived models: `Storage.archiveModel` / `unarchiveModel` through the model conversion engine, on SQLite
/// and PostgreSQL.
@Suite struct ArchiveTests {
    func run(_ backend: Backend, _ code: String, plugins: [any BridgePlugin] = [StoragePlugin(), ModelPlugin()]) async
        -> ScriptResult
    {
        var options = BridgeHost.Options.testing()
        do {
            options = try backend.options(options)
        } catch {
            Issue.record("no PostgreSQL for the test: \(error)")
        }
        return await ScriptRunner.run(code, plugins: plugins, options: options, timeout: .seconds(20))
    }

    static let hotel = #"""
        Model.define("Room", { name: "string", price: "double" });
        Model.define("Hotel", { name: "string", opened: "date", rooms: ["Room"] });
        const hotel = Model.convert("Hotel", { name: "Ritz", opened: "1898-06-01T00:00:00Z", rooms: [{ name: "a", price: "120" }] });
        """#

    @Test(arguments: Backend.allCases) func aModelRoundTripsThroughAnArchive(_ backend: Backend) async {
        let result = await run(
            backend,
            Self.hotel + #"""
                (async () => {
                  await Storage.archiveModel("ritz", "Hotel", hotel);
                  const stored = await Storage.get("ritz");
                  console.log(stored.$model, stored.value.rooms[0].price);
                  const back = await Storage.unarchiveModel("ritz", "Hotel");
                  console.log(Model.equals("Hotel", hotel, back), back.rooms[0].price, await Storage.unarchiveModel("missing"));
                  await Storage.group("g").archiveModel("r", "Room", hotel.rooms[0]);
                  console.log((await Storage.group("g").unarchiveModel("r")).name);
                })();
                """#)
        #expect(result.lines == ["Hotel 120", "true 120 null", "a"], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    @Test(arguments: Backend.allCases) func restoringChecksTheCurrentSchemaAndReportsMismatches(_ backend: Backend)
        async
    {
        let result = await run(
            backend,
            Self.hotel + #"""
                (async () => {
                  await Storage.archiveModel("ritz", "Hotel", hotel);
                  Model.define("Room", { name: "string", price: "double", beds: "int" }, { replace: true });
                  await Storage.unarchiveModel("ritz").catch((e) => console.log(e.code, e.data.issues[0].path, e.message.includes("'ritz'")));
                  await Storage.unarchiveModel("ritz", "Room").catch((e) => console.log(e.code));
                  await Storage.set("plain", { not: "an archive" });
                  await Storage.unarchiveModel("plain").catch((e) => console.log(e.code));
                })();
                """#)
        #expect(result.lines.count == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.first?.hasPrefix("DATA_FORMAT rooms[0].beds true") == true)
        #expect(result.lines.dropFirst().allSatisfy { $0 == "DATA_FORMAT" })
    }

    @Test(arguments: Backend.allCases) func archivingWithoutTheModelPluginSaysWhatIsMissing(_ backend: Backend) async {
        let result = await run(
            backend,
            #"Storage.archiveModel("k", "Hotel", {}).catch((e) => console.log(e.code, e.message))"#,
            plugins: [StoragePlugin()])
        #expect(result.lines == ["PLUGIN_NOT_FOUND Archiving models needs the Model plugin, which is not registered."])
    }
}
