// The Location plugin's JS API: the `Location` namespace and W3C `navigator.geolocation`.
// Loaded on first read of `Location`, `navigator` or `GeolocationPositionError` (only when the plugin is
// registered). Native actions: see Plugins/Location/LocationPlugin.swift; docs: docs/location.md.

const PLUGIN = "Location";
const BridgeError = runtime.BridgeError;
// The built-ins as captured before the script ran: a script's `Map.prototype.get = ...` does not reach here.
const {
  ArrayIsArray, MathFloor, MathMax, MathMin, MethodIncludes, NumberIsNaN, ObjectAssign, ObjectDefineProperty,
  ObjectEntries, ObjectGetOwnPropertyNames, PromisePrototypeThen, ReflectApply, SafeMap, SafeWeakMap,
} = runtime.primordials;

// The W3C Geolocation interfaces: not constructible by scripts; attributes are getters on the prototypes
// (with brand checks), as Web IDL makes them.
// Constructors give every parameter a default so their `length` is 0, as for Web IDL interfaces without one.
const token = Symbol("Geolocation");
const illegal = () => new TypeError("Illegal constructor");

function brand(map, receiver, interfaceName, member) {
  const state = receiver !== null && typeof receiver === "object" ? map.get(receiver) : undefined;
  if (state === undefined) {
    throw new TypeError(`'${member}' called on an object that is not a valid instance of ${interfaceName}.`);
  }
  return state;
}

/// Defines Web IDL attributes (enumerable getters), operations and constants on `Interface.prototype`.
function shape(Interface, map, attributes, constants = {}) {
  const proto = Interface.prototype;
  for (const name of attributes) {
    const get = { [`get ${name}`]() { return brand(map, this, Interface.name, `get ${name}`)[name]; } }[`get ${name}`];
    ObjectDefineProperty(proto, name, { get, set: undefined, enumerable: true, configurable: true });
  }
  for (const name of ObjectGetOwnPropertyNames(proto)) {
    if (name !== "constructor" && !MethodIncludes(attributes, name)) ObjectDefineProperty(proto, name, { enumerable: true });
  }
  for (const [name, value] of ObjectEntries(constants)) {
    ObjectDefineProperty(Interface, name, { value, enumerable: true });
    ObjectDefineProperty(proto, name, { value, enumerable: true });
  }
  ObjectDefineProperty(proto, Symbol.toStringTag, { value: Interface.name, configurable: true });
}

const errors = new SafeWeakMap();
/// W3C GeolocationPositionError (not an Error): `code` 1, 2 or 3; `bridgeCode` keeps the bridge's code.
class GeolocationPositionError {
  constructor(key = undefined, code = 0, message = "", bridgeCode = undefined) {
    if (key !== token) throw illegal();
    errors.set(this, { code, message });
    if (bridgeCode !== undefined) {
      ObjectDefineProperty(this, "bridgeCode", { value: bridgeCode, writable: true, enumerable: true, configurable: true });
    }
  }
}
const CODES = { PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 };
shape(GeolocationPositionError, errors, ["code", "message"], CODES);

function positionError(error) {
  const code = error && error.code;
  const w3c = code === "PERMISSION_DENIED" ? 1 : code === "TIMEOUT" ? 3 : 2;
  return new GeolocationPositionError(token, w3c, String(error && error.message || error), code);
}

const COORDINATES = ["accuracy", "latitude", "longitude", "altitude", "altitudeAccuracy", "heading", "speed"];
const coordinatesState = new SafeWeakMap();
/// W3C GeolocationCoordinates.
class GeolocationCoordinates {
  constructor(key = undefined, c = undefined) {
    if (key !== token) throw illegal();
    coordinatesState.set(this, {
      accuracy: c.accuracy,
      latitude: c.latitude,
      longitude: c.longitude,
      altitude: c.altitude ?? null,
      altitudeAccuracy: c.altitudeAccuracy ?? null,
      // W3C: heading is NaN when the device is stationary (speed 0).
      heading: c.speed === 0 ? NaN : c.heading ?? null,
      speed: c.speed ?? null,
    });
  }
  toJSON() {
    const state = brand(coordinatesState, this, "GeolocationCoordinates", "toJSON");
    const json = {};
    for (const name of COORDINATES) json[name] = state[name];
    return json;
  }
}
shape(GeolocationCoordinates, coordinatesState, COORDINATES);

const positions = new SafeWeakMap();
/// W3C GeolocationPosition: `coords` and `timestamp` (ms since the epoch).
class GeolocationPosition {
  constructor(key = undefined, p = undefined) {
    if (key !== token) throw illegal();
    positions.set(this, { coords: new GeolocationCoordinates(token, p.coords), timestamp: p.timestamp });
  }
  toJSON() {
    const state = brand(positions, this, "GeolocationPosition", "toJSON");
    return { coords: state.coords.toJSON(), timestamp: state.timestamp };
  }
}
shape(GeolocationPosition, positions, ["coords", "timestamp"]);

function toPosition(p) { return p === null || p === undefined ? null : new GeolocationPosition(token, p); }

/// Web IDL's `[Clamp] unsigned long`: NaN is 0, out of range values clamp, halves round to even.
function clampUnsignedLong(value) {
  const x = MathMin(MathMax(+value, 0), 4294967295);
  if (NumberIsNaN(x)) return 0;
  const floor = MathFloor(x);
  const rest = x - floor;
  return rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
}

/// W3C PositionOptions as Web IDL converts the dictionary (members read in name order): a non-object throws
/// a TypeError; `timeout` defaults to 0xFFFFFFFF ms and `maximumAge` to 0.
function positionOptions(options, method) {
  if (options === undefined || options === null) return { enableHighAccuracy: false, maximumAge: 0, timeout: 0xffffffff };
  if (typeof options !== "object" && typeof options !== "function") {
    throw new TypeError(`Failed to execute '${method}' on 'Geolocation': The provided value is not of type 'PositionOptions'.`);
  }
  const enableHighAccuracy = Boolean(options.enableHighAccuracy);
  const maximumAge = options.maximumAge === undefined ? 0 : clampUnsignedLong(options.maximumAge);
  const timeout = options.timeout === undefined ? 0xffffffff : clampUnsignedLong(options.timeout);
  return { enableHighAccuracy, maximumAge, timeout };
}

/// Converted PositionOptions -> the native actions' options (ms; the default timeout means none).
function toNative({ enableHighAccuracy, maximumAge, timeout }) {
  return { enableHighAccuracy, timeout: timeout === 0xffffffff ? null : timeout, maximumAge };
}

/// The `Location` API's options (lenient: numbers in ms, Infinity allowed) -> native options.
function nativeOptions(options) {
  const o = options ?? {};
  const ms = (value, fallback) => {
    if (value === undefined || value === null) return fallback;
    const n = Number(value);
    if (NumberIsNaN(n)) return fallback;
    return n === Infinity ? Infinity : MathMax(0, MathFloor(n));
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
  if (ArrayIsArray(value)) return { latitude: value[0], longitude: value[1] };
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
  else ObjectAssign(args, nativeOptions({ timeout: o.timeout, maximumAge: o.maximumAge ?? 60000 }));
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

const watches = new SafeMap(); // watch id -> subscription (null while no native stream runs)
let lastWatchId = 0;

/// Web IDL's callback function conversion: anything not callable is a TypeError (`nullable`: null and
/// undefined give null).
function callback(value, method, position, nullable) {
  if (typeof value === "function") return value;
  if (nullable && (value === null || value === undefined)) return null;
  throw new TypeError(`Failed to execute '${method}' on 'Geolocation': parameter ${position} is not of type '${position === 1 ? "PositionCallback" : "PositionErrorCallback"}'.`);
}

function requireArguments(count, method) {
  if (count < 1) throw new TypeError(`Failed to execute '${method}' on 'Geolocation': 1 argument required, but only 0 present.`);
}

/// Invokes a callback (this = undefined) and reports what it throws, like an uncaught exception.
function invoke(fn, value) {
  if (fn === null) return;
  try { ReflectApply(fn, undefined, [value]); } catch (e) { runtime.reportError(e); }
}

// One acquisition. Callbacks run when the native answer arrives (a task of its own, never inside the
// calling method). A timeout of 0 fails at once unless a cached fix within maximumAge answers.
function acquireOnce(options, success, failure) {
  PromisePrototypeThen(plugin.call("getCurrentPosition", toNative(options)),
    (p) => invoke(success, toPosition(p)),
    (e) => invoke(failure, positionError(e)));
}

class Geolocation {
  constructor(key = undefined) {
    if (key !== token) throw illegal();
  }

  getCurrentPosition(successCallback, errorCallback = null, options = undefined) {
    if (!(this instanceof Geolocation)) throw new TypeError("Illegal invocation");
    requireArguments(arguments.length, "getCurrentPosition");
    const success = callback(successCallback, "getCurrentPosition", 1, false);
    const failure = callback(errorCallback, "getCurrentPosition", 2, true);
    const converted = positionOptions(options, "getCurrentPosition");
    acquireOnce(converted, success, failure);
  }

  watchPosition(successCallback, errorCallback = null, options = undefined) {
    if (!(this instanceof Geolocation)) throw new TypeError("Illegal invocation");
    requireArguments(arguments.length, "watchPosition");
    const success = callback(successCallback, "watchPosition", 1, false);
    const failure = callback(errorCallback, "watchPosition", 2, true);
    const converted = positionOptions(options, "watchPosition");
    const id = ++lastWatchId;
    watches.set(id, null);
    if (converted.timeout === 0) {
      // Every acquisition of this watch times out at once: report the first (or the cached fix) and stop.
      acquireOnce(converted, (p) => { if (watches.has(id)) invoke(success, p); },
        (e) => { if (watches.has(id)) invoke(failure, e); });
      return id;
    }
    const subscription = plugin.subscribe("watch", toNative(converted), (item) => {
      if (!watches.has(id)) return;
      if (item && item.error) invoke(failure, positionError(item.error));
      else invoke(success, toPosition(item));
    }, (error) => {
      if (!watches.has(id)) return;
      watches.delete(id);
      invoke(failure, positionError(error));
    });
    watches.set(id, subscription);
    PromisePrototypeThen(subscription.done, () => watches.delete(id), () => watches.delete(id));
    return id;
  }

  /// Stops the watch: the native stream is cancelled (gpsd's connection closes). Unknown ids do nothing.
  clearWatch(watchId) {
    if (!(this instanceof Geolocation)) throw new TypeError("Illegal invocation");
    requireArguments(arguments.length, "clearWatch");
    const id = +watchId | 0; // Web IDL `long`
    if (!watches.has(id)) return;
    const subscription = watches.get(id);
    watches.delete(id);
    if (subscription !== null) subscription.cancel();
  }
}
for (const name of ["getCurrentPosition", "watchPosition", "clearWatch"]) {
  ObjectDefineProperty(Geolocation.prototype, name, { enumerable: true });
}
ObjectDefineProperty(Geolocation.prototype, Symbol.toStringTag, { value: "Geolocation", configurable: true });
const geolocation = new Geolocation(token);

runtime.defineGlobal("Location", Location);
runtime.defineGlobal("GeolocationPositionError", GeolocationPositionError);
runtime.defineGlobal("GeolocationPosition", GeolocationPosition);
runtime.defineGlobal("GeolocationCoordinates", GeolocationCoordinates);
runtime.defineGlobal("Geolocation", Geolocation);
/// HTML's Navigator, with what this runtime has: `geolocation` and `userAgent` (getters on the prototype).
class Navigator {
  constructor(key = undefined) {
    if (key !== token) throw illegal();
  }
  get geolocation() {
    if (this !== navigator) throw new TypeError("Illegal invocation");
    return geolocation;
  }
  get userAgent() {
    if (this !== navigator) throw new TypeError("Illegal invocation");
    return `jsbridge/${runtime.version}`;
  }
}
for (const name of ["geolocation", "userAgent"]) ObjectDefineProperty(Navigator.prototype, name, { enumerable: true });
ObjectDefineProperty(Navigator.prototype, Symbol.toStringTag, { value: "Navigator", configurable: true });
const navigator = new Navigator(token);

runtime.defineGlobal("Navigator", Navigator);
runtime.defineGlobal("navigator", navigator);
