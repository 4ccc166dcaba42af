// The host: choose the game, mode, players and options (from GET /v1/games, each option with
// the rule it switches), create the match, hand each seat its link and QR code, and run the
// match from the referee view — at a physical table (table mode) the host's phone may enter
// every move alone. Rollbacks are proposed from the event log; the end offers a rematch.
import * as api from "./api.js";
import {board} from "./boards.js";
import {h, replace, svg} from "./dom.js";
import {actionsPanel, awaiting, createPlay, endBox, eventLine, gamePart, liveLine,
  rollbackBox, ruleTexts, verdictBlock} from "./play.js";
import {scoreBoard} from "./scores.js";
import {gameOf} from "./seat.js";
import {gameName, modeName, t, term} from "./strings.js";
import qrcode from "../vendor/qrcode-generator/qrcode.mjs";

/** How often the host's screen reads the seats' connections again (milliseconds). */
export const CONNECTIONS_EVERY_MS = 4000;

const keep = (id, kept) => sessionStorage.setItem(`referee.table.host.${id}`, JSON.stringify(kept));

/** The setup screen: one state object, one render(). */
export async function startSetup({root, page}) {
  const s = {games: await api.games(), game: null, mode: "digital", names: [], options: {},
    rules: {}, problem: null, busy: false};
  const choose = async (name) => {
    s.game = s.games.find((g) => g.name === name);
    s.mode = s.game.modes[0];
    s.names = Array.from({length: s.game.players.counts[0]}, () => "");
    s.options = Object.fromEntries(Object.entries(s.game.options).map(([k, o]) => [k, o.default]));
    s.rules = await ruleTexts(name);
    s.bases = null;
    render();
  };

  // Spy at a real table (SPY-S2): the players arrange their bases, so the referee needs where
  // each Spy sits and which way it faces; the cards stay "unknown" until shown. How many cards
  // a base holds is the service's: read from a dealt setup of the same players, not known here.
  const spyTable = () => s.game && s.game.name === "spy" && s.mode === "table";
  async function baseSize() {
    const dealt = await api.setup("spy", names(), {seed: 1});
    return dealt.bases[names()[0]].cards.length;
  }
  async function ensureBases() {
    if (!spyTable()) return;
    const size = await baseSize();
    const before = s.bases || {};
    s.bases = Object.fromEntries(names().map((p, i) => [p, {size,
      spy_gap: Math.min((before[p] || Object.values(before)[i] || {}).spy_gap ?? 0, size),
      facing: (before[p] || {}).facing || "left"}]));
  }
  function basesInput() {
    if (!spyTable() || !s.bases) return null;
    return h("fieldset", {"data-key": "spy-bases"}, h("legend", {}, t("table.spy.setup_title")),
      h("p", {class: "muted"}, t("table.spy.setup_help")),
      ...names().map((p, i) => {
        const b = s.bases[p];
        return h("div", {class: "field"}, h("strong", {}, p), " ",
          h("label", {}, t("table.spy.gap"), " ", h("select", {"data-key": `gap-${i}`,
            onchange: (e) => { b.spy_gap = Number(e.target.value); }},
          ...Array.from({length: b.size + 1}, (_, g) => h("option", {value: g, selected: g === b.spy_gap}, g)))),
          " ", h("label", {}, t("table.spy.facing"), " ", h("select", {"data-key": `facing-${i}`,
            onchange: (e) => { b.facing = e.target.value; }},
          ...["left", "right"].map((f) => h("option", {value: f, selected: f === b.facing},
            term("spy", "facing", f) ?? f)))));
      }));
  }
  const basesBody = () => (spyTable() && s.bases ? {bases: Object.fromEntries(Object.entries(s.bases)
    .map(([p, b]) => [p, {cards: Array(b.size).fill("unknown"), spy_gap: b.spy_gap, facing: b.facing}]))} : {});

  function optionInput(name, o) {
    const key = `opt-${name}`;
    const set = (value) => { s.options[name] = value; };
    if (o.type === "bool") {
      return h("input", {type: "checkbox", id: key, "data-key": key, checked: s.options[name],
        onchange: (e) => set(e.target.checked)});
    }
    if (o.type === "choice") {
      return h("select", {id: key, "data-key": key, onchange: (e) => set(e.target.value)},
        ...o.choices.map((c) => h("option", {value: c, selected: c === s.options[name]}, c)));
    }
    if (o.type === "int") {
      return h("input", {type: "number", id: key, "data-key": key, min: o.minimum, max: o.maximum,
        value: s.options[name], onchange: (e) => set(Number(e.target.value))});
    }
    if (o.type === "str") {
      return h("select", {id: key, "data-key": key, onchange: (e) => set(e.target.value || null)},
        h("option", {value: ""}, t("table.host.default")),
        ...s.names.map((n, i) => n || t("table.host.default_player", {n: i + 1}))
          .map((n) => h("option", {value: n, selected: n === s.options[name]}, n)));
    }
    return h("span", {class: "muted"}, t("table.host.default"));
  }

  const names = () => s.names.map((n, i) => n.trim() || t("table.host.default_player", {n: i + 1}));

  async function create() {
    s.busy = true; s.problem = null; render();
    const options = Object.fromEntries(Object.entries(s.options)
      .filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(s.game.options[k].default)));
    try {
      const players = names();
      const made = await api.createMatch({game: s.game.name, mode: s.mode, players, options,
        open_seats: players, ...basesBody()});  // every seat open: its link carries an invite code, not a token
      keep(made.id, {host_token: made.host_token, seats: made.seats || {},
        invites: Object.fromEntries(Object.entries(made.invites || {}).map(([p, i]) => [p, i.code]))});
      location.hash = `host=${encodeURIComponent(made.id)}`;
    } catch (problem) { s.problem = problem; s.busy = false; render(); }
  }

  function refreshBases() {
    ensureBases().then(render, (problem) => { s.problem = problem; render(); });
  }

  function render() {
    const g = s.game;
    replace(root, [
      h("p", {class: "intro"}, t("table.host.intro")),
      h("p", {}, h("a", {href: "score"}, t("table.host.to_scorer"))),
      h("label", {class: "field"}, t("table.host.game"), " ",
        h("select", {"data-key": "game", onchange: (e) => choose(e.target.value)},
          h("option", {value: ""}, t("table.host.choose")),
          ...s.games.map((x) => h("option", {value: x.name, selected: g && g.name === x.name}, x.title)))),
      g ? h("fieldset", {}, h("legend", {}, t("table.host.mode")), ...g.modes.map((mode) =>
        h("label", {}, h("input", {type: "radio", name: "mode", value: mode, "data-key": `mode-${mode}`,
          checked: s.mode === mode, onchange: () => { s.mode = mode; refreshBases(); }}), " ",
          modeName(mode), " — ", t(`table.mode_hint.${mode}`)))) : null,
      g ? h("fieldset", {}, h("legend", {}, t("table.host.players")),
        h("label", {}, t("table.host.count"), " ", h("select", {"data-key": "count",
          onchange: (e) => { s.names.length = Number(e.target.value); s.names = Array.from(s.names, (n) => n || ""); refreshBases(); }},
          ...g.players.counts.map((n) => h("option", {value: n, selected: n === s.names.length}, n)))),
        ...s.names.map((n, i) => h("label", {}, t("table.host.player_n", {n: i + 1}), " ",
          h("input", {type: "text", value: n, maxlength: 64, "data-key": `name-${i}`,
            placeholder: t("table.host.default_player", {n: i + 1}),
            onchange: (e) => { s.names[i] = e.target.value; if (spyTable()) refreshBases(); }})))) : null,
      basesInput(),
      g ? h("fieldset", {}, h("legend", {}, t("table.host.options")),
        ...Object.entries(g.options).map(([name, o]) => h("div", {class: "field"},
          h("label", {for: `opt-${name}`}, o.description), " ", optionInput(name, o),
          h("div", {class: "muted"}, h("strong", {}, o.rule), " · ", (s.rules[o.rule] || {}).title || "")))) : null,
      s.problem ? verdictOrProblem(s.problem) : null,
      g ? h("button", {type: "button", class: "primary", "data-key": "create", disabled: s.busy,
        onclick: create}, t("table.host.create")) : null,
    ]);
  }
  /** A language switch: the games' titles, option descriptions and rule titles are the
   *  service's, so read them again in the new language. */
  async function relang() {
    try {
      s.games = await api.games();
      if (s.game) {
        s.game = s.games.find((g) => g.name === s.game.name);
        s.rules = await ruleTexts(s.game.name);
      }
      s.problem = null;
    } catch (problem) { s.problem = problem; }
    render();
  }
  render();
  return {render, relang};
}

function verdictOrProblem(problem) {
  const body = problem.problem || {};
  return h("div", {class: "problem", role: "alert"}, h("p", {}, body.detail || problem.message),
    ...(body.errors || []).map((e) => h("p", {}, e.field ? `${e.field}: ` : "", e.message)));
}

/** A QR code of text, drawn as SVG paths (no image, no inline style). */
export function qr(text, label) {
  const code = qrcode(0, "M");
  code.addData(text);
  code.make();
  const n = code.getModuleCount();
  let d = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (code.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  return svg("svg", {viewBox: `0 0 ${n + 8} ${n + 8}`, role: "img", "aria-label": label,
    "shape-rendering": "crispEdges"}, svg("rect", {width: n + 8, height: n + 8, fill: "#fff"}),
  svg("path", {d, fill: "#000"}));
}

/** Each seat's link: /table/#match=<id>&code=<invite code> (the seat claims its token when
 *  it opens it), or &token=<token> once the host has re-issued the seat's token. */
function seatLink(id, player, kept) {
  const base = new URL("./", document.baseURI).href;
  const code = kept.invites && kept.invites[player];
  return code ? `${base}#match=${encodeURIComponent(id)}&code=${encodeURIComponent(code)}`
    : `${base}#match=${encodeURIComponent(id)}&token=${encodeURIComponent(kept.seats[player])}`;
}

/** Whether a seat's phone follows the match now: the host's read counts each seat's open
 *  streams (`connections`; null when the service does not count them: then nothing shown). */
function connection(m, player, i) {
  if (!m.connections || !(player in m.connections)) return null;
  const on = m.connections[player] > 0;
  return [" · ", h("span", {"data-key": `seat-live-${i}`, class: on ? "live-ok" : "muted"},
    t(on ? "table.host.connected" : "table.host.not_connected"))];
}

/** Each seat: taken or still open (the view's open_seats), its phone connected or not, its
 *  link and QR code, copy and share, and a new link (the seat's token re-issued: its old
 *  phone stops at once). */
function seatLinks(id, m, kept, {announce, reissue, busy}) {
  const open = m.open_seats || [];
  return h("section", {"aria-label": t("table.host.links")}, h("h2", {}, t("table.host.links")),
    ...m.players.map((player, i) => {
      const link = seatLink(id, player, kept);
      const taken = !open.includes(player);
      return h("details", {class: "seat-link"}, h("summary", {}, t("table.host.link_for", {player}),
        " · ", h("span", {"data-key": `seat-state-${i}`, class: taken ? "taken" : "muted"},
          t(taken ? "table.host.seat_taken" : "table.host.seat_open")), connection(m, player, i)),
        qr(link, t("table.host.qr_for", {player})),
        h("p", {}, h("a", {href: link, "data-key": `link-${i}`}, t("table.host.open_link", {player}))),
        h("div", {class: "buttons"},
          h("button", {type: "button", "data-key": `copy-${i}`, onclick: async () => {
            await navigator.clipboard.writeText(link).then(() => announce(t("table.host.copied", {player})),
              () => announce(t("table.host.copy_failed")));
          }}, t("table.host.copy")),
          navigator.share ? h("button", {type: "button", "data-key": `share-${i}`, onclick: () =>
            navigator.share({title: t("table.title"), text: t("table.host.share_text", {player}), url: link})
              .catch(() => {})}, t("table.host.share")) : null,
          h("button", {type: "button", "data-key": `reissue-${i}`, disabled: busy,
            onclick: () => reissue(player)}, t("table.host.reissue"))));
    }));
}

/** The host's screen of match id (tokens kept in sessionStorage by the setup screen). */
export async function startHost({id, kept, root, page}) {
  const token = kept.host_token;
  const first = await api.readMatch(id, token);
  const game = gameOf(first);
  const play = createPlay({id, token, game, onChange: () => render(), announce: page.status});
  const form = {to: null, reason: ""};

  // Versions a rollback may go back to: the start (1) and those a game action made; a seat's
  // invite, claim or new token, the host's recovery, a dispute's steps and a rematch change no
  // game state, so going back to them is offered through the game action before them.
  const NOT_PLAY = /^(seat_|host_|rollback_|rematch_)/;
  function proposeForm(m) {
    const made = new Map();  // version -> its last game event
    for (const e of play.events) if (!NOT_PLAY.test(e.type || "") && e.version < m.version) made.set(e.version, e);
    const versions = [...made.keys(), ...(m.version > 1 ? [1] : [])]
      .filter((v, i, all) => all.indexOf(v) === i).sort((a, b) => b - a);
    if (!versions.length || m.rollback || m.over || m.outcome) return null;
    return h("fieldset", {class: "propose"}, h("legend", {}, t("table.rollback.propose")),
      h("label", {class: "field"}, t("table.rollback.back_to"), " ",
        h("select", {"data-key": "to-version", onchange: (e) => { form.to = Number(e.target.value); }},
          h("option", {value: ""}, t("table.host.choose")),
          ...versions.map((v) => h("option", {value: v, selected: v === form.to},
            [t("table.version_n", {n: v}), made.has(v) ? ` · ${eventText(made.get(v))}`
              : ` · ${t("table.rollback.start")}`].join(""))))),
      h("label", {class: "field"}, t("table.rollback.reason"), " ",
        h("input", {type: "text", maxlength: 500, "data-key": "reason", value: form.reason,
          oninput: (e) => { form.reason = e.target.value; }})),
      h("button", {type: "button", "data-key": "propose", disabled: play.busy, onclick: () =>
        play.run(() => api.proposeRollback(id, token, form.to, form.reason, m.version))},
      t("table.rollback.send")));
  }
  // the event without its version (the option already names it)
  const eventText = (e) => eventLine(game, e).flat(Infinity).slice(2)
    .map((x) => (x instanceof Node ? x.getAttribute("aria-label") : x)).join("");

  function render() {
    const m = play.match || first;
    const groups = m.mode === "table" ? play.legal  // grouped legal actions
      : play.legal.filter((g) => !m.players.includes(g.player));  // digital: only the host's own
    root.dataset.version = m.version;
    root.dataset.over = String(Boolean(m.outcome || m.over));
    replace(root, [
      liveLine(play.live),
      h("h2", {}, t("table.host.title"), " · ", gameName(game), " · ", modeName(m.mode)),
      h("p", {class: "awaiting", "aria-live": "polite"}, awaiting(m)),
      play.notice ? h("p", {class: "notice", role: "alert"}, play.notice) : null,
      play.verdict ? verdictBlock(play.verdict) : null,
      rollbackBox(game, m.rollback, {busy: play.busy,
        withdraw: () => play.run(() => api.withdrawRollback(id, token))}),
      endBox(m, {busy: play.busy, rematch: m.rematch ? null : () => play.run(async () => {
        const next = await api.rematch(id, token);
        keep(next.id, kept);
        location.hash = `host=${encodeURIComponent(next.id)}`;
      })}),
      seatLinks(id, m, kept, {announce: page.status, busy: play.busy, reissue: (player) =>
        play.run(async () => {
          const answer = await api.reissueSeat(id, token, player);
          kept.seats[player] = answer.token;
          delete kept.invites[player];
          keep(id, kept);
          page.status(t("table.host.reissued", {player}));
        })}),
      h("section", {"aria-label": t("table.table")}, board(game, gamePart(m), null)),
      groups.length || m.mode === "table" ? actionsPanel(game, groups, play.send,
        {busy: play.busy, showPlayer: true}) : null,
      scoreBoard(game, m),
      proposeForm(m),
      h("details", {}, h("summary", {}, t("table.host.log")), h("ol", {class: "event-log"},
        ...play.events.map((e) => h("li", {}, eventLine(game, e))))),
    ]);
  }
  await play.start();
  // the seats' connections change without the match changing (no event, no view): read the
  // match again every few seconds while the host's screen is open, drawn only when they changed
  const watch = setInterval(async () => {
    const m = play.match;
    const seen = await api.readMatch(id, token).catch(() => null);
    if (!m || !seen || JSON.stringify(seen.connections) === JSON.stringify(m.connections)) return;
    m.connections = seen.connections;
    render();
  }, CONNECTIONS_EVERY_MS);
  return {render, stop: () => { clearInterval(watch); play.stop(); }, relang: play.relang};
}
