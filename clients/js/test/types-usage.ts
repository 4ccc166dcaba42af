// Compiled (never run) by `tsc --noEmit` in test/types.test.js: the hand-written index.d.ts
// agrees with the generated schema.d.ts and types the calls an app makes.
import { RefereeClient, RefereeError, newIdempotencyKey, type Schemas, type StreamMessage } from "../src/index.js";

async function app(referee: RefereeClient): Promise<number> {
  const created: Schemas["MatchCreated"] = await referee.createMatch("all-fours", ["ana", "ben"], { seed: 42 });
  const ben: string = created.seats["ben"];
  const open = await referee.createMatch("all-fours", ["ana", "ben"], { open_seats: ["ana"] },
    { idempotencyKey: newIdempotencyKey() });
  const code: string = open.invites["ana"].code;
  const claimed: Schemas["SeatToken"] = await referee.claim(open.id, code);
  const invite: Schemas["Invite"] = await referee.inviteSeat(open.id, open.host_token, claimed.player);
  const seat: string = (await referee.claimSeat(open.id, "ana", invite.code)).token;
  const reissued: string = (await referee.reissueSeatToken(open.id, open.host_token, "ana")).token;
  const host: string = (await referee.recoverHost(open.id, open.recovery_code)).host_token;
  if (seat === reissued || host === seat) return invite.expires_in;
  const state = await referee.setup("all-fours", ["ana", "ben"], { dealer: "ben", seed: 42 });
  const legal = await referee.legalActions("all-fours", state);
  const first = legal.actions[0];
  try {
    await referee.act(created.id, ben, { type: "stand", player: "ben" }, { expectedVersion: created.version });
  } catch (error) {
    if (error instanceof RefereeError) {
      const rules: string[] = error.violations.map((v) => v.rule);
      return rules.length + (error.currentVersion ?? 0);
    }
  }
  for await (const message of referee.follow(created.id, { token: ben })) {
    const m: StreamMessage = message;
    if (m.event === "event") return m.id + m.data.seq;
    if (m.event === "end") return m.data.reason === "over" ? 1 : 0;
  }
  return first ? 1 : 0;
}

export { app };
