/// Hexadecimal digits, once for the whole project: `Buffer`'s and the file system's `hex` encoding, UUIDs,
/// percent-encoded file names.
public enum Hex {
    @usableFromInline static let digits = Array("0123456789abcdef".utf8)

    /// The value of hex digit `unit` (either case), or nil when it is not one.
    @inlinable
    public static func value<Unit: FixedWidthInteger & UnsignedInteger>(_ unit: Unit) -> UInt8? {
        switch unit {
        case 48...57: UInt8(truncatingIfNeeded: unit - 48)
        case 65...70: UInt8(truncatingIfNeeded: unit - 55)
        case 97...102: UInt8(truncatingIfNeeded: unit - 87)
        default: nil
        }
    }

    /// `bytes` as lowercase hex digits, two per byte.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        guard !bytes.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = digits[Int(byte >> 4)]
                output[2 * index + 1] = digits[Int(byte & 15)]
            }
            return bytes.count * 2
        }
    }

    /// Decodes pairs of hex digits until a pair that is not one (Node's rule); writes at most `units.count / 2`
    /// bytes to `output` and answers how many.
    @inlinable
    public static func decodeForgiving<Unit: FixedWidthInteger & UnsignedInteger>(
        _ units: UnsafeBufferPointer<Unit>, into output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var written = 0
        while 2 * written + 1 < units.count, let high = value(units[2 * written]),
            let low = value(units[2 * written + 1])
        {
            output[written] = high << 4 | low
            written += 1
        }
        return written
    }
}
