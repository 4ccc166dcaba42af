// The client's parts that need no server: SSE parsing, problem bodies, idempotency keys,
// Retry-After, and the module staying browser-safe.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { MAX_WAIT, RefereeError, parseSSE } from "../src/index.js";
import { problemOf } from "../src/errors.js";
import { newKey } from "../src/keys.js";
import { retryAfter } from "../src/transport.js";
import { REPO } from "./servers.js";

async function collect(chunks) {
  const out = [];
  for await (const message of parseSSE(chunks)) out.push(message);
  return out;
}

const STREAM = "retry: 2000\n\nid: 5\nevent: event\ndata: {\"seq\":5,\"type\":\"stand\"}\n\n"
  + ": heartbeat\n\nevent: view\ndata: {\"version\":2}\n\nevent: end\ndata: {\"version\":2,\"reason\":\"over\"}\n\n";
const EXPECTED = [
  { event: "event", id: 5, data: { seq: 5, type: "stand" } },
  { event: "view", id: null, data: { version: 2 } },
  { event: "end", id: null, data: { version: 2, reason: "over" } },
];

test("parseSSE reads the stream's messages, skipping retry and heartbeats", async () => {
  assert.deepEqual(await collect([STREAM]), EXPECTED);
});

test("parseSSE gives the same messages however the text is cut", async () => {
  for (let size = 1; size <= 7; size++) {
    const chunks = [];
    for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
    assert.deepEqual(await collect(chunks), EXPECTED, `chunks of ${size}`);
  }
});

test("parseSSE takes CRLF and CR line ends, joins data lines, drops a cut message", async () => {
  const text = "id: 7\r\nevent: event\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\nevent: view\rdata: {}\r\rdata: {\"cut\":";
  assert.deepEqual(await collect(text.split("")), [
    { event: "event", id: 7, data: { a: 1 } },
    { event: "view", id: null, data: {} },
  ]);
});

test("a RefereeError carries the problem's status, slug, detail and violations", () => {
  const violation = { rule: "AF-B1", title: "Begging", code: "allfours.beg.not_your_turn",
    message: "Only ana may beg.", field: "action.player" };
  const error = new RefereeError(422, { type: "/problems/illegal-action", title: "Illegal action",
    status: 422, detail: "The action breaks 1 rule.", violations: [violation] });
  assert.equal(error.message, "422 Illegal action: The action breaks 1 rule.");
  assert.deepEqual([error.status, error.type, error.detail, error.currentVersion], [422, "illegal-action", "The action breaks 1 rule.", null]);
  assert.deepEqual(error.violations, [violation]);
  assert.deepEqual(error.errors, []);
  assert.ok(error instanceof Error);
  const conflict = new RefereeError(409, { type: "/problems/version-conflict", title: "Conflict", status: 409, current_version: 4 });
  assert.equal(conflict.currentVersion, 4);
  assert.equal(conflict.message, "409 Conflict");
});

test("an error answer that is not problem+json becomes an about:blank problem", () => {
  assert.deepEqual(problemOf({ status: 502, statusText: "Bad Gateway", text: "<html>down</html>" }),
    { type: "about:blank", title: "Bad Gateway", status: 502, detail: "<html>down</html>" });
  assert.deepEqual(problemOf({ status: 500, statusText: "", text: "[1]" }).title, "Error");
});

test("idempotency keys are v4 UUIDs, fresh each time, also without crypto.randomUUID", () => {
  const pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const keys = new Set(Array.from({ length: 200 }, newKey));
  assert.equal(keys.size, 200);
  for (const key of keys) assert.match(key, pattern);
  const crypto = globalThis.crypto;
  try {
    Object.defineProperty(globalThis, "crypto", { value: { getRandomValues: (a) => crypto.getRandomValues(a) }, configurable: true });
    assert.match(newKey(), pattern);
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
    const bare = new Set(Array.from({ length: 50 }, newKey));
    assert.equal(bare.size, 50);
    for (const key of bare) assert.match(key, pattern);
  } finally {
    Object.defineProperty(globalThis, "crypto", { value: crypto, configurable: true });
  }
});

test("a 503's Retry-After is waited, at most MAX_WAIT seconds; 1 s when absent or unreadable", () => {
  const headers = (value) => new Headers(value === undefined ? {} : { "Retry-After": value });
  assert.deepEqual([retryAfter(headers("3")), retryAfter(headers(undefined)), retryAfter(headers("soon")),
    retryAfter(headers("600")), retryAfter(headers("-2"))], [3, 1, 1, MAX_WAIT, 0]);
  assert.equal(MAX_WAIT, 10);
});

test("the package's modules are browser-safe: no Node built-in, no dependency", () => {
  const dir = join(REPO, "clients", "js", "src");
  const modules = readdirSync(dir).filter((name) => name.endsWith(".js"));
  assert.deepEqual(modules.sort(), ["client.js", "errors.js", "follow.js", "index.js", "keys.js", "sse.js", "transport.js"]);
  for (const name of modules) {
    const imports = [...readFileSync(join(dir, name), "utf8").matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(imports.filter((spec) => !spec.startsWith("./")), [], name);
  }
  const manifest = JSON.parse(readFileSync(join(REPO, "clients", "js", "package.json"), "utf8"));
  assert.equal(manifest.dependencies, undefined);
  assert.equal(manifest.type, "module");
});
