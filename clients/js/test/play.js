// Helpers of the live tests: playing a match through the client and checking what a
// follower saw.

import assert from "node:assert/strict";

/** Plays `match` to its end: each time, the first legal action of a seat, at its version;
 * resolves to the number of actions. */
export async function playToEnd(referee, match, limit = 500) {
  const actions = await play(referee, match, limit + 1);
  assert.ok(actions <= limit, "the match never ended");
  return actions;
}

/** Up to `count` moves (fewer if the match ends first), each the first legal action of a
 * seat, sent at the version it was legal at; resolves to the number made. */
export async function play(referee, match, count) {
  let actions = 0;
  while (actions < count) {
    const now = await referee.matchLegalActions(match.id, match.host_token);
    if (now.to_move.length === 0) break;
    const action = now.actions.find((a) => a.player in match.seats);
    const moved = await referee.act(match.id, match.seats[action.player], action, { expectedVersion: now.version });
    actions += 1;
    if (moved.over) break;
  }
  return actions;
}

/** Follows the match as `token`, collecting every message, until the end. */
export function collect(referee, matchId, options) {
  const messages = [];
  const done = (async () => {
    for await (const message of referee.follow(matchId, options)) messages.push(message);
    return messages;
  })();
  return { messages, done };
}

export async function until(check, what, ms = 20000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The checks every follower's messages pass: each event once and in order, exactly the
 * reader's event log; each view's version once, rising; the end last. */
export async function assertFollowedWhole(referee, match, token, messages, lastVersion) {
  const events = messages.filter((m) => m.event === "event");
  const log = { events: [] }; // the reader's whole log, page after page (next)
  for (let after = 0; after !== null;) {
    const page = await referee.events(match.id, { token, after });
    log.events.push(...page.events);
    after = page.next;
  }
  assert.deepEqual(events.map((m) => m.id), log.events.map((e) => e.seq));
  assert.deepEqual(events.map((m) => m.data), log.events);
  const seqs = events.map((m) => m.id);
  assert.deepEqual(seqs, [...new Set(seqs)].sort((a, b) => a - b));
  const versions = messages.filter((m) => m.event === "view").map((m) => m.data.version);
  assert.deepEqual(versions, [...new Set(versions)].sort((a, b) => a - b));
  assert.equal(versions.at(-1), lastVersion);
  assert.deepEqual(messages.at(-1), { event: "end", id: null, data: { version: lastVersion, reason: "over" } });
}
