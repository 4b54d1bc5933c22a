// File I/O benchmark, the same file for jsbridge and Node 20: readFile/writeFile through `fs/promises`.
//   <runtime> bench.js <dir> <case> <count>
// Cases: write-1k / read-1k (1 KiB UTF-8 text, <count> files, one await at a time), write-big / read-big
// (one file of <count> MiB, bytes). Prints one JSON line: {case, ms, bytes}.
const isNode = typeof globalThis.bridge === "undefined";
const fsp = isNode ? require("fs/promises") : require("jsbridge:node:fs/promises");
const args = isNode ? process.argv.slice(2) : process.argv.slice(2);
const [dir, which, countText] = args;
const count = Number(countText);

function text1k(i) {
  const head = `file ${i} `;
  return head + "x".repeat(1024 - head.length);
}

function bigBytes(mib) {
  const bytes = new Uint8Array(mib * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 255;
  return bytes;
}

(async () => {
  let bytes = 0;
  let start, end;
  if (which === "write-1k" || which === "read-1k") {
    if (which === "read-1k") for (let i = 0; i < count; i++) await fsp.writeFile(`${dir}/f${i}.txt`, text1k(i));
    start = performance.now();
    for (let i = 0; i < count; i++) {
      if (which === "write-1k") {
        await fsp.writeFile(`${dir}/f${i}.txt`, text1k(i));
        bytes += 1024;
      } else {
        bytes += (await fsp.readFile(`${dir}/f${i}.txt`, "utf8")).length;
      }
    }
    end = performance.now();
  } else {
    const data = bigBytes(count);
    if (which === "read-big") await fsp.writeFile(`${dir}/big.bin`, data);
    start = performance.now();
    if (which === "write-big") {
      await fsp.writeFile(`${dir}/big.bin`, data);
      bytes = data.length;
    } else {
      const back = await fsp.readFile(`${dir}/big.bin`);
      if (back[4096] !== data[4096] || back.length !== data.length) throw new Error("read back differs");
      bytes = back.length;
    }
    end = performance.now();
  }
  console.log(JSON.stringify({ case: which, ms: end - start, bytes }));
})();
