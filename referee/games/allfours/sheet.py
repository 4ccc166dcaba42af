"""Scoring a hand from a trick sheet (table mode, AF-X1).

A table that played with real cards enters the kicks, the dealer, the begging outcome and every
trick.  ``score_sheet`` first checks the sheet as AF-X1 says, collecting *every* problem, then
scores it with the functions that judge live play in table mode, without playing it action by
action through the engine: the reneges the cards prove (``table.track_reneges``, AF-I1), High,
Low, Jack and Game from the cards each player is seen to have been dealt (every dealt card is
played, AF-P1; ``scoring.hand_awards``), and the points in the order the engine scores them
(``scoring.add_points``, AF-K1, AF-B2, AF-S6).  A sheet that passes its checks holds no action
the engine refuses (the turn, the kicks, the cards are exactly what AF-X1 checks; table hands
are unknown, so no play breaks AF-P2…P4), and its answer is the engine's:
``tests/allfours/test_sheet_fast_replay.py`` compares the two on random hands.

Sheet shape (``shared/cases/README.md``): ``players`` (play order), ``sides`` (optional),
``dealer``, ``kicks``, ``beg`` (``stand``/``give_one``/``run_pack``), ``tricks``
(``[{"leader", "cards"}]``), ``score_before`` (optional ``{side: points}``).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.allfours.rules import (HAND_SIZE, MAX_HAND, RUN_SIZE, default_sides,
                                          kick_points, player_right_of, side_of,
                                          trick_winner_index)
from referee.games.allfours.scoring import add_points, hand_awards
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
    every_renege, lost_by = _reneges_and_loss(tricks, sides, trump, resolved["undertrump"])
    facts = _hand_facts(sheet, tricks, sides, trump, resolved, every_renege)
    points, score, winner = _race(sheet, sides, resolved["target"], facts["awards"], lost_by)
    reneges = [{k: r[k] for k in ("player", "trick", "rule", "broke", "proven_by", "proven_at",
                                  "loses_game")} for r in every_renege]
    # the fields of the API's ScoreResponseSchema in its order: the API writes this as it is
    return {"valid": True, "points": points, "score": score, "winner": winner,
            "trump": trump, "high": facts["high"], "low": facts["low"], "jack": facts["jack"],
            "game": facts["game"], "reneges": reneges}


def sheet_facts(sheet: dict[str, Any], tricks: list[dict], sides: dict[str, list[str]],
                trump: str, options: dict[str, Any]) -> tuple[list[dict], dict[str, Any]]:
    """``(every renege, hand_awards(...))`` of the whole sheet on its own (``tricks`` with who
    played each card): what the engine finds when it plays every card (AF-S1…S6, AF-I1)."""
    every_renege = sheet_reneges(tricks, sides, trump, options["undertrump"])
    return every_renege, _hand_facts(sheet, tricks, sides, trump, options, every_renege)


def _hand_facts(sheet, tricks, sides, trump, options, reneges) -> dict[str, Any]:
    dealt: dict[str, list[str]] = {p: [] for p in sheet["players"]}
    for trick in tricks:  # every dealt card is played (AF-P1)
        for player, card in zip(trick["players"], trick["cards"]):
            dealt[player].append(card)
    return hand_awards(dealt=dealt, tricks=tricks, trump=trump, sides=sides,
                       dealer=sheet["dealer"], options=options, reneges=reneges)


def sheet_reneges(tricks: list[dict], sides: dict[str, list[str]], trump: str,
                  undertrump: bool) -> list[dict[str, Any]]:
    """Every renege the whole sheet proves (AF-I1, AF-X1), even those proven after the game
    ended (they are listed, though the points after the end are not scored)."""
    return _reneges_and_loss(tricks, sides, trump, undertrump)[0]


def _reneges_and_loss(tricks, sides, trump, undertrump) -> tuple[list[dict], str | None]:
    """Every renege of the sheet, and the side of the first one to lose the game (AF-I1: a
    failure to follow a trump lead proven by an honour), ``None`` when none does."""
    claims: list[dict] = []
    reneges: list[dict] = []
    lost_by = None
    for number, trick in enumerate(tricks, start=1):
        cards = trick["cards"]
        for i, (player, card) in enumerate(zip(trick["players"], cards)):
            proven = track_reneges(claims, reneges, sides, cards[:i], player, card, trump,
                                   undertrump, number)
            if proven and lost_by is None:
                lost_by = next((r["side"] for r, _ in proven if r["loses_game"]), None)
    return reneges, lost_by


def _race(sheet, sides, target, awards, lost_by) -> tuple[dict, dict, str | None]:
    """``(this hand's points, the match score, the winner)``: points count in the order the
    engine scores them (AF-S6) and stop at the first side to reach ``target`` — each kick as it
    is turned (AF-K1: the first, then those of running the pack, AF-B3), the point given to the
    beggar (AF-B2), then during play a game-losing renege ends the game for the other side
    (AF-I1), else the hand's awards (High, Low, Jack, Game, reneges)."""
    dealer_side = side_of(sides, sheet["dealer"])
    before = sheet.get("score_before") or {}
    score = {s: before.get(s, 0) for s in sides}
    points = {s: 0 for s in sides}
    kicks = sheet["kicks"]  # stand and give_one have one (sheet_problems), run_pack more
    order = [(dealer_side, kick_points(kicks[0]))]
    if sheet["beg"] == "give_one":
        beggar = player_right_of(sheet["players"], sheet["dealer"])
        order.append((side_of(sides, beggar), 1))
    order += [(dealer_side, kick_points(k)) for k in kicks[1:]]
    for side, amount in order:
        if amount and add_points(score, points, side, amount, target):
            return points, score, side
    if lost_by is not None:
        return points, score, next(s for s in sides if s != lost_by)
    for _kind, side, amount in awards:
        if add_points(score, points, side, amount, target):
            return points, score, side
    return points, score, None


def _tricks_with_players(sheet) -> list[dict[str, Any]]:
    players, trump = sheet["players"], suit_of(sheet["kicks"][-1])
    out = []
    for trick in sheet["tricks"]:
        start = players.index(trick["leader"])
        order = players[start:] + players[:start]  # play order from the leader
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
    players = sheet["players"]
    n = len(players)
    cards = list(sheet["kicks"])
    for i, trick in enumerate(sheet["tricks"]):
        if trick["leader"] not in players:
            out.append(violation("AF-X1", "allfours.sheet.leader_not_a_player",
                                 f"sheet.tricks[{i}].leader", number=i + 1,
                                 value=repr(trick["leader"])))
        if len(trick["cards"]) != n:
            out.append(violation("AF-X1", "allfours.sheet.trick_size",
                                 f"sheet.tricks[{i}].cards", number=i + 1,
                                 count=len(trick["cards"]), players=n))
        cards += trick["cards"]
    counts = Counter(cards)
    if len(counts) == len(cards) and all(map(is_card, cards)):
        return out  # every card a card, each once: no field to name
    located = [("sheet.kicks", c) for c in sheet["kicks"]]
    for i, trick in enumerate(sheet["tricks"]):
        located += [(f"sheet.tricks[{i}].cards[{j}]", c) for j, c in enumerate(trick["cards"])]
    for where, card in located:
        if not is_card(card):
            out.append(violation("AF-D1", "allfours.card.not_a_card", where, value=repr(card)))
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
