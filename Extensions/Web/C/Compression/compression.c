#include "jsb_compression.h"

#include <stdlib.h>
#include <zlib.h>

struct jsb_zstream {
    z_stream z;
    int decompress;
    int ended;  // inflate saw the end of the compressed data
};

jsb_zstream *jsb_zstream_create(int format, int decompress) {
    jsb_zstream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    int bits = format == 1 ? -15 : format == 2 ? 15 + 16 : 15;
    int rc = decompress ? inflateInit2(&s->z, bits)
                        : deflateInit2(&s->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) {
        free(s);
        return NULL;
    }
    s->decompress = decompress;
    return s;
}

void jsb_zstream_free(jsb_zstream *s) {
    if (s->decompress) inflateEnd(&s->z);
    else deflateEnd(&s->z);
    free(s);
}

int jsb_zstream_run(jsb_zstream *s, const uint8_t *input, size_t length, int finish, uint8_t **out,
                    size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    size_t capacity = length < 16384 ? 16384 : length + length / 2 + 1024;
    uint8_t *buffer = malloc(capacity);
    if (!buffer) return JSB_Z_NOMEM;
    size_t used = 0;
    s->z.next_in = (Bytef *)input;
    s->z.avail_in = (uInt)length;
    int status = JSB_Z_OK;
    for (;;) {
        if (used == capacity) {
            capacity *= 2;
            uint8_t *grown = realloc(buffer, capacity);
            if (!grown) {
                status = JSB_Z_NOMEM;
                break;
            }
            buffer = grown;
        }
        s->z.next_out = buffer + used;
        s->z.avail_out = (uInt)(capacity - used);
        if (s->decompress) {
            if (s->ended) {
                if (s->z.avail_in > 0) status = JSB_Z_TRAILING;
                break;
            }
            int rc = inflate(&s->z, Z_NO_FLUSH);
            used = capacity - s->z.avail_out;
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
            if (s->z.avail_out != 0) break;  // all input consumed (or Z_BUF_ERROR: more input needed)
        } else {
            int rc = deflate(&s->z, finish ? Z_FINISH : Z_NO_FLUSH);
            used = capacity - s->z.avail_out;
            if (rc == Z_STREAM_END) break;
            if (rc == Z_STREAM_ERROR) {
                status = JSB_Z_CORRUPT;
                break;
            }
            if (s->z.avail_out != 0) break;
        }
    }
    if (status == JSB_Z_OK && s->decompress && finish && !s->ended) status = JSB_Z_TRUNCATED;
    if (status != JSB_Z_OK || used == 0) {
        free(buffer);
        return status;
    }
    *out = buffer;
    *out_length = used;
    return JSB_Z_OK;
}
