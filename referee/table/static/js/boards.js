// Each game's table drawn from the view the service sends (a seat's, or the host's referee
// view): nothing is worked out here, only shown. board(game, view, you) → nodes.
import {card, cardButton} from "./cards.js";
import {h} from "./dom.js";
import {cardName, suitName, t, term} from "./strings.js";

const list = (label, items) => h("div", {class: "hand", role: "group", "aria-label": label},
  h("span", {class: "muted"}, label, " "), ...items);

function coup(v, you) {
  const turnPlayer = v.turn && v.turn.player;
  return [h("ul", {class: "players"}, ...v.players.map((p) => {
    const hand = (v.hands && v.hands[p]) || null;
    const size = v.hand_sizes ? v.hand_sizes[p] : (hand || []).length;
    return h("li", {class: p === turnPlayer ? "turn" : ""},
      h("strong", {}, p), p === you ? ` (${t("table.you")})` : "", " · ",
      t("table.coup.coins", {n: v.coins[p]}), " · ", t("table.coup.influence", {n: size}),
      h("div", {}, ...(hand ? hand.map((c) => card("coup", c))
        : Array.from({length: size}, () => card("coup", "hidden"))),
        ...(v.revealed[p] || []).map((c) => card("coup", c, "revealed"))),
      v.revealed[p] && v.revealed[p].length ? h("span", {class: "muted"},
        t("table.coup.revealed", {n: v.revealed[p].length})) : null);
  })),
  h("p", {class: "muted"}, t("table.coup.court", {n: v.court_size ?? (v.court || []).length}),
    " · ", t("table.coup.treasury", {n: v.treasury}))];
}

function allFours(v, you, pick) {
  const sides = Object.entries(v.score || {});
  const trick = v.trick || {cards: [], players: []};
  return [
    h("p", {}, t("table.af.trump"), ": ", v.trump ? suitName(v.trump) : "—",
      " · ", t("table.af.kicks"), " ", ...(v.kicks || []).map((c) => card("all-fours", c)),
      " · ", t("table.af.dealer", {player: v.dealer})),
    h("table", {class: "score"}, h("caption", {}, t("table.score_title")),
      h("tbody", {}, ...sides.map(([side, points]) => h("tr", {},
        h("th", {scope: "row"}, side), h("td", {}, points),
        h("td", {class: "muted"}, t("table.af.this_hand", {n: (v.hand_points || {})[side] ?? 0})))))),
    h("div", {class: "felt", role: "group", "aria-label": t("table.af.trick_now")},
      h("span", {class: "muted"}, t("table.af.trick_now"), " "),
      ...trick.cards.map((c, i) => h("span", {}, card("all-fours", c),
        h("small", {}, trick.players[i] || "")))),
    h("p", {class: "muted"}, t("table.af.tricks_done", {n: (v.tricks || []).length}),
      v.stock_size !== undefined ? [" · ", t("table.af.stock", {n: v.stock_size})] : null),
    v.hand ? list(pick ? t("table.af.tap_to_play") : t("table.your_cards"), v.hand.map((c) => pick
      ? cardButton("all-fours", c, pick, {key: `hand-${c}`}) : card("all-fours", c))) : null,
    v.hands ? h("div", {}, ...Object.entries(v.hands).map(([p, cards]) =>
      list(p, cards.map((c) => card("all-fours", c))))) : null,
    !v.hand && !v.hands && v.hand_sizes ? h("p", {class: "muted"}, Object.entries(v.hand_sizes)
      .map(([p, n]) => t("table.cards_held", {player: p, n})).join(" · ")) : null,
    v.last_hand ? lastHand(v.last_hand) : null,
  ];
}

/** The hand just scored: High, Low, Jack and Game, each with who won it, and the points. */
function lastHand(last) {
  const holder = (fact) => (fact ? [card("all-fours", fact.card), " ", fact.player] : t("table.score.nobody"));
  return h("table", {class: "last-hand"}, h("caption", {}, t("table.af.last_hand")), h("tbody", {},
    h("tr", {}, h("th", {scope: "row"}, t("table.score.high")), h("td", {}, holder(last.high))),
    h("tr", {}, h("th", {scope: "row"}, t("table.score.low")), h("td", {}, holder(last.low))),
    h("tr", {}, h("th", {scope: "row"}, t("table.score.jack")), h("td", {}, last.jack
      ? t(last.jack.hanged ? "table.score.jack_hanged" : "table.score.jack_won", last.jack)
      : t("table.score.nobody"))),
    h("tr", {}, h("th", {scope: "row"}, t("table.score.game")), h("td", {},
      Object.entries(last.game.totals).map(([side, n]) => `${side} ${n}`).join(" · "), " → ",
      last.game.side ?? t("table.score.game_tied"))),
    h("tr", {}, h("th", {scope: "row"}, t("table.score.points")), h("td", {},
      Object.entries(last.points).map(([side, n]) => `${side} ${n}`).join(" · ")))));
}

function spy(v, you) {
  return [h("ul", {class: "players"}, ...v.players.map((p) => {
    const base = v.bases[p];
    const cells = base.cards.map((c, i) => card("spy", c,
      (base.exposed || []).includes(i) ? "exposed" : ""));
    cells.splice(base.spy_gap, 0, h("span", {class: "spy-mark", role: "img",
      "aria-label": t(`table.spy.spy_facing.${base.facing}`)},
      base.facing === "left" ? "◀" : "▶", term("spy", "card", "spy")));
    return h("li", {class: v.turn && v.turn.player === p ? "turn" : ""},
      h("strong", {}, p), p === you ? ` (${t("table.you")})` : "",
      (v.eliminated || []).includes(p) ? ` · ${t("table.spy.eliminated")}` : "",
      h("div", {class: "base", role: "group", "aria-label": t("table.spy.base", {player: p})}, ...cells),
      base.target ? h("small", {class: "muted"}, t("table.spy.target"), ": ", cardName("spy", base.target)) : null);
  }))];
}

function gnoming(v, you) {
  const layout = (p) => h("div", {class: "grid", role: "group", "aria-label": t("table.gn.layout", {player: p})},
    ...v.layouts[p].flat().map((cell, i) => h("span", {"aria-label": t("table.gn.cell",
      {row: Math.floor(i / 3) + 1, column: (i % 3) + 1})},
      cell === null ? h("span", {class: "card empty"}, "·")
        : card("gnoming", cell.up || cell.card !== null ? cell.card : null))));
  const totals = {};
  for (const round of v.history || []) {
    for (const [p, n] of Object.entries(round.scores || {})) totals[p] = (totals[p] || 0) + n;
  }
  return [
    h("p", {}, t("table.gn.round", {n: v.round}), " · ",
      t("table.gn.draw_pile", {n: v.draw_pile_count ?? (v.draw_pile || []).length}), " · ",
      t("table.gn.discards"), " ", ...(v.discard_tops || []).map((c) => c === null
        ? h("span", {class: "card empty"}, "·") : card("gnoming", c))),
    v.turn && v.turn.holding ? h("p", {}, t("table.gn.holding", {player: v.turn.player}), " ",
      card("gnoming", v.turn.holding)) : null,
    h("ul", {class: "players"}, ...v.players.map((p) => h("li",
      {class: v.turn && v.turn.player === p ? "turn" : ""},
      h("strong", {}, p), p === you ? ` (${t("table.you")})` : "",
      totals[p] !== undefined ? ` · ${t("table.gn.total", {n: totals[p]})}` : "", h("div", {}, layout(p))))),
  ];
}

const BOARDS = {coup, "all-fours": allFours, spy, gnoming};

/** The game's table as nodes, from the view the reader may see; pick(card), when given, makes
 *  the reader's own hand a card picker (All Fours' play: the referee judges any card tapped). */
export function board(game, view, you, pick = null) {
  const draw = BOARDS[game];
  return draw ? draw(view, you, pick) : h("pre", {}, JSON.stringify(view, null, 1));
}
