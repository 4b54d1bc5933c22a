// node:punycode (RFC 3492), deprecated in Node but still required by older packages. Expectations are Node 20's.
const punycode = require("punycode");
console.log(punycode.version, punycode.encode("mañana"), punycode.decode("maana-pta"));
console.log(punycode.toASCII("mañana.com"), punycode.toUnicode("xn--maana-pta.com"));
console.log(punycode.toASCII("☃-⌘.com"), punycode.toUnicode("xn----dqo34k.com"));
console.log(JSON.stringify(punycode.ucs2.decode("\ud834\udf06a")), punycode.ucs2.encode([0x1d306, 97]));
console.log(punycode.toASCII("Bücher@例え.テスト"), punycode.toASCII("ascii.example"));
console.log(punycode.encode("他们为什么不说中文"), punycode.decode("ihqwcrb4cv8a8dqg056pqjye"));
console.log(punycode.toUnicode("xn--ls8h.la"), punycode.toASCII("💩.la"), punycode.toASCII("a\u3002b"));
for (const bad of ["ü-", "xn--a-zz99999999999999"]) {
  try {
    console.log(punycode.decode(bad));
  } catch (error) {
    console.log(error.name, error.message);
  }
}
