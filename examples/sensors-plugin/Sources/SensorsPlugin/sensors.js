// The `Sensors` global: the Sensors plugin's actions as a JavaScript API (see sensors.d.ts).
// `runtime` and `plugin` are what jsbridge hands a plugin's JavaScript files (docs/writing-a-plugin.md).

const Sensors = Object.freeze({
  /** How many thermal zones the machine has. */
  zones: () => plugin.execSync("zones"),
  /** One reading of `zone`: `{zone, celsius}`. */
  read: (zone) => plugin.call("read", { zone }),
  /** Calls `onReading` every `intervalMs` (default 1000) until `cancel()`; returns the subscription. */
  watch: (zone, onReading, { intervalMs, onError } = {}) =>
    plugin.subscribe("watch", { zone, intervalMs }, onReading, onError),
  /** Calls `listener` with each reading at or above the configured `hotCelsius` (default 80). */
  onHot: (listener) => plugin.on("hot", listener),
});

runtime.defineGlobal("Sensors", Sensors);
