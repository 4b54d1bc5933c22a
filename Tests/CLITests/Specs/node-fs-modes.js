// node:fs takes a mode as Node does: a stat() mode with its file-type bits (fs-extra's copy passes one), an
// octal string; a negative, fractional or too large number, or a string that is not octal, is refused.
const fs = require("node:fs");
const path = require("node:path");
const file = path.join(process.argv[2], "f.txt");
fs.writeFileSync(file, "x");
fs.chmodSync(file, 0o100600);
const first = (fs.statSync(file).mode & 0o7777).toString(8);
fs.chmodSync(file, "644");
const second = (fs.statSync(file).mode & 0o7777).toString(8);
const codes = [];
for (const mode of [-1, 2 ** 32, 1.5, "9", "rw"]) {
  try {
    fs.chmodSync(file, mode);
    codes.push("accepted");
  } catch (error) {
    codes.push(error.code);
  }
}
fs.promises.chmod(file, 0o100640).then(() => {
  console.log(first, second, (fs.statSync(file).mode & 0o7777).toString(8), codes.join(" "));
});
