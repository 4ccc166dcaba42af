// RefereeClient: every call of the referee API, with its retry rules.

import { follow } from "./follow.js";
import { newKey } from "./keys.js";
import { Transport } from "./transport.js";

const path = (...parts) => parts.map((p, i) => (i % 2 ? encodeURIComponent(p) : p)).join("");

/**
 * Client of one referee service.
 *
 * Every method resolves to the decoded JSON answer. An error answer throws RefereeError
 * (status, type, detail, violations, errors, problem); no answer at all, after the retries,
 * throws RefereeConnectionError.
 *
 * Retries: calls that change nothing (reads, the stateless endpoints, stream tickets) are sent
 * again after a lost connection, a timeout or a 503 (after its Retry-After, at most 10 s);
 * act() and the rollback steps are sent again with the same Idempotency-Key and If-Match, so
 * the server applies them once and answers a retry with the first answer; so are the claims
 * (claimSeat(), claim()) with their Idempotency-Key (the same token again). createMatch() is
 * retried only with an idempotencyKey. The host's seat calls (inviteSeat(),
 * reissueSeatToken(), recoverHost()) are retried as they are: each makes a new code or token
 * and only the last one works, which is the one answered. A 409 version-conflict is never
 * retried: read the match and choose again.
 */
export class RefereeClient {
  /**
   * @param {string} [baseUrl] e.g. "http://127.0.0.1:8000"; "" for the page's own origin
   * @param {{timeout?: number, retries?: number, language?: string | null,
   *          fetch?: typeof fetch}} [options] timeout: ms per request (10000); retries: how
   *   many times a call is sent again (2); language: the Accept-Language of every request
   *   ("en", "my"); fetch: the fetch to use (the global one)
   */
  constructor(baseUrl = "", { timeout = 10000, retries = 2, language = null, fetch: fetcher } = {}) {
    const fetchFn = fetcher ?? globalThis.fetch;
    if (typeof fetchFn !== "function") throw new TypeError("RefereeClient needs fetch (Node 18+, browsers, React Native)");
    /** How a retry after a 503, or a reconnection, waits (tests replace it). */
    this.sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    this.transport = new Transport({
      baseUrl: baseUrl.replace(/\/+$/, ""),
      fetch: (...args) => fetchFn(...args), // a bare global fetch must not be called as a method
      timeout, retries, language, sleep: (ms) => this.sleep(ms),
    });
  }

  /** @private */
  call(method, url, options) {
    return this.transport.call(method, url, options);
  }

  // -- games ----------------------------------------------------------------------------

  /** Every registered game: name, title, player counts, modes, options, action types. */
  games() { return this.call("GET", "/v1/games"); }

  /** One game's description (404 unknown-game). */
  game(game) { return this.call("GET", path("/v1/games/", game)); }

  /** The game's rulebook, in the client's language: {game, title, language, rules}. */
  rules(game) { return this.call("GET", path("/v1/games/", game, "/rules")); }

  /** One rule by its ID ("AF-B1"): {id, title, text, …}. */
  rule(game, ruleId) { return this.call("GET", path("/v1/games/", game, "/rules/", ruleId)); }

  // -- stateless refereeing -------------------------------------------------------------

  /** Start a game: resolves to the first snapshot (the `state`). */
  async setup(game, players, fields = {}) {
    return (await this.call("POST", path("/v1/games/", game, "/setup"), { json: { players, ...fields } })).state;
  }

  /**
   * {actions, to_move}: every legal action in `state` (of `player` if given). `form:
   * "grouped"` adds `groups`: one entry per action type with each field's `choices` and the
   * `illegal` combinations (README "Legal actions for pickers"); another form is a 422
   * RefereeError naming `query.form`.
   */
  legalActions(game, state, { player, form } = {}) {
    return this.call("POST", path("/v1/games/", game, "/legal-actions"), {
      json: player === undefined ? { state } : { state, player }, query: { form },
    });
  }

  /** {legal, violations} for `action` in `state`, without applying it. */
  validate(game, state, action) {
    return this.call("POST", path("/v1/games/", game, "/validate"), { json: { state, action } });
  }

  /** {state, events, score, over} after `action`; illegal: RefereeError 422 illegal-action. */
  apply(game, state, action) {
    return this.call("POST", path("/v1/games/", game, "/apply"), { json: { state, action } });
  }

  /** {state}: `state` with its hidden orders dealt afresh from `seed` (an audit's reshuffle step). */
  reshuffle(game, state, seed) {
    return this.call("POST", path("/v1/games/", game, "/reshuffle"), { json: { state, seed } });
  }

  /** Score an All Fours hand from its trick sheet (422 inconsistent-sheet). */
  scoreTrickSheet(sheet, options) {
    return this.call("POST", "/v1/games/all-fours/score", { json: withOptions({ sheet }, options) });
  }

  /** Score a finished Gnoming round: scores and breakdown per player. */
  scoreGnomingRound(round, options) {
    return this.call("POST", "/v1/games/gnoming/score-round", { json: withOptions({ round }, options) });
  }

  /** Score a whole Gnoming game: round_scores, totals, winners. */
  scoreGnomingGame(rounds, options) {
    return this.call("POST", "/v1/games/gnoming/score-game", { json: withOptions({ rounds }, options) });
  }

  // -- matches: creating, joining, reading ----------------------------------------------

  /**
   * Create a match: {id, version, commitment, seats (player → token), open_seats, invites
   * (open seat → {code, expires_at, expires_in}), host_token, recovery_code, ttl, …}. Keep the
   * tokens and the recovery code: they are shown only here. `fields.open_seats` names the
   * seats created open (no token: an invite code each instead). Sent once unless
   * `idempotencyKey` (32-255 visible ASCII characters: newIdempotencyKey() makes one) is given;
   * with one it carries Idempotency-Key and is retried, and the server answers a retry within
   * 10 minutes with the first 201 (the same match and tokens), so an app that stores the key
   * before sending loses nothing if the answer is lost. 422 idempotency-key-reused: the key
   * was used with another body.
   */
  createMatch(game, players, fields = {}, { idempotencyKey } = {}) {
    return this.call("POST", "/v1/matches", {
      json: { game, players, ...fields },
      headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {},
      retry: Boolean(idempotencyKey),
    });
  }

  /**
   * The host makes a new invite code for `player`'s seat (`POST …/seats/{player}/invite`):
   * 201 {id, player, code, expires_at, expires_in, version}. The seat's unused older code
   * stops working; for an open seat, or a taken one whose phone lost its token (claiming then
   * replaces that token). Retried: only the last code made works, and it is the one answered.
   * 403 not the host token; 404 no such seat.
   */
  inviteSeat(matchId, hostToken, player) {
    return this.call("POST", path("/v1/matches/", matchId, "/seats/", player, "/invite"), { token: hostToken });
  }

  /**
   * Trade `player`'s invite code for the seat's token (`POST …/seats/{player}/claim`, no token:
   * the code is the credential): {id, player, token, version, ttl}. Sent with an
   * Idempotency-Key (fresh unless given) and retried with it: the server answers a retry with
   * the same token. 403 invite-invalid, 409 invite-used, 410 invite-expired, 404 no such seat.
   */
  claimSeat(matchId, player, code, { idempotencyKey } = {}) {
    return this.call("POST", path("/v1/matches/", matchId, "/seats/", player, "/claim"), {
      json: { code }, headers: { "Idempotency-Key": idempotencyKey ?? newKey() },
    });
  }

  /**
   * claimSeat() for whichever seat `code` invites to (`POST /v1/matches/{id}/claim`): for a
   * link that carries only the match and the code. The answer's `player` names the seat.
   */
  claim(matchId, code, { idempotencyKey } = {}) {
    return this.call("POST", path("/v1/matches/", matchId, "/claim"), {
      json: { code }, headers: { "Idempotency-Key": idempotencyKey ?? newKey() },
    });
  }

  /**
   * The host re-issues `player`'s seat token (`POST …/seats/{player}/token`): {id, player,
   * token, version, ttl}. The old token stops working at once (401; its streams end with
   * reason "revoked"); the game state does not change. Retried: only the last token made
   * works, and it is the one answered. 403 not the host token; 404 no such seat.
   */
  reissueSeatToken(matchId, hostToken, player) {
    return this.call("POST", path("/v1/matches/", matchId, "/seats/", player, "/token"), { token: hostToken });
  }

  /**
   * A new host token for the match's `recoveryCode` (from createMatch's answer; no token
   * needed), `POST …/host/token`: {id, host_token, version, ttl}. The old host token stops
   * working; the recovery code stays valid. Retried: the last token made is the one answered.
   * 403 another code; 422 not a recovery code at all.
   */
  recoverHost(matchId, recoveryCode) {
    return this.call("POST", path("/v1/matches/", matchId, "/host/token"), {
      json: { recovery_code: recoveryCode },
    });
  }

  /** The match as `token` reads it: a seat's view, the host's, or the public one (no token). */
  match(matchId, token = null, { signal } = {}) {
    return this.call("GET", path("/v1/matches/", matchId), { token, signal });
  }

  /** {version, actions, to_move}: the token's seat's legal actions now (form: see legalActions). */
  matchLegalActions(matchId, token, { form } = {}) {
    return this.call("GET", path("/v1/matches/", matchId, "/legal-actions"), { token, query: { form } });
  }

  /**
   * {version, events, next}: a page of the events with seq > `after` the reader may see (by
   * token, stream ticket or neither): at most `limit` (1-200, default 100) and under 64 KB;
   * `next` is the `after` of the next page, null at the end of the log. With `wait` (seconds,
   * 1-25) and none yet the server waits for one.
   */
  events(matchId, { token = null, ticket, after = 0, wait = 0, limit, signal } = {}) {
    return this.call("GET", path("/v1/matches/", matchId, "/events"), {
      token, signal, query: { after, wait: wait || undefined, limit, ticket },
      timeout: this.transport.timeout + wait * 1000,
    });
  }

  /** {ticket, expires_in}: a read-only ticket for `?ticket=` URLs (streams, long-polls). */
  streamTicket(matchId, token, { signal } = {}) {
    return this.call("POST", path("/v1/matches/", matchId, "/stream-tickets"), { token, signal });
  }

  /**
   * The match's live messages, as an async iterator of {event, id, data}: "event" messages
   * (id: the event's seq), "view" messages and a last "end" (reason "over", "gone", or
   * "revoked": the token was re-issued). Each connection trades the token for a stream ticket, so the token never goes in a URL, and
   * reads the SSE text from fetch's body (no EventSource needed); a lost connection (or a
   * server restarting) reconnects after 0.25, 0.5, 1, 2, 4, 4… s from the last event seen
   * (`?after=`), and the server's "end" with reason "reconnect" at once (`onStatus` is told
   * "reconnecting", then "live" when messages flow again). Each event is yielded
   * once, in seq order, and each version's view once. Where fetch cannot stream a body (React
   * Native) it long-polls the events instead (`transport: "poll"` forces that).
   * @param {string} matchId
   * @param {import("./follow.js").FollowOptions} [options]
   */
  follow(matchId, options = {}) {
    return follow(this, matchId, options);
  }

  // -- matches: playing ------------------------------------------------------------------

  /**
   * Apply `action` as `token`'s seat: {version, events, view, to_move, over, …}. Without
   * `expectedVersion` the match's version is read first; sent with If-Match and an
   * Idempotency-Key (fresh unless given) and retried with both, so it is applied once.
   * 409 version-conflict (error.currentVersion), 422 illegal-action (error.violations).
   */
  async act(matchId, token, action, { expectedVersion, idempotencyKey } = {}) {
    const version = expectedVersion ?? (await this.match(matchId, token)).version;
    return this.call("POST", path("/v1/matches/", matchId, "/actions"), {
      token, json: { action },
      headers: { "If-Match": `"${version}"`, "Idempotency-Key": idempotencyKey ?? newKey() },
    });
  }

  /**
   * The host takes the match back to `toVersion`: applied at once in table mode, proposed to
   * the seats in digital mode (approval "all" or "majority"); If-Match and Idempotency-Key as
   * act(). {status: "applied" | "pending", rollback, version, events, view, …}.
   */
  async proposeRollback(matchId, hostToken, toVersion, reason,
    { approval = "all", expectedVersion, idempotencyKey } = {}) {
    const version = expectedVersion ?? (await this.match(matchId, hostToken)).version;
    return this.call("POST", path("/v1/matches/", matchId, "/rollback"), {
      token: hostToken, json: { to_version: toVersion, reason, approval },
      headers: { "If-Match": `"${version}"`, "Idempotency-Key": idempotencyKey ?? newKey() },
    });
  }

  /** A seat approves (or rejects) rollback `proposal`; counted once (Idempotency-Key). */
  voteRollback(matchId, token, proposal, approve = true, { idempotencyKey } = {}) {
    return this.call("POST", path("/v1/matches/", matchId, "/rollback/votes"), {
      token, json: { proposal, approve }, headers: { "Idempotency-Key": idempotencyKey ?? newKey() },
    });
  }

  /** The host withdraws the pending rollback (status "withdrawn"). */
  withdrawRollback(matchId, hostToken, { idempotencyKey } = {}) {
    return this.call("DELETE", path("/v1/matches/", matchId, "/rollback"), {
      token: hostToken, headers: { "Idempotency-Key": idempotencyKey ?? newKey() },
    });
  }

  /**
   * Start (or find again) the rematch of a finished match: {id, rematch_of, …}; the same
   * tokens act in it. `body` enters the new deal's facts (All Fours kick/dealer, deal, Spy bases).
   */
  rematch(matchId, hostToken, body) {
    return this.call("POST", path("/v1/matches/", matchId, "/rematch"), { token: hostToken, json: body });
  }

  /** Once the match is over: seed, setup, every action, final_state (403 forbidden before). */
  audit(matchId) { return this.call("GET", path("/v1/matches/", matchId, "/audit")); }

  /** Delete the match and everything kept of it (host token). */
  async deleteMatch(matchId, hostToken) {
    await this.call("DELETE", path("/v1/matches/", matchId), { token: hostToken });
  }
}

function withOptions(body, options) {
  return options === undefined ? body : { ...body, options };
}
