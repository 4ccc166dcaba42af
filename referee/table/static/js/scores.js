// The scoreboard of each game, drawn from the match envelope's `score` (its `breakdown` is the
// game's own detail, documented per game in openapi.yaml): All Fours' score sheet hand by hand
// (the kicks' and beg's points, who won High, Low, Jack and Game, each hand's points and the
// score after it), Gnoming's rounds (each player's round score and total after it), Coup's
// influence and coins, Spy's exposed cards and who is out. Nothing is added up here: every
// number is the service's.
import {h} from "./dom.js";
import {t} from "./strings.js";

const DASH = "—";
const AWARDS = ["high", "low", "jack", "game"];
const AWARD_TITLES = {high: () => t("table.score.high"), low: () => t("table.score.low"),
  jack: () => t("table.score.jack"), game: () => t("table.score.game"),
  renege: () => t("table.sheet.renege")};

const th = (text, attrs = {}) => h("th", {scope: "col", ...attrs}, text);
const rowHead = (text) => h("th", {scope: "row"}, text);

/** A number the service scored for a side or player, with the total after it. */
const pointsCell = (points, total) => h("td", {class: "num"}, `+${points}`,
  h("small", {class: "muted"}, " ", t("table.gn.total", {n: total})));

/** Who won one award of a hand: its sides (and the points when more than one: a hanged Jack,
 *  AF-S3, or Game's option), or a dash when nobody scored it. */
function awardCell(line, kind) {
  const won = line.awards.filter((a) => a.award === kind);
  return h("td", {"data-award": kind}, won.length
    ? won.map((a) => (a.points === 1 ? a.side : `${a.side} +${a.points}`)).join(", ") : DASH);
}

/** The points a hand gave at the deal and the beg (kicks, a give one), by side, or a dash. */
function dealCell(line) {
  const got = Object.entries(line.deal_points || {}).filter(([, n]) => n > 0);
  return h("td", {"data-award": "deal"}, got.length ? got.map(([side, n]) => `${side} +${n}`).join(", ") : DASH);
}

/** All Fours: one row per scored hand (the breakdown's `hands`), then the score now. */
function allFoursSheet(score) {
  const lines = score.breakdown.hands || [];
  const units = Object.keys(score.totals);
  const kinds = lines.some((l) => l.awards.some((a) => a.award === "renege"))
    ? [...AWARDS, "renege"] : AWARDS;
  return h("table", {class: "score sheet", "data-key": "score-sheet"},
    h("caption", {}, t("table.sheet.title")),
    h("thead", {}, h("tr", {}, th(t("table.sheet.hand")), th(t("table.sheet.deal_points")),
      ...kinds.map((k) => th(AWARD_TITLES[k]())), ...units.map((u) => th(u)))),
    h("tbody", {}, ...lines.map((line) => h("tr", {"data-hand": line.hand},
      rowHead(String(line.hand)), dealCell(line), ...kinds.map((k) => awardCell(line, k)),
      ...units.map((u) => pointsCell(line.points[u], line.score[u]))))),
    h("tfoot", {}, h("tr", {}, rowHead(t("table.score_title")),
      h("td", {colspan: kinds.length + 1}, score.target ? t("table.sheet.target", {n: score.target}) : ""),
      ...units.map((u) => h("td", {class: "num", "data-total": u}, String(score.totals[u]))))));
}

/** Gnoming: one row per finished round (`round_scores`, `running_totals`), the round in play
 *  from its face-up cards (`round_points`), then the totals. */
function gnomingSheet(score) {
  const b = score.breakdown;
  const players = Object.keys(score.totals);
  const totals = b.running_totals || [];
  return h("table", {class: "score sheet", "data-key": "score-sheet"},
    h("caption", {}, t("table.sheet.title")),
    h("thead", {}, h("tr", {}, th(t("table.sheet.round")), ...players.map((p) => th(p)))),
    h("tbody", {}, ...b.round_scores.map((scores, i) => h("tr", {"data-round": i + 1},
      rowHead(String(i + 1)), ...players.map((p) => h("td", {class: "num"}, String(scores[p]),
        totals[i] ? h("small", {class: "muted"}, " ", t("table.gn.total", {n: totals[i][p]})) : null)))),
    b.round_points ? h("tr", {class: "muted"}, rowHead(t("table.sheet.so_far", {n: b.round})),
      ...players.map((p) => h("td", {class: "num"}, String(b.round_points[p])))) : null),
    h("tfoot", {}, h("tr", {}, rowHead(t("table.score_title")),
      ...players.map((p) => h("td", {class: "num", "data-total": p}, String(score.totals[p]))))));
}

/** Coup: each player's influence left and coins (COUP-E1: the last with influence wins). */
function coupBoard(score) {
  const b = score.breakdown;
  return h("table", {class: "score", "data-key": "score-sheet"}, h("caption", {}, t("table.score_title")),
    h("tbody", {}, ...Object.keys(score.totals).map((p) => h("tr", {}, rowHead(p),
      h("td", {}, t("table.coup.influence", {n: b.influence[p]})),
      h("td", {}, t("table.coup.coins", {n: b.coins[p]}))))));
}

/** Spy: each player's cards exposed, and who is out (SPY-E1). */
function spyBoard(score) {
  const b = score.breakdown;
  return h("table", {class: "score", "data-key": "score-sheet"}, h("caption", {}, t("table.score_title")),
    h("tbody", {}, ...Object.keys(score.totals).map((p) => h("tr", {}, rowHead(p),
      h("td", {}, t("table.sheet.exposed", {n: b.exposed[p]})),
      h("td", {}, score.in.includes(p) ? t("table.sheet.in") : t("table.spy.eliminated"))))));
}

const BOARDS = {"all-fours": allFoursSheet, gnoming: gnomingSheet, coup: coupBoard, spy: spyBoard};

/** The scoreboard of game from the envelope's `score`; null when the answer has none. */
export function scoreBoard(game, m) {
  const score = m && m.score;
  if (!score || typeof score !== "object" || !score.totals || !score.breakdown) return null;
  const draw = BOARDS[game];
  return draw ? draw(score) : null;
}
