// Decoding bytes into a string longer than JavaScriptCore's 2^31 - 1 code units is refused up front with a
// RangeError (ERR_STRING_TOO_LONG, as Node), never an abort (docs/limits.md). The 2 GiB input is zeros the
// engine never touches: the check comes before any decoding.
const big = new Uint8Array(2 ** 31);
const attempt = (name, decode) => {
  try {
    console.log(name, "decoded", decode().length);
  } catch (error) {
    console.log(name, error.constructor.name, error.code);
  }
};
attempt("TextDecoder utf-8", () => new TextDecoder().decode(big));
attempt("TextDecoder windows-1252", () => new TextDecoder("windows-1252").decode(big));
attempt("TextDecoder streamed", () => {
  const decoder = new TextDecoder();
  decoder.decode(new Uint8Array([0xe2, 0x82]), { stream: true });
  return decoder.decode(big.subarray(0, 2 ** 31 - 2));
});
attempt("Buffer utf8", () => Buffer.from(big.buffer).toString());
attempt("Buffer latin1", () => Buffer.from(big.buffer).toString("latin1"));
attempt("Buffer hex", () => Buffer.from(big.buffer, 0, 2 ** 30).toString("hex"));
attempt("Buffer base64", () => Buffer.from(big.buffer, 0, 1610612736).toString("base64"));
attempt("Buffer.alloc", () => Buffer.alloc(2 ** 32 + 1));
console.log(require("buffer").constants.MAX_STRING_LENGTH === 2 ** 31 - 1);
console.log(new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 104, 105])), Buffer.from("68c3a9", "hex").toString());
