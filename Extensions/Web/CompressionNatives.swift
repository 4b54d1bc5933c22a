import CCompression
import CJavaScriptCore
import JSBridge

/// The zlib streams behind `CompressionStream` and `DecompressionStream` (`compression.js`).
extension WebExtension {
    static func declareCompressionNatives(_ ext: inout ExtensionDeclaration<Void>) {
        // `format` is 0 deflate, 1 deflate-raw, 2 gzip. The zlib stream lives as long as `push` does: the
        // function object owns it and frees it when collected.
        ext.native(
            "zlibCreate",
            "(format: 0 | 1 | 2, decompress: boolean): (buffer: ArrayBuffer | undefined, offset: number, length: number, finish: boolean) => ArrayBuffer | undefined"
        ) { call, _ throws(NativeError) in
            let format = Int32(call.number(0))
            guard (0...2).contains(format), let raw = jsb_zstream_create(format, call.bool(1) ? 1 : 0) else {
                throw .type("zlib could not start a stream")
            }
            let stream = ZlibStream(raw)
            return call.engine.makeFunction { call throws(NativeError) in try stream.push(call) }
        }
    }
}

/// One zlib stream, freed with its owner (finalizers only release memory, which `jsb_zstream_free` does).
final class ZlibStream {
    let raw: OpaquePointer
    var failed = false

    init(_ raw: OpaquePointer) { self.raw = raw }

    deinit { jsb_zstream_free(raw) }

    /// push(arrayBuffer, offset, length, finish) → the output so far as an ArrayBuffer, or undefined.
    func push(_ call: NativeCall) throws(NativeError) -> JSValueRef? {
        guard !failed else { throw .type("The compression stream already failed") }
        let input = call.arrayBuffer(0)
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputLength = 0
        let status = jsb_zstream_run(
            raw, input?.baseAddress, input?.count ?? 0, call.bool(3) ? 1 : 0, &output, &outputLength)
        guard Int(status) == Int(JSB_Z_OK) else {
            failed = true
            switch Int(status) {
            case Int(JSB_Z_TRAILING): throw .type("Unexpected data after the end of the compressed stream")
            case Int(JSB_Z_TRUNCATED): throw .type("The compressed stream ended before its end")
            case Int(JSB_Z_NOMEM): throw .type("Out of memory while (de)compressing")
            default: throw .type("The compressed data is corrupt")
            }
        }
        guard let output else { return nil }
        return call.engine.makeArrayBuffer(output, count: outputLength)
    }
}
