// Typings of the Location plugin, written from its declaration by `jsbridge --typings Location`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/Location/Plugin/location.d.ts" />

declare namespace LocationPlugin {
  interface PairArguments {
    a: LocationPlugin.CoordinateArgument;
    b: LocationPlugin.CoordinateArgument;
  }
  interface CoordinateArgument {
    latitude: number;
    longitude: number;
  }
  interface PlaceArguments {
    coords?: LocationPlugin.CoordinateArgument;
    lang?: string;
    maxDistanceKm?: number;
    timeout?: number;
    maximumAge?: number;
  }
  interface PositionOptions {
    enableHighAccuracy?: boolean;
    timeout?: number;
    maximumAge?: number;
  }
}

interface JSBridgePluginTypes {
  Location: {
    actions: {
      /** Needs --allow-location. */
      addWatch: { kind: "stream"; args: unknown; value: unknown };
      bearing: { kind: "sync"; args: LocationPlugin.PairArguments; result: number };
      checkPermission: { kind: "sync"; args: void; result: string };
      clearWatch: { kind: "sync"; args: unknown; result: boolean };
      distance: { kind: "sync"; args: LocationPlugin.PairArguments; result: number };
      getAddress: { kind: "async"; args: LocationPlugin.PlaceArguments; result: unknown };
      getCity: { kind: "async"; args: LocationPlugin.PlaceArguments; result: unknown };
      /** Needs --allow-location. */
      getCurrentPosition: { kind: "async"; args: LocationPlugin.PositionOptions; result: unknown };
      /** Needs --allow-location. */
      getLocation: { kind: "async"; args: unknown; result: unknown };
      getPositionAndAddress: { kind: "async"; args: LocationPlugin.PlaceArguments; result: unknown };
      /** Needs --allow-location. */
      lastKnown: { kind: "sync"; args: void; result: unknown };
      status: { kind: "sync"; args: void; result: unknown };
      /** Needs --allow-location. */
      watch: { kind: "stream"; args: LocationPlugin.PositionOptions; value: unknown };
    };
    events: {
    };
  };
}

