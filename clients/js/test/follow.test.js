// follow()'s reconnection rules against a scripted fetch (no server): a ticket per
// connection, `after` = the last event seen, the server's "reconnect" end followed at once,
// a lost connection after a growing wait, an event sent twice yielded once, giving up after
// too many losses, errors thrown, aborting, and the long-poll fallback where fetch cannot
// stream a body.

import assert from "node:assert/strict";
import { test } from "node:test";

import { RECONNECT_DELAYS, RefereeClient, RefereeConnectionError, RefereeError } from "../src/index.js";

const sse = (id, event, data) => `${id === null ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const ev = (seq, version) => sse(seq, "event", { seq, version, type: "play" });
const view = (version, over = false) => sse(null, "view", { version, over, to_move: [], rollback: null, view: {} });
const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A client whose fetch answers from `script`: each stream request takes the next entry (a
 * string: that SSE text then the body ends; an Error: thrown; a Response: answered). */
function scripted(script) {
  const requests = [];
  let tickets = 0;
  const fetcher = async (url, init = {}) => {
    const { pathname, searchParams } = new URL(url);
    requests.push({ path: pathname, query: Object.fromEntries(searchParams), auth: init.headers?.Authorization });
    if (pathname.endsWith("/stream-tickets")) return json({ ticket: `t${++tickets}`, expires_in: 120 });
    if (pathname.endsWith("/stream")) {
      const next = script.shift();
      if (next === undefined) throw new TypeError("fetch failed: script over");
      if (next instanceof Error) throw next;
      if (next instanceof Response) return next;
      return new Response(next, { headers: { "Content-Type": "text/event-stream" } });
    }
    throw new Error(`unexpected ${pathname}`);
  };
  const client = new RefereeClient("http://referee.test", { fetch: fetcher });
  const waits = [];
  client.sleep = async (ms) => { waits.push(ms); };
  return { client, requests, waits };
}

async function all(iterator) {
  const out = [];
  for await (const m of iterator) out.push(m);
  return out;
}

test("each connection trades the token for a ticket and resumes after the last event seen", async () => {
  const { client, requests, waits } = scripted([
    ev(1, 1) + ev(2, 1) + view(1) + sse(null, "end", { version: 1, reason: "reconnect" }),
    ev(2, 1) + ev(3, 2) + view(1) + view(2), // the server repeats seq 2 and view 1: yielded once
    new TypeError("fetch failed"),
    ev(3, 2) + ev(4, 3) + view(3, true) + sse(null, "end", { version: 3, reason: "over" }),
  ]);
  const messages = await all(client.follow("m1", { token: "seat-token" }));
  assert.deepEqual(messages.map((m) => [m.event, m.id ?? m.data.version]), [
    ["event", 1], ["event", 2], ["view", 1], ["event", 3], ["view", 2], ["event", 4], ["view", 3], ["end", 3]]);
  const streams = requests.filter((r) => r.path === "/v1/matches/m1/stream");
  assert.deepEqual(streams.map((r) => r.query), [
    { after: "0", ticket: "t1" }, { after: "2", ticket: "t2" }, { after: "3", ticket: "t3" }, { after: "3", ticket: "t4" }]);
  assert.ok(streams.every((r) => r.auth === undefined), "the token never goes with the stream request");
  assert.ok(requests.filter((r) => r.path.endsWith("/stream-tickets")).every((r) => r.auth === "Bearer seat-token"));
  // "reconnect": at once; body ended without an end: lost (1st); fetch failed: lost (2nd)
  assert.deepEqual(waits, [RECONNECT_DELAYS[0], RECONNECT_DELAYS[1]]);
});

test("the public stream needs no ticket; `after` starts it later", async () => {
  const { client, requests } = scripted([ev(5, 4) + view(4, true) + sse(null, "end", { version: 4, reason: "over" })]);
  const messages = await all(client.follow("m2", { after: 4 }));
  assert.deepEqual(messages.map((m) => m.event), ["event", "view", "end"]);
  assert.deepEqual(requests.map((r) => [r.path, r.query]), [["/v1/matches/m2/stream", { after: "4" }]]);
});

test("lost more than `reconnects` times in a row: RefereeConnectionError; a 503 counts as lost", async () => {
  const unavailable = json({ type: "/problems/store-unavailable", title: "Unavailable", status: 503 }, 503);
  const { client, waits } = scripted([unavailable, new TypeError("fetch failed"), "", new TypeError("fetch failed")]);
  const error = await all(client.follow("m3", { reconnects: 3 })).catch((e) => e);
  assert.ok(error instanceof RefereeConnectionError);
  assert.equal(error.message, "the stream of m3 was lost 4 times in a row");
  assert.deepEqual(waits, RECONNECT_DELAYS.slice(0, 3));
});

test("a refusal (401, 404) is thrown at once, as a RefereeError", async () => {
  const { client, waits } = scripted([json({ type: "/problems/not-found", title: "Not found", status: 404 }, 404)]);
  const error = await all(client.follow("m4")).catch((e) => e);
  assert.ok(error instanceof RefereeError);
  assert.deepEqual([error.status, error.type, waits], [404, "not-found", []]);
});

test("aborting the signal ends the iteration without an error", async () => {
  const controller = new AbortController();
  const stalled = new Response(new ReadableStream({
    start(c) { c.enqueue(new TextEncoder().encode(ev(1, 1))); }, // then nothing, ever
  }));
  const { client } = scripted([stalled]);
  const seen = [];
  for await (const m of client.follow("m5", { signal: controller.signal })) {
    seen.push(m.id);
    controller.abort();
  }
  assert.deepEqual(seen, [1]);
});

test("a stream silent past idleTimeout counts as lost and is opened again", async () => {
  const silent = () => new Response(new ReadableStream({ start() {} }));
  const { client, waits } = scripted([silent(), view(2, true) + sse(null, "end", { version: 2, reason: "over" })]);
  const messages = await all(client.follow("m6", { idleTimeout: 50 }));
  assert.deepEqual(messages.map((m) => m.event), ["view", "end"]);
  assert.deepEqual(waits, [RECONNECT_DELAYS[0]]);
});

test("where fetch gives no readable body (React Native) it long-polls, events before views", async () => {
  const calls = [];
  let version = 1;
  const log = [{ seq: 1, version: 1, type: "deal" }, { seq: 2, version: 2, type: "play" }, { seq: 3, version: 3, type: "game_over" }];
  const fetcher = async (url) => {
    const { pathname, searchParams } = new URL(url);
    const after = Number(searchParams.get("after"));
    calls.push(`${pathname.split("/").pop()}${pathname.endsWith("/events") ? `?after=${after}&wait=${searchParams.get("wait") ?? 0}` : ""}`);
    if (pathname.endsWith("/stream")) return { ok: true, status: 200, body: null, text: async () => "" };
    if (pathname.endsWith("/events")) {
      const waiting = searchParams.get("wait") === "25";
      if (waiting && !log.some((e) => e.seq > after && e.version <= version)) version += 1; // a move comes meanwhile
      return json({ version, events: log.filter((e) => e.seq > after && e.version <= version) });
    }
    return json({ id: "m7", version, over: version === 3, to_move: [], view: {}, rollback: null });
  };
  const client = new RefereeClient("http://referee.test", { fetch: fetcher });
  const messages = await all(client.follow("m7"));
  assert.deepEqual(messages.map((m) => [m.event, m.id ?? m.data.version]), [
    ["event", 1], ["view", 1], ["event", 2], ["view", 2], ["event", 3], ["view", 3], ["end", 3]]);
  assert.equal(calls[0], "stream");
  assert.deepEqual(calls.slice(1, 4), ["events?after=0&wait=0", "m7", "events?after=1&wait=0"]);
  assert.equal(calls[4], "events?after=1&wait=25");
  const refused = new RefereeClient("http://referee.test", { fetch: fetcher });
  const waits = [];
  refused.sleep = async (ms) => { waits.push(ms); };
  const error = await all(refused.follow("m7", { transport: "stream" })).catch((e) => e);
  assert.ok(error instanceof RefereeConnectionError);
  assert.deepEqual([error.message, waits], ['fetch cannot stream a response body here: use transport "poll"', []]);
});

test("onStatus says live when messages flow and reconnecting when a connection is lost", async () => {
  const { client } = scripted([
    ev(1, 1) + view(1) + sse(null, "end", { version: 1, reason: "reconnect" }),
    new TypeError("fetch failed"),
    ev(2, 2) + view(2, true) + sse(null, "end", { version: 2, reason: "over" }),
  ]);
  const seen = [];
  for await (const m of client.follow("m1", { token: "t", onStatus: (s) => seen.push(s) })) {
    seen.push(m.event === "event" ? `event ${m.id}` : m.event);
  }
  assert.deepEqual(seen, ["live", "event 1", "view", "reconnecting", "live", "event 2", "view", "end"]);
});

test("claim trades a code for whichever seat it invites to", async () => {
  const requests = [];
  const client = new RefereeClient("http://referee.test", { fetch: async (url, init) => {
    requests.push([new URL(url).pathname, init.method, JSON.parse(init.body)]);
    return json({ id: "m1", player: "ben", token: "tok", version: 3, ttl: 60 });
  } });
  const answer = await client.claim("m 1", "K7M2-Q9XD-4HPA");
  assert.equal(answer.player, "ben");
  assert.deepEqual(requests, [["/v1/matches/m%201/claim", "POST", { code: "K7M2-Q9XD-4HPA" }]]);
});

test("long-polling, it reads every page of the log (next) before the view", async () => {
  const calls = [];
  const log = [1, 2, 3, 4, 5].map((seq) => ({ seq, version: 1, type: "play" }));
  const fetcher = async (url) => {
    const { pathname, searchParams } = new URL(url);
    const after = Number(searchParams.get("after"));
    if (pathname.endsWith("/events")) {
      calls.push(after);
      const page = log.filter((e) => e.seq > after).slice(0, 2); // pages of 2, as limit=2 would
      const more = page.length && page[page.length - 1].seq < 5;
      return json({ version: 1, events: page, next: more ? page[page.length - 1].seq : null });
    }
    return json({ id: "m8", version: 1, over: true, to_move: [], view: {}, rollback: null });
  };
  const client = new RefereeClient("http://referee.test", { fetch: fetcher });
  const messages = await all(client.follow("m8", { transport: "poll" }));
  assert.deepEqual(messages.map((m) => [m.event, m.id ?? m.data.version]), [
    ["event", 1], ["event", 2], ["event", 3], ["event", 4], ["event", 5], ["view", 1], ["end", 1]]);
  assert.deepEqual(calls, [0, 2, 4, 5]);
});
