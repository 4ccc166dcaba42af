"""A trick sheet is scored once (issue 11): when the replay plays every card, ``score_sheet``
takes High, Low, Jack, Game (AF-S1…S4) and the reneges (AF-I1) from the hand the replay scored,
instead of scoring the sheet a second time.  Both must agree: for random table-mode hands
(random legal plays from unknown hands, so reneges happen) written down as sheets, the answer
equals :func:`sheet_facts` of the whole sheet on its own."""
from __future__ import annotations

import random

from referee.games.allfours.engine import ENGINE
from referee.games.allfours.sheet import _tricks_with_players, score_sheet, sheet_facts
from referee.games.common.cards import PACK, suit_of

KEYS = ("player", "trick", "rule", "broke", "proven_by", "proven_at", "loses_game")


def hand_sheets(seed: int, count: int):
    """``count`` sheets of table-mode hands played at random (a fresh game for each)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = ["ana", "ben", "cy", "dee"] if rng.random() < 0.7 else ["ana", "ben"]
        state = ENGINE.setup({"players": players, "dealer": players[0], "mode": "table",
                              "kick": rng.choice(PACK),
                              "options": ENGINE.resolve_options({"target": 30})}, seed=1)
        while state["phase"] not in ("hand_over", "game_over"):
            legal = [a for a in ENGINE.legal_actions(state) if a["type"] != "misdeal"]
            state, _ = ENGINE.apply(state, rng.choice(legal))
        if not state["tricks"] or state["beg"] == "begged":
            continue
        out.append({"players": players, "sides": state["sides"], "dealer": state["dealer"],
                    "kicks": list(state["kicks"]), "beg": state["beg"] or "stand",
                    "tricks": [{"leader": t["leader"], "cards": t["cards"]}
                               for t in state["tricks"]]})
    return out


def test_scored_once_agrees_with_the_whole_sheet_af_s1_s4_af_i1():
    reneged = 0
    for sheet in hand_sheets(3, 25):
        try:
            answer = score_sheet(ENGINE, sheet, None)
        except ValueError:
            continue  # a game-losing renege mid-hand leaves the sheet short (AF-X1)
        options = ENGINE.resolve_options(None)
        reneges, facts = sheet_facts(sheet, _tricks_with_players(sheet), sheet["sides"],
                                     suit_of(sheet["kicks"][-1]), options)
        assert answer["reneges"] == [{k: r[k] for k in KEYS} for r in reneges]
        for key in ("high", "low", "jack", "game"):
            assert answer[key] == facts[key], key
        reneged += bool(reneges)
    assert reneged > 3
