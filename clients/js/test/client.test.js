// The client against a live server (in-process store): the stateless endpoints, problem
// bodies as RefereeError, the language, the retry rules (a lost answer, a 503, a 409), and
// the README's examples (the JavaScript client, the join flow).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";

import { RefereeClient, RefereeConnectionError, RefereeError } from "../src/index.js";
import { REPO, serveDuringSuite, skipReason } from "./servers.js";

const SHEET = { // a hand recorded from real play (the server's case allfours/real-hand-1)
  players: ["kiri", "tano", "lena", "omar"],
  sides: { X: ["kiri", "lena"], Y: ["tano", "omar"] },
  dealer: "kiri", kicks: ["QD"], beg: "give_one",
  tricks: [
    { leader: "tano", cards: ["9S", "4C", "AS", "3H"] },
    { leader: "omar", cards: ["JC", "10C", "QC", "AC"] },
    { leader: "lena", cards: ["7C", "9C", "5H", "4D"] },
    { leader: "tano", cards: ["JH", "7D", "6H", "10H"] },
    { leader: "lena", cards: ["QH", "8D", "7H", "4H"] },
    { leader: "omar", cards: ["JS", "2D", "8H", "JD"] },
  ],
};

/** A fetch that loses the answer of the first request whose URL ends in `suffix` (after the
 * server applied it), and records each such request's key, If-Match and replay header. */
function losingFirstAnswer(suffix) {
  const sent = [];
  const fetcher = async (url, init) => {
    const response = await fetch(url, init);
    if (init.method === "POST" && new URL(url).pathname.endsWith(suffix)) {
      sent.push([init.headers["Idempotency-Key"], init.headers["If-Match"], response.headers.get("Idempotent-Replayed")]);
      if (sent.length === 1) throw new TypeError("fetch failed: the answer was lost");
    }
    return response;
  };
  return { fetcher, sent };
}

const reason = skipReason("memory");

describe("the client against a live server", { skip: reason ?? false }, () => {
  let referee;
  const server = serveDuringSuite("memory", (client) => { referee = client; });

  test("scores the real hand's trick sheet (AF-S1..S4: High J, Low 2, Jack kept, Game 30-6)", async () => {
    const result = await referee.scoreTrickSheet(SHEET);
    assert.deepEqual(result.points, { X: 4, Y: 1 });
    assert.deepEqual(result.high, { card: "JD", player: "lena" });
    assert.deepEqual(result.low, { card: "2D", player: "kiri" });
    assert.deepEqual(result.game.totals, { X: 30, Y: 6 });
  });

  test("an inconsistent sheet (the queen of clubs twice, AF-X1) throws with the problem body", async () => {
    const sheet = structuredClone(SHEET);
    sheet.tricks[2].cards[1] = "QC";
    const error = await referee.scoreTrickSheet(sheet).catch((e) => e);
    assert.ok(error instanceof RefereeError);
    assert.deepEqual([error.status, error.type], [422, "inconsistent-sheet"]);
    assert.ok(error.errors.length > 0);
    assert.deepEqual(new Set(error.errors.map((e) => e.rule)), new Set(["AF-X1"]));
    assert.ok(error.errors.every((e) => typeof e.field === "string" && e.message));
  });

  test("an unknown game is a 404 problem; the games are listed", async () => {
    const error = await referee.game("chess").catch((e) => e);
    assert.deepEqual([error.status, error.type], [404, "unknown-game"]);
    const names = (await referee.games()).map((g) => g.name);
    for (const name of ["all-fours", "coup", "gnoming", "spy"]) assert.ok(names.includes(name), name);
    assert.equal((await referee.rule("all-fours", "AF-B1")).id, "AF-B1");
    assert.ok((await referee.rules("coup")).rules.length > 10);
  });

  test("grouped legal actions expand to the flat list (table-mode All Fours: 51 cards not seen, AF-K1)", async () => {
    let state = await referee.setup("all-fours", ["ana", "ben"], { dealer: "ben", mode: "table", kick: "QD" });
    state = (await referee.apply("all-fours", state, { type: "stand", player: "ana" })).state;
    const grouped = await referee.legalActions("all-fours", state, { player: "ana", form: "grouped" });
    assert.deepEqual(grouped.groups.map((g) => [g.type, g.choices.card.length, g.illegal.length]), [["play", 51, 0]]);
    assert.ok(!grouped.groups[0].choices.card.includes("QD")); // the kick is face up (AF-K1)
    const expanded = grouped.groups[0].choices.card.map((card) => JSON.stringify({ type: "play", player: "ana", card }));
    const flat = (await referee.legalActions("all-fours", state, { player: "ana" })).actions;
    assert.deepEqual(expanded.sort(), flat.map((a) => JSON.stringify({ type: a.type, player: a.player, card: a.card })).sort());
    const error = await referee.legalActions("all-fours", state, { form: "stacked" }).catch((e) => e);
    assert.deepEqual([error.status, error.errors[0].field], [422, "query.form"]);
  });

  test("plays an All Fours hand through the stateless endpoints (AF-B1: only the eldest hand begs)", async () => {
    let state = await referee.setup("all-fours", ["ana", "ben"], { dealer: "ben", seed: 42 });
    const first = await referee.legalActions("all-fours", state);
    assert.deepEqual(first.to_move, ["ana"]);
    assert.deepEqual(first.actions, [{ type: "stand", player: "ana" }, { type: "beg", player: "ana" }]);
    assert.deepEqual((await referee.legalActions("all-fours", state, { player: "ben" })).actions, []);
    const verdict = await referee.validate("all-fours", state, { type: "beg", player: "ben" });
    assert.equal(verdict.legal, false);
    assert.deepEqual(verdict.violations.map((v) => v.rule), ["AF-B1"]);
    const error = await referee.apply("all-fours", state, { type: "beg", player: "ben" }).catch((e) => e);
    assert.equal(error.type, "illegal-action");
    assert.deepEqual(error.violations.map((v) => [v.rule, v.field]), [["AF-B1", "action.player"]]);
    assert.ok(error.violations.every((v) => v.code.startsWith("allfours.") && v.message));
    let plays = 0;
    let answer;
    while (!["hand_over", "game_over"].includes(state.phase)) {
      const [action] = (await referee.legalActions("all-fours", state)).actions;
      answer = await referee.apply("all-fours", state, action);
      state = answer.state;
      plays += action.type === "play" ? 1 : 0;
      assert.ok(plays <= 12);
    }
    assert.equal(plays, 12);
    assert.equal(state.tricks.length, 6);
  });

  test("answers come in the client's language (my: Burmese), with the same codes", async () => {
    const state = await referee.setup("all-fours", ["ana", "ben"], { dealer: "ben", seed: 42 });
    const beg = { type: "beg", player: "ben" };
    const english = await referee.apply("all-fours", state, beg).catch((e) => e);
    const burmese = await new RefereeClient(server.url, { language: "my" }).apply("all-fours", state, beg).catch((e) => e);
    assert.deepEqual(burmese.violations.map((v) => v.code), english.violations.map((v) => v.code));
    assert.match(burmese.violations[0].message, /[\u1000-\u109F]/);
    assert.doesNotMatch(english.violations[0].message, /[\u1000-\u109F]/);
  });

  test("an action whose answer was lost is sent again with its key and applied once", async () => {
    const { fetcher, sent } = losingFirstAnswer("/actions");
    const lossy = new RefereeClient(server.url, { fetch: fetcher });
    const created = await lossy.createMatch("all-fours", ["ana", "ben"], { dealer: "ana", seed: 42 });
    assert.equal(created.version, 1);
    const { ben, ana } = created.seats;
    assert.deepEqual((await lossy.matchLegalActions(created.id, ben)).actions,
      [{ type: "stand", player: "ben" }, { type: "beg", player: "ben" }]);
    const acted = await lossy.act(created.id, ben, { type: "stand", player: "ben" });
    assert.equal(acted.version, 2); // applied once, though the first answer was lost
    assert.equal(sent.length, 2);
    assert.equal(sent[0][0], sent[1][0]);
    assert.deepEqual([sent[0][1], sent[1][1]], ['"1"', '"1"']);
    assert.deepEqual([sent[0][2], sent[1][2]], [null, "true"]);
    assert.deepEqual((await lossy.events(created.id)).events.map((e) => [e.type, e.version]),
      [["deal", 1], ["kick", 1], ["stand", 2]]); // the first deal's at version 1 (AF-K1)

    const late = await lossy.act(created.id, ana, { type: "beg", player: "ana" }, { expectedVersion: 1 }).catch((e) => e);
    assert.deepEqual([late.status, late.type, late.currentVersion], [409, "version-conflict", 2]);
    assert.equal(sent.length, 3); // a conflict is not sent again
    const view = await lossy.match(created.id, ben);
    assert.deepEqual([view.version, view.seat], [2, "ben"]);
    assert.equal((await lossy.audit(created.id).catch((e) => e)).type, "forbidden");
    await lossy.deleteMatch(created.id, created.host_token);
    assert.equal((await lossy.match(created.id).catch((e) => e)).status, 404);
  });

  for (const suffix of ["/rollback", "/rollback/votes"]) {
    test(`a rollback step (${suffix}) whose answer was lost is retried with its key and made once`, async () => {
      const { fetcher, sent } = losingFirstAnswer(suffix);
      const lossy = new RefereeClient(server.url, { fetch: fetcher });
      const created = await lossy.createMatch("all-fours", ["ana", "ben"], { dealer: "ana", seed: 42 });
      const { host_token: host, seats: { ana, ben } } = created;
      await lossy.act(created.id, ben, { type: "stand", player: "ben" });
      const proposed = await lossy.proposeRollback(created.id, host, 1, "ben meant to beg");
      assert.equal(proposed.status, "pending");
      const { proposal } = proposed.rollback;
      assert.equal((await lossy.voteRollback(created.id, ana, proposal)).status, "pending");
      const decided = await lossy.voteRollback(created.id, ben, proposal);
      // stand 2, proposal 3, ana's vote 4, ben's vote applies it: 5
      assert.deepEqual([decided.status, decided.version], ["applied", 5]);
      assert.equal(sent[0][0], sent[1][0]);
      assert.deepEqual([sent[0][2], sent[1][2]], [null, "true"]);
      assert.deepEqual((await lossy.match(created.id, ben)).view.to_move, ["ben"]);
    });
  }

  test("a pending rollback is withdrawn by the host", async () => {
    const created = await referee.createMatch("all-fours", ["ana", "ben"], { dealer: "ana", seed: 42 });
    await referee.act(created.id, created.seats.ben, { type: "stand", player: "ben" });
    await referee.proposeRollback(created.id, created.host_token, 1, "a slip", { approval: "majority" });
    const blocked = await referee.act(created.id, created.seats.ben, { type: "beg", player: "ben" }).catch((e) => e);
    assert.deepEqual([blocked.status, blocked.type], [409, "rollback-pending"]);
    const withdrawn = await referee.withdrawRollback(created.id, created.host_token);
    assert.deepEqual([withdrawn.status, withdrawn.version], ["withdrawn", 4]);
    assert.equal((await referee.match(created.id)).rollback, null);
  });

  test("a 503 is retried after its Retry-After; with no retries left it is thrown", async () => {
    const waits = [];
    let calls = 0;
    const storeDownOnce = async (url, init) => {
      calls += 1;
      if (calls === 1) {
        return new Response(JSON.stringify({ type: "/problems/store-unavailable", status: 503, title: "Match store unavailable" }),
          { status: 503, headers: { "Retry-After": "1", "Content-Type": "application/problem+json" } });
      }
      return fetch(url, init);
    };
    const patient = new RefereeClient(server.url, { fetch: storeDownOnce });
    patient.sleep = async (ms) => { waits.push(ms); };
    assert.equal((await patient.game("spy")).name, "spy");
    assert.deepEqual([waits, calls], [[1000], 2]);
    calls = 0;
    const stubborn = new RefereeClient(server.url, { fetch: storeDownOnce, retries: 0 });
    const error = await stubborn.game("spy").catch((e) => e);
    assert.deepEqual([error.status, error.type, error.message], [503, "store-unavailable", "503 Match store unavailable"]);
  });

  test("no server at all: RefereeConnectionError once the retries are spent", async () => {
    let calls = 0;
    const offline = new RefereeClient(server.url, {
      fetch: async () => { calls += 1; throw new TypeError("fetch failed"); }, retries: 2,
    });
    const error = await offline.games().catch((e) => e);
    assert.ok(error instanceof RefereeConnectionError);
    assert.equal(calls, 3);
    calls = 0;
    const create = await offline.createMatch("spy", ["a", "b"]).catch((e) => e);
    assert.ok(create instanceof RefereeConnectionError);
    assert.equal(calls, 1); // a create without an idempotency key is never sent twice
  });

  test("the README's JavaScript example runs as written and prints what the README says", async () => {
    const [ran, expected] = runReadmeExample("### JavaScript client", server.url);
    assert.equal(ran.status, 0, ran.stderr);
    assert.equal(ran.stdout, expected);
  });

  test("the README's join flow in JavaScript (open seats, claims by link, rejoin, two phones playing) runs as written", async () => {
    const [ran, expected] = runReadmeExample("### Join flow in JavaScript", server.url);
    assert.equal(ran.status, 0, ran.stderr);
    assert.equal(ran.stdout, expected);
  });
});

/** Runs the first `js` block after `heading` in the README against `url` (its one address
 * is the only change; "referee-client" is this checkout's package); [the run, the `text`
 * block that follows it: what the README says it prints]. */
function runReadmeExample(heading, url) {
  const readme = readFileSync(join(REPO, "README.md"), "utf8").split(heading)[1];
  const code = readme.match(/```js\n([\s\S]*?)```/)[1];
  const expected = readme.match(/```text\n([\s\S]*?)```/)[1];
  assert.equal(code.split("http://127.0.0.1:8000").length, 2); // the one change: the address
  const dir = mkdtempSync(join(tmpdir(), "referee-readme-"));
  try {
    const script = join(dir, "example.mjs");
    writeFileSync(script, code.replace("http://127.0.0.1:8000", url)
      .replace('from "referee-client"', `from ${JSON.stringify(join(REPO, "clients", "js", "src", "index.js"))}`));
    return [spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 60000 }), expected];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
