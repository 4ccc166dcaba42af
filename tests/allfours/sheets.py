"""Random All Fours trick sheets, and the reference that scores one by playing it through the
engine's checked path, action by action (``ENGINE.apply`` on a plain ``dict``, so every
snapshot is checked again and every action judged).

The sheets are built without the engine: a shuffled pack, the kicks (a run of the pack turns
kicks of the trump suit until a new suit, AF-B3), 6 cards each plus 3 a run, and each player
playing any card of the hand (table mode knows no hand, so reneges happen, AF-I1); some are
then spoilt (:func:`spoil`) so that the sheet's own checks (AF-X1) have something to find.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from referee.games.allfours.engine import ENGINE
from referee.games.allfours.rules import (HAND_SIZE, RUN_SIZE, default_sides, max_runs,
                                          player_right_of, trick_winner_index)
from referee.games.allfours.sheet import (InvalidSheet, _tricks_with_players, sheet_facts,
                                          sheet_problems)
from referee.games.common.cards import PACK, suit_of

NAMES = ["ana", "ben", "cy", "dee"]


def random_options(rng: random.Random) -> dict[str, Any] | None:
    """No options, or a random choice of every All Fours option (low targets: races end)."""
    if rng.random() < 0.3:
        return None
    return {"target": rng.choice([1, 2, 3, 4, 5, 7, 10, 14]),
            "hang_jack": rng.choice([0, 1, 3, 5]), "game_value": rng.choice([0, 1, 2]),
            "game_tie": rng.choice(["none", "non_dealer", "dealer"]),
            "low": rng.choice(["dealt", "taker"]), "undertrump": rng.random() < 0.5}


def random_sheet(rng: random.Random, target: int) -> dict[str, Any]:
    """A played-out hand as a sheet (``score_before`` below ``target``, sometimes near it)."""
    players = list(NAMES if rng.random() < 0.6 else NAMES[:2])
    sides = default_sides(players)
    dealer = rng.choice(players)
    pack = list(PACK)
    rng.shuffle(pack)
    kicks = [pack.pop()]
    beg = rng.choice(["stand", "give_one", "run_pack"])
    runs = 0
    if beg == "run_pack":
        runs = rng.randint(1, max_runs(len(players)))
        same = [c for c in pack if suit_of(c) == suit_of(kicks[0])]
        other = [c for c in pack if suit_of(c) != suit_of(kicks[0])]
        kicks += rng.sample(same, runs - 1) + [rng.choice(other)]
        pack = [c for c in pack if c not in kicks]
    size = HAND_SIZE + RUN_SIZE * runs
    hands = {p: [pack.pop() for _ in range(size)] for p in players}
    trump, leader, tricks = suit_of(kicks[-1]), player_right_of(players, dealer), []
    for _ in range(size):
        start = players.index(leader)
        order = [players[(start + i) % len(players)] for i in range(len(players))]
        cards = [hands[p].pop(rng.randrange(len(hands[p]))) for p in order]
        tricks.append({"leader": leader, "cards": cards})
        leader = order[trick_winner_index(cards, trump)]
    sheet = {"players": players, "sides": sides if rng.random() < 0.5 else None,
             "dealer": dealer, "kicks": kicks, "beg": beg, "tricks": tricks}
    if sheet["sides"] is None:
        del sheet["sides"]
    if rng.random() < 0.7:
        sheet["score_before"] = {s: rng.randrange(target) for s in sides}
    return sheet


def spoil(rng: random.Random, sheet: dict[str, Any]) -> dict[str, Any]:
    """``sheet`` with one thing wrong, or (sometimes) harmless: two cards swapped, a card
    repeated, a leader changed, a trick dropped, the begging outcome changed, a kick added."""
    sheet = copy.deepcopy(sheet)
    tricks, what = sheet["tricks"], rng.randrange(6)
    a, b = rng.randrange(len(tricks)), rng.randrange(len(tricks))
    i, j = rng.randrange(len(tricks[a]["cards"])), rng.randrange(len(tricks[b]["cards"]))
    if what == 0:
        tricks[a]["cards"][i], tricks[b]["cards"][j] = tricks[b]["cards"][j], tricks[a]["cards"][i]
    elif what == 1:
        tricks[a]["cards"][i] = tricks[b]["cards"][j] if (a, i) != (b, j) else sheet["kicks"][0]
    elif what == 2:
        tricks[a]["leader"] = rng.choice(sheet["players"])
    elif what == 3:
        del tricks[a]
    elif what == 4:
        sheet["beg"] = rng.choice(["stand", "give_one", "run_pack"])
    else:
        sheet["kicks"].append(rng.choice(PACK))
    return sheet


def reference_score(sheet: dict[str, Any], options: dict[str, Any] | None
                    ) -> tuple[dict[str, Any], str | None]:
    """What ``score_sheet`` must answer, and the type of the action that ended the game
    (``None``: the game goes on; ``"play"``: a card, so a renege or the hand's scoring), found by the engine's checked path: the sheet's
    actions applied one by one through ``ENGINE.apply`` (every action judged, every state
    checked again as a submitted snapshot) until every card is played or the game is over.
    High, Low, Jack, Game and the reneges come from the hand the engine scored, or, when the
    game ended first, from :func:`sheet_facts` of the whole sheet.  Raises
    :class:`InvalidSheet` as ``score_sheet`` does; an illegal action raises ``IllegalAction``
    (a sheet its own checks passed must never have one)."""
    resolved = ENGINE.resolve_options(options)
    players = sheet["players"]
    sides = sheet.get("sides") or default_sides(players)
    problems = sheet_problems(sheet, sides, resolved["target"])
    if problems:
        raise InvalidSheet(problems)
    tricks = _tricks_with_players(sheet)
    state = dict(ENGINE.setup({"players": players, "dealer": sheet["dealer"], "sides": sides,
                               "options": resolved, "mode": "table", "kick": None},
                              seed="sheet"))
    state["score"] = {s: (sheet.get("score_before") or {}).get(s, 0) for s in sides}
    state["hand_number"] = 2  # a later hand of the game (AF-S6: the score may be above 0)
    dealer, right = sheet["dealer"], player_right_of(players, sheet["dealer"])
    actions = [{"type": "deal", "player": dealer, "kick": sheet["kicks"][0]}]
    if sheet["beg"] == "stand":
        actions.append({"type": "stand", "player": right})
    else:
        actions.append({"type": "beg", "player": right})
        actions.append({"type": sheet["beg"], "player": dealer,
                        **({"kicks": sheet["kicks"][1:]} if sheet["beg"] == "run_pack" else {})})
    actions += [{"type": "play", "player": p, "card": c}
                for t in tricks for p, c in zip(t["players"], t["cards"])]
    ended_by = None
    for action in actions:
        if ENGINE.is_over(state):
            break
        ended_by = action["type"]
        new, _ = ENGINE.apply(state, action)
        state = dict(new)  # a plain dict: the next apply checks it as a submitted snapshot
    if state["last_hand"] is not None:  # every card played and the hand scored
        reneges, facts = state["reneges"], state["last_hand"]
    else:
        reneges, facts = sheet_facts(sheet, tricks, sides, suit_of(sheet["kicks"][-1]),
                                     resolved)
    keys = ("player", "trick", "rule", "broke", "proven_by", "proven_at", "loses_game")
    answer = {"valid": True, "points": state["hand_points"], "winner": state["winner"],
            "high": facts["high"], "low": facts["low"], "jack": facts["jack"],
            "game": facts["game"], "reneges": [{k: r[k] for k in keys} for r in reneges],
            "score": state["score"], "trump": suit_of(sheet["kicks"][-1])}
    return answer, ended_by if state["winner"] is not None else None
