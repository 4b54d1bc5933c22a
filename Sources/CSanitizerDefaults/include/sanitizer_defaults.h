#ifndef JSB_SANITIZER_DEFAULTS_H
#define JSB_SANITIZER_DEFAULTS_H

/// The sanitizer this code was built with: 0 none, 1 AddressSanitizer, 2 ThreadSanitizer.
int jsb_sanitizer_kind(void);

#endif
