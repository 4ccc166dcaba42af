"""Scoring a hand from a trick sheet (table mode, AF-X1).

A table that played with real cards enters the kicks, the dealer, the begging outcome and every
trick.  ``score_sheet`` first checks the sheet as AF-X1 says, collecting *every* problem, then
replays it through the engine in table mode — so the sheet is judged by exactly the rules that
judge live play, reneges (AF-I1) included — and reports High, Low, Jack and Game from the cards
each player is seen to have been dealt (every dealt card is played, AF-P1).

Sheet shape (``shared/cases/README.md``): ``players`` (play order), ``sides`` (optional),
``dealer``, ``kicks``, ``beg`` (``stand``/``give_one``/``run_pack``), ``tricks``
(``[{"leader", "cards"}]``), ``score_before`` (optional ``{side: points}``).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.allfours.play import track_reneges
from referee.games.allfours.rules import (HAND_SIZE, RUN_SIZE, default_sides, player_right_of,
                                          trick_winner_index)
from referee.games.allfours.scoring import hand_awards
from referee.games.allfours.snapshot import side_problems
from referee.games.base import InvalidSetup, Problems, Violation
from referee.games.common.cards import describe, is_card, suit_of


class InvalidSheet(InvalidSetup):
    """The trick sheet is inconsistent (AF-X1); ``violations`` lists every problem."""

    title = "Inconsistent trick sheet"
    slug = "inconsistent-sheet"


def score_sheet(engine, sheet: dict[str, Any], options: dict[str, Any] | None) -> dict:
    """Check and score one hand.  Returns ``{"valid": True, "points", "winner", "high",
    "low", "jack", "game", "reneges", "score", "trump"}``; raises :class:`InvalidSheet`
    (every AF-X1 problem) or ``InvalidSetup`` (bad options)."""
    resolved = engine.resolve_options(options)
    players = sheet["players"]
    sides = sheet.get("sides") or default_sides(players)
    Problems(sheet_problems(sheet, sides, resolved["target"])).raise_as(InvalidSheet)
    trump = suit_of(sheet["kicks"][-1])
    tricks = _tricks_with_players(sheet)
    state = _replay(engine, sheet, sides, resolved, tricks)
    dealt = {p: [] for p in players}  # every dealt card is played (AF-P1)
    for trick in tricks:
        for player, card in zip(trick["players"], trick["cards"]):
            dealt[player].append(card)
    every_renege = sheet_reneges(tricks, sides, trump, resolved["undertrump"])
    facts = hand_awards(dealt=dealt, tricks=tricks, trump=trump, sides=sides,
                        dealer=sheet["dealer"], options=resolved, reneges=every_renege)
    reneges = [{k: r[k] for k in ("player", "trick", "rule", "proven_by", "proven_at",
                                  "loses_game")} for r in every_renege]
    return {"valid": True, "points": state["hand_points"], "winner": state["winner"],
            "high": facts["high"], "low": facts["low"], "jack": facts["jack"],
            "game": facts["game"], "reneges": reneges, "score": state["score"],
            "trump": trump}


def sheet_reneges(tricks: list[dict], sides: dict[str, list[str]], trump: str,
                  undertrump: bool) -> list[dict[str, Any]]:
    """Every renege the whole sheet proves (AF-I1, AF-X1), even those proven after the game
    ended (they are listed, though the points after the end are not scored)."""
    claims: list[dict] = []
    reneges: list[dict] = []
    for number, trick in enumerate(tricks, start=1):
        for i, (player, card) in enumerate(zip(trick["players"], trick["cards"])):
            track_reneges(claims, reneges, sides, trick["cards"][:i], player, card, trump,
                          undertrump, number)
    return reneges


def _replay(engine, sheet, sides, options, tricks) -> dict[str, Any]:
    """Play the sheet (its ``tricks`` with who played each card) through the engine in table
    mode and return the final state."""
    state = engine.setup({"players": sheet["players"], "dealer": sheet["dealer"],
                          "sides": sides, "options": options, "mode": "table",
                          "kick": None}, seed="sheet")
    state["score"] = {s: (sheet.get("score_before") or {}).get(s, 0) for s in sides}
    dealer, right = sheet["dealer"], player_right_of(sheet["players"], sheet["dealer"])
    actions = [{"type": "deal", "player": dealer, "kick": sheet["kicks"][0]}]
    beg = sheet["beg"]
    if beg == "stand":
        actions.append({"type": "stand", "player": right})
    else:
        actions.append({"type": "beg", "player": right})
        actions.append({"type": beg, "player": dealer,
                        **({"kicks": sheet["kicks"][1:]} if beg == "run_pack" else {})})
    for trick in tricks:
        actions += [{"type": "play", "player": p, "card": c}
                    for p, c in zip(trick["players"], trick["cards"])]
    for action in actions:  # one working state, the unchecked inner step (judged, no copy)
        if engine.is_over(state):
            break
        engine.play_in_place(state, action)
    return state


def _tricks_with_players(sheet) -> list[dict[str, Any]]:
    players, trump = sheet["players"], suit_of(sheet["kicks"][-1])
    out = []
    for trick in sheet["tricks"]:
        start = players.index(trick["leader"])
        order = [players[(start + i) % len(players)] for i in range(len(players))]
        winner = order[trick_winner_index(trick["cards"], trump)]
        out.append({"leader": trick["leader"], "cards": list(trick["cards"]),
                    "players": order, "winner": winner})
    return out


def sheet_problems(sheet: dict[str, Any], sides: Any, target: int) -> list[Violation]:
    """Every AF-X1 problem of ``sheet`` (empty when it can be scored); ``score_before`` must
    also name sides and stay below ``target`` (AF-S6: else the game was already over)."""
    players = sheet["players"]
    out: list[Violation] = []
    if len(players) not in (2, 4) or len(set(players)) != len(players):
        return [Violation("AF-D1", "A sheet has 2 players, or 4 in two partnerships, each named "
                          "once.", "sheet.players")]
    out += side_problems(players, sides, "sheet.sides")
    if sheet["dealer"] not in players:
        out.append(Violation("AF-D2", f"The dealer {sheet['dealer']!r} is not a player.",
                             "sheet.dealer"))
    for side in sheet.get("score_before") or {}:
        if isinstance(sides, dict) and side not in sides:
            out.append(Violation("AF-S6", f"score_before names {side!r}, which is not a side.",
                                 f"sheet.score_before.{side}"))
        elif sheet["score_before"][side] >= target:
            out.append(Violation("AF-S6", f"{side} already had {sheet['score_before'][side]} "
                                 f"points, at least the target {target}: the game was over "
                                 "before this hand.", f"sheet.score_before.{side}"))
    kicks, beg, tricks = sheet["kicks"], sheet["beg"], sheet["tricks"]
    out += _card_problems(sheet)
    out += _kick_problems(kicks, beg)
    if out:
        return out
    expected = HAND_SIZE + RUN_SIZE * (len(kicks) - 1)
    if len(tricks) != expected:
        out.append(Violation("AF-X1", f"With {len(kicks)} kick(s) every player was dealt "
                             f"{expected} cards, so the hand has {expected} tricks, not "
                             f"{len(tricks)}.", "sheet.tricks"))
    out += _leader_problems(sheet)
    return out


def _card_problems(sheet) -> list[Violation]:
    out = []
    n = len(sheet["players"])
    located = [("sheet.kicks", c) for c in sheet["kicks"]]
    for i, trick in enumerate(sheet["tricks"]):
        where = f"sheet.tricks[{i}]"
        if trick["leader"] not in sheet["players"]:
            out.append(Violation("AF-X1", f"Trick {i + 1} is led by {trick['leader']!r}, who is "
                                 "not a player.", where + ".leader"))
        if len(trick["cards"]) != n:
            out.append(Violation("AF-X1", f"Trick {i + 1} has {len(trick['cards'])} cards, not "
                                 f"one per player ({n}).", where + ".cards"))
        located += [(f"{where}.cards[{j}]", c) for j, c in enumerate(trick["cards"])]
    for where, card in located:
        if not is_card(card):
            out.append(Violation("AF-D1", f"{card!r} is not a card.", where))
    counts = Counter(c for _, c in located)
    for card, times in counts.items():
        if times > 1 and is_card(card):
            places = [w for w, c in located if c == card]
            kicked = any(w == "sheet.kicks" for w in places)
            out.append(Violation("AF-X1", f"The {describe(card)} appears {times} times "
                                 f"({', '.join(places)})" +
                                 ("; a kicked card is out of play (AF-K1)." if kicked else
                                  "; every card is played once."), places[-1]))
    return out


def _kick_problems(kicks, beg) -> list[Violation]:
    if not kicks:
        return [Violation("AF-X1", "A sheet needs at least one kick.", "sheet.kicks")]
    if not all(is_card(k) for k in kicks):
        return []
    out = []
    if beg in ("stand", "give_one") and len(kicks) != 1:
        out.append(Violation("AF-X1", f"With {beg} there is exactly one kick; the sheet has "
                             f"{len(kicks)}.", "sheet.kicks"))
    if beg == "run_pack" and len(kicks) < 2:
        out.append(Violation("AF-X1", "Running the pack turns a new kick: a run_pack sheet has "
                             "at least two kicks.", "sheet.kicks"))
    first = suit_of(kicks[0])
    for i, kick in enumerate(kicks[1:-1], start=1):
        if suit_of(kick) != first:
            out.append(Violation("AF-X1", f"Kick {i + 1} ({kick}) changed the suit, so the pack "
                                 "was not run again after it.", f"sheet.kicks[{i}]"))
    if len(kicks) > 1 and suit_of(kicks[-1]) == first:
        out.append(Violation("AF-X1", f"The last kick ({kicks[-1]}) repeats the suit of the "
                             "first: the pack would have been run again.",
                             f"sheet.kicks[{len(kicks) - 1}]"))
    return out


def _leader_problems(sheet) -> list[Violation]:
    players, trump = sheet["players"], suit_of(sheet["kicks"][-1])
    expected = player_right_of(players, sheet["dealer"])
    out = []
    for i, trick in enumerate(sheet["tricks"]):
        if trick["leader"] != expected:
            why = "the player on the dealer's right" if i == 0 else "the winner of the last trick"
            out.append(Violation("AF-X1", f"Trick {i + 1} must be led by {why}, {expected}, "
                                 f"not {trick['leader']}.", f"sheet.tricks[{i}].leader"))
        start = players.index(trick["leader"])
        expected = players[(start + trick_winner_index(trick["cards"], trump)) % len(players)]
    return out
