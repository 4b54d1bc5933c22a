import CJavaScriptCore
import JSBridgeCore

/// The zlib streams behind `CompressionStream` and `DecompressionStream` (js/compression.js).
extension JSRuntime {
    func installCompressionNatives() {
        // zlibCreate(format, decompress) → push(arrayBuffer, offset, length, finish) → ArrayBuffer | undefined.
        // `format` is 0 deflate, 1 deflate-raw, 2 gzip. The zlib stream lives as long as `push` does: the
        // function object owns it and frees it when collected.
        defineNative("zlibCreate") { [unowned(unsafe) self] call throws(NativeError) in
            let format = Int32(call.number(0))
            guard (0...2).contains(format), let raw = jsb_zstream_create(format, call.bool(1) ? 1 : 0) else {
                throw .type("zlib could not start a stream")
            }
            let stream = ZlibStream(raw)
            return makeNativeFunction { [unowned(unsafe) self] call throws(NativeError) in
                try zlibPush(stream, call)
            }
        }
    }

    private func zlibPush(_ stream: ZlibStream, _ call: NativeCall) throws(NativeError) -> JSValueRef? {
        guard !stream.failed else { throw .type("The compression stream already failed") }
        var input: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        if let object = JSValueToObject(context, call[0], nil),
            JSValueGetTypedArrayType(context, call[0], nil) == kJSTypedArrayTypeArrayBuffer,
            let base = JSObjectGetArrayBufferBytesPtr(context, object, nil)
        {
            let size = JSObjectGetArrayBufferByteLength(context, object, nil)
            let start = min(size, Int(max(0, call.number(1))))
            length = min(size - start, Int(max(0, call.number(2))))
            input = base.assumingMemoryBound(to: UInt8.self) + start
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputLength = 0
        let status = jsb_zstream_run(stream.raw, input, length, call.bool(3) ? 1 : 0, &output, &outputLength)
        switch status {
        case JSB_Z_OK:
            guard let output else { return nil }
            return JSObjectMakeArrayBufferWithBytesNoCopy(
                context, output, outputLength, { pointer, _ in free(pointer) }, nil, nil)
        case JSB_Z_TRAILING:
            stream.failed = true
            throw .type("Unexpected data after the end of the compressed stream")
        case JSB_Z_TRUNCATED:
            stream.failed = true
            throw .type("The compressed stream ended before its end")
        case JSB_Z_NOMEM:
            stream.failed = true
            throw .type("Out of memory while (de)compressing")
        default:
            stream.failed = true
            throw .type("The compressed data is corrupt")
        }
    }
}

/// One zlib stream, freed with its owner (finalizers only release memory, which `jsb_zstream_free` does).
final class ZlibStream {
    let raw: UnsafeMutablePointer<jsb_zstream>
    var failed = false

    init(_ raw: UnsafeMutablePointer<jsb_zstream>) { self.raw = raw }

    deinit { jsb_zstream_free(raw) }
}
