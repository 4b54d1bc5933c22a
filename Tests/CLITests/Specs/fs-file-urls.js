const fs = require("node:fs");
for (const u of ["file://host/etc/hosts", "file:///etc%2Fhosts", "http://x/etc/hosts", new URL("file://evil/etc/hosts")]) {
  try { fs.readFileSync(new URL(u)); console.log("read", String(u)); } catch (e) { console.log(e.code, e.message); }
}
try { fs.readFileSync(new URL("file:///etc/host%73"), "utf8"); console.log("ok decoded"); } catch (e) { console.log(e.code); }
