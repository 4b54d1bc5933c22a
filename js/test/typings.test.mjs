// The typings (js/jsbridge.d.ts and the built-in plugins' js/typings/*.d.ts, written by `jsbridge --typings`)
// compile together under TypeScript's strict mode, and type a sample script as intended
// (js/test/typings-sample.ts). TypeScript comes from Debian's node-typescript (scripts/setup.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const js = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = spawnSync("tsc", ["--version"], { encoding: "utf8" });

test("the typings type-check a sample script", { skip: tsc.status !== 0 && "tsc not installed" }, () => {
  const run = spawnSync("tsc", ["-p", join(js, "tsconfig.json")], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test("a typo in a typed plugin's action is a type error", { skip: tsc.status !== 0 && "tsc not installed" }, () => {
  const bad = spawnSync("tsc", ["-p", join(js, "test", "fixtures", "tsconfig-typo.json")], { encoding: "utf8" });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stdout, /typings-typo\.ts\(\d+,\d+\): error TS2769/);
});
