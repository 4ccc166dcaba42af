"""Setting up All Fours: the game's first state, then each hand: the deal, the kick, begging's
run of the pack and the redeal when the pack runs out (AF-D*, AF-K1, AF-B3, AF-B4).

:func:`new_game` makes the first state; the other functions take a state the caller already
copied and change it in place, returning events.
Digital mode deals from the state's seed (``common.shuffle``, purpose ``deal/<hand>/<redeal>``)
or from an entered deal; table mode is told each kick by the dealer and keeps hands as
``"unknown"`` cards.
"""
from __future__ import annotations

from typing import Any, Callable

from referee.games.allfours.rules import (HAND_SIZE, RUN_SIZE, default_sides, kick_points,
                                          max_runs, player_right_of, side_of)
from referee.games.allfours.scoring import award
from referee.games.allfours.snapshot import entered_deal_problems, side_problems
from referee.games.base import UNKNOWN, InvalidSetup, Problems, event
from referee.games.common.cards import PACK, suit_of
from referee.games.common.shuffle import shuffled


def new_game(body: dict[str, Any], seed: int | str, name: str,
             resolve_options: Callable[[Any], dict[str, Any]]
             ) -> tuple[dict[str, Any], list[dict]]:
    """Start a game (AF-D1…D3, AF-K1); return the state and the first deal's events (the
    deal, the kick and its points, at once, and ``game_over`` when they reach the target).  ``body``: ``players`` (2 or 4, play order),
    ``dealer`` (default the first player), ``options``, ``mode``, ``sides`` (optional),
    and either ``deal`` (``hands`` of 6 and ``stock`` top first, digital) or nothing (the
    seeded shuffle); in table mode an optional ``kick``.  Raises :class:`InvalidSetup`.
    ``name`` is the registry name, ``resolve_options`` the engine's option check (called once
    the players and the deal passed theirs)."""
    players = list(body["players"])
    problems = Problems()
    if len(players) not in (2, 4) or len(set(players)) != len(players):
        problems.flag("AF-D1", "allfours.setup.players", "players")
        problems.raise_as(InvalidSetup)
    mode = body.get("mode", "digital")
    dealer = body.get("dealer") or players[0]
    if dealer not in players:
        problems.flag("AF-D2", "allfours.setup.dealer_not_a_player", "dealer",
                      value=repr(dealer))
    sides = body.get("sides") or default_sides(players)
    problems.items += side_problems(players, sides, "sides")
    deal = body.get("deal")
    if deal is not None and mode == "table":
        problems.flag("AF-D3", "allfours.setup.table_has_no_deal", "deal")
    if deal is not None:
        problems.items += entered_deal_problems(players, deal)
    if mode == "digital" and body.get("kick") is not None:
        problems.flag("AF-K1", "allfours.setup.digital_turns_the_kick", "kick")
    problems.raise_as(InvalidSetup)
    state = {"game": name, "mode": mode, "seed": seed, "players": players,
             "sides": {k: list(v) for k, v in sides.items()},
             "options": resolve_options(body.get("options")), "hand_number": 1,
             "redeals": 0, "score": {s: 0 for s in sides}, "winner": None,
             "last_hand": None, "scored_hands": [], "phase": "deal", "next_dealer": dealer,
             "dealer": dealer}
    if mode == "table":
        if body.get("kick") is None:  # the dealer's ``deal`` action enters it
            state.update(dealing_placeholders(players, sides))
            return state, []
        return state, start_hand(state, dealer, kick=body["kick"])
    if deal is not None:
        return state, start_hand(state, dealer, pack=list(deal["stock"]), hands=deal["hands"])
    return state, start_hand(state, dealer)


def dealing_placeholders(players, sides) -> dict[str, Any]:
    """Empty hand fields for a table-mode game waiting for its first deal."""
    return {"hands": {p: [] for p in players}, "dealt": {p: [] for p in players}, "stock": [],
            "kicks": [], "trump": None, "beg": None, "tricks": [], "claims": [], "reneges": [],
            "trick": {"leader": players[0], "cards": [], "players": []},
            "exposed": {p: [] for p in players}, "hand_points": {s: 0 for s in sides}}


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
