// The Location plugin's JS API: the `Location` namespace and W3C `navigator.geolocation`.
// Loaded on first read of `Location`, `navigator` or `GeolocationPositionError` (only when the plugin is
// registered). Native actions: see Plugins/Location/LocationPlugin.swift; docs: docs/location.md.

const PLUGIN = "Location";
const BridgeError = runtime.BridgeError;

/// W3C GeolocationPositionError: `code` 1/2/3 with constants; `bridgeCode` keeps the bridge's code.
class GeolocationPositionError {
  constructor(code, message, bridgeCode) {
    this.code = code;
    this.message = message;
    if (bridgeCode !== undefined) this.bridgeCode = bridgeCode;
  }
  toString() { return `GeolocationPositionError: ${this.message}`; }
}
const CODES = { PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 };
for (const [name, value] of Object.entries(CODES)) {
  Object.defineProperty(GeolocationPositionError, name, { value, enumerable: true });
  Object.defineProperty(GeolocationPositionError.prototype, name, { value, enumerable: true });
}

function positionError(error) {
  const code = error && error.code;
  const w3c = code === "PERMISSION_DENIED" ? 1 : code === "TIMEOUT" ? 3 : 2;
  return new GeolocationPositionError(w3c, String(error && error.message || error), code);
}

/// W3C GeolocationCoordinates.
class GeolocationCoordinates {
  constructor(c) {
    this.latitude = c.latitude;
    this.longitude = c.longitude;
    this.altitude = c.altitude ?? null;
    this.accuracy = c.accuracy;
    this.altitudeAccuracy = c.altitudeAccuracy ?? null;
    // W3C: heading is NaN when the device is stationary (speed 0).
    this.heading = c.speed === 0 ? NaN : c.heading ?? null;
    this.speed = c.speed ?? null;
  }
  toJSON() {
    const { latitude, longitude, altitude, accuracy, altitudeAccuracy, heading, speed } = this;
    return { latitude, longitude, altitude, accuracy, altitudeAccuracy, heading, speed };
  }
}

/// W3C GeolocationPosition: `coords` and `timestamp` (ms since the epoch).
class GeolocationPosition {
  constructor(p) {
    this.coords = new GeolocationCoordinates(p.coords);
    this.timestamp = p.timestamp;
  }
  toJSON() { return { coords: this.coords.toJSON(), timestamp: this.timestamp }; }
}

function toPosition(p) { return p === null || p === undefined ? null : new GeolocationPosition(p); }

/// W3C PositionOptions -> native options (ms; Infinity timeout -> none; Infinity maximumAge -> very large).
function nativeOptions(options) {
  const o = options ?? {};
  const ms = (value, fallback) => {
    if (value === undefined || value === null) return fallback;
    const n = Number(value);
    if (Number.isNaN(n)) return fallback;
    return n === Infinity ? Infinity : Math.max(0, Math.floor(n));
  };
  const timeout = ms(o.timeout, Infinity);
  const maximumAge = ms(o.maximumAge, 0);
  return {
    enableHighAccuracy: Boolean(o.enableHighAccuracy),
    timeout: timeout === Infinity ? null : timeout,
    maximumAge: maximumAge === Infinity ? 1e12 : maximumAge,
  };
}

/// `{latitude, longitude}`, a position (`{coords}`) or `[lat, lon]` -> `{latitude, longitude}`.
function coordinates(value, name) {
  if (Array.isArray(value)) return { latitude: value[0], longitude: value[1] };
  if (value !== null && typeof value === "object") {
    const c = value.coords !== undefined ? value.coords : value;
    return { latitude: c.latitude, longitude: c.longitude };
  }
  throw new TypeError(`${name} must be {latitude, longitude}, a position or [latitude, longitude].`);
}

function placeArgs(coords, options) {
  const o = options ?? {};
  const args = { lang: o.lang, maxDistanceKm: o.maxDistanceKm };
  if (coords !== undefined && coords !== null) args.coords = coordinates(coords, "coords");
  else Object.assign(args, nativeOptions({ timeout: o.timeout, maximumAge: o.maximumAge ?? 60000 }));
  delete args.enableHighAccuracy;
  return args;
}

// MARK: - Location (IPHLocationManager-style, promises)

const Location = {
  /// "granted" or "denied" (`--allow-location`).
  checkPermission() { return plugin.call("checkPermission"); },
  /// A position (W3C shape); rejects with a BridgeError (PERMISSION_DENIED, POSITION_UNAVAILABLE, TIMEOUT).
  async getCurrentPosition(options) {
    return toPosition(await plugin.call("getCurrentPosition", nativeOptions(options)));
  },
  /// Calls `listener(position)` per fix until `cancel()`; `onError(BridgeError)` for timeouts and failures.
  watch(options, listener, onError) {
    if (typeof options === "function") { onError = listener; listener = options; options = undefined; }
    if (typeof listener !== "function") throw new TypeError("Location.watch needs a listener function.");
    const subscription = plugin.subscribe("watch", nativeOptions(options), (item) => {
      if (item && item.error) {
        if (typeof onError === "function") onError(new BridgeError(item.error.code, item.error.message, { plugin: PLUGIN, action: "watch" }));
      } else {
        listener(toPosition(item));
      }
    }, (error) => { if (typeof onError === "function") onError(error); else runtime.reportError(error, "rejection"); });
    return { id: subscription.id, done: subscription.done, cancel() { subscription.cancel(); } };
  },
  /// IPH's cached results: `{location, coordinate, city, address}` (null where nothing is known yet).
  async lastKnown() {
    const r = await plugin.call("lastKnown");
    return { ...r, location: toPosition(r.location) };
  },
  /// `{city, state, country, countryCode, timezone, population, distanceKm, ...}` or null (no city nearby).
  getCity(coords, options) { return plugin.call("getCity", placeArgs(coords, options)); },
  /// `"city, state, country"` or null. Offline data: no street-level addresses.
  getAddress(coords, options) { return plugin.call("getAddress", placeArgs(coords, options)); },
  /// IPH requestCoordinateAndAddress: `{position, city, address}` for the current position.
  async getPositionAndAddress(options) {
    const r = await plugin.call("getPositionAndAddress", placeArgs(undefined, options));
    return { ...r, position: toPosition(r.position) };
  },
  /// Great-circle distance in metres.
  distance(a, b) { return plugin.execSync("distance", [{ a: coordinates(a, "a"), b: coordinates(b, "b") }]); },
  /// Initial bearing from `a` to `b`, degrees clockwise from true north (0 <= bearing < 360).
  bearing(a, b) { return plugin.execSync("bearing", [{ a: coordinates(a, "a"), b: coordinates(b, "b") }]); },
  /// `{source, permission, geonamesIndex, indexLoaded, nmea?}`.
  status() { return plugin.call("status"); },
};

// MARK: - navigator.geolocation (W3C)

const watches = new Map(); // id -> subscription
let lastWatchId = 0;

function requireCallback(fn, method) {
  if (typeof fn !== "function") {
    throw new TypeError(`Failed to execute '${method}' on 'Geolocation': parameter 1 is not a function.`);
  }
}

function callError(errorCallback, error) {
  if (typeof errorCallback !== "function") return;
  try { errorCallback(error); } catch (e) { runtime.reportError(e); }
}

function callSuccess(successCallback, value) {
  try { successCallback(value); } catch (e) { runtime.reportError(e); }
}

const geolocation = {
  getCurrentPosition(successCallback, errorCallback, options) {
    requireCallback(successCallback, "getCurrentPosition");
    plugin.call("getCurrentPosition", nativeOptions(options)).then(
      (p) => callSuccess(successCallback, toPosition(p)),
      (e) => callError(errorCallback, positionError(e)));
  },
  watchPosition(successCallback, errorCallback, options) {
    requireCallback(successCallback, "watchPosition");
    const id = ++lastWatchId;
    const subscription = plugin.subscribe("watch", nativeOptions(options), (item) => {
      if (!watches.has(id)) return;
      if (item && item.error) callError(errorCallback, positionError(item.error));
      else callSuccess(successCallback, toPosition(item));
    }, (error) => {
      if (!watches.has(id)) return;
      watches.delete(id);
      callError(errorCallback, positionError(error));
    });
    watches.set(id, subscription);
    subscription.done.then(() => watches.delete(id), () => watches.delete(id));
    return id;
  },
  /// Stops the watch: the native stream is cancelled (gpsd's connection closes).
  clearWatch(id) {
    const subscription = watches.get(id);
    if (subscription === undefined) return;
    watches.delete(id);
    subscription.cancel();
  },
};

class Geolocation {}
Object.setPrototypeOf(geolocation, Geolocation.prototype);

runtime.defineGlobal("Location", Location);
runtime.defineGlobal("GeolocationPositionError", GeolocationPositionError);
runtime.defineGlobal("GeolocationPosition", GeolocationPosition);
runtime.defineGlobal("GeolocationCoordinates", GeolocationCoordinates);
runtime.defineGlobal("navigator", { geolocation, userAgent: `jsbridge/${runtime.version}` });
