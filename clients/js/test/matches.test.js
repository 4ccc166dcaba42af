// Whole matches through the client on both stores (in-process; Redis with two workers):
// an All Fours game played to its end while a seat, the host and the public follow it live,
// then its audit replayed and its rematch started.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { assertFollowedWhole, collect, playToEnd, until } from "./play.js";
import { serveDuringSuite, skipReason } from "./servers.js";

for (const store of ["memory", "redis"]) {
  describe(`a whole match on the ${store} store`, { skip: skipReason(store) ?? false }, () => {
    let referee;
    serveDuringSuite(store, (client) => { referee = client; });

    test("All Fours to 14 points (AF-S6), followed live by a seat, the host and the public", async () => {
      const match = await referee.createMatch("all-fours", ["ana", "ben"], { dealer: "ana", seed: 42 });
      const readers = {
        ben: collect(referee, match.id, { token: match.seats.ben }),
        host: collect(referee, match.id, { token: match.host_token }),
        public: collect(referee, match.id, { transport: "poll" }),
      };
      for (const [who, reader] of Object.entries(readers)) {
        await until(() => reader.messages.some((m) => m.event === "view"), `${who}'s first view`);
      }
      assert.equal(await playToEnd(referee, match), 69);
      const final = await referee.match(match.id);
      assert.deepEqual([final.version, final.over, final.to_move], [70, true, []]);
      assert.deepEqual([final.view.winner, final.view.score], ["ben", { ana: 6, ben: 14 }]);
      await Promise.all(Object.values(readers).map((r) => r.done));
      await assertFollowedWhole(referee, match, match.seats.ben, readers.ben.messages, 70);
      await assertFollowedWhole(referee, match, match.host_token, readers.host.messages, 70);
      await assertFollowedWhole(referee, match, null, readers.public.messages, 70);
      // ben's stream shows ben's hand, never ana's: his views carry his own hand only
      const benViews = readers.ben.messages.filter((m) => m.event === "view");
      assert.ok(benViews.every((m) => m.data.view.hand !== undefined && m.data.view.hands === undefined));

      const audit = await referee.audit(match.id);
      const { players, ...fields } = audit.setup;
      let state = await referee.setup("all-fours", players, fields);
      for (const action of audit.actions) state = (await referee.apply("all-fours", state, action)).state;
      assert.deepEqual(state, audit.final_state);
      assert.equal(audit.actions.length, 69);

      const rematch = await referee.rematch(match.id, match.host_token, { dealer: "ben" });
      assert.equal(rematch.rematch_of, match.id);
      assert.deepEqual((await referee.matchLegalActions(rematch.id, match.seats.ana)).to_move, ["ana"]);
      assert.equal((await referee.rematch(match.id, match.host_token, { dealer: "ben" })).id, rematch.id);
      const again = await referee.match(match.id);
      assert.equal(again.rematch, rematch.id);
    });

    test("a follower that joins late from `after` gets only the later events, each once", async () => {
      const match = await referee.createMatch("all-fours", ["ana", "ben"], { dealer: "ana", seed: 42, options: { target: 1 } });
      await playToEnd(referee, match);
      const { done } = collect(referee, match.id, { token: match.seats.ana, after: 3 });
      const messages = await done;
      const seqs = messages.filter((m) => m.event === "event").map((m) => m.id);
      const all = (await referee.events(match.id, { token: match.seats.ana })).events.map((e) => e.seq);
      assert.deepEqual(seqs, all.filter((s) => s > 3));
      assert.equal(messages.at(-1).data.reason, "over");
    });
  });
}
