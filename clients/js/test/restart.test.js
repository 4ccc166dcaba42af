// A stream that survives its server's restart (Redis store): the follower's server is
// stopped mid-match (open streams cut, as in a crash), moves go on through a second server
// on the same Redis while it is down, it starts again on the same port, and follow() resumes
// from the last event it saw: every event once, none missed, to the end.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { RefereeClient } from "../src/index.js";
import { assertFollowedWhole, play, until } from "./play.js";
import { Server, skipReason } from "./servers.js";

const reason = skipReason("redis");
const a = new Server("redis");
const b = new Server("redis", { workers: 1 });

before(async () => {
  if (!reason) await Promise.all([a.start(), b.start()]);
});
after(() => Promise.all([a.stop(), b.stop()]));

test("follow() resumes after its server restarts, missing and repeating no event", { skip: reason ?? false }, async () => {
  let streams = 0;
  const counting = (url, init) => {
    if (new URL(url).pathname.endsWith("/stream")) streams += 1;
    return fetch(url, init);
  };
  const onA = new RefereeClient(a.url, { fetch: counting });
  const onB = new RefereeClient(b.url);
  const match = await onB.createMatch("all-fours", ["ana", "ben"], { dealer: "ana", seed: 42 });
  const messages = [];
  const done = (async () => {
    for await (const m of onA.follow(match.id, { token: match.seats.ana, reconnects: 30 })) messages.push(m);
  })();
  await until(() => messages.some((m) => m.event === "view"), "the first view");

  await play(onB, match, 10);
  await until(() => messages.some((m) => m.event === "view" && m.data.version === 11), "version 11 on A's stream");
  const before = messages.filter((m) => m.event === "event").length;
  await a.stop();
  await play(onB, match, 10); // version 21 while A is down
  await a.start();
  await play(onB, match, 500);
  await done;

  assert.ok(streams >= 2, `the stream was opened ${streams} time(s)`);
  const events = messages.filter((m) => m.event === "event");
  assert.ok(before > 0 && events.length > before);
  assert.ok(events.some((m) => m.data.version > 11 && m.data.version <= 21), "the moves made while A was down");
  await assertFollowedWhole(onB, match, match.seats.ana, messages, 70);
});
