#include "jsb_compression.h"

#include <brotli/decode.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct jsb_zstream {
    z_stream z;
    BrotliDecoderState *brotli;  // format JSB_Z_BROTLI
    int decompress;
    int ended;  // the end of the compressed data was seen (or, compressing, written)
    // JSB_Z_HTTP_DEFLATE: whether the wrapper was chosen yet, and the first bytes kept until then.
    int undecided;
    uint8_t head[2];
    size_t head_length, head_used;
};

jsb_zstream *jsb_zstream_create(int format, int decompress) {
    if (format < JSB_Z_DEFLATE || format > JSB_Z_BROTLI) return NULL;
    if (!decompress && format > JSB_Z_GZIP) return NULL;
    jsb_zstream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->decompress = decompress;
    if (format == JSB_Z_BROTLI) {
        s->brotli = BrotliDecoderCreateInstance(NULL, NULL, NULL);
        if (!s->brotli) {
            free(s);
            return NULL;
        }
        return s;
    }
    int bits = format == JSB_Z_DEFLATE_RAW ? -15 : format == JSB_Z_GZIP ? 15 + 16 : 15;
    int rc = decompress ? inflateInit2(&s->z, bits)
                        : deflateInit2(&s->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) {
        free(s);
        return NULL;
    }
    s->undecided = format == JSB_Z_HTTP_DEFLATE;
    return s;
}

void jsb_zstream_free(jsb_zstream *s) {
    if (s->brotli) BrotliDecoderDestroyInstance(s->brotli);
    else if (s->decompress) inflateEnd(&s->z);
    else deflateEnd(&s->z);
    free(s);
}

static int brotli_step(jsb_zstream *s, const uint8_t *input, size_t length, int finish, uint8_t *out,
                       size_t capacity, size_t *consumed, size_t *produced) {
    size_t available_in = length, available_out = capacity;
    const uint8_t *next_in = input;
    uint8_t *next_out = out;
    int status = JSB_Z_OK;
    if (s->ended) {
        if (length > 0) status = JSB_Z_TRAILING;
    } else {
        BrotliDecoderResult rc =
            BrotliDecoderDecompressStream(s->brotli, &available_in, &next_in, &available_out, &next_out, NULL);
        if (rc == BROTLI_DECODER_RESULT_SUCCESS) {
            s->ended = 1;
            if (available_in > 0) status = JSB_Z_TRAILING;
        } else if (rc == BROTLI_DECODER_RESULT_ERROR) {
            int code = BrotliDecoderGetErrorCode(s->brotli);
            status = code <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES && code >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES
                         ? JSB_Z_NOMEM
                         : JSB_Z_CORRUPT;
        } else if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT && finish) {
            status = JSB_Z_TRUNCATED;
        }
    }
    *consumed = length - available_in;
    *produced = capacity - available_out;
    return status;
}

/// Runs inflate or deflate over `input` until the input is consumed, the output is full or the stream ends.
static int zlib_run(jsb_zstream *s, const uint8_t *input, size_t length, int finish, uint8_t *out, size_t capacity,
                    size_t *consumed, size_t *produced) {
    s->z.next_in = (Bytef *)input;
    s->z.avail_in = (uInt)(length > UINT32_MAX ? UINT32_MAX : length);
    s->z.next_out = out;
    s->z.avail_out = (uInt)(capacity > UINT32_MAX ? UINT32_MAX : capacity);
    size_t in_start = s->z.avail_in, out_start = s->z.avail_out;
    int status = JSB_Z_OK;
    for (;;) {
        if (s->ended) {
            if (s->decompress && s->z.avail_in > 0) status = JSB_Z_TRAILING;
            break;
        }
        if (s->z.avail_out == 0) break;
        if (s->decompress) {
            int rc = inflate(&s->z, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                s->ended = 1;
                continue;
            }
            if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_STREAM_ERROR) {
                status = JSB_Z_CORRUPT;
                break;
            }
            if (rc == Z_MEM_ERROR) {
                status = JSB_Z_NOMEM;
                break;
            }
            if (s->z.avail_in == 0 || rc == Z_BUF_ERROR) break;
        } else {
            int rc = deflate(&s->z, finish ? Z_FINISH : Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                s->ended = 1;
                break;
            }
            if (rc == Z_STREAM_ERROR) {
                status = JSB_Z_CORRUPT;
                break;
            }
            if (s->z.avail_in == 0 && !finish) break;
            if (rc == Z_BUF_ERROR) break;
        }
    }
    *consumed = in_start - s->z.avail_in;
    *produced = out_start - s->z.avail_out;
    return status;
}

int jsb_zstream_step(jsb_zstream *s, const uint8_t *input, size_t length, int finish, uint8_t *out,
                     size_t capacity, size_t *consumed, size_t *produced) {
    *consumed = 0;
    *produced = 0;
    if (s->brotli) return brotli_step(s, input, length, finish, out, capacity, consumed, produced);
    size_t taken = 0;
    if (s->undecided) {
        // HTTP deflate: a zlib header (CM 8, the check bits) keeps the wrapper; else the data is raw deflate.
        while (s->head_length < 2 && taken < length) s->head[s->head_length++] = input[taken++];
        if (s->head_length < 2 && !finish) {
            *consumed = taken;
            return JSB_Z_OK;
        }
        int zlib = s->head_length == 2 && (s->head[0] & 0x0f) == 8 && ((s->head[0] << 8) | s->head[1]) % 31 == 0;
        if (!zlib && inflateReset2(&s->z, -15) != Z_OK) return JSB_Z_NOMEM;
        s->undecided = 0;
    }
    size_t written = 0;
    if (s->head_used < s->head_length) {
        size_t used = 0;
        int status = zlib_run(s, s->head + s->head_used, s->head_length - s->head_used,
                              finish && taken == length, out, capacity, &used, &written);
        s->head_used += used;
        if (status != JSB_Z_OK || s->head_used < s->head_length || written == capacity) {
            *consumed = taken;
            *produced = written;
            return status;
        }
    }
    size_t used = 0, made = 0;
    int status = zlib_run(s, input + taken, length - taken, finish, out + written, capacity - written, &used, &made);
    *consumed = taken + used;
    *produced = written + made;
    if (status == JSB_Z_OK && s->decompress && finish && !s->ended && *consumed == length && *produced < capacity)
        status = JSB_Z_TRUNCATED;
    return status;
}

int jsb_zstream_fill(jsb_zstream *s, const uint8_t *input, size_t length, int finish, uint8_t *out,
                     size_t capacity, size_t *consumed, size_t *produced) {
    *consumed = 0;
    *produced = 0;
    int status = JSB_Z_OK;
    do {
        size_t took = 0, made = 0;
        status = jsb_zstream_step(s, input ? input + *consumed : NULL, length - *consumed, finish,
                                  out + *produced, capacity - *produced, &took, &made);
        *consumed += took;
        *produced += made;
        if (took == 0 && made == 0) break;
    } while (status == JSB_Z_OK && *produced < capacity && *consumed < length);
    return status;
}
