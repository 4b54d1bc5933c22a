import JSBridgeBase

/// A Cordova MultiPart result (CDVPluginResult's `messageAsMultipart:`): Cordova's exec hands the parts to the
/// success callback as separate arguments (`success(text, bytes, number)`); `bridge.call` resolves to
/// `{cordovaMultipart: [parts]}`. A part may hold ``Bytes`` (a `Uint8Array` in JavaScript).
///
/// ```swift
/// plugin.async("header", args: String.self) { context, path in
///     CordovaMultipart(BridgeValue(.string(path)), BridgeValue(bytes: try read(path)))
/// }
/// ```
public struct CordovaMultipart: Encodable, Sendable {
    /// The parts, in the order the success callback receives them.
    public var parts: [BridgeValue]

    public init(_ parts: [BridgeValue]) { self.parts = parts }

    public init(_ parts: BridgeValue...) { self.parts = parts }

    private enum CodingKeys: String, CodingKey { case cordovaMultipart }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(parts, forKey: .cordovaMultipart)
    }
}
