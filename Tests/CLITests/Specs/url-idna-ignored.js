// Host code points that UTS #46 maps to nothing (found by scripts/fuzz-url.sh against Node's URL): soft
// hyphen, zero width space, word joiner, BOM, variation selectors are dropped before Punycode; a host made only
// of them is empty, so the URL is invalid.
for (const input of ['http://ex\u00adample.com/', 'http://a\u200bb\u2060c\ufeff/', 'http://x\ufe0f\udb40\udd00.com/', 'http://\u200b/']) {
  try {
    console.log(new URL(input).host);
  } catch (error) {
    console.log(error.code);
  }
}
