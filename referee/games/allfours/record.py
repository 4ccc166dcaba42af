"""The scored-hand record of an All Fours snapshot: ``last_hand`` and the per-side tallies
(issue 12 item 8: every field checked).

``check_record(state, problems)`` flags, each naming its field:

- ``score`` and ``hand_points`` not keyed by exactly the two sides (AF-S6);
- a ``last_hand`` of the wrong shape: ``high``/``low`` ``{"card", "player"}`` or null
  (AF-S1, AF-S2), ``jack`` ``{"player", "won_by", "points", "hanged"}`` or null with the
  points AF-S3 gives, ``game`` ``{"totals", "side"}`` (AF-S4), ``points`` per side, and
  ``reneges`` as the renege records AF-I1 keeps;
- right after a hand is scored (phase ``hand_over``) a ``last_hand`` other than the one the
  tricks, the deal and the options give (``scoring.hand_awards``);
- a ``scored_hands`` line (the score sheet, optional) that no scoring gives
  (:func:`check_sheet`).
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours.rules import side_of
from referee.games.allfours.scoring import hand_awards, sheet_awards
from referee.games.base import Problems
from referee.games.common.cards import is_card

RENEGE_KEYS = {"player", "side", "trick", "rule", "broke", "proven_by", "proven_at",
               "loses_game", "claim"}
FOLLOW_RULES = ("AF-P2", "AF-P3", "AF-P4")
GAME_POINTS = 80
"""AF-S4: A 4, K 3, Q 2, J 1 and 10 counting 10 in four suits: the most a hand's Game
totals can add up to."""


def _named(value: Any, players: list[str]) -> bool:
    """``value`` is one of ``players`` (a list or an object is no name)."""
    return isinstance(value, str) and value in players


def _whole(value: Any) -> bool:
    return type(value) is int and value >= 0


def per_side_ok(state: dict[str, Any], key: str, problems: Problems,
                where: str | None = None) -> bool:
    """``state[key]`` (or the dict at ``where``) maps exactly the sides to whole numbers."""
    value = state[key] if where is None else where
    field = f"state.{key}"
    if not isinstance(value, dict) or set(value) != set(state["sides"]):
        problems.flag("AF-S6", "allfours.snapshot.per_side", field, key=key,
                      sides=", ".join(sorted(state["sides"])))
        return False
    for side, points in value.items():
        if not _whole(points):
            problems.flag("AF-S6", "allfours.snapshot.not_whole", f"{field}.{side}", key=key,
                          side=side)
    return True


def check_sheet(state: dict[str, Any], problems: Problems) -> None:
    """Flag the first line of ``scored_hands`` (AF-S6) that no score sheet kept since any
    hand can hold (:func:`_line_ok`), or a last line the snapshot's score contradicts
    (:func:`_last_line_ok`).  Its types were checked by the schema."""
    lines = state.get("scored_hands") or []
    before, last_number = {side: 0 for side in state["sides"]}, 0
    for i, line in enumerate(lines):
        if not _line_ok(state, line, before, last_number):
            problems.flag("AF-S6", "allfours.snapshot.scored_hand", f"state.scored_hands[{i}]",
                          index=i)
            return
        before, last_number = line["score"], line["hand"]
    if lines and not _last_line_ok(state, lines[-1]):
        problems.flag("AF-S6", "allfours.snapshot.scored_hand",
                      f"state.scored_hands[{len(lines) - 1}]", index=len(lines) - 1)


def _line_ok(state: dict[str, Any], line: dict[str, Any], before: dict[str, int],
             last_number: int) -> bool:
    """One line: points and score keyed by the two sides, whole numbers; High, Low, Jack and
    Game each awarded at most once, to a side, within its points that hand; the hand after
    the line before (numbers rising) and before ``hand_number`` (or it, once the game is
    over: the hand that ended it is followed by no deal); the score at least the line
    before's and at most the snapshot's; the line after hand 1 or after the hand before
    it, that score plus the hand's points."""
    sides = set(before)
    if not all(set(line[key]) == sides and all(map(_whole, line[key].values()))
               for key in ("points", "score")):
        return False
    kinds = [a["award"] for a in line["awards"] if a["award"] != "renege"]
    if len(set(kinds)) != len(kinds) or any(a["side"] not in sides for a in line["awards"]):
        return False
    newest = state["hand_number"] - (state["phase"] != "game_over")
    points, score = line["points"], line["score"]
    ok = last_number < line["hand"] <= newest and all(
        sum(a["points"] for a in line["awards"] if a["side"] == s) <= points[s] <= score[s]
        and before[s] <= score[s] <= state["score"][s] for s in sides)
    if ok and line["hand"] == last_number + 1:
        ok = all(score[s] == before[s] + points[s] for s in sides)
    return ok


def _last_line_ok(state: dict[str, Any], line: dict[str, Any]) -> bool:
    """The last line and the snapshot's score: equal when its hand ended the game or was
    just scored (``hand_over``); in the first deal of the hand after it, that score plus
    the deal's points (a redeal keeps earlier kicks' points, AF-B4, so then only at least)."""
    score, number = state["score"], state["hand_number"]
    if line["hand"] == number or (line["hand"] == number - 1 and state["phase"] == "hand_over"):
        return line["score"] == score
    if line["hand"] == number - 1 and state["redeals"] == 0 and \
            state["phase"] in ("beg", "answer", "play", "game_over"):
        return all(line["score"][s] + state["hand_points"][s] == score[s] for s in score)
    return True


def check_record(state: dict[str, Any], problems: Problems) -> None:
    """Flag every problem of ``score``, ``hand_points`` and ``last_hand`` (module docstring)."""
    check_sheet(state, problems)
    last = state["last_hand"]
    if last is None:
        return
    if not isinstance(last, dict) or set(last) != {"high", "low", "jack", "game", "points",
                                                    "reneges"}:
        problems.flag("AF-S6", "allfours.snapshot.last_hand_keys", "state.last_hand",
                      keys="game, high, jack, low, points, reneges")
        return
    before = len(problems.items)
    players = state["players"]
    for kind, rule in (("high", "AF-S1"), ("low", "AF-S2")):
        fact = last[kind]
        if fact is not None and not (isinstance(fact, dict) and set(fact) == {"card", "player"}
                                     and is_card(fact["card"])
                                     and _named(fact["player"], players)):
            problems.flag(rule, "allfours.snapshot.last_hand_field", f"state.last_hand.{kind}",
                          key=kind)
    _jack(state, last["jack"], problems)
    game = last["game"]
    if not (isinstance(game, dict) and set(game) == {"totals", "side"}
            and (game["side"] is None or isinstance(game["side"], str)
                 and game["side"] in state["sides"])):
        problems.flag("AF-S4", "allfours.snapshot.last_hand_field", "state.last_hand.game",
                      key="game")
    elif per_side_ok(state, "last_hand.game.totals", problems, game["totals"]) and \
            sum(v for v in game["totals"].values() if _whole(v)) > GAME_POINTS:
        problems.flag("AF-S4", "allfours.snapshot.last_hand_field",
                      "state.last_hand.game.totals", key="game.totals")
    per_side_ok(state, "last_hand.points", problems, last["points"])
    _reneges(state, last["reneges"], problems)
    if len(problems.items) == before and state["phase"] == "hand_over":
        _same_as_scored(state, last, problems)


def _jack(state: dict[str, Any], jack: Any, problems: Problems) -> None:
    """AF-S3: the holder, who won its trick, 1 point or ``hang_jack`` when hanged."""
    if jack is None:
        return
    players, sides = state["players"], state["sides"]
    ok = (isinstance(jack, dict) and set(jack) == {"player", "won_by", "points", "hanged"}
          and _named(jack["player"], players) and _named(jack["won_by"], players)
          and type(jack["hanged"]) is bool)
    if ok:
        hanged = side_of(sides, jack["won_by"]) != side_of(sides, jack["player"])
        points = state["options"]["hang_jack"] if hanged else 1
        ok = jack["hanged"] == hanged and type(jack["points"]) is int and \
            jack["points"] == points
    if not ok:
        problems.flag("AF-S3", "allfours.snapshot.last_hand_field", "state.last_hand.jack",
                      key="jack")


def _reneges(state: dict[str, Any], reneges: Any, problems: Problems) -> None:
    """AF-I1: renege records of the table-mode shape; digital mode never has one."""
    where = "state.last_hand.reneges"
    if not isinstance(reneges, list) or (state["mode"] == "digital" and reneges):
        problems.flag("AF-I1", "allfours.snapshot.last_hand_field", where, key="reneges")
        return
    claims = [r.get("claim") for r in reneges if isinstance(r, dict)]
    if len(set(map(str, claims))) != len(claims):  # one record per claim proven (AF-I1)
        problems.flag("AF-I1", "allfours.snapshot.last_hand_field", where, key="reneges")
    for i, r in enumerate(reneges):
        ok = isinstance(r, dict) and set(r) == RENEGE_KEYS and _named(r["player"],
                                                                       state["players"])
        ok = ok and r["side"] == side_of(state["sides"], r["player"]) and \
            r["rule"] == "AF-I1" and r["broke"] in FOLLOW_RULES and is_card(r["proven_by"])
        ok = ok and all(type(r[k]) is int and r[k] >= 1 for k in ("trick", "proven_at",
                                                                   "claim"))
        if not (ok and r["proven_at"] >= r["trick"] and type(r["loses_game"]) is bool):
            problems.flag("AF-I1", "allfours.snapshot.last_hand_field", f"{where}[{i}]",
                          key="reneges")


def _same_as_scored(state: dict[str, Any], last: dict[str, Any], problems: Problems) -> None:
    """Right after the scoring the record is what the hand's cards give (AF-S1…S5, AF-I1),
    and so are the awards of the score sheet's last line."""
    scored = hand_awards(dealt=state["dealt"], tricks=state["tricks"], trump=state["trump"],
                         sides=state["sides"], dealer=state["dealer"],
                         options=state["options"], reneges=state["reneges"])
    lines = state.get("scored_hands") or []
    where = f"state.scored_hands[{len(lines) - 1}]"
    named = any(item.field == where for item in problems.items)  # a line is named once
    if lines and lines[-1]["hand"] == state["hand_number"] - 1 and not named and \
            lines[-1]["awards"] != sheet_awards(scored["awards"]):
        # not over: every award was scored
        problems.flag("AF-S6", "allfours.snapshot.scored_hand", where, index=len(lines) - 1)
    expected = {k: scored[k] for k in ("high", "low", "jack", "game")}
    expected.update(points=state["hand_points"], reneges=state["reneges"])
    for key, value in expected.items():
        if last[key] != value:
            problems.flag("AF-S6", "allfours.snapshot.last_hand_scored",
                          f"state.last_hand.{key}", key=key)
