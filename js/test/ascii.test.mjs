// The runtime's and the plugins' JavaScript files are ASCII: JavaScriptCore copies ASCII source as is, while one
// non-ASCII character makes it convert the whole file to UTF-16 at start-up (docs/architecture.md, "Start-up").
// Write other characters in strings as \u escapes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const files = [
  ...readdirSync(join(root, "js")).filter((f) => f.endsWith(".js")).map((f) => join("js", f)),
  ...readdirSync(join(root, "js", "node")).filter((f) => f.endsWith(".js")).map((f) => join("js", "node", f)),
  ...readdirSync(join(root, "Plugins")).flatMap((plugin) => {
    const folder = join("Plugins", plugin, "Plugin");
    try {
      return readdirSync(join(root, folder)).filter((f) => f.endsWith(".js")).map((f) => join(folder, f));
    } catch {
      return [];
    }
  }),
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
