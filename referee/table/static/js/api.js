// The page's one door to the service: the JavaScript client (clients/js, served as a copy in
// ../client/, kept identical by tests/table/test_client_copy.py). Every other module calls
// these functions only. An error answer throws the client's RefereeError (status, type,
// problem body, violations); no answer after the client's retries throws one with status 0.
// Nothing here knows a rule: the page shows what the service answers.
import {RefereeClient, RefereeError} from "../client/index.js";
import {newKey} from "../client/keys.js";

const BASE = new URL("../", document.baseURI).href;  // the service's root (the page is /table/)
let client = new RefereeClient(BASE, {language: "en"});

/** Answer in lang (Accept-Language of every call). */
export function setLanguage(lang) { client = new RefereeClient(BASE, {language: lang}); }

/** Run call(client); a lost service becomes a problem the page can show (status 0). */
async function send(call) {
  try {
    return await call(client);
  } catch (error) {
    if (error instanceof RefereeError) throw error;
    throw new RefereeError(0, {title: "offline", detail: String(error && error.message || error)});
  }
}

export const games = () => send((c) => c.games());
export const rules = (game) => send((c) => c.rules(game));
/** A stateless setup (the first snapshot): the page reads facts the service decides from it. */
export const setup = (game, players, fields) => send((c) => c.setup(game, players, fields));
export const scoreSheet = (sheet) => send((c) => c.scoreTrickSheet(sheet));
/** Create a match (retried with one Idempotency-Key: a lost answer creates nothing twice). */
export const createMatch = ({game, players, ...fields}) =>
  send((c) => c.createMatch(game, players, fields, {idempotencyKey: newKey()}));
export const readMatch = (id, token) => send((c) => c.match(id, token));
/** The reader's legal actions grouped for pickers (`?form=grouped`): {actions, groups,
 *  to_move}, each group {type, player, choices: {field: [values]}, illegal: [combinations]}. */
export const legalActions = (id, token) =>
  send((c) => c.matchLegalActions(id, token, {form: "grouped"}));
/** Send action at version (If-Match), once: a lost answer or a 503 is retried with the same
 *  Idempotency-Key, so the move is applied at most once. */
export const act = (id, token, action, version) =>
  send((c) => c.act(id, token, action, {expectedVersion: version}));
export const proposeRollback = (id, token, toVersion, reason, version) =>
  send((c) => c.proposeRollback(id, token, toVersion, reason, {expectedVersion: version}));
export const voteRollback = (id, token, proposal, approve) =>
  send((c) => c.voteRollback(id, token, proposal, approve));
export const withdrawRollback = (id, token) => send((c) => c.withdrawRollback(id, token));
export const rematch = (id, token) => send((c) => c.rematch(id, token));
/** Trade an invite code for its seat: {player, token} (the link carries the match and code). */
export const claim = (id, code) => send((c) => c.claim(id, code));
/** The host gives a seat a new token (the old one stops working): {player, token}. */
export const reissueSeat = (id, hostToken, player) =>
  send((c) => c.reissueSeatToken(id, hostToken, player));
export const auditUrl = (id) => new URL(`v1/matches/${encodeURIComponent(id)}/audit`, BASE).href;

/** Follow a match's stream as token's reader (the client's follow(): a ticket per connection,
 *  resumed after the last event, each event once): onEvent(event), onView(view) after each
 *  change, onStatus("live" | "reconnecting" | "ended"). Returns {close()}. */
export function follow(id, token, {onEvent, onView, onStatus, after = 0}) {
  const stop = new AbortController();
  const status = (s) => onStatus && onStatus(s);
  (async () => {
    try {
      for await (const m of client.follow(id, {token, after, reconnects: 1000, signal: stop.signal,
        onStatus: status})) {
        if (m.event === "event") onEvent && onEvent(m.data);
        else if (m.event === "view") onView && await onView(m.data);
      }
    } catch (error) { /* refused (401 revoked, 404 gone) or given up: the stream has ended */ }
    if (!stop.signal.aborted) status("ended");
  })();
  return {close() { stop.abort(); }};
}
