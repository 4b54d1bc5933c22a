#include "jsb_text_encodings.h"

#include <pthread.h>
#include <stdlib.h>
#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/uidna.h>

/// What the Encoding Standard decodes where ICU reports an invalid sequence: writes it and answers true, or
/// answers false when it is an error there too.
static bool fix(uintptr_t flags, UConverterToUnicodeArgs *args, const char *units, int32_t length,
                UErrorCode *error) {
    static const UChar euro = 0x20AC;
    if ((flags & JSB_ICU_EURO_80) && length == 1 && (uint8_t)units[0] == 0x80) {
        *error = U_ZERO_ERROR;
        ucnv_cbToUWriteUChars(args, &euro, 1, 0, error);
        return true;
    }
    return false;
}

/// Writes one U+FFFD per invalid or unmapped sequence (ICU's own substitute callback writes U+001A for
/// single bytes of some converters), and the Encoding Standard's exceptions (`fix`, JSB_ICU_ASCII_TRAIL).
static void replace(const void *context, UConverterToUnicodeArgs *args, const char *units, int32_t length,
                    UConverterCallbackReason reason, UErrorCode *error) {
    if (reason > UCNV_IRREGULAR) return;
    uintptr_t flags = (uintptr_t)context;
    if (fix(flags, args, units, length, error)) return;
    UChar replacement[2] = {0xFFFD, 0};
    int32_t count = 1;
    uint8_t trail = length == 2 ? (uint8_t)units[1] : 0xFF;
    // In gb18030 a lead and a digit start a four-byte sequence: cut short, it is one error.
    bool digitOfFourBytes = (flags & JSB_ICU_EURO_80) && trail >= 0x30 && trail <= 0x39;
    if ((flags & JSB_ICU_ASCII_TRAIL) && trail < 0x80 && !digitOfFourBytes) {
        replacement[1] = trail;
        count = 2;
    }
    *error = U_ZERO_ERROR;
    ucnv_cbToUWriteUChars(args, replacement, count, 0, error);
}

/// Stops at the first invalid or unmapped sequence (for `fatal` decoders).
static void stop(const void *context, UConverterToUnicodeArgs *args, const char *units, int32_t length,
                 UConverterCallbackReason reason, UErrorCode *error) {
    if (reason > UCNV_IRREGULAR) return;
    if (fix((uintptr_t)context, args, units, length, error)) return;
    *error = U_ILLEGAL_CHAR_FOUND;
}

void *jsb_icu_decoder_open(const char *name, bool fatal, uintptr_t flags) {
    UErrorCode status = U_ZERO_ERROR;
    UConverter *converter = ucnv_open(name, &status);
    if (U_FAILURE(status) || converter == NULL) return NULL;
    ucnv_setToUCallBack(converter, fatal ? stop : replace, (const void *)flags, NULL, NULL, &status);
    if (U_FAILURE(status)) {
        ucnv_close(converter);
        return NULL;
    }
    return converter;
}

void jsb_icu_decoder_close(void *converter) { ucnv_close(converter); }

int jsb_icu_decode(void *converter, const uint8_t *bytes, size_t length, bool flush, uint16_t **units,
                   size_t *count) {
    size_t capacity = length * 2 + 16;
    UChar *out = malloc(capacity * sizeof(UChar));
    const char *source = (const char *)bytes;
    const char *sourceEnd = source + length;
    UChar *target = out;
    for (;;) {
        UErrorCode status = U_ZERO_ERROR;
        ucnv_toUnicode(converter, &target, out + capacity, &source, sourceEnd, NULL, flush, &status);
        if (status == U_BUFFER_OVERFLOW_ERROR) {
            size_t used = (size_t)(target - out);
            capacity *= 2;
            out = realloc(out, capacity * sizeof(UChar));
            target = out + used;
            continue;
        }
        if (U_FAILURE(status)) {
            ucnv_resetToUnicode(converter);
            free(out);
            *units = NULL;
            *count = 0;
            return 1;
        }
        break;
    }
    if (flush) ucnv_resetToUnicode(converter);
    *units = (uint16_t *)out;
    *count = (size_t)(target - out);
    return 0;
}

/// The UTS #46 processor, opened once per process.
static UIDNA *idna;
static pthread_once_t idna_opened = PTHREAD_ONCE_INIT;

static void open_idna(void) {
    UErrorCode status = U_ZERO_ERROR;
    idna = uidna_openUTS46(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII |
                               UIDNA_NONTRANSITIONAL_TO_UNICODE,
                           &status);
    if (U_FAILURE(status)) idna = NULL;
}

/// Errors the URL Standard ignores: VerifyDnsLength and CheckHyphens are false.
static const uint32_t ignored_errors = UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG |
                                       UIDNA_ERROR_DOMAIN_NAME_TOO_LONG | UIDNA_ERROR_LEADING_HYPHEN |
                                       UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4;

int32_t jsb_domain_to_ascii(const uint16_t *name, int32_t length, uint16_t *dest, int32_t capacity) {
    pthread_once(&idna_opened, open_idna);
    if (idna == NULL) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    int32_t written = uidna_nameToASCII(idna, (const UChar *)name, length, (UChar *)dest, capacity, &info, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return -2 - written;
    if (U_FAILURE(status) || (info.errors & ~ignored_errors) != 0) return -1;
    return written;
}
