"""Setting up each hand of All Fours: the deal, the kick, begging's run of the pack and the
redeal when the pack runs out (AF-D*, AF-K1, AF-B3, AF-B4).

Functions here take a state the caller already copied and change it in place, returning events.
Digital mode deals from the state's seed (``common.shuffle``, purpose ``deal/<hand>/<redeal>``)
or from an entered deal; table mode is told each kick by the dealer and keeps hands as
``"unknown"`` cards.  The game's first state is made in ``engine._setup``.
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours.rules import (HAND_SIZE, RUN_SIZE, kick_points, max_runs,
                                          player_right_of, side_of)
from referee.games.allfours.scoring import award
from referee.games.base import UNKNOWN, event
from referee.games.common.cards import PACK, suit_of
from referee.games.common.shuffle import shuffled


def start_hand(state: dict[str, Any], dealer: str, pack: list[str] | None = None,
               hands: dict[str, list[str]] | None = None, kick: str | None = None) -> list[dict]:
    """Deal a fresh hand with ``dealer`` dealing (AF-D3, AF-K1).

    Digital mode: ``hands`` + ``pack`` (stock, top first) when a deal was entered, otherwise
    the seeded shuffle.  Table mode: ``kick`` is the card the dealer turned up; every hand is
    six unknown cards.  Scores the kick at once and ends the game if that reaches the target.
    """
    players = state["players"]
    state.update(dealer=dealer, next_dealer=None, kicks=[], beg=None, tricks=[],
                 trick=_new_trick(player_right_of(players, dealer)), claims=[], reneges=[],
                 exposed={p: [] for p in players}, hand_points={s: 0 for s in state["sides"]},
                 phase="beg")
    if state["mode"] == "table":
        state["hands"] = {p: [UNKNOWN] * HAND_SIZE for p in players}
        state["dealt"] = {p: [] for p in players}
        state["stock"] = []
    else:
        if hands is None:
            order = shuffled(PACK, state["seed"], "deal", state["hand_number"], state["redeals"])
            hands, pack = {}, order
            start = players.index(player_right_of(players, dealer))
            seats = [players[(start + i) % len(players)] for i in range(len(players))]
            for i, player in enumerate(seats):
                hands[player] = order[i * HAND_SIZE:(i + 1) * HAND_SIZE]
            pack = order[len(players) * HAND_SIZE:]
        state["hands"] = {p: list(hands[p]) for p in players}
        state["dealt"] = {p: list(hands[p]) for p in players}
        state["stock"] = list(pack)
        kick = state["stock"].pop(0)
    events = [event("deal", dealer=dealer, hand_number=state["hand_number"],
                    cards_each=HAND_SIZE)]
    events += turn_kick(state, kick)
    state["trump"] = suit_of(kick)
    return events


def _new_trick(leader: str) -> dict[str, Any]:
    return {"leader": leader, "cards": [], "players": []}


def turn_kick(state: dict[str, Any], kick: str) -> list[dict]:
    """Turn up ``kick``: record it and score AF-K1 points to the dealer's side at once."""
    state["kicks"].append(kick)
    points = kick_points(kick)
    events = [event("kick", card=kick, points=points)]
    if points:
        events += award(state, "kick", side_of(state["sides"], state["dealer"]), points)
    return events


def run_the_pack(state: dict[str, Any], table_kicks: list[str] | None) -> list[dict]:
    """Run the pack (AF-B3): 3 more cards each from the dealer's right and a new kick, again
    while the kick repeats the trump suit; when the pack cannot serve another round the same
    dealer deals afresh (AF-B4), keeping the kick points already scored.

    ``table_kicks``: in table mode, the kicks the dealer turned, in order.
    """
    players = state["players"]
    state["beg"] = "run_pack"
    events: list[dict] = [event("run_pack", dealer=state["dealer"])]
    runs = 0
    while state["phase"] != "game_over":
        if runs == max_runs(len(players)) or (state["mode"] == "digital" and
                                              len(state["stock"]) < RUN_SIZE * len(players) + 1):
            return events + redeal(state)
        start = players.index(player_right_of(players, state["dealer"]))
        for i in range(len(players)):
            player = players[(start + i) % len(players)]
            if state["mode"] == "table":
                new = [UNKNOWN] * RUN_SIZE
            else:
                new, state["stock"] = state["stock"][:RUN_SIZE], state["stock"][RUN_SIZE:]
                state["dealt"][player] += new
            state["hands"][player] += new
        kick = table_kicks[runs] if state["mode"] == "table" else state["stock"].pop(0)
        runs += 1
        events += turn_kick(state, kick)
        if suit_of(kick) != state["trump"]:
            state["trump"] = suit_of(kick)
            if state["phase"] != "game_over":  # the new kick's points may have ended it
                state["phase"] = "play"
            break
    return events


def redeal(state: dict[str, Any]) -> list[dict]:
    """AF-B4: the pack ran out; the same dealer deals a fresh hand (digital: at once, from the
    seed; table: the dealer sends ``deal`` with the new kick)."""
    state["redeals"] += 1
    dealer = state["dealer"]
    events = [event("redeal", dealer=dealer,
                    reason={"code": "allfours.redeal.pack_ran_out", "params": {}})]
    if state["mode"] == "table":
        state["phase"] = "deal"
        state["next_dealer"] = dealer
        return events
    return events + start_hand(state, dealer)
