"""Applying a legal Gnoming A Round action, and what follows it: the end of a turn (GN-D4
restart, GN-E1 going out, GN-D1 Hazard flips), GN-D5 reshuffles, the end of a round (GN-E2,
scoring) and the next round (GN-S3) or the end of the game (GN-W1).

Every function here changes the (already copied) state in place and appends to ``events``.
A card drawn from the draw pile is told only to its drawer (a private event) until it is
placed or discarded; every other card this module moves is face up and public.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import UNKNOWN, event
from referee.games.common.jsoncopy import json_copy
from referee.games.common.seats import next_seat
from referee.games.common.shuffle import shuffled
from referee.games.gnoming.judge import (
                                         bounce_problem, face_down_count, face_up_mulligans)
from referee.games.gnoming.rules import DECK_COUNTS, HAZARD, POSITIONS
from referee.games.gnoming.scoring import score_game, score_round
from referee.games.gnoming.setup import blank_turn, start_round
from referee.games.gnoming.table import reshuffle_source

Events = list[dict[str, Any]]



def copy_state(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of a checked state that this module may change: layout cells, piles, turn and
    the other containers are new; finished rounds in ``history`` are never changed, so they
    are shared."""
    new = {key: json_copy(value) for key, value in state.items()
           if key not in ("layouts", "draw_pile", "history")}
    new["layouts"] = {p: [[dict(cell) for cell in row] for row in grid]
                      for p, grid in state["layouts"].items()}
    new["draw_pile"] = list(state["draw_pile"])
    new["history"] = list(state["history"])
    return new


def play(new: dict[str, Any], action: dict[str, Any]) -> Events:
    """Apply a legal ``action`` (judged by the caller) to ``new`` (a :func:`copy_state`) in
    place; return the events."""
    events: Events = []
    HANDLERS[action["type"]](new, action, events)
    return events


def _take_from_draw_pile(state: dict[str, Any], card: str | None) -> str:
    """Take the top card of a non-empty draw pile; in table mode ``card`` is the card entered
    (a known card of a reshuffled pile, or one of the unknown cards)."""
    pile = state["draw_pile"]
    if state["mode"] == "digital":
        return pile.pop(0)
    pile.remove(card if card in pile else UNKNOWN)
    return card


def _ensure_draw_pile(state: dict[str, Any], events: Events) -> bool:
    """GN-D5: before a card is taken from an empty draw pile, shuffle both discard piles but
    their tops into a new one.  False when it is still empty (the round then ends at once)."""
    if state["draw_pile"]:
        return True
    cards = reshuffle_source(state)
    state["discard_piles"] = [pile[-1:] for pile in state["discard_piles"]]
    if state["mode"] == "digital":
        cards = shuffled(cards, state["seed"], "gnoming", "reshuffle", state["round"],
                         state["reshuffles"])
    else:  # table mode: the cards are known, their order is not
        order = list(DECK_COUNTS)
        cards = sorted(cards, key=order.index)
    state["draw_pile"] = cards
    state["reshuffles"] += 1
    events.append(event("reshuffled", rule="GN-D5", draw_pile_count=len(cards)))
    return bool(cards)


# --- the four actions -------------------------------------------------------------------------
def _flip(state: dict[str, Any], action: dict, events: Events) -> None:
    """GN-S2 / GN-D1 / GN-E2 (table mode): turn up one face-down card of one's own layout."""
    player, (r, c) = action["player"], action["position"]
    cell = state["layouts"][player][r][c]
    card = cell["card"] if state["mode"] == "digital" else action["card"]
    cell.update(card=card, up=True)
    phase = state["phase"]
    events.append(event("flipped", player=player, position=[r, c], card=card,
                        reason={"setup": "GN-S2", "hazard": "GN-D1"}.get(phase, "GN-E2")))
    if phase == "reveal":
        if not any(face_down_count(grid) for grid in state["layouts"].values()):
            _finish_round(state, events)
        return
    state["flips_due"][player] -= 1
    if phase == "setup":
        _maybe_start_play(state, events)
    elif not any(state["flips_due"].values()):
        _next_turn(state, events)


def _draw(state: dict[str, Any], action: dict, events: Events) -> None:
    """GN-T1: take the top card of the draw pile (told to the drawer only) or of a discard
    pile (public)."""
    player, turn = action["player"], state["turn"]
    if action["source"] == "draw_pile":
        if not _ensure_draw_pile(state, events):
            _end_round(state, events)
            return
        card = _take_from_draw_pile(state, action.get("card"))
        events.append(event("drew", player=player, source="draw_pile"))
        events.append(event("drew", visible_to=[player], player=player, source="draw_pile",
                            card=card))
        pile = None
    else:
        pile = action["pile"]
        card = state["discard_piles"][pile].pop()
        events.append(event("drew", player=player, source="discard", pile=pile, card=card))
    turn.update(holding=card, source=action["source"], pile=pile, filled=[],
                replaced_face_down=False,
                mulligans_at_start=face_up_mulligans(state["layouts"][player]))
    state["phase"] = "play"


def _place(state: dict[str, Any], action: dict, events: Events) -> None:
    """GN-T2 / GN-B1: put the held card face up at ``position``; the card there (turned up
    if face down) is held next, to bounce or discard."""
    turn = state["turn"]
    player, (r, c) = turn["player"], action["position"]
    cell = state["layouts"][player][r][c]
    was_down = not cell["up"]
    replaced = action["card"] if was_down and state["mode"] == "table" else cell["card"]
    placed = turn["holding"]
    cell.update(card=placed, up=True)
    turn.update(holding=replaced, filled=turn["filled"] + [[r, c]], replaced_face_down=was_down)
    state["phase"] = "bounce" if bounce_problem(state) is None else "discard"
    events.append(event("placed", player=player, position=[r, c], card=placed,
                        replaced=replaced, replaced_was_face_down=was_down,
                        may_bounce=state["phase"] == "bounce"))


def _discard(state: dict[str, Any], action: dict, events: Events) -> None:
    """GN-T3 / GN-D2 / GN-D1: discard the held card, then end the turn; or (table mode) turn
    up the card that starts (GN-S1) or restarts (GN-D4) an empty pile."""
    if state["phase"] in ("setup", "restart"):
        _start_pile(state, action, events)
        return
    turn = state["turn"]
    player, card = turn["player"], turn["holding"]
    turn["holding"] = None
    if card == HAZARD:  # GN-D2, GN-D1 with GN-D3
        state["removed"].append(card)
        due = [p for p in state["players"]
               if p != player and face_down_count(state["layouts"][p]) >= 2]
        state["flips_due"] = {p: int(p in due) for p in state["players"]}
        events.append(event("discarded", player=player, card=card, pile=None, rule="GN-D2"))
        if due:
            events.append(event("hazard", rule="GN-D1", players=due))
    else:
        state["discard_piles"][action["pile"]].append(card)
        events.append(event("discarded", player=player, card=card, pile=action["pile"]))
    _end_turn(state, events)


def _start_pile(state: dict[str, Any], action: dict, events: Events) -> None:
    """Table mode: the card entered is the top of the draw pile turned up onto an empty
    discard pile; a Hazard leaves play instead (GN-S4)."""
    card, pile = action["card"], action["pile"]
    if not _ensure_draw_pile(state, events):
        _end_round(state, events)
        return
    _take_from_draw_pile(state, card)
    _lay_pile_card(state, pile, card, events)
    if state["phase"] == "setup":
        _maybe_start_play(state, events)
    elif all(state["discard_piles"]):
        _after_restart(state, events)
    elif not _ensure_draw_pile(state, events):
        _end_round(state, events)


def _lay_pile_card(state: dict[str, Any], pile: int, card: str, events: Events) -> None:
    """Put ``card``, just turned up from the draw pile, on empty discard pile ``pile``."""
    if card == HAZARD:
        state["removed"].append(card)
        events.append(event("hazard_removed", rule="GN-S4", pile=pile))
    else:
        state["discard_piles"][pile].append(card)
        events.append(event("pile_started", pile=pile, card=card))


# --- what follows ---------------------------------------------------------------------------
def _maybe_start_play(state: dict[str, Any], events: Events) -> None:
    """GN-S2/GN-S3: once every player has turned up two cards (and both piles lie), the
    round's starter draws."""
    if any(state["flips_due"].values()) or not all(state["discard_piles"]):
        return
    state["phase"] = "draw"
    state["turn"] = blank_turn(state["starter"])
    events.append(event("turn", player=state["starter"]))


def _end_turn(state: dict[str, Any], events: Events) -> None:
    """GN-D4: restart an empty discard pile from the draw pile (digital: at once; table mode:
    the player enters the card), then go on."""
    empty = [i for i, pile in enumerate(state["discard_piles"]) if not pile]
    if state["mode"] == "table" and empty:
        if not _ensure_draw_pile(state, events):
            _end_round(state, events)
            return
        state["phase"] = "restart"
        return
    for i in empty:
        while not state["discard_piles"][i]:
            if not _ensure_draw_pile(state, events):
                _end_round(state, events)
                return
            _lay_pile_card(state, i, state["draw_pile"].pop(0), events)
    _after_restart(state, events)


def _after_restart(state: dict[str, Any], events: Events) -> None:
    """GN-E1: note the player who went out (the others get one more turn each); then the
    GN-D1 flips, or the next turn."""
    player = state["turn"]["player"]
    if state["went_out"] is None and not face_down_count(state["layouts"][player]):
        state["went_out"] = player
        players = state["players"]
        start = players.index(player)
        state["final_turns"] = [players[(start + k) % len(players)]
                                for k in range(1, len(players))]
        events.append(event("went_out", rule="GN-E1", player=player))
    elif player in state["final_turns"]:
        state["final_turns"].remove(player)
    if any(state["flips_due"].values()):
        state["phase"] = "hazard"
    else:
        _next_turn(state, events)


def _next_turn(state: dict[str, Any], events: Events) -> None:
    """The next player clockwise draws (GN-S3); after the final turns the round ends (GN-E1)."""
    if state["went_out"] is not None:
        if not state["final_turns"]:
            _end_round(state, events)
            return
        player = state["final_turns"][0]
    else:
        player = next_seat(state["players"], state["turn"]["player"])
    state["phase"] = "draw"
    state["turn"] = blank_turn(player)
    events.append(event("turn", player=player))


def _end_round(state: dict[str, Any], events: Events) -> None:
    """GN-E2: turn up every face-down card where it lies (table mode: the players enter them),
    then score the round."""
    state["final_turns"] = []
    state["flips_due"] = {p: 0 for p in state["players"]}
    state["turn"]["holding"] = None
    if state["mode"] == "table":
        if any(face_down_count(grid) for grid in state["layouts"].values()):
            state["phase"] = "reveal"
            events.append(event("reveal", rule="GN-E2"))
            return
    else:
        for player, grid in state["layouts"].items():
            for r, c in POSITIONS:
                if not grid[r][c]["up"]:
                    grid[r][c]["up"] = True
                    events.append(event("flipped", player=player, position=[r, c],
                                        card=grid[r][c]["card"], reason="GN-E2"))
    _finish_round(state, events)


def _finish_round(state: dict[str, Any], events: Events) -> None:
    """Score the round (GN-P1–P7), keep it in ``history``, then deal the next round (GN-S3) or
    end the game (GN-W1)."""
    layouts = {p: [[cell["card"] for cell in row] for row in grid]
               for p, grid in state["layouts"].items()}
    record = {"layouts": layouts, "went_out": state["went_out"]}
    state["history"].append(record)
    tie = state["options"]["out_first_tie"]
    scored = score_round(layouts, record["went_out"], tie)
    events.append(event("round_ended", round=state["round"], layouts=layouts,
                        went_out=record["went_out"], scores=scored["scores"]))
    if state["round"] < state["options"]["rounds"]:
        events += start_round(state, state["round"] + 1)
        return
    state["phase"] = "over"
    state["turn"] = blank_turn(state["turn"]["player"])
    result = score_game(state["history"], tie)
    events.append(event("game_over", rule="GN-W1", totals=result["totals"],
                        winners=result["winners"]))


HANDLERS = {"flip": _flip, "draw": _draw, "place": _place, "discard": _discard}
