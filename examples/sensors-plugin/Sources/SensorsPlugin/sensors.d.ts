// The Sensors plugin's JavaScript API (sensors.js); `jsbridge --typings Sensors` adds it to the typings it
// writes from the plugin's declaration (where `SensorsPlugin.Reading` is declared).

/** The plugin's error codes. */
interface BridgeErrorCodes {
  /** There is no such thermal zone; `data.zone`. */
  NO_SUCH_ZONE: true;
  /** A zone's file does not hold a temperature; `data.path`. */
  SENSOR_UNREADABLE: true;
}

/** Temperatures of the machine's thermal zones (needs `--allow-sensors`). */
declare var Sensors: {
  /** How many thermal zones the machine has. */
  zones(): number;
  /** One reading of `zone`. */
  read(zone: number): Promise<SensorsPlugin.Reading>;
  /** Calls `onReading` every `intervalMs` (default 1000) until `cancel()`. */
  watch(
    zone: number,
    onReading: (reading: SensorsPlugin.Reading) => void,
    options?: { intervalMs?: number; onError?: (error: BridgeError) => void },
  ): BridgeSubscription;
  /** Calls `listener` with each reading at or above the configured `hotCelsius` (default 80). */
  onHot(listener: (reading: SensorsPlugin.Reading) => void): BridgeListener;
};
