// Type-checked (not run) by js/test/typings.test.mjs: the runtime's typings with every built-in plugin's, used as
// scripts use them. A mistake in a typing, or a drift between an action's declaration and its typing, fails it.

const n: number = bridge.execSync("Echo", "ping", [41]);
const echoed: Promise<unknown> = bridge.call("Echo", "echo", { any: "value" });
const ticks: BridgeSubscription = bridge.subscribe("Echo", "ticks", { count: 3 }, (tick: number) => console.log(tick));
ticks.done.then(() => console.log("done"));
bridge.plugins.Echo.ping(1).then((value: number) => value + 1);
bridge.plugins.Echo.ticks({ count: 2, intervalMs: 10 }, (tick) => tick.toFixed(), (error) => error.code);
bridge.on("Storage", "change", (change) => console.log(change.group, change.key, change.origin));
const value: string | null = bridge.execSync("Storage", "getItem", ["key"]);
// Plugins without typings (and untyped calls) stay open.
const anything: Promise<number> = bridge.call<number>("Somebody", "something", { x: 1 });

localStorage.setItem("k", "v");
Storage.set("k", { a: 1 }).then(() => Storage.get("k"));
const user = Model.define("User", { id: "int", name: "string?" });
fetch("https://example.com/").then((response) => response.json());
navigator.geolocation.getCurrentPosition((position) => console.log(position.coords.latitude));
const error: BridgeError = new BridgeError("QUOTA_EXCEEDED", "full");
const code: BridgeErrorCode = error.code;
export { n, echoed, value, anything, user, code };

// Cordova and JSCoreBridge compatibility (docs/cordova.md).
const cordovaChannel = cordova.require("cordova/channel");
cordovaChannel.createSticky("onMyFeatureReady");
cordovaChannel.waitForInitialization("onMyFeatureReady");
cordova.define("app.feature", (require, exports, module) => {
  module.exports = { ready: require("cordova/argscheck").getValue(undefined, true) };
});
jsCoreBridge.exec(null, (error) => { const code: string = error.resCode; void code; }, "Device", "getDeviceInfo", []);
document.addEventListener("deviceready", () => cordovaChannel.initializationComplete("onMyFeatureReady"));
process.on("SIGINT", (signal, number) => { const name: string = signal; void name; void number; });
const sameGlobal: typeof globalThis = window;
void sameGlobal;
const bookPattern = new URLPattern({ pathname: "/books/:id" }, { ignoreCase: true });
const bookId: string | undefined = bookPattern.exec("https://example.com/books/1")?.pathname.groups.id;
void bookId;
void new URLPattern("/a/*", "https://example.com").test({ pathname: "/a/b" });
