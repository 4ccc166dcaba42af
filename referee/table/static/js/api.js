// The page's one door to the service. Every other module calls these functions only, so
// moving onto the JavaScript client (clients/js) changes this file alone.
// Answers are the decoded JSON; an error answer throws Problem (status, type, problem body,
// violations). Nothing here knows a rule: the page shows what the service answers.

const BASE = new URL("../v1/", document.baseURI);
let speak = "en";

export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = body || {};
    this.type = String(this.problem.type || "").replace(/^.*\/problems\//, "");
    this.violations = this.problem.violations || [];
  }
}

/** Answer in lang (Accept-Language of every call). */
export function setLanguage(lang) { speak = lang; }

function newKey() {
  return crypto.randomUUID ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16)).join("");
}

async function call(method, path, {token, body, version, key, retries = 0} = {}) {
  const headers = {"Accept-Language": speak};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (version !== undefined) headers["If-Match"] = `"${version}"`;
  if (key) headers["Idempotency-Key"] = key;
  for (let attempt = 0; ; attempt++) {
    let answer;
    try {
      answer = await fetch(new URL(path, BASE), {method, headers,
        body: body === undefined ? undefined : JSON.stringify(body)});
    } catch (lost) {  // no answer: safe to send again only with the same Idempotency-Key
      if (attempt < retries) { await pause(500 * (attempt + 1)); continue; }
      throw new Problem(0, {title: "offline", detail: String(lost)});
    }
    if (answer.status === 503 && attempt < retries) { await pause(1000); continue; }
    if (answer.status === 204) return null;
    const data = await answer.json().catch(() => null);
    if (!answer.ok) throw new Problem(answer.status, data);
    return data;
  }
}

const pause = (ms) => new Promise((done) => setTimeout(done, ms));
const match = (id, rest = "") => `matches/${encodeURIComponent(id)}${rest}`;

export const games = () => call("GET", "games");
export const rules = (game) => call("GET", `games/${encodeURIComponent(game)}/rules`);
export const scoreSheet = (sheet) => call("POST", "games/all-fours/score", {body: {sheet}});
export const createMatch = (body) => call("POST", "matches", {body, key: newKey(), retries: 2});
export const readMatch = (id, token) => call("GET", match(id), {token});
export const legalActions = (id, token) => call("GET", match(id, "/legal-actions"), {token});
export const events = (id, token, after = 0) =>
  call("GET", match(id, `/events?after=${after}`), {token});
/** Send action at version (If-Match), once: a lost answer or a 503 is retried with the same
 *  Idempotency-Key, so the move is applied at most once. */
export const act = (id, token, action, version) =>
  call("POST", match(id, "/actions"), {token, body: {action}, version, key: newKey(), retries: 2});
export const proposeRollback = (id, token, toVersion, reason, version) =>
  call("POST", match(id, "/rollback"), {token, version, key: newKey(), retries: 2,
    body: {to_version: toVersion, reason}});
export const voteRollback = (id, token, proposal, approve) =>
  call("POST", match(id, "/rollback/votes"), {token, key: newKey(), retries: 2,
    body: {proposal, approve}});
export const withdrawRollback = (id, token) =>
  call("DELETE", match(id, "/rollback"), {token, key: newKey()});
export const rematch = (id, token) => call("POST", match(id, "/rematch"), {token, key: newKey()});
export const claimSeat = (id, player, code) =>
  call("POST", match(id, `/seats/${encodeURIComponent(player)}/claim`), {body: {code}});
export const auditUrl = (id) => new URL(match(id, "/audit"), BASE).href;

/** Follow a match's stream as token's reader: onEvent(event) once per event (by its seq),
 *  onView(view) after each change, onStatus("live" | "reconnecting" | "ended"). A stream
 *  ticket keeps the token out of the URL; a lost connection resumes after the last event.
 *  Returns {close()}. */
export function follow(id, token, {onEvent, onView, onStatus, after = 0}) {
  let last = after, source = null, closed = false, tries = 0;
  const status = (s) => onStatus && onStatus(s);
  const again = () => {
    if (closed) return;
    status("reconnecting");
    setTimeout(open, Math.min(500 * 2 ** tries++, 8000));
  };
  async function open() {
    if (closed) return;
    let ticket;
    try {
      ({ticket} = await call("POST", match(id, "/stream-tickets"), {token}));
    } catch (problem) {
      if (problem.status === 401 || problem.status === 404) { status("ended"); return; }
      again();
      return;
    }
    const url = new URL(match(id, `/stream?ticket=${encodeURIComponent(ticket)}&after=${last}`), BASE);
    source = new EventSource(url);
    source.onopen = () => { tries = 0; status("live"); };
    source.addEventListener("event", (message) => {
      const seq = Number(message.lastEventId);
      if (seq <= last) return;  // never twice
      last = seq;
      onEvent && onEvent(JSON.parse(message.data));
    });
    source.addEventListener("view", (message) => onView && onView(JSON.parse(message.data)));
    source.addEventListener("end", (message) => {
      source.close();
      const {reason} = JSON.parse(message.data);
      if (reason === "reconnect") again(); else { closed = true; status("ended"); }
    });
    source.onerror = () => {
      if (closed) return;
      if (source.readyState === EventSource.CLOSED) again();  // refused: a new ticket
      else status("reconnecting");  // the browser retries with Last-Event-ID itself
    };
  }
  open();
  return {close() { closed = true; if (source) source.close(); }};
}
