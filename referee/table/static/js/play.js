// A match as one reader (a seat or the host) plays it: the live state from the stream, the
// legal actions, sending a move and showing the verdict. Shared by the seat and host screens.
import * as api from "./api.js";
import {card, cardButton} from "./cards.js";
import {h} from "./dom.js";
import {actionName, language, t} from "./strings.js";

const CARD_FIELDS = new Set(["card", "cards", "kick", "kicks", "character", "characters"]);
const PLAIN = new Set(["type", "player"]);

/** The per-game part of a match answer: the envelope's `game` object, or the older `view`. */
export const gamePart = (m) => (m && m.game && typeof m.game === "object" ? m.game : m && m.view) || {};
export const awaiting = (m) => (m && (m.awaiting ?? gamePart(m).awaiting)) || "";
export const isOver = (m) => Boolean(m && (m.outcome || m.over));

/** Follow match id as token's reader; onChange() after every change of the returned state. */
export function createPlay({id, token, game, onChange, announce}) {
  // legal: the reader's legal actions, grouped (api.legalActions)
  const s = {id, token, game, match: null, legal: [], verdict: null, notice: null,
    live: "connecting", events: [], busy: false};
  // lang: the language of every server sentence held (awaiting, verdict, notice); an answer
  // asked for in another language (before a switch) is dropped when it arrives.
  let legalAt = null, stream = null, lang = language();
  let legalRetry = null, legalWait = 1000, stopped = false;

  async function loadLegal() {
    const at = s.match && s.match.version;
    if (legalAt === at) return;
    legalAt = at;
    clearTimeout(legalRetry);
    try {
      s.legal = isOver(s.match) ? [] : (await api.legalActions(id, token)).groups;
      legalWait = 1000;
    } catch (problem) {
      // a refused or lost read (429, 503, offline) must not leave the reader without its
      // moves until the match next changes (on its own turn it never would): read them
      // again, waiting twice as long each time, at most 8 s
      s.legal = []; legalAt = null;
      legalRetry = setTimeout(() => { if (!stopped) loadLegal().then(onChange); }, legalWait);
      legalWait = Math.min(legalWait * 2, 8000);
    }
  }

  function merge(answer) {
    const before = s.match && s.match.version;
    s.match = Object.assign(s.match || {}, answer);
    if (s.match.version !== before && before !== undefined && before !== null) announce(awaiting(s.match));
  }

  s.refresh = async () => {
    const asked = lang;
    const answer = await api.readMatch(id, token);
    if (asked !== lang) return;  // read before a language switch: its sentences are stale
    merge(answer);
    await loadLegal();
    onChange();
  };

  /** Follow the stream (in the page's language) after the events already held. */
  function follow() {
    const asked = lang;
    const mine = (f) => (...args) => (asked === lang ? f(...args) : undefined);
    stream = api.follow(id, token, {
      after: s.events.length ? s.events[s.events.length - 1].seq ?? 0 : 0,
      onEvent: mine((event) => {
        s.events.push(event);
        // a seat invited, claimed or re-issued changes what the match read says about seats
        // (open_seats), which the stream's view does not carry: read the match again
        if (/^seat_/.test(event.type || "")) s.refresh().catch(() => {});
      }),
      onView: mine(async (view) => { merge(view); await loadLegal(); onChange(); }),
      onStatus: mine((status) => { s.live = status; onChange(); }),
    });
  }

  s.start = async () => {
    await s.refresh();
    follow();
  };
  s.stop = () => { stopped = true; clearTimeout(legalRetry); if (stream) stream.close(); };

  /** The page's language changed: every server sentence held is in the old one, so drop the
   *  notice and verdict, read the match again and follow the stream anew in the new one. */
  s.relang = async () => {
    if (lang === language()) return;
    lang = language();
    if (stream) stream.close();  // not s.stop(): the play goes on in the new language
    s.notice = null; s.verdict = null; legalAt = null;
    onChange();
    await s.refresh().catch(() => {});
    follow();
  };

  /** Send action at the version shown; show the verdict of a refusal, refresh a stale one. */
  s.send = async (action) => {
    if (s.busy) return;
    s.busy = true; s.notice = null; onChange();
    try {
      merge(await api.act(id, token, action, s.match.version));
      s.verdict = null;
      await loadLegal();
    } catch (problem) {
      await refused(problem, action);
    }
    s.busy = false;
    onChange();
  };

  async function refused(problem, action) {
    if (problem.status === 409) {
      s.notice = t(problem.type === "rollback-pending" ? "table.notice.rollback_pending"
        : "table.notice.stale");
      s.verdict = null;
      await s.refresh().catch(() => {});
    } else if (problem.violations.length) {
      s.verdict = {action, violations: problem.violations, texts: await ruleTexts(game)};
    } else {
      s.notice = problem.problem.detail || problem.message;
    }
    announce(s.notice || (s.verdict && s.verdict.violations[0].message) || "");
  }

  /** Run a host or seat call (rollback steps, rematch), showing its problem if refused. */
  s.run = async (call) => {
    s.busy = true; s.notice = null; onChange();
    try { const answer = await call(); if (answer && answer.version) merge(answer); await loadLegal(); }
    catch (problem) { s.notice = problem.problem.detail || problem.message; announce(s.notice); }
    s.busy = false; onChange();
  };
  return s;
}

const ruleBooks = {};
/** The rules of game in the page's language, by ID ({title, text}); fetched once each. */
export async function ruleTexts(game) {
  const key = `${game}:${language()}`;
  if (!ruleBooks[key]) {
    const book = await api.rules(game).catch(() => ({rules: []}));
    ruleBooks[key] = Object.fromEntries(book.rules.map((r) => [r.id, r]));
  }
  return ruleBooks[key];
}

/** One field's value as the page shows it: cards drawn, a position as row and column. */
export function fieldValue(game, name, value) {
  if (CARD_FIELDS.has(name)) return [value].flat().map((c) => card(game, c));
  if (name === "position" && Array.isArray(value)) {
    return t("table.field.position", {row: value[0] + 1, column: value[1] + 1});
  }
  if (name === "pile") return t("table.field.pile", {n: Number(value) + 1});
  if (name === "source") return t(`table.field.source.${value}`);
  if (name === "steps") return t("table.field.steps", {n: value});
  if (typeof value === "boolean") return t(value ? "table.yes" : "table.no");
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function label(game, action) {
  const parts = Object.entries(action).filter(([name]) => !PLAIN.has(name))
    .map(([name, value]) => [" · ", fieldValue(game, name, value)]);
  return [actionName(game, action.type), ...parts];
}

const json = (value) => JSON.stringify(value);

/** The actions a group stands for: every combination of its choices (one value per field, in
 *  the order of `choices`) but those it lists as illegal, as the service defines them. */
export function expand(group) {
  const fields = Object.keys(group.choices);
  const illegal = new Set(group.illegal.map((c) => json(fields.map((f) => c[f]))));
  let combos = [[]];
  for (const f of fields) combos = combos.flatMap((combo) => group.choices[f].map((v) => [...combo, v]));
  return combos.filter((combo) => !illegal.has(json(combo))).map((combo) =>
    ({type: group.type, player: group.player, ...Object.fromEntries(fields.map((f, i) => [f, combo[i]]))}));
}

/** Buttons for the service's grouped legal actions (`?form=grouped`), one group each: a card
 *  choice (one card field, every value legal) is a row of cards, another group a button per
 *  action it stands for. send(action) on a tap. */
export function actionsPanel(game, groups, send, {busy = false, showPlayer = false} = {}) {
  return h("section", {class: "actions-panel", "aria-label": t("table.actions")},
    h("h2", {}, t("table.actions")),
    groups.length ? null : h("p", {class: "muted"}, t("table.nothing_to_do")),
    ...groups.map((group, g) => {
      const fields = Object.keys(group.choices);
      const picker = fields.length === 1 && CARD_FIELDS.has(fields[0]) && !group.illegal.length
        && group.choices[fields[0]].every((value) => typeof value === "string");
      const title = `${showPlayer ? group.player + " · " : ""}${actionName(game, group.type)}`;
      const pick = (value) => send({type: group.type, player: group.player, [fields[0]]: value});
      return h("div", {class: picker ? "actions picker" : "actions", role: "group", "aria-label": title},
        showPlayer || picker ? h("strong", {}, title) : null,
        ...(picker
          ? group.choices[fields[0]].map((value, i) => cardButton(game, value, pick,
            {disabled: busy, key: `act-${g}-${i}`}))
          : expand(group).map((action, i) => h("button", {type: "button", disabled: busy,
            "data-key": `act-${g}-${i}`, onclick: () => send(action)}, ...label(game, action)))));
    }));
}

/** A refused move: each rule broken, its sentence, and the rule's own text. */
export function verdictBlock(verdict) {
  return h("div", {class: "problem verdict", role: "alert"},
    h("p", {}, h("strong", {}, t("table.refused"))),
    ...verdict.violations.map((v) => {
      const rule = verdict.texts[v.rule] || {};
      return h("div", {class: "violation"},
        h("p", {}, h("strong", {class: "rule-id"}, v.rule), " · ", v.title || rule.title || ""),
        h("p", {class: "sentence"}, v.message),
        rule.text ? h("details", {open: true}, h("summary", {}, t("table.rule_text")),
          h("p", {class: "rule-text"}, rule.text)) : null);
    }));
}

/** The live line: connected, reconnecting (visible), or ended. */
export function liveLine(status) {
  const cls = status === "live" ? "live live-ok" : `live ${status}`;
  return h("p", {class: cls, role: "status"}, t(`table.live.${status}`));
}

/** One event of the log as a line: version, what happened, who, its cards. */
export function eventLine(game, event) {
  const parts = Object.entries(event).filter(([name]) => CARD_FIELDS.has(name))
    .map(([name, value]) => [" ", fieldValue(game, name, value)]);
  return [t("table.version_n", {n: event.version}), " · ", actionName(game, event.type),
    event.player ? ` · ${event.player}` : "", ...parts];
}

/** The pending rollback: what it undoes (and brings back, undoing an earlier one) and why; a
 *  seat votes, the host may withdraw. */
export function rollbackBox(game, rollback, {vote, withdraw, busy}) {
  if (!rollback) return null;
  return h("section", {class: "notice", "aria-live": "polite", "aria-label": t("table.rollback.title")},
    h("h2", {}, t("table.rollback.title")),
    h("p", {}, t("table.rollback.to", {n: rollback.to_version})),
    h("p", {}, t("table.rollback.reason"), " ", h("q", {}, rollback.reason)),
    rollback.undone && rollback.undone.length ? h("ul", {},
      ...rollback.undone.map((u) => h("li", {}, eventLine(game, u)))) : null,
    rollback.redone && rollback.redone.length ? h("p", {}, t("table.rollback.redone")) : null,
    rollback.redone && rollback.redone.length ? h("ul", {},
      ...rollback.redone.map((u) => h("li", {}, eventLine(game, u)))) : null,
    h("p", {class: "muted"}, t(`table.rollback.approval.${rollback.approval}`), " ",
      t("table.rollback.votes", {yes: (rollback.approved_by || []).join(", ") || "—",
        no: (rollback.rejected_by || []).join(", ") || "—"})),
    vote ? h("div", {class: "buttons"},
      h("button", {type: "button", class: "primary", disabled: busy, "data-key": "vote-yes",
        onclick: () => vote(true)}, t("table.rollback.approve")),
      h("button", {type: "button", disabled: busy, "data-key": "vote-no",
        onclick: () => vote(false)}, t("table.rollback.refuse"))) : null,
    withdraw ? h("button", {type: "button", disabled: busy, "data-key": "withdraw",
      onclick: withdraw}, t("table.rollback.withdraw")) : null);
}

/** The end: who won and why, the audit to check the deal, and (host) a rematch. */
export function endBox(m, {rematch, busy}) {
  if (!isOver(m)) return null;
  const part = gamePart(m);
  const winners = m.outcome ? m.outcome.winners : [part.winner ?? part.winners ?? []].flat();
  const reason = m.outcome && m.outcome.reason ? m.outcome.reason.message : null;
  return h("section", {class: "end", "aria-label": t("table.end.title")},
    h("h2", {}, t("table.end.title")),
    h("p", {class: "winner"}, t("table.end.winners", {names: winners.join(", ") || "—"})),
    reason ? h("p", {}, reason) : null,
    h("p", {}, h("a", {href: api.auditUrl(m.id), target: "_blank", rel: "noopener"},
      t("table.end.audit"))),
    rematch ? h("button", {type: "button", class: "primary", disabled: busy, "data-key": "rematch",
      onclick: rematch}, t("table.end.rematch")) : null);
}
