// Seats that join and rejoin, through the client on both stores (in-process; Redis with two
// workers, where each request may land in either process): a match created with open seats
// and an idempotency key (a retry, and a create whose answer was lost, give the same match),
// each seat claimed with its invite code (by seat, and by the code alone; a claim whose answer
// was lost gets the same token again), followed live and played to its end; a re-issued token
// refused at once (its open stream ends "revoked"); a phone that rejoins with a new code; the
// host token recovered with the recovery code.
//
// All Fours, 2 players, dealer ana, seed 42, to 1 point (AF-S6): ben (on the dealer's right)
// stands or begs first (AF-B1); his hand is QS AC 4D 5S 5D KS (the README's worked example).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { RefereeClient, RefereeError, newIdempotencyKey } from "../src/index.js";
import { assertFollowedWhole, collect, playToEnd, until } from "./play.js";
import { serveDuringSuite, skipReason } from "./servers.js";

const OPEN = { dealer: "ana", seed: 42, options: { target: 1 }, open_seats: ["ana", "ben"] };
const BEN_HAND = ["QS", "AC", "4D", "5S", "5D", "KS"];
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** A fetch that loses the answer of the first POST whose path ends in `suffix` (after the
 * server applied it), recording each such request's key, replay header and answer text. */
function losingFirstAnswer(suffix) {
  const sent = [];
  const fetcher = async (url, init) => {
    const response = await fetch(url, init);
    if (init.method === "POST" && new URL(url).pathname.endsWith(suffix)) {
      const text = await response.clone().text();
      sent.push({ key: init.headers["Idempotency-Key"], replayed: response.headers.get("Idempotent-Replayed"), text });
      if (sent.length === 1) throw new TypeError("fetch failed: the answer was lost");
    }
    return response;
  };
  return { fetcher, sent };
}

/** The match's public seat events, as [type, player, version]. */
async function seatEvents(referee, matchId) {
  const { events } = await referee.events(matchId);
  return events.filter((e) => e.type.startsWith("seat_") || e.type === "host_reissued")
    .map((e) => [e.type, e.player ?? null, e.version]);
}

async function refusal(promise) {
  const error = await promise.catch((e) => e);
  assert.ok(error instanceof RefereeError, `expected a RefereeError, got ${error}`);
  return [error.status, error.type];
}

for (const store of ["memory", "redis"]) {
  describe(`seats on the ${store} store`, { skip: skipReason(store) ?? false }, () => {
    let referee;
    const server = serveDuringSuite(store, (client) => { referee = client; });

    test("join flow: open seats, a create retried with its key, claims by code, followed and played to the end", async () => {
      const key = newIdempotencyKey();
      assert.equal(key.length, 36);
      const created = await referee.createMatch("all-fours", ["ana", "ben"], OPEN, { idempotencyKey: key });
      assert.deepEqual([created.version, created.seats, created.open_seats], [1, {}, ["ana", "ben"]]);
      for (const player of ["ana", "ben"]) {
        assert.match(created.invites[player].code, CODE);
        assert.equal(created.invites[player].expires_in, 3600);
      }
      // the same request with the same key: the first answer again, the same match and codes
      assert.deepEqual(await referee.createMatch("all-fours", ["ana", "ben"], OPEN, { idempotencyKey: key }), created);
      const reused = referee.createMatch("all-fours", ["ana", "ben"], { ...OPEN, seed: 7 }, { idempotencyKey: key });
      assert.deepEqual(await refusal(reused), [422, "idempotency-key-reused"]);

      // ana claims her seat by name; ben's link carries only the code (the server finds his seat)
      const ana = await referee.claimSeat(created.id, "ana", created.invites.ana.code);
      assert.deepEqual([ana.id, ana.player, ana.version], [created.id, "ana", 2]);
      const ben = await referee.claim(created.id, created.invites.ben.code);
      assert.deepEqual([ben.player, ben.version], ["ben", 3]);
      assert.deepEqual(await refusal(referee.claim(created.id, created.invites.ben.code)), [409, "invite-used"]);
      assert.deepEqual(await refusal(referee.claimSeat(created.id, "ana", created.invites.ben.code)), [403, "invite-invalid"]);
      const benView = await referee.match(created.id, ben.token);
      assert.deepEqual([benView.seat, benView.open_seats, benView.view.hand], ["ben", [], BEN_HAND]);

      const match = { id: created.id, host_token: created.host_token, seats: { ana: ana.token, ben: ben.token } };
      const followers = { ben: collect(referee, match.id, { token: ben.token }), public: collect(referee, match.id, {}) };
      for (const [who, follower] of Object.entries(followers)) {
        await until(() => follower.messages.some((m) => m.event === "view"), `${who}'s first view`);
      }
      const moves = await playToEnd(referee, match);
      const final = await referee.match(match.id);
      assert.deepEqual([final.over, final.version], [true, 3 + moves]);
      await Promise.all(Object.values(followers).map((f) => f.done));
      await assertFollowedWhole(referee, match, ben.token, followers.ben.messages, final.version);
      await assertFollowedWhole(referee, match, null, followers.public.messages, final.version);
      const seen = followers.ben.messages.filter((m) => m.event === "event").map((m) => m.data.type);
      assert.deepEqual(seen.slice(0, 4), ["deal", "kick", "seat_claimed", "seat_claimed"]);
      assert.deepEqual(await seatEvents(referee, match.id), [["seat_claimed", "ana", 2], ["seat_claimed", "ben", 3]]);
    });

    test("a create and a claim whose answers were lost are retried with their keys: one match, one token", async () => {
      const { fetcher, sent } = losingFirstAnswer("/v1/matches");
      const lossy = new RefereeClient(server.url, { fetch: fetcher });
      const created = await lossy.createMatch("all-fours", ["ana", "ben"], OPEN, { idempotencyKey: newIdempotencyKey() });
      assert.equal(sent.length, 2);
      assert.equal(sent[0].key, sent[1].key);
      assert.deepEqual([sent[0].replayed, sent[1].replayed], [null, "true"]);
      assert.equal(JSON.parse(sent[0].text).id, created.id); // the match the lost answer made
      assert.equal(sent[0].text, sent[1].text);

      const claims = losingFirstAnswer("/claim");
      const phone = new RefereeClient(server.url, { fetch: claims.fetcher });
      const ben = await phone.claimSeat(created.id, "ben", created.invites.ben.code);
      assert.equal(claims.sent.length, 2);
      assert.equal(claims.sent[0].key, claims.sent[1].key);
      assert.deepEqual([claims.sent[0].replayed, claims.sent[1].replayed], [null, "true"]);
      assert.equal(JSON.parse(claims.sent[0].text).token, ben.token); // the same token again
      assert.deepEqual([ben.player, ben.version], ["ben", 2]);
      assert.equal((await referee.match(created.id, ben.token)).seat, "ben");
      assert.deepEqual(await seatEvents(referee, created.id), [["seat_claimed", "ben", 2]]);
    });

    test("a re-issued token stops at once (401; its open stream ends 'revoked'), the new one acts", async () => {
      const created = await referee.createMatch("all-fours", ["ana", "ben"], { dealer: "ana", seed: 42 });
      const old = created.seats.ben;
      const stream = collect(referee, created.id, { token: old });
      await until(() => stream.messages.some((m) => m.event === "view"), "ben's first view");
      assert.deepEqual(await refusal(referee.reissueSeatToken(created.id, old, "ben")), [403, "forbidden"]);
      assert.deepEqual(await refusal(referee.reissueSeatToken(created.id, created.host_token, "zed")), [404, "not-found"]);

      const reissued = await referee.reissueSeatToken(created.id, created.host_token, "ben");
      assert.deepEqual([reissued.player, reissued.version], ["ben", 2]);
      assert.notEqual(reissued.token, old);
      assert.deepEqual(await refusal(referee.match(created.id, old)), [401, "unauthorized"]);
      assert.deepEqual(await refusal(referee.act(created.id, old, { type: "stand", player: "ben" }, { expectedVersion: 2 })),
        [401, "unauthorized"]);
      const messages = await stream.done;
      assert.deepEqual(messages.at(-1), { event: "end", id: null, data: { version: 1, reason: "revoked" } });
      assert.ok(!messages.some((m) => m.event === "event" && m.data.type === "seat_reissued"), "nothing after the re-issue");

      const view = await referee.match(created.id, reissued.token);
      assert.deepEqual([view.seat, view.version, view.view.hand], ["ben", 2, BEN_HAND]); // nothing else changed
      const moved = await referee.act(created.id, reissued.token, { type: "stand", player: "ben" });
      assert.equal(moved.version, 3);
      assert.deepEqual(await seatEvents(referee, created.id), [["seat_reissued", "ben", 2]]);
    });

    test("a phone that lost its token rejoins with the host's new code; the old code and token stop", async () => {
      const created = await referee.createMatch("all-fours", ["ana", "ben"], OPEN);
      const first = await referee.claimSeat(created.id, "ben", created.invites.ben.code);
      const invite = await referee.inviteSeat(created.id, created.host_token, "ben");
      assert.deepEqual([invite.player, invite.version, invite.expires_in], ["ben", 3, 3600]);
      assert.match(invite.code, CODE);
      assert.deepEqual(await refusal(referee.inviteSeat(created.id, first.token, "ben")), [403, "forbidden"]);
      const replaced = await referee.inviteSeat(created.id, created.host_token, "ben");
      assert.deepEqual(await refusal(referee.claimSeat(created.id, "ben", invite.code)), [403, "invite-invalid"]);
      const again = await referee.claim(created.id, replaced.code.toLowerCase().replaceAll("-", " "));
      assert.deepEqual([again.player, again.version], ["ben", 5]);
      assert.deepEqual(await refusal(referee.match(created.id, first.token)), [401, "unauthorized"]);
      assert.equal((await referee.match(created.id, again.token)).seat, "ben");
      assert.deepEqual(await seatEvents(referee, created.id), [
        ["seat_claimed", "ben", 2], ["seat_invited", "ben", 3], ["seat_invited", "ben", 4], ["seat_claimed", "ben", 5]]);
    });

    test("the host token is recovered with the recovery code: the old one stops, the code stays valid", async () => {
      const created = await referee.createMatch("all-fours", ["ana", "ben"], OPEN);
      assert.deepEqual(await refusal(referee.recoverHost(created.id, "ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ")), [403, "forbidden"]);
      assert.deepEqual(await refusal(referee.recoverHost(created.id, "not a code")), [422, "invalid-input"]);
      const recovered = await referee.recoverHost(created.id, created.recovery_code);
      assert.deepEqual([recovered.id, recovered.version], [created.id, 2]);
      assert.deepEqual(await refusal(referee.inviteSeat(created.id, created.host_token, "ana")), [401, "unauthorized"]);
      const invite = await referee.inviteSeat(created.id, recovered.host_token, "ana");
      assert.equal(invite.version, 3);
      assert.equal((await referee.match(created.id, recovered.host_token)).seat, null);
      const twice = await referee.recoverHost(created.id, created.recovery_code);
      assert.deepEqual(await refusal(referee.match(created.id, recovered.host_token)), [401, "unauthorized"]);
      assert.equal(twice.version, 4);
      assert.deepEqual(await seatEvents(referee, created.id), [
        ["host_reissued", null, 2], ["seat_invited", "ana", 3], ["host_reissued", null, 4]]);
    });
  });
}
