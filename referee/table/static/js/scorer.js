// The All Fours trick-sheet scorer (/table/score): tap cards to enter a hand's kicks and
// tricks, and the service (POST /v1/games/all-fours/score) answers the points, the reason for
// each, and any renege the sheet proves. No match is needed. One state, one render().
import * as api from "./api.js";
import {card, packPicker} from "./cards.js";
import {h, replace} from "./dom.js";
import {problemBlock, startPage} from "./page.js";
import {cardName, language, suitName, t} from "./strings.js";
import {ruleTexts} from "./play.js";

const BEGS = ["stand", "give_one", "run_pack"];
const state = {
  counts: [2, 4], players: ["", "", "", ""], count: 4, dealer: 0, beg: "stand",
  kicks: [], tricks: [{leader: 0, cards: []}], entering: "kick",
  result: null, problem: null, busy: false, ruleTitles: {},
};
let page;

const names = () => state.players.slice(0, state.count).map(
  (name, i) => name.trim() || t("table.score.default_player", {n: i + 1}));
const used = () => new Set([...state.kicks, ...state.tricks.flatMap((trick) => trick.cards)]);
const current = () => state.tricks[state.tricks.length - 1];

function pick(code) {
  state.result = state.problem = null;
  if (state.entering === "kick") {
    state.kicks.push(code);
    state.entering = "trick";
  } else {
    current().cards.push(code);
    if (current().cards.length >= state.count) {  // full: the next trick's row, to set its leader
      state.tricks.push({leader: current().leader, cards: []});
    }
  }
  page.status(t("table.score.entered", {card: cardName("all-fours", code)}));
  render();
}

function undo() {
  state.result = state.problem = null;
  if (state.entering === "trick" && !current().cards.length && state.tricks.length > 1) {
    state.tricks.pop();
  }
  if (state.entering === "trick" && current().cards.length) current().cards.pop();
  else if (state.kicks.length) { state.kicks.pop(); state.entering = "kick"; }
  render();
}

function clear() {
  Object.assign(state, {kicks: [], tricks: [{leader: 0, cards: []}], entering: "kick",
    result: null, problem: null});
  render();
}

async function score() {
  const players = names();
  const sheet = {players, dealer: players[state.dealer], kicks: state.kicks, beg: state.beg,
    tricks: state.tricks.filter((trick) => trick.cards.length)
      .map((trick) => ({leader: players[trick.leader], cards: trick.cards}))};
  state.busy = true; state.result = state.problem = null; render();
  try {
    state.result = await api.scoreSheet(sheet);
    page.status(t("table.score.scored"));
  } catch (problem) {
    state.problem = problem;
    page.status(problem.problem.title || problem.message);
  }
  state.busy = false;
  render();
}

function setup() {
  const players = names();
  return h("fieldset", {class: "setup"}, h("legend", {}, t("table.score.players")),
    h("label", {}, t("table.score.count"), " ",
      h("select", {"data-key": "count", onchange: (e) => {
        state.count = Number(e.target.value); clear(); }},
        ...state.counts.map((n) => h("option", {value: n, selected: n === state.count}, n)))),
    ...state.players.slice(0, state.count).map((name, i) =>
      h("label", {}, t("table.score.player_n", {n: i + 1}), " ",
        h("input", {type: "text", value: name, maxlength: 64, "data-key": `player-${i}`,
          placeholder: t("table.score.default_player", {n: i + 1}),
          onchange: (e) => { state.players[i] = e.target.value; render(); }}))),
    h("label", {}, t("table.score.dealer"), " ",
      h("select", {"data-key": "dealer", onchange: (e) => { state.dealer = Number(e.target.value); }},
        ...players.map((p, i) => h("option", {value: i, selected: i === state.dealer}, p)))),
    h("label", {}, t("table.score.beg"), " ",
      h("select", {"data-key": "beg", onchange: (e) => { state.beg = e.target.value; }},
        ...BEGS.map((b) => h("option", {value: b, selected: b === state.beg}, t(`table.score.beg.${b}`))))));
}

function sheetView() {
  const players = names();
  const trickRows = state.tricks.map((trick, i) => h("li", {class: "trick"},
    h("label", {}, t("table.score.trick_n", {n: i + 1}), " ", t("table.score.led_by"), " ",
      h("select", {"data-key": `leader-${i}`, onchange: (e) => { trick.leader = Number(e.target.value); }},
        ...players.map((p, j) => h("option", {value: j, selected: j === trick.leader}, p)))),
    h("span", {class: "cards"}, ...trick.cards.map((c) => card("all-fours", c)))));
  return h("section", {class: "sheet", "aria-label": t("table.score.sheet")},
    h("p", {}, t("table.score.kicks"), " ", ...state.kicks.map((c) => card("all-fours", c)),
      " ", h("button", {type: "button", "data-key": "add-kick",
        "aria-pressed": String(state.entering === "kick"),
        onclick: () => { state.entering = "kick"; render(); }}, t("table.score.add_kick"))),
    h("ol", {class: "tricks"}, ...trickRows),
    h("p", {class: "now", "aria-live": "polite"}, state.entering === "kick"
      ? t("table.score.tap_kick")
      : t("table.score.tap_trick", {n: state.tricks.length})),
    packPicker(pick, (code) => !used().has(code), t("table.score.pack")),
    h("div", {class: "buttons"},
      h("button", {type: "button", "data-key": "undo", onclick: undo}, t("table.score.undo")),
      h("button", {type: "button", "data-key": "clear", onclick: clear}, t("table.score.clear")),
      h("button", {type: "button", class: "primary", "data-key": "score", onclick: score,
        disabled: state.busy || !state.kicks.length}, t("table.score.score"))));
}

function holder(label, fact) {
  if (!fact) return h("li", {}, label, ": ", t("table.score.nobody"));
  return h("li", {}, label, ": ", card("all-fours", fact.card), " ",
    t("table.score.dealt_to", {player: fact.player}));
}

function resultView(r) {
  const title = (id) => state.ruleTitles[id] ? ` (${state.ruleTitles[id]})` : "";
  return h("section", {class: "result", "aria-label": t("table.score.result")},
    h("h2", {}, t("table.score.points")),
    h("table", {}, h("tbody", {}, ...Object.entries(r.points).map(([side, points]) =>
      h("tr", {}, h("th", {scope: "row"}, side), h("td", {}, points),
        h("td", {}, t("table.score.total", {score: r.score[side]})))))),
    h("ul", {class: "reasons"},
      h("li", {}, t("table.score.trump"), ": ", suitName(r.trump)),
      holder(t("table.score.high"), r.high),
      holder(t("table.score.low"), r.low),
      r.jack ? h("li", {}, t("table.score.jack"), ": ",
        t(r.jack.hanged ? "table.score.jack_hanged" : "table.score.jack_won",
          {player: r.jack.player, won_by: r.jack.won_by, points: r.jack.points}))
        : h("li", {}, t("table.score.jack"), ": ", t("table.score.nobody")),
      h("li", {}, t("table.score.game"), ": ",
        Object.entries(r.game.totals).map(([side, n]) => `${side} ${n}`).join(" · "), " → ",
        r.game.side === null ? t("table.score.game_tied") : r.game.side)),
    r.reneges.length ? h("div", {class: "reneges", role: "alert"},
      h("h3", {}, t("table.score.reneges")),
      h("ul", {}, ...r.reneges.map((n) => h("li", {},
        h("strong", {}, n.rule), title(n.rule), " · ",
        t("table.score.renege", {player: n.player, trick: n.trick, broke: n.broke + title(n.broke),
          proven_by: cardName("all-fours", n.proven_by), proven_at: n.proven_at}),
        n.loses_game ? [" ", t("table.score.loses_game")] : null))))
      : h("p", {}, t("table.score.no_renege")),
    r.winner ? h("p", {class: "winner"}, t("table.score.winner", {side: r.winner})) : null);
}

function render() {
  if (state.rulesLang !== language()) loadRules();
  replace(document.getElementById("app"), [
    h("p", {class: "intro"}, t("table.score.intro")),
    setup(), sheetView(),
    state.problem ? problemBlock(state.problem) : null,
    state.result ? resultView(state.result) : null,
    h("p", {}, h("a", {href: "./"}, t("table.score.to_table"))),
  ]);
}

async function main() {
  page = await startPage("table.score.title", render);
  try {
    const found = (await api.games()).find((g) => g.name === "all-fours");
    if (found) { state.counts = found.players.counts; render(); }
  } catch (problem) { page.status(problem.message); }
}

/** The rules' titles in the page's language (refetched when the language changes). */
async function loadRules() {
  state.rulesLang = language();
  const book = await ruleTexts("all-fours");
  state.ruleTitles = Object.fromEntries(Object.entries(book).map(([id, rule]) => [id, rule.title]));
  render();
}

main();
