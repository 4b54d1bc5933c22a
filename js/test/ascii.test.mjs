// The runtime's and the plugins' JavaScript files are ASCII: JavaScriptCore copies ASCII source as is, while one
// non-ASCII character makes it convert the whole file to UTF-16 at start-up (docs/architecture.md, "Start-up").
// Write other characters in strings as \u escapes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/// The `.js` files of `folder` (relative to the root), or none when it does not exist.
function scripts(folder) {
  try {
    return readdirSync(join(root, folder)).filter((f) => f.endsWith(".js")).map((f) => join(folder, f));
  } catch {
    return [];
  }
}

// The host's, every engine extension's and every plugin's JavaScript.
const files = [
  ...scripts(join("Sources", "JSBridge", "js")),
  ...readdirSync(join(root, "Extensions")).flatMap((extension) => scripts(join("Extensions", extension, "js"))),
  ...readdirSync(join(root, "Plugins")).flatMap((plugin) => scripts(join("Plugins", plugin, "Plugin"))),
];

test("the runtime's and plugins' JavaScript files are ASCII", () => {
  assert.ok(files.length > 10, `found only ${files}`);
  const found = [];
  for (const file of files) {
    readFileSync(join(root, file), "utf8").split("\n").forEach((line, index) => {
      if (/[^\x00-\x7f]/.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 80)}`);
    });
  }
  assert.deepEqual(found, []);
});
