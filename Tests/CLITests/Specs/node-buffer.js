// Buffer: encodings, views sharing memory, search, compare, numbers, errors.
const { Buffer: B, kMaxLength, constants } = require("node:buffer");
console.log(B === Buffer, Object.getPrototypeOf(Buffer.prototype) === Uint8Array.prototype, kMaxLength === constants.MAX_LENGTH);
const text = "héllo wörld €𝄞";
const utf8 = Buffer.from(text);
console.log(utf8.length, Buffer.byteLength(text), utf8.toString() === text, utf8);
for (const encoding of ["hex", "base64", "base64url", "latin1", "binary", "ascii", "utf16le", "ucs2"]) {
  const encoded = utf8.toString(encoding);
  console.log(encoding, JSON.stringify(encoded), Buffer.from(encoded, encoding).equals(encoding === "latin1" || encoding === "binary" || encoding === "hex" || encoding.startsWith("base64") || encoding === "utf16le" || encoding === "ucs2" ? utf8 : Buffer.from(encoded, encoding)));
}
console.log(Buffer.from("aGVsbG8gd29ybGQ", "base64").toString(), Buffer.from("_-8", "base64url"), Buffer.from("zz12", "hex"));
console.log(Buffer.from([0xff, 0xfe, 0x41, 0xc3]).toString(), JSON.stringify(Buffer.from([0xe2, 0x82]).toString()));
console.log(Buffer.from("\ud800x").toString("hex"), Buffer.from("abc", "utf16le"));
const big = Buffer.alloc(10, "ab");
console.log(big.toString(), Buffer.alloc(4, 0x101), Buffer.alloc(3), Buffer.allocUnsafe(2).length, Buffer.alloc(5, "€"));
const whole = Buffer.from("0123456789");
const part = whole.slice(2, 5);
part[0] = 0x41;
const sub = whole.subarray(-3);
console.log(whole.toString(), part.toString(), sub.toString(), part.buffer === whole.buffer, part instanceof Buffer, sub instanceof Buffer);
console.log(whole.indexOf("5"), whole.indexOf(0x39), whole.indexOf(Buffer.from("67")), whole.indexOf("x"), whole.lastIndexOf("3"),
  whole.includes("78"), whole.indexOf("A", 3), whole.indexOf(""), whole.lastIndexOf(Buffer.from("9")));
console.log(Buffer.compare(Buffer.from("a"), Buffer.from("b")), Buffer.from("b").compare(Buffer.from("a")),
  Buffer.from("abc").equals(Buffer.from("abc")), [Buffer.from("c"), Buffer.from("a"), Buffer.from("b")].sort(Buffer.compare).join(""));
const joined = Buffer.concat([Buffer.from("ab"), new Uint8Array([99]), Buffer.from("de")]);
console.log(joined.toString(), Buffer.concat([Buffer.from("abc"), Buffer.from("def")], 4).toString(), Buffer.concat([]).length);
const target = Buffer.alloc(6, ".");
console.log(Buffer.from("xyz").copy(target, 2), target.toString(), Buffer.from("xyz").copy(target, 5, 1), target.toString());
const w = Buffer.alloc(8);
console.log(w.write("héé", 1), w, w.write("abc", 6, "latin1"), w.write("ff00", "hex"), w);
const n = Buffer.alloc(16);
n.writeUInt8(255, 0); n.writeUInt16LE(0x1234, 1); n.writeUInt16BE(0x1234, 3); n.writeInt32LE(-2, 5); n.writeUInt32BE(0xdeadbeef, 9);
console.log(n, n.readUInt8(0), n.readUInt16LE(1).toString(16), n.readUInt16BE(3).toString(16), n.readInt32LE(5),
  n.readUInt32BE(9).toString(16), n.readInt8(0), n.readUIntBE(9, 3), n.readIntLE(5, 3), n.readUint16LE(1));
const f = Buffer.alloc(16);
f.writeFloatLE(1.5, 0); f.writeDoubleBE(-0.1, 4);
console.log(f.readFloatLE(0), f.readDoubleBE(4), f);
const b64 = Buffer.alloc(16);
b64.writeBigInt64LE(-5n, 0); b64.writeBigUInt64BE(2n ** 64n - 1n, 8);
console.log(b64.readBigInt64LE(0), b64.readBigUInt64BE(8), b64.readBigUInt64LE(0));
console.log(JSON.stringify(Buffer.from("hi")), Buffer.from({ type: "Buffer", data: [104, 105] }).toString(), Buffer.from(new Uint16Array([1, 256, 513])));
console.log(Buffer.isBuffer(Buffer.alloc(1)), Buffer.isBuffer(new Uint8Array(1)), Buffer.isEncoding("UTF-8"), Buffer.isEncoding("nope"),
  Buffer.byteLength("aGk=", "base64"), Buffer.byteLength(new Uint32Array(2)), Buffer.from("abcd").swap16().toString());
const ab = new ArrayBuffer(8);
const view = Buffer.from(ab, 2, 4);
view[0] = 7;
console.log(new Uint8Array(ab)[2], view.byteOffset, view.length, Buffer.alloc(60, 1));
const errors = [
  () => Buffer.from(5), () => Buffer.alloc(-1), () => Buffer.from("x", "nope"), () => Buffer.alloc(2).readUInt16LE(1),
  () => Buffer.alloc(2).writeUInt8(256, 0), () => Buffer.alloc(2).readUInt8("0"), () => Buffer.alloc(2).writeInt16BE(40000),
  () => Buffer.alloc(1).readUInt32LE(0), () => Buffer.alloc(8).writeBigInt64LE(1, 0), () => Buffer.concat([1]),
];
for (const bad of errors) {
  try { bad(); console.log("no error"); } catch (error) { console.log(error.name, error.code, error.message); }
}
