// Location (docs/location.md): the JavaScript API of the plugin (declared beside its JavaScript; added to its generated
// typings, `jsbridge --typings`).

/** The plugin's error codes (with `INVALID_ARGUMENT`, `PERMISSION_DENIED`, `TIMEOUT` from the bridge). */
interface BridgeErrorCodes {
  /** No position could be had (gpsd unreachable, a source that ended without a fix, …). */
  POSITION_UNAVAILABLE: true;
  /** The offline GeoNames index is missing or damaged (run `scripts/setup.sh`); `data.path`. */
  GEOCODER_UNAVAILABLE: true;
}

/** W3C `PositionOptions` (milliseconds). */
interface PositionOptions {
  /** Accepted; it has no effect (each source has one accuracy). */
  enableHighAccuracy?: boolean;
  /**
   * Default 0xFFFFFFFF (no timeout); converted as Web IDL's `[Clamp] unsigned long`. The clock starts when the
   * native plugin receives the request; 0 reports TIMEOUT at once unless a cached fix answers.
   */
  timeout?: number;
  /** Default 0: a fix received at most this long ago is returned at once (`[Clamp] unsigned long`). */
  maximumAge?: number;
}

/** W3C `GeolocationCoordinates`: unknown values are null; `heading` is `NaN` when `speed` is 0. */
interface GeolocationCoordinates {
  readonly latitude: number;
  readonly longitude: number;
  /** Metres above the WGS 84 ellipsoid. */
  readonly altitude: number | null;
  /** Metres. */
  readonly accuracy: number;
  readonly altitudeAccuracy: number | null;
  /** Degrees clockwise from true north. */
  readonly heading: number | null;
  /** Metres per second. */
  readonly speed: number | null;
  toJSON(): Omit<GeolocationCoordinates, "toJSON">;
}

/** W3C `GeolocationPosition`. (Its class becomes a global only once `Location` or `navigator` was read.) */
interface GeolocationPosition {
  readonly coords: GeolocationCoordinates;
  /** Milliseconds since the epoch (the receiver's time for gpsd and NMEA). */
  readonly timestamp: number;
  toJSON(): { coords: Omit<GeolocationCoordinates, "toJSON">; timestamp: number };
}

/** W3C `GeolocationPositionError` (not an `Error`): `code` 1, 2 or 3, and the bridge's own code. */
interface GeolocationPositionError {
  readonly code: number;
  readonly message: string;
  /** The `BridgeError` code behind it (`PERMISSION_DENIED`, `POSITION_UNAVAILABLE`, `TIMEOUT`, …). */
  readonly bridgeCode?: BridgeErrorCode;
  readonly PERMISSION_DENIED: 1;
  readonly POSITION_UNAVAILABLE: 2;
  readonly TIMEOUT: 3;
}

/** Not constructible by scripts (`new` throws a TypeError), as in browsers. */
declare var GeolocationPositionError: {
  readonly prototype: GeolocationPositionError;
  readonly PERMISSION_DENIED: 1;
  readonly POSITION_UNAVAILABLE: 2;
  readonly TIMEOUT: 3;
};

type PositionCallback = (position: GeolocationPosition) => void;
type PositionErrorCallback = (positionError: GeolocationPositionError) => void;

/** W3C `navigator.geolocation` (needs `--allow-location`; otherwise errors with code 1). */
interface Geolocation {
  getCurrentPosition(
    successCallback: PositionCallback,
    errorCallback?: PositionErrorCallback | null,
    options?: PositionOptions,
  ): void;
  /** Calls back per fix (and with code 3 per `timeout` without one) until `clearWatch`; keeps the script alive. */
  watchPosition(
    successCallback: PositionCallback,
    errorCallback?: PositionErrorCallback | null,
    options?: PositionOptions,
  ): number;
  /** Stops the watch: the native stream is cancelled. */
  clearWatch(watchId: number): void;
}

/** jsbridge's `navigator` (with the Location plugin) has only `geolocation` and `userAgent` (`"jsbridge/<version>"`). */
interface WorkerNavigator {
  readonly geolocation: Geolocation;
}

/** Coordinates as the Location namespace accepts them: `{latitude, longitude}`, a position, or `[lat, lon]`. */
type LocationCoordinates =
  | { latitude: number; longitude: number }
  | { coords: { latitude: number; longitude: number } }
  | [latitude: number, longitude: number];

/** Options of `getCity`, `getAddress` and `getPositionAndAddress`. */
interface LocationPlaceOptions {
  /** Localized city names: `zh`, `ja`, `ko`, `ru`, `ar`, `he`, `el`, `th`, `hi`, `ka`, `hy`. */
  lang?: string;
  /** How far from a city's centre (km, default 50, or the configuration's). */
  maxDistanceKm?: number;
  /** For the current position (when no coordinates are given): ms, default none. */
  timeout?: number;
  /** For the current position: ms, default 60000. */
  maximumAge?: number;
}

/** A city found by offline reverse geocoding (GeoNames). */
interface LocationCity {
  /** Localized when `lang` asked for it and the data has it. */
  city: string;
  /** The first-level division's name (the data names them for the US only). */
  state: string | null;
  /** GeoNames' first-level division code (`CA`, `11`, …). */
  stateCode: string | null;
  /** English name. */
  country: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** IANA time zone. */
  timezone: string;
  population: number;
  /** From the queried point to the city's centre. */
  distanceKm: number;
  /** The nearest place when it is a part of `city`, else null. */
  district: string | null;
  /** The language of `city`, null for GeoNames' default name. */
  lang: string | null;
  latitude: number;
  longitude: number;
  geonameId: number;
}

/** The `Location` global (IPHLocationManager-style, promises). Reading the device needs `--allow-location`. */
interface JSBridgeLocation {
  /** Whether the script was given `--allow-location` (or `--allow-all`). */
  checkPermission(): Promise<"granted" | "denied">;
  /** Rejects with a `BridgeError`: `PERMISSION_DENIED`, `POSITION_UNAVAILABLE`, `TIMEOUT`. */
  getCurrentPosition(options?: PositionOptions | null): Promise<GeolocationPosition>;
  /**
   * Calls `listener` per fix until `cancel()`; each `timeout` without a fix and failures go to `onError`
   * (without one, a failure is reported as an unhandled rejection). `done` resolves when the watch ends.
   */
  watch(
    options: PositionOptions | null | undefined,
    listener: (position: GeolocationPosition) => void,
    onError?: (error: BridgeError) => void,
  ): BridgeSubscription;
  watch(listener: (position: GeolocationPosition) => void, onError?: (error: BridgeError) => void): BridgeSubscription;
  /** IPH's cached results (null until known); needs the permission. */
  lastKnown(): Promise<{
    location: GeolocationPosition | null;
    coordinate: { latitude: number; longitude: number } | null;
    city: string | null;
    address: string | null;
  }>;
  /** The city at `coords` (no permission needed), or at the current position; null when none is near. */
  getCity(coords?: LocationCoordinates | null, options?: LocationPlaceOptions): Promise<LocationCity | null>;
  /** `"city, state, country"` (no street level offline), or null. */
  getAddress(coords?: LocationCoordinates | null, options?: LocationPlaceOptions): Promise<string | null>;
  /** The current position and its city and address (IPH `requestCoordinateAndAddress`). */
  getPositionAndAddress(options?: LocationPlaceOptions): Promise<{
    position: GeolocationPosition;
    city: LocationCity | null;
    address: string | null;
  }>;
  /** Great-circle (haversine) distance in metres; synchronous. */
  distance(a: LocationCoordinates, b: LocationCoordinates): number;
  /** Initial bearing from `a` to `b`, degrees clockwise from true north (0 ≤ bearing < 360); synchronous. */
  bearing(a: LocationCoordinates, b: LocationCoordinates): number;
  /** The source, the permission, the geocoding index; `nmea` for an NMEA replay. */
  status(): Promise<{
    source: string | null;
    permission: "granted" | "denied";
    geonamesIndex: string | null;
    indexLoaded: boolean;
    nmea?: { sentences: number; skipped: number; fixes: number; lastProblem: string | null };
  }>;
}

declare var Location: JSBridgeLocation;
