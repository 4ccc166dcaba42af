// Types of referee-client (hand-written; the API's shapes come from schema.d.ts, which
// openapi-typescript generates from openapi.yaml: `npm run generate`).

import type { components } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** Every schema of the OpenAPI document, by name (`Schemas["MatchView"]`). */
export type Schemas = components["schemas"];

/** What each registered game's stateless endpoints take and answer. */
export interface Games {
  "all-fours": {
    setup: Schemas["AllFoursSetup"]; state: Schemas["AllFoursState"]; action: Schemas["AllFoursAction"];
    legal: Schemas["AllFoursLegalActionsResponse"]; applied: Schemas["AllFoursApplyResponse"];
  };
  coup: {
    setup: Schemas["CoupSetup"]; state: Schemas["CoupState"]; action: Schemas["CoupAction"];
    legal: Schemas["CoupLegalActionsResponse"]; applied: Schemas["CoupApplyResponse"];
  };
  gnoming: {
    setup: Schemas["GnomingSetup"]; state: Schemas["GnomingState"]; action: Schemas["GnomingAction"];
    legal: Schemas["GnomingLegalActionsResponse"]; applied: Schemas["GnomingApplyResponse"];
  };
  spy: {
    setup: Schemas["SpySetup"]; state: Schemas["SpyState"]; action: Schemas["SpyAction"];
    legal: Schemas["SpyLegalActionsResponse"]; applied: Schemas["SpyApplyResponse"];
  };
}
export type GameName = keyof Games;
/** Any game's action (a match action is one of these). */
export type Action = Games[GameName]["action"];
/** One rule a refused action breaks. */
export type Violation = Schemas["Violation"];
/** One input error of a problem (`errors`). */
export type ProblemField = Schemas["ProblemField"];
/** The body of every error answer (RFC 9457). */
export type Problem = Schemas["Problem"];

/** The API answered with an error: the problem body, typed. */
export class RefereeError extends Error {
  constructor(status: number, problem: Problem | Record<string, unknown>);
  readonly name: "RefereeError";
  /** The HTTP status. */
  readonly status: number;
  /** The problem's slug: "illegal-action", "version-conflict", "not-found", … */
  readonly type: string;
  readonly title: string;
  /** The sentence for people, in the answer's language. */
  readonly detail: string;
  /** The rules an illegal action breaks (empty when none). */
  readonly violations: Violation[];
  /** The input errors, each naming its field (empty when none). */
  readonly errors: ProblemField[];
  /** 409 version-conflict: the match's version now; otherwise null. */
  readonly currentVersion: number | null;
  /** The whole problem body. */
  readonly problem: Problem & Record<string, unknown>;
}

/** No answer from the service once the retries were spent (or a stream lost too often). */
export class RefereeConnectionError extends Error {
  readonly name: "RefereeConnectionError";
  readonly cause: unknown;
}

/** One message of a match's live stream. */
export type StreamMessage =
  | { event: "event"; id: number; data: { seq: number; version: number; type: string; [key: string]: unknown } }
  | { event: "view"; id: null; data: { version: number; to_move: string[]; over: boolean; rollback: unknown; view: Record<string, unknown>; [key: string]: unknown } }
  | { event: "end"; id: null; data: { version: number | null; reason: "over" | "gone" | "revoked" } };

export interface FollowOptions {
  /** A seat's or the host's token (traded for a stream ticket per connection); none: public. */
  token?: string | null;
  /** Yield the events after this seq (default 0: every event). */
  after?: number;
  /** Lost connections in a row before giving up with RefereeConnectionError (default 8). */
  reconnects?: number;
  /** "auto" (default): the stream where fetch can read a body as it comes, else long-polls. */
  transport?: "auto" | "stream" | "poll";
  /** Milliseconds without a byte before the stream counts as lost (default 45000). */
  idleTimeout?: number;
  /** Aborting it ends the iteration (without an error). */
  signal?: AbortSignal;
  /** Told "live" when a connection delivers its first message, "reconnecting" when one is lost. */
  onStatus?: (status: "live" | "reconnecting") => void;
}

export interface ClientOptions {
  /** Milliseconds per request (default 10000). */
  timeout?: number;
  /** How many times a call is sent again after a lost connection, a timeout or a 503 (2). */
  retries?: number;
  /** The Accept-Language of every request: "en" (default) or "my". */
  language?: string | null;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

type Json = Record<string, unknown>;
type SetupFields<G extends GameName> = Omit<Games[G]["setup"], "players">;

export class RefereeClient {
  constructor(baseUrl?: string, options?: ClientOptions);
  /** How a retry after a 503, or a reconnection, waits (replaceable). */
  sleep: (ms: number) => Promise<void>;

  games(): Promise<Schemas["Game"][]>;
  game(game: string): Promise<Schemas["Game"]>;
  rules(game: string): Promise<Schemas["Rulebook"]>;
  rule(game: string, ruleId: string): Promise<Schemas["OneRule"]>;

  setup<G extends GameName>(game: G, players: string[], fields?: Partial<SetupFields<G>>): Promise<Games[G]["state"]>;
  legalActions<G extends GameName>(game: G, state: Games[G]["state"], options?: { player?: string; form?: "grouped" }): Promise<Games[G]["legal"]>;
  validate<G extends GameName>(game: G, state: Games[G]["state"], action: Games[G]["action"]): Promise<Schemas["ValidateResponse"]>;
  apply<G extends GameName>(game: G, state: Games[G]["state"], action: Games[G]["action"]): Promise<Games[G]["applied"]>;
  reshuffle<G extends GameName>(game: G, state: Games[G]["state"], seed: number | string): Promise<{ state: Games[G]["state"] }>;
  scoreTrickSheet(sheet: Schemas["AllFoursSheet"], options?: Json): Promise<Schemas["AllFoursScoreResponse"]>;
  scoreGnomingRound(round: Schemas["GnomingRoundSheet"], options?: Json): Promise<Schemas["GnomingScoreRoundResponse"]>;
  scoreGnomingGame(rounds: Schemas["GnomingRoundSheet"][], options?: Json): Promise<Schemas["GnomingScoreGameResponse"]>;

  createMatch(game: GameName, players: string[], fields?: Partial<Omit<Schemas["MatchCreate"], "game" | "players">>,
    options?: { idempotencyKey?: string }): Promise<Schemas["MatchCreated"]>;
  /** The host's new invite code for a seat (the seat's unused older code stops working). */
  inviteSeat(matchId: string, hostToken: string, player: string): Promise<Schemas["Invite"]>;
  /** Trade a seat's invite code for its token (Idempotency-Key: fresh unless given). */
  claimSeat(matchId: string, player: string, code: string, options?: { idempotencyKey?: string }): Promise<Schemas["SeatToken"]>;
  /** Trade an invite code for the token of whichever seat it invites to (`player` in the answer). */
  claim(matchId: string, code: string, options?: { idempotencyKey?: string }): Promise<Schemas["SeatToken"]>;
  /** The host re-issues a seat's token: the old one stops working at once. */
  reissueSeatToken(matchId: string, hostToken: string, player: string): Promise<Schemas["SeatToken"]>;
  /** A new host token for the match's recovery code: the old host token stops working. */
  recoverHost(matchId: string, recoveryCode: string): Promise<Schemas["HostToken"]>;
  match(matchId: string, token?: string | null, options?: { signal?: AbortSignal }): Promise<Schemas["MatchView"]>;
  matchLegalActions(matchId: string, token: string, options?: { form?: "grouped" }): Promise<Schemas["MatchLegalActions"]>;
  events(matchId: string, options?: { token?: string | null; ticket?: string; after?: number; wait?: number; limit?: number; signal?: AbortSignal }): Promise<Schemas["MatchEvents"]>;
  streamTicket(matchId: string, token: string, options?: { signal?: AbortSignal }): Promise<Schemas["StreamTicket"]>;
  follow(matchId: string, options?: FollowOptions): AsyncGenerator<StreamMessage, void, undefined>;

  act(matchId: string, token: string, action: Action,
    options?: { expectedVersion?: number; idempotencyKey?: string }): Promise<Schemas["MatchActed"]>;
  proposeRollback(matchId: string, hostToken: string, toVersion: number, reason: string,
    options?: { approval?: "all" | "majority"; expectedVersion?: number; idempotencyKey?: string }): Promise<Schemas["RollbackResult"]>;
  voteRollback(matchId: string, token: string, proposal: number, approve?: boolean,
    options?: { idempotencyKey?: string }): Promise<Schemas["RollbackResult"]>;
  withdrawRollback(matchId: string, hostToken: string, options?: { idempotencyKey?: string }): Promise<Schemas["RollbackResult"]>;
  rematch(matchId: string, hostToken: string, body?: Schemas["RematchRequest"]): Promise<Schemas["Rematch"]>;
  audit(matchId: string): Promise<Schemas["Audit"]>;
  deleteMatch(matchId: string, hostToken: string): Promise<void>;
}

/** A fresh random Idempotency-Key (a UUIDv4, 36 characters): store it before createMatch()
 * so a retry after the app restarts gets the same match. */
export function newIdempotencyKey(): string;
/** Milliseconds follow() waits before the 1st, 2nd, … reconnection in a row. */
export const RECONNECT_DELAYS: readonly number[];
/** The longest Retry-After (seconds) waited before retrying a 503. */
export const MAX_WAIT: number;
/** The messages of a text/event-stream given as text chunks. */
export function parseSSE(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<{ event: string; id: number | null; data: unknown }>;
