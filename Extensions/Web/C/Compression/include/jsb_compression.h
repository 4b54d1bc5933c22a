// zlib streams for CompressionStream and DecompressionStream (the web extension's CompressionNatives.swift).
#ifndef JSB_COMPRESSION_H
#define JSB_COMPRESSION_H

#include <stddef.h>
#include <stdint.h>

/// One deflate or inflate stream (opaque).
typedef struct jsb_zstream jsb_zstream;

/// Results of `jsb_zstream_run`.
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

/// A stream for `format` 0 (deflate: zlib wrapper), 1 (deflate-raw) or 2 (gzip); NULL when zlib refuses.
jsb_zstream *jsb_zstream_create(int format, int decompress);

void jsb_zstream_free(jsb_zstream *stream);

/// Feeds `length` bytes of `input` (then, with `finish`, ends the stream) and answers the output in a
/// malloc'd buffer (`*out`, `*out_length`; NULL when empty). Inflate reports corrupt input, data after the
/// end of the compressed stream, and (with `finish`) input that stopped before that end.
int jsb_zstream_run(jsb_zstream *stream, const uint8_t *input, size_t length, int finish, uint8_t **out,
                    size_t *out_length);

#endif
