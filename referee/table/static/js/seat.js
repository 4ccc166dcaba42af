// A seat's screen (phone first): its own cards and the table as the seat may see them, whose
// turn it is, its legal moves as buttons, a refused move's verdict with the rule's text, the
// rollback vote, the score and the end. One state (the play), one render().
import * as api from "./api.js";
import {board} from "./boards.js";
import {h, replace} from "./dom.js";
import {actionsPanel, awaiting, createPlay, endBox, gamePart, liveLine, rollbackBox,
  verdictBlock} from "./play.js";
import {scoreBoard} from "./scores.js";
import {gameName, t} from "./strings.js";

export const gameOf = (m) => (typeof m.game === "string" ? m.game : m.game_name || gamePart(m).game);

/** Run the seat screen of match id with token in root. */
export async function startSeat({id, token, root, page}) {
  const first = await api.readMatch(id, token);
  const game = gameOf(first);
  const play = createPlay({id, token, game, onChange: () => render(), announce: page.status});

  // In the play, the seat's hand is a card picker whether or not it is its turn: the referee
  // judges whatever card is tapped (a refusal cites its rule), as at a real table.
  const handPick = (m) => (gamePart(m).phase === "play" && gamePart(m).hand && !play.busy
    ? (code) => play.send({type: "play", player: m.seat, card: code}) : null);

  function render() {
    const m = play.match || first;
    const part = gamePart(m);
    root.dataset.version = m.version;
    root.dataset.over = String(Boolean(m.outcome || m.over));
    replace(root, [
      liveLine(play.live),
      h("h2", {}, t("table.seat.title", {player: m.seat}), " · ", gameName(game)),
      h("p", {class: "awaiting", "aria-live": "polite"}, awaiting(m)),
      play.notice ? h("p", {class: "notice", role: "alert"}, play.notice) : null,
      play.verdict ? verdictBlock(play.verdict) : null,
      rollbackBox(game, m.rollback, {busy: play.busy, vote: (m.rollback &&
        ![...(m.rollback.approved_by || []), ...(m.rollback.rejected_by || [])].includes(m.seat))
        ? (approve) => play.run(() => api.voteRollback(id, token, m.rollback.proposal, approve))
        : null}),
      h("section", {"aria-label": t("table.table")}, board(game, part, m.seat, handPick(m))),
      endBox(m, {}) || actionsPanel(game, play.legal.filter((g) => !(handPick(m) && g.type === "play")),
        play.send, {busy: play.busy}),
      scoreBoard(game, m),
      m.rematch ? h("p", {}, h("a", {href: `#match=${encodeURIComponent(m.rematch)}`,
        "data-key": "to-rematch", onclick: () => sessionStorage.setItem(
          `referee.table.seat.${m.rematch}`, token)}, t("table.end.to_rematch"))) : null,
    ]);
  }
  await play.start();
  return {render, stop: play.stop, relang: play.relang};
}
