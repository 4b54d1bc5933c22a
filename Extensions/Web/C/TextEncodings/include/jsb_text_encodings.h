// ICU (libicuuc, loaded with JavaScriptCore) for the web extension: TextDecoder's legacy encodings and the
// URL Standard's host names (UTS #46). Only plain C types cross this header: ICU's own types clash with the
// copy of ICU inside Foundation (_FoundationICU) in a Swift module that sees both, so ICU's headers are
// included by text_encodings.c alone.
#ifndef JSB_TEXT_ENCODINGS_H
#define JSB_TEXT_ENCODINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Flags for `jsb_icu_decoder_open`: where the Encoding Standard's decoder differs from ICU's.
enum {
    /// A double-byte decoder (Big5, EUC-KR, gb18030, Shift_JIS, EUC-JP): an invalid pair whose second byte is
    /// ASCII gives U+FFFD and then that byte's character (ICU drops the byte).
    JSB_ICU_ASCII_TRAIL = 1,
    /// gb18030: the single byte 0x80 is U+20AC (ICU calls it invalid).
    JSB_ICU_EURO_80 = 2,
};

/// Opens ICU converter `name` with `flags` (JSB_ICU_*); with `fatal`, invalid input stops the conversion
/// instead of giving U+FFFD. NULL when ICU has no such converter.
void *jsb_icu_decoder_open(const char *name, bool fatal, uintptr_t flags);

void jsb_icu_decoder_close(void *converter);

/// Decodes `length` bytes into a malloc'ed buffer of UTF-16 units (`*units`, `*count`; the caller frees it).
/// With `flush`, an unfinished sequence at the end is an error and the converter is reset afterwards.
/// Returns 0, or 1 when the input is invalid and the converter was opened fatal (the converter is then reset).
int jsb_icu_decode(void *converter, const uint8_t *bytes, size_t length, bool flush, uint16_t **units,
                   size_t *count);

/// UTS #46 ToASCII of a domain as the URL Standard asks (nontransitional, CheckBidi, CheckJoiners, no STD3
/// rules, and the errors it ignores: VerifyDnsLength and CheckHyphens are false). Writes at most `capacity`
/// units to `dest` and answers the result's length; -1 when the domain is invalid or ICU fails, -2 - length
/// when `capacity` is too small.
int32_t jsb_domain_to_ascii(const uint16_t *name, int32_t length, uint16_t *dest, int32_t capacity);

#endif
