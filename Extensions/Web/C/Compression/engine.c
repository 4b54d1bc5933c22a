// node:zlib's engines (include/jsb_compression.h, "Engines"): one zlib or brotli stream with every option the
// libraries take, one library call per write, and the error rules node:zlib reports.
#include "jsb_compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct jsb_zengine {
    int mode;  // JSB_ZE_*; UNZIP becomes GUNZIP or INFLATE once the first bytes say which
    // zlib
    z_stream z;
    int initialized;  // deflateInit2/inflateInit2 ran (on the first write, reset or params, as node:zlib does)
    int window_bits, level, mem_level, strategy;
    uint8_t *dictionary;
    size_t dictionary_length;
    int gzip_magic_read;  // UNZIP: how many of the two gzip magic bytes were seen
    int err;              // the last zlib result
    int flush;            // the flush of the last write
    // brotli
    BrotliEncoderState *encoder;
    BrotliDecoderState *decoder;
    int brotli_result;  // the encoder's BROTLI_BOOL, or the decoder's BrotliDecoderResult
    int brotli_error;   // the decoder's BrotliDecoderErrorCode
    char brotli_code[80];
};

static int is_zlib(int mode) { return mode >= JSB_ZE_DEFLATE && mode <= JSB_ZE_UNZIP; }

jsb_zengine *jsb_zengine_create(int mode) {
    if (mode < JSB_ZE_DEFLATE || mode > JSB_ZE_BROTLI_ENCODE) return NULL;
    jsb_zengine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->mode = mode;
    e->brotli_result = 1;
    if (mode == JSB_ZE_BROTLI_ENCODE) e->encoder = BrotliEncoderCreateInstance(NULL, NULL, NULL);
    if (mode == JSB_ZE_BROTLI_DECODE) e->decoder = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (!is_zlib(mode) && !e->encoder && !e->decoder) {
        free(e);
        return NULL;
    }
    return e;
}

int jsb_zengine_init_zlib(jsb_zengine *e, int window_bits, int level, int mem_level, int strategy,
                          const uint8_t *dictionary, size_t dictionary_length) {
    if (!is_zlib(e->mode) || e->initialized) return 0;
    e->level = level;
    e->mem_level = mem_level;
    e->strategy = strategy;
    // zlib's encoding of the wrapper in windowBits: +16 gzip, +32 detect zlib or gzip, negative raw.
    if (e->mode == JSB_ZE_GZIP || e->mode == JSB_ZE_GUNZIP) window_bits += 16;
    if (e->mode == JSB_ZE_UNZIP) window_bits += 32;
    if (e->mode == JSB_ZE_DEFLATERAW || e->mode == JSB_ZE_INFLATERAW) window_bits = -window_bits;
    e->window_bits = window_bits;
    free(e->dictionary);
    e->dictionary = NULL;
    e->dictionary_length = 0;
    if (dictionary_length > 0) {
        e->dictionary = malloc(dictionary_length);
        if (!e->dictionary) return 0;
        memcpy(e->dictionary, dictionary, dictionary_length);
        e->dictionary_length = dictionary_length;
    }
    return 1;
}

int jsb_zengine_init_brotli(jsb_zengine *e, const uint32_t *params, size_t count) {
    for (size_t key = 0; key < count; key++) {
        if (params[key] == UINT32_MAX) continue;  // not given
        BROTLI_BOOL ok = e->encoder ? BrotliEncoderSetParameter(e->encoder, (BrotliEncoderParameter)key, params[key])
                         : e->decoder ? BrotliDecoderSetParameter(e->decoder, (BrotliDecoderParameter)key, params[key])
                                      : BROTLI_FALSE;
        if (!ok) return 0;
    }
    return 1;
}

/// Sets the dictionary where zlib takes it up front (deflate, raw inflate); the other inflates take it when
/// inflate asks (Z_NEED_DICT).
static int set_dictionary(jsb_zengine *e) {
    if (e->dictionary_length == 0) return Z_OK;
    switch (e->mode) {
    case JSB_ZE_DEFLATE:
    case JSB_ZE_DEFLATERAW:
        return deflateSetDictionary(&e->z, e->dictionary, (uInt)e->dictionary_length);
    case JSB_ZE_INFLATERAW:
        return inflateSetDictionary(&e->z, e->dictionary, (uInt)e->dictionary_length);
    default:
        return Z_OK;
    }
}

/// Starts zlib on first use; answers 0 when it failed (e->err says why).
static int ensure_zlib(jsb_zengine *e) {
    if (e->initialized) return 1;
    int deflating = e->mode == JSB_ZE_DEFLATE || e->mode == JSB_ZE_GZIP || e->mode == JSB_ZE_DEFLATERAW;
    e->err = deflating ? deflateInit2(&e->z, e->level, Z_DEFLATED, e->window_bits, e->mem_level, e->strategy)
                       : inflateInit2(&e->z, e->window_bits);
    if (e->err != Z_OK) return 0;
    e->initialized = deflating ? 1 : 2;
    e->err = set_dictionary(e);
    return 1;
}

static int deflating(const jsb_zengine *e) { return e->initialized == 1; }

static int reset_zlib(jsb_zengine *e) {
    e->err = deflating(e) ? deflateReset(&e->z) : inflateReset(&e->z);
    if (e->err != Z_OK) return e->err;
    e->err = set_dictionary(e);
    return e->err;
}

static void zlib_step(jsb_zengine *e) {
    if (deflating(e)) {
        e->err = deflate(&e->z, e->flush);
        return;
    }
    if (e->mode == JSB_ZE_UNZIP && e->z.avail_in > 0) {
        // The gzip magic (1f 8b) makes it gunzip, whose later members are read too; anything else is zlib.
        const uint8_t *next = e->z.next_in;
        size_t left = e->z.avail_in;
        while (left > 0 && e->mode == JSB_ZE_UNZIP) {
            uint8_t expected = e->gzip_magic_read == 0 ? 0x1f : 0x8b;
            if (*next != expected) {
                e->mode = JSB_ZE_INFLATE;
            } else if (++e->gzip_magic_read == 2) {
                e->mode = JSB_ZE_GUNZIP;
            }
            next++;
            left--;
        }
    }
    e->err = inflate(&e->z, e->flush);
    if (e->mode != JSB_ZE_INFLATERAW && e->err == Z_NEED_DICT && e->dictionary_length > 0) {
        e->err = inflateSetDictionary(&e->z, e->dictionary, (uInt)e->dictionary_length);
        if (e->err == Z_OK) {
            e->err = inflate(&e->z, e->flush);
        } else if (e->err == Z_DATA_ERROR) {
            e->err = Z_NEED_DICT;  // the dictionary is wrong, not the data
        }
    }
    // A gzip member that ends before the input does: another member follows (zero bytes are padding).
    while (e->z.avail_in > 0 && e->mode == JSB_ZE_GUNZIP && e->err == Z_STREAM_END && e->z.next_in[0] != 0) {
        if (reset_zlib(e) != Z_OK) return;
        e->err = inflate(&e->z, e->flush);
    }
}

void jsb_zengine_write(jsb_zengine *e, int flush, const uint8_t *input, size_t input_length, uint8_t *out,
                       size_t out_length, size_t *input_left, size_t *out_left) {
    e->flush = flush;
    if (input_length > UINT32_MAX) input_length = UINT32_MAX;
    if (out_length > UINT32_MAX) out_length = UINT32_MAX;
    *input_left = input_length;
    *out_left = out_length;
    if (e->encoder) {
        size_t in = input_length, avail = out_length;
        const uint8_t *next_in = input;
        uint8_t *next_out = out;
        e->brotli_result = BrotliEncoderCompressStream(e->encoder, (BrotliEncoderOperation)flush, &in, &next_in,
                                                       &avail, &next_out, NULL);
        *input_left = in;
        *out_left = avail;
        return;
    }
    if (e->decoder) {
        size_t in = input_length, avail = out_length;
        const uint8_t *next_in = input;
        uint8_t *next_out = out;
        e->brotli_result = BrotliDecoderDecompressStream(e->decoder, &in, &next_in, &avail, &next_out, NULL);
        if (e->brotli_result == BROTLI_DECODER_RESULT_ERROR) {
            e->brotli_error = BrotliDecoderGetErrorCode(e->decoder);
            // node:zlib's code: "ERR_" and the library's name of the error ("_ERROR_FORMAT_PADDING_1").
            strcpy(e->brotli_code, "ERR_");
            strncat(e->brotli_code, BrotliDecoderErrorString((BrotliDecoderErrorCode)e->brotli_error),
                    sizeof e->brotli_code - 5);
        }
        *input_left = in;
        *out_left = avail;
        return;
    }
    if (!ensure_zlib(e)) return;  // jsb_zengine_error reports it
    e->z.next_in = (Bytef *)input;
    e->z.avail_in = (uInt)input_length;
    e->z.next_out = out;
    e->z.avail_out = (uInt)out_length;
    zlib_step(e);
    *input_left = e->z.avail_in;
    *out_left = e->z.avail_out;
}

static const char *zlib_code(int err) {
    switch (err) {
    case Z_OK: return "Z_OK";
    case Z_STREAM_END: return "Z_STREAM_END";
    case Z_NEED_DICT: return "Z_NEED_DICT";
    case Z_ERRNO: return "Z_ERRNO";
    case Z_STREAM_ERROR: return "Z_STREAM_ERROR";
    case Z_DATA_ERROR: return "Z_DATA_ERROR";
    case Z_MEM_ERROR: return "Z_MEM_ERROR";
    case Z_BUF_ERROR: return "Z_BUF_ERROR";
    case Z_VERSION_ERROR: return "Z_VERSION_ERROR";
    default: return "Z_UNKNOWN_ERROR";
    }
}

/// zlib's own message when it has one, else `fallback`.
static int zlib_error(const jsb_zengine *e, const char *fallback, const char **message, const char **code,
                      int *errnum) {
    *message = e->z.msg ? e->z.msg : fallback;
    *code = zlib_code(e->err);
    *errnum = e->err;
    return 1;
}

int jsb_zengine_error(const jsb_zengine *e, const char **message, const char **code, int *errnum) {
    if (e->encoder) {
        if (e->brotli_result) return 0;
        *message = "Compression failed";
        *code = "ERR_BROTLI_COMPRESSION_FAILED";
        *errnum = -1;
        return 1;
    }
    if (e->decoder) {
        if (e->brotli_result == BROTLI_DECODER_RESULT_ERROR) {
            *message = "Decompression failed";
            *code = e->brotli_code;
            *errnum = e->brotli_error;
            return 1;
        }
        if (e->flush == BROTLI_OPERATION_FINISH && e->brotli_result == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
            // Brotli does not say the input stopped early; this is zlib's rule for it.
            *message = "unexpected end of file";
            *code = "Z_BUF_ERROR";
            *errnum = Z_BUF_ERROR;
            return 1;
        }
        return 0;
    }
    if (!e->initialized) return e->err == Z_OK ? 0 : zlib_error(e, "Zlib error", message, code, errnum);
    switch (e->err) {
    case Z_OK:
    case Z_BUF_ERROR:
        if (e->z.avail_out != 0 && e->flush == Z_FINISH) {
            return zlib_error(e, "unexpected end of file", message, code, errnum);
        }
        return 0;
    case Z_STREAM_END:
        return 0;
    case Z_NEED_DICT:
        return zlib_error(e, e->dictionary_length == 0 ? "Missing dictionary" : "Bad dictionary", message, code,
                          errnum);
    default:
        return zlib_error(e, "Zlib error", message, code, errnum);
    }
}

int jsb_zengine_params(jsb_zengine *e, int level, int strategy, const char **message, const char **code,
                       int *errnum) {
    if (!is_zlib(e->mode)) return 0;
    if (!ensure_zlib(e)) return zlib_error(e, "Failed to init stream before set parameters", message, code, errnum);
    e->err = Z_OK;
    if (e->mode == JSB_ZE_DEFLATE || e->mode == JSB_ZE_DEFLATERAW) e->err = deflateParams(&e->z, level, strategy);
    if (e->err != Z_OK && e->err != Z_BUF_ERROR) {
        return zlib_error(e, "Failed to set parameters", message, code, errnum);
    }
    return 0;
}

int jsb_zengine_reset(jsb_zengine *e, const char **message, const char **code, int *errnum) {
    if (e->encoder) {
        // Brotli has no reset: a new instance (with the library's default parameters, as node:zlib's).
        BrotliEncoderDestroyInstance(e->encoder);
        e->encoder = BrotliEncoderCreateInstance(NULL, NULL, NULL);
        e->brotli_result = 1;
        if (e->encoder) return 0;
        *message = "Initialization failed";
        *code = "ERR_ZLIB_INITIALIZATION_FAILED";
        *errnum = -1;
        return 1;
    }
    if (e->decoder) {
        BrotliDecoderDestroyInstance(e->decoder);
        e->decoder = BrotliDecoderCreateInstance(NULL, NULL, NULL);
        e->brotli_result = 1;
        e->brotli_error = 0;
        if (e->decoder) return 0;
        *message = "Initialization failed";
        *code = "ERR_ZLIB_INITIALIZATION_FAILED";
        *errnum = -1;
        return 1;
    }
    if (!ensure_zlib(e)) return zlib_error(e, "Failed to init stream before reset", message, code, errnum);
    if (reset_zlib(e) != Z_OK) return zlib_error(e, "Failed to reset stream", message, code, errnum);
    return 0;
}

void jsb_zengine_free(jsb_zengine *e) {
    if (!e) return;
    if (e->encoder) BrotliEncoderDestroyInstance(e->encoder);
    if (e->decoder) BrotliDecoderDestroyInstance(e->decoder);
    if (e->initialized == 1) deflateEnd(&e->z);
    if (e->initialized == 2) inflateEnd(&e->z);
    free(e->dictionary);
    free(e);
}

uint32_t jsb_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
    uLong value = crc;
    while (length > 0) {
        uInt piece = length > UINT32_MAX ? UINT32_MAX : (uInt)length;
        value = crc32(value, bytes, piece);
        bytes += piece;
        length -= piece;
    }
    return (uint32_t)value;
}

unsigned long jsb_zlib_vernum(void) { return ZLIB_VERNUM; }
