// fuzz-multipart.js - fuzzing of the runtime's multipart/form-data encoder and decoder (js/form-data.js),
// run by jsbridge itself (the decoder is JavaScript, so libFuzzer does not fit it; see docs/fuzzing.md).
//
// Two properties, over seeded, reproducible inputs:
//   round trip  a random FormData (names, string values and files with any characters and bytes) sent as a
//               body and read back with formData() gives the entries HTML's encoding defines: names with
//               newlines normalised to CRLF, then names and file names with CR, LF and '"' escaped as %0D, %0A
//               and %22; string values with newlines normalised to CRLF; files with their bytes and type;
//   mutation    an encoded body with random bytes changed, inserted or removed either parses or rejects with
//               a TypeError (nothing else is thrown), and what parses is stable: encoded and read back twice,
//               it reads the same the second time (the first may normalise newlines).
//
//   jsbridge scripts/fuzz-multipart.js [count] [seed]
// Prints one line per finding (up to 20) and "N passed, M failed"; exits 1 on any failure.

const count = Number(process.argv[2] ?? 2000);
const seed = Number(process.argv[3] ?? 1);

// A seeded generator (xorshift32), so a run can be repeated with its seed.
let state = (seed * 0x9e3779b9) >>> 0 || 1;
function random(bound) {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state % bound;
}
const pick = (list) => list[random(list.length)];

const pieces = ["a", "Z", "9", " ", "\r", "\n", "\r\n", '"', "%", "%0A", ";", "=", ":", "-", "--", "\u0000", "é",
  "中", "😀", "\t", "\\", "\\\"", "boundary", "Content-Type", "filename="];
/// Text of up to `max` pieces; `header` leaves NUL out (a part's header line cannot hold one, so a name with
/// NUL does not read back: the decoder rejects the body, as the multipart parsing tests require).
function text(max, header = false) {
  let out = "";
  for (let n = random(max + 1); n > 0; n--) {
    const piece = pick(pieces);
    if (!(header && piece === "\u0000")) out += piece;
  }
  return out;
}
function bytes(max) {
  const out = new Uint8Array(random(max + 1));
  for (let i = 0; i < out.length; i++) out[i] = random(4) === 0 ? pick([13, 10, 45, 0]) : random(256);
  return out;
}

const crlf = (s) => s.replace(/\r\n|\r|\n/g, "\r\n");
const escaped = (s) => s.replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/"/g, "%22");
const types = ["", "text/plain", "image/png", "application/octet-stream", "text/html;charset=utf-8"];

/// The entries of `formData` in a comparable form.
async function describe(formData) {
  const out = [];
  for (const [name, value] of formData) {
    if (typeof value === "string") out.push(["s", name, value]);
    else out.push(["f", name, value.name, value.type, Array.from(new Uint8Array(await value.arrayBuffer())).join(",")]);
  }
  return JSON.stringify(out);
}

const encode = async (formData) => {
  const response = new Response(formData);
  return [new Uint8Array(await response.arrayBuffer()), response.headers.get("content-type")];
};
const parse = (body, type) => new Response(body, { headers: { "Content-Type": type } }).formData();

let passed = 0;
let failed = 0;
function fail(kind, detail) {
  failed++;
  if (failed <= 20) console.log(`${kind}: ${detail}`);
}

async function roundTrip() {
  const formData = new FormData();
  const expected = [];
  for (let n = random(5); n > 0; n--) {
    const name = text(6, true);
    if (random(2) === 0) {
      const value = text(8);
      formData.append(name, value);
      expected.push(["s", escaped(crlf(name)), crlf(value)]);
    } else {
      const content = bytes(64);
      const filename = text(5, true);
      const type = pick(types);
      formData.append(name, new File([content], filename, { type }));
      expected.push(["f", escaped(crlf(name)), escaped(filename), type || "application/octet-stream",
        Array.from(content).join(",")]);
    }
  }
  const [body, contentType] = await encode(formData);
  let got;
  try {
    got = await describe(await parse(body, contentType));
  } catch (error) {
    return fail("round trip threw", `${error} for ${JSON.stringify(expected)}`);
  }
  if (got !== JSON.stringify(expected)) return fail("round trip differs", `${got} != ${JSON.stringify(expected)}`);
  passed++;
}

async function mutation() {
  const formData = new FormData();
  for (let n = 1 + random(3); n > 0; n--) {
    if (random(2) === 0) formData.append(text(4, true), text(6));
    else formData.append(text(4, true), new File([bytes(24)], text(3, true), { type: pick(types) }));
  }
  const [body, contentType] = await encode(formData);
  const mutated = Array.from(body);
  for (let n = 1 + random(4); n > 0; n--) {
    const at = random(mutated.length + 1);
    switch (random(3)) {
      case 0: mutated[at] = random(256); break;
      case 1: mutated.splice(at, 0, pick([13, 10, 45, 32, 9, 0, 34, 59])); break;
      default: mutated.splice(at, 1 + random(4));
    }
  }
  const input = new Uint8Array(mutated.filter((byte) => byte !== undefined));
  let first;
  try {
    first = await parse(input, contentType);
  } catch (error) {
    if (error instanceof TypeError) return passed++;
    return fail("mutation threw something else", `${error?.name}: ${error?.message}`);
  }
  try {
    const once = await parse(...(await encode(first)));
    const twice = await parse(...(await encode(once)));
    if (await describe(twice) !== await describe(once)) {
      return fail("mutation not stable", `${await describe(once)} then ${await describe(twice)}`);
    }
  } catch (error) {
    return fail("re-encoding a parsed body failed", `${error}`);
  }
  passed++;
}

(async () => {
  for (let i = 0; i < count; i++) await (i % 2 === 0 ? roundTrip() : mutation());
  console.log(`${passed} passed, ${failed} failed`);
  if (failed > 0) process.exitCode = 1;
})();
