// The TypeScript side: src/schema.d.ts is what openapi-typescript (pinned in package.json)
// makes of the repository's openapi.yaml now (regenerate with `npm run generate`), and the
// hand-written src/index.d.ts compiles against it and types an app's calls (tsc, strict).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { REPO } from "./servers.js";

const HERE = join(REPO, "clients", "js");
const BIN = join(HERE, "node_modules", ".bin");
const skip = existsSync(join(BIN, "tsc")) ? false : "node_modules is missing: run `npm ci` in clients/js";

function run(tool, args) {
  return spawnSync(join(BIN, tool), args, { cwd: HERE, encoding: "utf8", timeout: 120000 });
}

test("src/schema.d.ts is generated from openapi.yaml as it is now", { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), "referee-schema-"));
  try {
    const made = run("openapi-typescript", [join(REPO, "openapi.yaml"), "--output", join(dir, "schema.d.ts")]);
    assert.equal(made.status, 0, made.stderr);
    const fresh = readFileSync(join(dir, "schema.d.ts"), "utf8");
    assert.ok(fresh.includes('"/v1/matches/{match_id}/actions"'));
    assert.ok(fresh === readFileSync(join(HERE, "src", "schema.d.ts"), "utf8"),
      "src/schema.d.ts is out of date: run `npm run generate` in clients/js and commit it");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("index.d.ts compiles against the generated types, types an app's calls and refuses a wrong one", { skip }, () => {
  // One tsc run over the project's files (src/index.d.ts, test/types-usage.ts: no error
  // allowed) and one wrong call (a dealer that is not a player name: its error expected).
  const dir = mkdtempSync(join(tmpdir(), "referee-types-"));
  try {
    writeFileSync(join(dir, "wrong.ts"), `import { RefereeClient } from ${JSON.stringify(join(HERE, "src", "index.js"))};
export const state = new RefereeClient("").setup("all-fours", ["ana", "ben"], { dealer: 5 });\n`);
    const project = JSON.parse(readFileSync(join(HERE, "tsconfig.json"), "utf8"));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      extends: join(HERE, "tsconfig.json"),
      files: [...project.files.map((f) => join(HERE, f)), "wrong.ts"],
    }));
    const checked = run("tsc", ["--noEmit", "-p", dir]);
    const errors = checked.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
    assert.equal(errors.length, 1, checked.stdout + checked.stderr);
    assert.match(errors[0], /wrong\.ts\(2,\d+\): error TS2322: Type 'number' is not assignable to type 'string/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
