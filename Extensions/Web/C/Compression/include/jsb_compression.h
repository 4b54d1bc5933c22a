// zlib and brotli streams: CompressionStream and DecompressionStream (the web extension's
// CompressionNatives.swift), fetch's Content-Encoding decoding (HTTPCore's ContentDecoding.swift), and
// node:zlib's engines (the node extension's ZlibNatives.swift): compression.c and engine.c, each with its
// state in its own structure.
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

// MARK: - Engines: node:zlib's streams

/// One zlib or brotli stream as node:zlib drives it (opaque): every option of the libraries, one library call
/// per write with the caller's flush, and node:zlib's rules for what is an error. Not thread-safe: one thread
/// at a time (the node extension runs a write on a worker and touches the engine only once it is done).
typedef struct jsb_zengine jsb_zengine;

/// The modes, numbered as node:zlib's `constants` number them.
enum {
    JSB_ZE_DEFLATE = 1,
    JSB_ZE_INFLATE = 2,
    JSB_ZE_GZIP = 3,
    JSB_ZE_GUNZIP = 4,
    JSB_ZE_DEFLATERAW = 5,
    JSB_ZE_INFLATERAW = 6,
    /// inflate of a zlib or a gzip stream, whichever the first bytes say (gzip: every member)
    JSB_ZE_UNZIP = 7,
    JSB_ZE_BROTLI_DECODE = 8,
    JSB_ZE_BROTLI_ENCODE = 9,
};

/// An engine for `mode`; NULL for an unknown mode or when the library cannot start one.
jsb_zengine *jsb_zengine_create(int mode);

/// A zlib engine's options (zlib starts on the first write, reset or params): `window_bits` 8–15 (0 for an
/// inflate that reads it from the header), `level` -1–9, `mem_level` 1–9, `strategy` 0–4, and a dictionary
/// (copied; may be empty). Answers 0 for a brotli engine, one already started, or no memory.
int jsb_zengine_init_zlib(jsb_zengine *engine, int window_bits, int level, int mem_level, int strategy,
                          const uint8_t *dictionary, size_t dictionary_length);

/// A brotli engine's parameters: `params[key]` for each key below `count`, UINT32_MAX for those not given.
/// Answers 0 when the library refuses one.
int jsb_zengine_init_brotli(jsb_zengine *engine, const uint32_t *params, size_t count);

/// One call of deflate, inflate or brotli with `flush` (zlib's Z_NO_FLUSH…Z_BLOCK, or brotli's operation) over
/// `input` into `out`; `*input_left` and `*out_left` are what is left of each (node:zlib's availInAfter and
/// availOutAfter). Lengths above 4 GiB are cut to 4 GiB. Then `jsb_zengine_error` says whether it failed.
void jsb_zengine_write(jsb_zengine *engine, int flush, const uint8_t *input, size_t input_length, uint8_t *out,
                       size_t out_length, size_t *input_left, size_t *out_left);

/// After a write: 0 when it went well, else 1 with node:zlib's message ("incorrect header check", "unexpected end
/// of file", …), code ("Z_DATA_ERROR", …; a brotli decoding error's is "ERR_" and the library's name for it,
/// which node-zlib.js renames as Node names it) and errno (-3, …). The strings live as long as the engine, until
/// its next call.
int jsb_zengine_error(const jsb_zengine *engine, const char **message, const char **code, int *errnum);

/// Changes a deflate's level and strategy (nothing for other modes); 1 with the error as `jsb_zengine_error`.
int jsb_zengine_params(jsb_zengine *engine, int level, int strategy, const char **message, const char **code,
                       int *errnum);

/// Starts the stream over (its options and dictionary kept; a brotli engine gets the default parameters);
/// 1 with the error as `jsb_zengine_error`.
int jsb_zengine_reset(jsb_zengine *engine, const char **message, const char **code, int *errnum);

/// Frees the engine (NULL is ignored).
void jsb_zengine_free(jsb_zengine *engine);

/// zlib's CRC-32 of `bytes`, continuing from `crc` (0 to start).
uint32_t jsb_crc32(uint32_t crc, const uint8_t *bytes, size_t length);

/// The linked zlib's ZLIB_VERNUM.
unsigned long jsb_zlib_vernum(void);

#endif
