import Foundation
import JSBridgeCore
import JSBridgeTesting
import LocationPlugin
import Testing

/// `navigator.geolocation` as the W3C Geolocation API and Web IDL define it, on the `fixed:` source.
@Suite struct GeolocationConformanceTests {
    static let options = BridgeHost.Options.testing(
        configuration: ["Location": ["source": "fixed:39.9042,116.4074,42"]], permissions: allowLocation)

    static func run(_ code: String, permissions: Permissions = allowLocation) async -> ScriptResult {
        var options = Self.options
        options.permissions = permissions
        return await ScriptRunner.run(code, plugins: [LocationPlugin()], options: options, timeout: .seconds(20))
    }

    @Test func argumentConversions() async {
        let result = await Self.run(
            """
            const g = navigator.geolocation;
            const ok = () => {};
            const typeError = (fn) => { try { fn(); return "none"; } catch (e) { return e instanceof TypeError; } };
            console.log(typeError(() => g.getCurrentPosition()), typeError(() => g.getCurrentPosition(4)),
              typeError(() => g.getCurrentPosition(ok, 4)), typeError(() => g.getCurrentPosition(ok, {})),
              typeError(() => g.getCurrentPosition(ok, null, 4)), typeError(() => g.watchPosition(ok, "x")),
              typeError(() => g.watchPosition({ handleEvent() {} })), typeError(() => g.clearWatch()),
              typeError(() => g.getCurrentPosition.call({}, ok)));
            // Valid calls do not throw (a null or undefined error callback; null options).
            g.getCurrentPosition(ok, null, null);
            g.getCurrentPosition(ok, undefined, { timeout: Infinity, maximumAge: -5 });
            g.clearWatch(12345); g.clearWatch("nope");
            console.log("valid");
            """)
        #expect(result.lines == ["true true true true true true true true true", "valid"], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    @Test func timeoutZeroReportsTimeoutThroughTheErrorCallback() async {
        let result = await Self.run(
            """
            let sync = true;
            const id = navigator.geolocation.watchPosition(() => console.log("fix?"), (e) => {
              console.log("watch", sync, e instanceof GeolocationPositionError, e.code, e.code === e.TIMEOUT);
              navigator.geolocation.clearWatch(id);
            }, { timeout: 0 });
            navigator.geolocation.getCurrentPosition(() => console.log("fix?"), (e) => {
              console.log("once", sync, e.code);
            }, { timeout: 0.4 }); // [Clamp]: 0.4 rounds to 0
            sync = false;
            console.log(typeof id, id > 0);
            """)
        #expect(result.lines.first == "number true")
        #expect(result.lines.dropFirst().sorted() == ["once false 3", "watch false true 3 true"], "\(result.stderr)")
    }

    @Test func positionInterfaces() async {
        let result = await Self.run(
            """
            navigator.geolocation.getCurrentPosition((p) => {
              const c = p.coords;
              console.log(p instanceof GeolocationPosition, c instanceof GeolocationCoordinates, c.latitude, c.longitude, c.altitude);
              console.log(Object.keys(p).length, Object.keys(c).length, typeof p.timestamp);
              const desc = Object.getOwnPropertyDescriptor(GeolocationCoordinates.prototype, "latitude");
              console.log(typeof desc.get, desc.enumerable, desc.set === undefined);
              let brand = false;
              try { desc.get.call({}); } catch (e) { brand = e instanceof TypeError; }
              console.log(brand, JSON.stringify(Object.keys(c.toJSON())), p.toJSON().coords.latitude === c.latitude);
              console.log(JSON.stringify(p) === JSON.stringify({ coords: c.toJSON(), timestamp: p.timestamp }));
              for (const I of [GeolocationPosition, GeolocationCoordinates, GeolocationPositionError, Geolocation]) {
                try { new I(); console.log("constructed", I.name); } catch (e) { if (!(e instanceof TypeError)) console.log(e); }
              }
              console.log(Object.prototype.toString.call(navigator.geolocation), Object.prototype.toString.call(p));
              console.log([GeolocationPosition, GeolocationCoordinates, GeolocationPositionError, Geolocation, Navigator].map((I) => I.length).join(""),
                [navigator.geolocation.getCurrentPosition, navigator.geolocation.watchPosition, navigator.geolocation.clearWatch].map((f) => f.length).join(""),
                Object.getOwnPropertyDescriptor(Navigator.prototype, "geolocation").get.call(navigator) === navigator.geolocation);
              console.log(GeolocationPositionError.PERMISSION_DENIED, GeolocationPositionError.prototype.POSITION_UNAVAILABLE,
                GeolocationPositionError.TIMEOUT);
            }, (e) => console.log("error", e.code, e.message));
            """)
        #expect(
            result.lines == [
                "true true 39.9042 116.4074 42",
                "0 0 number",
                "function true true",
                #"true ["accuracy","latitude","longitude","altitude","altitudeAccuracy","heading","speed"] true"#,
                "true",
                "[object Geolocation] [object GeolocationPosition]",
                "00000 111 true",
                "1 2 3",
            ], "\(result.stderr)")
    }

    @Test func permissionDeniedErrorShape() async {
        let result = await Self.run(
            """
            navigator.geolocation.getCurrentPosition(() => console.log("fix?"), (e) => {
              const own = Object.keys(e);
              console.log(e.code, e.message.length > 0, e.bridgeCode, own.join(","));
              let brand = false;
              try { Object.getOwnPropertyDescriptor(GeolocationPositionError.prototype, "code").get.call({}); } catch (x) { brand = x instanceof TypeError; }
              console.log(brand, e instanceof Error);
            });
            """, permissions: .none)
        #expect(result.lines == ["1 true PERMISSION_DENIED bridgeCode", "true false"], "\(result.stderr)")
    }
}
