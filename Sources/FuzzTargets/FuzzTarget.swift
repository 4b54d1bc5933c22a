/// The fuzz targets, by the name `scripts/fuzz.sh`, the `Fuzz/` executables and the seed and regression
/// folders (`Fuzz/Seeds/<name>`, `Fuzz/Regressions/<name>`) use.
///
/// Each target takes any bytes and checks invariants of the code under test with `precondition`: a failed
/// one (or any crash) is a finding. Returning normally means the input was handled as the code promises.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The JSON reader: bytes and text parsing agree, ``EncodedJSON``'s validator agrees within its depth,
    /// parse → serialise → parse is stable.
    case json
    /// The model engine: a schema document and a JSON value (see ``FuzzTargets/model(_:)``).
    case model
    /// NMEA: the line splitter over random chunking, then sentence parsing and fix assembly.
    case nmea
    /// gpsd: TPV reports (one JSON object a line) merged into fixes.
    case gpsd
    /// The `multipart/form-data` encoder: a form built from the input, its body read back.
    case multipart
    /// HTTP cache entry files: decoding never crashes, and decoding an encoded entry gives it back.
    case cacheEntry = "cache-entry"
    /// Header values: `Cache-Control`, HTTP dates, MIME essence, `Content-Disposition` file names.
    case headers
    /// The download file-name sanitiser.
    case filename
    /// The file capabilities' path checker against a real tree of links (``FuzzTargets/path(_:)``).
    case path
    /// The command-line parser: an argument vector (see ``FuzzTargets/cli(_:)``).
    case cli

    /// Runs the target on `bytes`.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .json: FuzzTargets.json(bytes)
        case .model: FuzzTargets.model(bytes)
        case .nmea: FuzzTargets.nmea(bytes)
        case .gpsd: FuzzTargets.gpsd(bytes)
        case .multipart: FuzzTargets.multipart(bytes)
        case .cacheEntry: FuzzTargets.cacheEntry(bytes)
        case .headers: FuzzTargets.headers(bytes)
        case .filename: FuzzTargets.filename(bytes)
        case .path: FuzzTargets.path(bytes)
        case .cli: FuzzTargets.cli(bytes)
        }
    }
}

/// The targets' functions (namespace).
public enum FuzzTargets {}

extension [UInt8] {
    /// Splits at the first occurrence of `separator`: the bytes before it and after it (all bytes and none
    /// when it does not occur).
    func split(atFirst separator: [UInt8]) -> (head: [UInt8], tail: [UInt8]) {
        guard count >= separator.count, !separator.isEmpty else { return (self, []) }
        for start in 0...(count - separator.count)
        where self[start..<(start + separator.count)].elementsEqual(separator) {
            return (Array(self[..<start]), Array(self[(start + separator.count)...]))
        }
        return (self, [])
    }
}
