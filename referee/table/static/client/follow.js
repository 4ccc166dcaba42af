// follow(): a match's live messages as an async iterator, over the stream (SSE read from
// fetch's body) or, where fetch cannot stream a body (React Native), over long-polls.

import { RefereeConnectionError, RefereeError, problemOf } from "./errors.js";
import { parseSSE, textOf } from "./sse.js";

/** Milliseconds waited before the 1st, 2nd, … reconnection in a row (then the last again). */
export const RECONNECT_DELAYS = [250, 500, 1000, 2000, 4000];

/**
 * @typedef {{event: "event" | "view" | "end", id: number | null, data: any}} Message
 * @typedef {object} FollowOptions
 * @property {string | null} [token] a seat's or the host's token (traded for a stream
 *   ticket before each connection); none: the public stream
 * @property {number} [after] yield the events after this seq (0: all)
 * @property {number} [reconnects] how many lost connections in a row before giving up (8)
 * @property {"auto" | "stream" | "poll"} [transport] "auto": the stream where fetch gives a
 *   readable body, else long-polls
 * @property {number} [idleTimeout] ms without a byte before the stream counts as lost (45000;
 *   the server beats every 15 s)
 * @property {AbortSignal} [signal] aborting it ends the iteration (no error)
 * @property {(status: "live" | "reconnecting") => void} [onStatus] told "live" when a
 *   connection delivers its first message (at the start and after each reconnection) and
 *   "reconnecting" when a connection is lost or the server asks for a new one — so a page can
 *   show that it is catching up (the messages missed meanwhile come after "live")
 */

/**
 * The messages of `matchId`'s stream (see RefereeClient.follow).
 * @param {import("./client.js").RefereeClient} client
 * @param {string} matchId
 * @param {FollowOptions} [options]
 * @returns {AsyncGenerator<Message>}
 */
export async function* follow(client, matchId, { token = null, after = 0, reconnects = 8,
  transport = "auto", idleTimeout = 45000, signal, onStatus } = {}) {
  const seen = { last: after, shown: null };
  let failures = 0;
  let poll = transport === "poll";
  let status = null;
  const tell = (now) => {
    if (now !== status && onStatus) onStatus(now);
    status = now;
  };
  while (!signal?.aborted) {
    let lost = true; // unless the server asks us to reconnect (end, reason "reconnect")
    try {
      const messages = poll ? polled(client, matchId, token, seen, signal)
        : streamed(client, matchId, token, seen.last, idleTimeout, signal);
      for await (const message of messages) {
        if (message === NO_STREAM) { // fetch gave no readable body: long-poll instead
          poll = true;
          lost = false;
          break;
        }
        failures = 0;
        const { event, data } = message;
        if (event === "end" && data.reason === "reconnect") {
          lost = false;
          tell("reconnecting");
          break;
        }
        tell("live");
        if (event === "event") {
          if (message.id === null || message.id <= seen.last) continue;
          seen.last = message.id;
        } else if (event === "view") {
          if (data.version === seen.shown) continue;
          seen.shown = data.version;
        }
        yield message;
        if (event === "end") return;
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (error instanceof RefereeError && error.status !== 503) throw error;
    }
    if (poll && transport === "stream") {
      throw new RefereeConnectionError("fetch cannot stream a response body here: use transport \"poll\"");
    }
    if (!lost || signal?.aborted) continue;
    tell("reconnecting");
    failures += 1;
    if (failures > reconnects) {
      throw new RefereeConnectionError(`the stream of ${matchId} was lost ${failures} times in a row`);
    }
    await client.sleep(RECONNECT_DELAYS[Math.min(failures, RECONNECT_DELAYS.length) - 1]);
  }
}

const NO_STREAM = Symbol("no readable body");

/** One connection to the stream, with a fresh ticket if there is a token. */
async function* streamed(client, matchId, token, after, idleTimeout, signal) {
  const transport = client.transport;
  const ticket = token ? (await client.streamTicket(matchId, token, { signal })).ticket : null;
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(abort, transport.timeout || idleTimeout);
  try {
    const response = await transport.fetch(
      transport.url(`/v1/matches/${encodeURIComponent(matchId)}/stream`, { after, ticket }),
      { headers: transport.headers({ Accept: "text/event-stream" }), signal: controller.signal });
    clearTimeout(timer);
    if (!response.ok) {
      const text = await response.text();
      throw new RefereeError(response.status, problemOf({ status: response.status, statusText: response.statusText, text }));
    }
    if (!response.body || typeof response.body.getReader !== "function") {
      yield NO_STREAM;
      return;
    }
    yield* parseSSE(textOf(response.body, { idleMs: idleTimeout, onIdle: abort, signal: controller.signal }));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
    controller.abort();
  }
}

/**
 * The same messages from long-polls: the events after `seen.last` (waiting up to 25 s for
 * some, then every further page the answer's `next` points to); when the version moved, the
 * match as the token reads it, then the events logged up to it, then that match as a `view` (its data is the whole match read: the stream's view
 * fields and more), then `end` once it is over.
 */
async function* polled(client, matchId, token, seen, signal) {
  let version = null;
  let last = seen.last;
  const events = async (wait) => { // every page up to the last event logged (next: null)
    const all = [];
    let got = await client.events(matchId, { token, after: last, wait, signal });
    for (;;) {
      all.push(...got.events);
      for (const event of got.events) last = Math.max(last, event.seq);
      if (got.next === null || got.next === undefined) return { ...got, events: all };
      got = await client.events(matchId, { token, after: last, signal });
    }
  };
  try {
    for (;;) {
      const got = await events(version === null ? 0 : 25);
      for (const event of got.events) yield { event: "event", id: event.seq, data: event };
      if (got.version === version) continue;
      const match = await client.match(matchId, token, { signal });
      for (const event of (await events(0)).events) yield { event: "event", id: event.seq, data: event };
      version = match.version;
      yield { event: "view", id: null, data: match };
      if (match.over) {
        yield { event: "end", id: null, data: { version: match.version, reason: "over" } };
        return;
      }
    }
  } catch (error) {
    if (error instanceof RefereeError && error.status === 404 && seen.shown !== null) {
      yield { event: "end", id: null, data: { version: seen.shown, reason: "gone" } };
      return;
    }
    throw error;
  }
}
