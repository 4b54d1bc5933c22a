// `node:string_decoder`: decodes a byte stream chunk by chunk without splitting characters: the bytes of
// an incomplete character (UTF-8, UTF-16LE) or base64 group at a chunk's end wait for the next chunk.

const {
  MathMin, MethodToLowerCase, TypeError,
} = internal.primordials;
const { invalidArgType, make } = internal.nodeErrors;
const Buffer = internal.nodeBuiltin("buffer").Buffer;

function normalize(encoding) {
  const name = MethodToLowerCase(`${encoding ?? "utf8"}`);
  switch (name) {
    case "utf8": case "utf-8": case "": return "utf8";
    case "ucs2": case "ucs-2": case "utf16le": case "utf-16le": return "utf16le";
    case "latin1": case "binary": return "latin1";
    case "base64": case "base64url": case "ascii": case "hex": return name;
    default: throw make(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);
  }
}

/// How many bytes at the end of `bytes` start a UTF-8 character that needs more bytes.
function incompleteUTF8Tail(bytes) {
  for (let back = 1; back <= MathMin(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needed = byte >= 0xf0 && byte <= 0xf4 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 && byte < 0xe0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

class StringDecoder {
  constructor(encoding) {
    this.encoding = normalize(encoding);
    this.pending = Buffer.alloc(0);
  }

  /// The text of `chunk` (with bytes held from before), holding back an incomplete character at its end.
  write(chunk) {
    if (typeof chunk === "string") return chunk;
    if (!ArrayBuffer.isView(chunk)) throw invalidArgType("buf", ["Buffer", "TypedArray", "DataView"], chunk);
    let bytes = chunk instanceof Buffer ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.pending.length > 0) bytes = Buffer.concat([this.pending, bytes]);
    let keep = 0;
    switch (this.encoding) {
      case "utf8": keep = incompleteUTF8Tail(bytes); break;
      case "utf16le": {
        keep = bytes.length % 2;
        if (keep === 0 && bytes.length >= 2) {
          const last = bytes[bytes.length - 2] | (bytes[bytes.length - 1] << 8);
          if (last >= 0xd800 && last <= 0xdbff) keep = 2;
        }
        break;
      }
      case "base64": case "base64url": keep = bytes.length % 3; break;
    }
    this.pending = keep > 0 ? Buffer.from(bytes.subarray(bytes.length - keep)) : Buffer.alloc(0);
    return bytes.toString(this.encoding, 0, bytes.length - keep);
  }

  /// The rest: `chunk`'s text, then what was held back (an incomplete character becomes U+FFFD).
  end(chunk) {
    let text = chunk === undefined ? "" : this.write(chunk);
    if (this.pending.length > 0) {
      text += this.pending.toString(this.encoding);
      this.pending = Buffer.alloc(0);
    }
    return text;
  }

  get lastNeed() {
    return this.pending.length;
  }
}

internal.nodeExport("string_decoder", { StringDecoder });
