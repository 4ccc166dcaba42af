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

from referee.games.allfours.rules import (HAND_SIZE, MAX_HAND, RUN_SIZE, default_sides,
                                          player_right_of, trick_winner_index)
from referee.games.allfours.scoring import hand_awards
from referee.games.allfours.snapshot import side_problems
from referee.games.allfours.table import track_reneges
from referee.games.base import InvalidSetup, Problems, Violation, violation
from referee.games.common.cards import is_card, suit_of


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
    state, complete = _replay(engine, sheet, sides, resolved, tricks)
    if complete and state["last_hand"] is not None:
        # every card was played and the hand scored: the replay saw every renege the sheet
        # proves, and scored the hand from the same cards, tricks and reneges (AF-S1…S6)
        every_renege, facts = state["reneges"], state["last_hand"]
    else:  # the game ended before the sheet did: judge the whole sheet on its own
        every_renege, facts = sheet_facts(sheet, tricks, sides, trump, resolved)
    reneges = [{k: r[k] for k in ("player", "trick", "rule", "broke", "proven_by", "proven_at",
                                  "loses_game")} for r in every_renege]
    return {"valid": True, "points": state["hand_points"], "winner": state["winner"],
            "high": facts["high"], "low": facts["low"], "jack": facts["jack"],
            "game": facts["game"], "reneges": reneges, "score": state["score"],
            "trump": trump}


def sheet_facts(sheet: dict[str, Any], tricks: list[dict], sides: dict[str, list[str]],
                trump: str, options: dict[str, Any]) -> tuple[list[dict], dict[str, Any]]:
    """``(every renege, hand_awards(...))`` of the whole sheet on its own (``tricks`` with who
    played each card): what the replay finds when it plays every card (AF-S1…S6, AF-I1)."""
    dealt: dict[str, list[str]] = {p: [] for p in sheet["players"]}
    for trick in tricks:  # every dealt card is played (AF-P1)
        for player, card in zip(trick["players"], trick["cards"]):
            dealt[player].append(card)
    every_renege = sheet_reneges(tricks, sides, trump, options["undertrump"])
    return every_renege, hand_awards(dealt=dealt, tricks=tricks, trump=trump, sides=sides,
                                     dealer=sheet["dealer"], options=options,
                                     reneges=every_renege)


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


def _replay(engine, sheet, sides, options, tricks) -> tuple[dict[str, Any], bool]:
    """Play the sheet (its ``tricks`` with who played each card) through the engine in table
    mode; return the final state and whether every action was played (``False`` when the
    game ended first)."""
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
            return state, False
        engine.play_in_place(state, action)
    return state, True


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
    also name sides and stay below ``target`` (AF-S6: else the game was already over).
    A check is skipped only when it cannot run: the trick count and the leaders after a value
    that is not a card or a kick problem, the leaders after a leader who is not a player, a
    trick of the wrong size or a dealer who is not a player; a card twice skips nothing."""
    players = sheet["players"]
    out: list[Violation] = []
    if len(players) not in (2, 4) or len(set(players)) != len(players):
        return [violation("AF-D1", "allfours.sheet.players", "sheet.players")]
    out += side_problems(players, sides, "sheet.sides")
    if sheet["dealer"] not in players:
        out.append(violation("AF-D2", "allfours.sheet.dealer", "sheet.dealer",
                             value=repr(sheet["dealer"])))
    for side in sheet.get("score_before") or {}:
        if isinstance(sides, dict) and side not in sides:
            out.append(violation("AF-S6", "allfours.sheet.score_before_side",
                                 f"sheet.score_before.{side}", value=repr(side)))
        elif sheet["score_before"][side] >= target:
            out.append(violation("AF-S6", "allfours.sheet.score_before_target",
                                 f"sheet.score_before.{side}", side=side,
                                 points=sheet["score_before"][side], target=target))
    kicks, beg, tricks = sheet["kicks"], sheet["beg"], sheet["tricks"]
    if len(tricks) > MAX_HAND or len(kicks) > MAX_HAND:  # bounded work (issue 12 item 3)
        return out + [violation("AF-X1", "allfours.sheet.too_long", "sheet.tricks" if
                                len(tricks) > MAX_HAND else "sheet.kicks", tricks=len(tricks),
                                kicks=len(kicks), limit=MAX_HAND)]
    cards, kick = _card_problems(sheet), _kick_problems(kicks, beg)
    out += cards + kick
    if kick or not kicks or any(v.code == "allfours.card.not_a_card" for v in cards):
        return out  # the trick count and the trump (so each trick's winner) are unknown
    expected = HAND_SIZE + RUN_SIZE * (len(kicks) - 1)
    if len(tricks) != expected:
        out.append(violation("AF-X1", "allfours.sheet.trick_count", "sheet.tricks",
                             kicks=len(kicks), expected=expected, count=len(tricks)))
    if sheet["dealer"] in players and not any(v.code in _UNPLACED for v in cards):
        out += _leader_problems(sheet)  # a card twice still leaves every winner known
    return out


# card problems after which a trick's players (so who won it) cannot be worked out
_UNPLACED = ("allfours.sheet.leader_not_a_player", "allfours.sheet.trick_size")


def _card_problems(sheet) -> list[Violation]:
    out = []
    n = len(sheet["players"])
    located = [("sheet.kicks", c) for c in sheet["kicks"]]
    for i, trick in enumerate(sheet["tricks"]):
        where = f"sheet.tricks[{i}]"
        if trick["leader"] not in sheet["players"]:
            out.append(violation("AF-X1", "allfours.sheet.leader_not_a_player", where + ".leader",
                                 number=i + 1, value=repr(trick["leader"])))
        if len(trick["cards"]) != n:
            out.append(violation("AF-X1", "allfours.sheet.trick_size", where + ".cards",
                                 number=i + 1, count=len(trick["cards"]), players=n))
        located += [(f"{where}.cards[{j}]", c) for j, c in enumerate(trick["cards"])]
    for where, card in located:
        if not is_card(card):
            out.append(violation("AF-D1", "allfours.card.not_a_card", where, value=repr(card)))
    counts = Counter(c for _, c in located)
    for card, times in counts.items():
        if times > 1 and is_card(card):
            places = [w for w, c in located if c == card]
            kicked = any(w == "sheet.kicks" for w in places)
            out.append(violation("AF-X1", "allfours.sheet.kicked_card_played" if kicked else
                                 "allfours.sheet.card_twice", places[-1], card=card,
                                 times=times, places=", ".join(places)))
    return out


def _kick_problems(kicks, beg) -> list[Violation]:
    if not kicks:
        return [violation("AF-X1", "allfours.sheet.no_kick", "sheet.kicks")]
    if not all(is_card(k) for k in kicks):
        return []
    out = []
    if beg in ("stand", "give_one") and len(kicks) != 1:
        out.append(violation("AF-X1", "allfours.sheet.one_kick", "sheet.kicks", beg=beg,
                             count=len(kicks)))
    if beg == "run_pack" and len(kicks) < 2:
        out.append(violation("AF-X1", "allfours.sheet.run_needs_two_kicks", "sheet.kicks"))
    first = suit_of(kicks[0])
    for i, kick in enumerate(kicks[1:-1], start=1):
        if suit_of(kick) != first:
            out.append(violation("AF-X1", "allfours.sheet.kick_changed_suit", f"sheet.kicks[{i}]",
                                 number=i + 1, kick=kick))
    if len(kicks) > 1 and suit_of(kicks[-1]) == first:
        out.append(violation("AF-X1", "allfours.sheet.last_kick_same_suit",
                             f"sheet.kicks[{len(kicks) - 1}]", kick=kicks[-1]))
    return out


def _leader_problems(sheet) -> list[Violation]:
    players, trump = sheet["players"], suit_of(sheet["kicks"][-1])
    expected = player_right_of(players, sheet["dealer"])
    out = []
    for i, trick in enumerate(sheet["tricks"]):
        if trick["leader"] != expected:
            out.append(violation("AF-X1", "allfours.sheet.first_leader" if i == 0 else
                                 "allfours.sheet.leader", f"sheet.tricks[{i}].leader",
                                 number=i + 1, expected=expected, leader=trick["leader"]))
        start = players.index(trick["leader"])
        expected = players[(start + trick_winner_index(trick["cards"], trump)) % len(players)]
    return out
