// A 16 MiB data: URL is parsed by `new URL()` and read by fetch in memory linear in its length (it peaked at
// 1.6 GB and 2.8 GB); a data: URL longer than 64 MiB is refused by fetch with a TypeError (docs/limits.md).
const fs = require("fs");
const peakMiB = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
const url = "data:application/octet-stream;base64," + "QUFB".repeat(4 << 20);
const parsed = new URL(url);
const response = await fetch(url);
const bytes = new Uint8Array(await response.arrayBuffer());
console.log(parsed.href.length, parsed.protocol, response.headers.get("content-type"), bytes.length, bytes[0], bytes[bytes.length - 1]);
const text = await (await fetch("data:text/plain," + "%41b".repeat(1 << 20))).text();
console.log(text.length, text.slice(0, 4));
console.log("peak under 1 GiB:", peakMiB() < 1024);
const long = "data:text/plain;base64," + "QUFB".repeat(16 << 20);
for (const input of [long, new Request(long)]) {
  try {
    await fetch(input);
    console.log("fetched");
  } catch (error) {
    console.log(error.constructor.name, error.code, error.message);
  }
}
