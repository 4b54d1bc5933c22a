import CCompression
import CJavaScriptCore
import Foundation
import JSBridge

/// The zlib streams behind `CompressionStream` and `DecompressionStream` (`compression.js`).
extension WebExtension {
    static func declareCompressionNatives<State>(_ ext: inout ExtensionDeclaration<State>) {
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
///
/// Its output comes in chunks of at most ``chunkSize`` bytes, one per call, so that the stream's reader can
/// apply back-pressure between them: a small input that inflates to gigabytes never becomes one buffer.
final class ZlibStream {
    /// The most output one call answers.
    static let chunkSize = 64 << 10

    let raw: OpaquePointer
    var failed = false
    /// The input fed and not consumed yet (copied: the script may reuse or detach its buffer).
    private var input: [UInt8] = []
    private var offset = 0
    private var finishing = false

    init(_ raw: OpaquePointer) { self.raw = raw }

    deinit { jsb_zstream_free(raw) }

    /// push(arrayBuffer, offset, length, finish) feeds the bytes (and with `finish`, ends the input), then
    /// answers the next output chunk as an ArrayBuffer; push(undefined, 0, 0, false) answers the next chunk of
    /// what was fed. Undefined: everything fed so far is consumed and its output given.
    func push(_ call: NativeCall) throws(NativeError) -> JSValueRef? {
        guard !failed else { throw .type("The compression stream already failed") }
        if let bytes = call.arrayBuffer(0), bytes.count > 0 {
            if offset == input.count {
                input = Array(bytes)
                offset = 0
            } else {
                input += bytes
            }
        }
        if call.bool(3) { finishing = true }
        guard let output = malloc(Self.chunkSize)?.assumingMemoryBound(to: UInt8.self) else {
            throw .type("Out of memory while (de)compressing")
        }
        var consumed = 0
        var produced = 0
        let status = input.withUnsafeBufferPointer { buffer in
            jsb_zstream_fill(
                raw, buffer.baseAddress.map { $0 + offset }, input.count - offset, finishing ? 1 : 0, output,
                Self.chunkSize, &consumed, &produced)
        }
        offset += consumed
        if offset == input.count, !input.isEmpty {
            input = []
            offset = 0
        }
        guard status == Int32(JSB_Z_OK) else {
            free(output)
            failed = true
            switch Int(status) {
            case Int(JSB_Z_TRAILING): throw .type("Unexpected data after the end of the compressed stream")
            case Int(JSB_Z_TRUNCATED): throw .type("The compressed stream ended before its end")
            case Int(JSB_Z_NOMEM): throw .type("Out of memory while (de)compressing")
            default: throw .type("The compressed data is corrupt")
            }
        }
        guard produced > 0 else {
            free(output)
            return nil
        }
        return call.engine.makeArrayBuffer(output, count: produced)
    }
}
