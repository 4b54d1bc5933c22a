// zlib and brotli streams: CompressionStream and DecompressionStream (the web extension's
// CompressionNatives.swift), and fetch's Content-Encoding decoding (HTTPCore's ContentDecoding.swift).
#ifndef JSB_COMPRESSION_H
#define JSB_COMPRESSION_H

#include <stddef.h>
#include <stdint.h>

/// One deflate, inflate or brotli-decoding stream (opaque).
typedef struct jsb_zstream jsb_zstream;

/// Results of `jsb_zstream_step`.
enum {
    JSB_Z_OK = 0,
    /// The compressed data is corrupt.
    JSB_Z_CORRUPT = 1,
    /// Data follows the end of the compressed stream.
    JSB_Z_TRAILING = 2,
    /// The input ended (`finish`) before the compressed stream did.
    JSB_Z_TRUNCATED = 3,
    JSB_Z_NOMEM = 4,
};

/// The formats.
enum {
    /// deflate with the zlib wrapper (RFC 1950)
    JSB_Z_DEFLATE = 0,
    /// raw deflate (RFC 1951)
    JSB_Z_DEFLATE_RAW = 1,
    /// gzip (RFC 1952)
    JSB_Z_GZIP = 2,
    /// HTTP's `Content-Encoding: deflate` as browsers read it (decompression only): the zlib wrapper, or raw
    /// deflate when the first two bytes are not a zlib header.
    JSB_Z_HTTP_DEFLATE = 3,
    /// brotli (RFC 7932; decompression only)
    JSB_Z_BROTLI = 4,
};

/// A stream for `format` (above); NULL when the library refuses or the format cannot compress.
jsb_zstream *jsb_zstream_create(int format, int decompress);

void jsb_zstream_free(jsb_zstream *stream);

/// Feeds up to `length` bytes of `input` (with `finish`: the last of the input) and writes at most `capacity`
/// bytes of output to `out`; `*consumed` and `*produced` say how many. Call again, with the input not consumed
/// yet, while input remains or the output filled `capacity`: output is produced in bounded pieces. Decompression
/// reports corrupt input, data after the end of the compressed stream, and (with `finish`, once all input is
/// consumed and the output drained) input that stopped before that end.
int jsb_zstream_step(jsb_zstream *stream, const uint8_t *input, size_t length, int finish, uint8_t *out,
                     size_t capacity, size_t *consumed, size_t *produced);

/// `jsb_zstream_step` repeated until `capacity` bytes are produced, the input is consumed, a step makes no
/// progress or one fails; `*consumed` and `*produced` are the totals. The one loop both callers need (a step
/// may consume input without producing output).
int jsb_zstream_fill(jsb_zstream *stream, const uint8_t *input, size_t length, int finish, uint8_t *out,
                     size_t capacity, size_t *consumed, size_t *produced);

#endif
