"""The snapshot's records, checked: ``last_turn`` (the turn just finished), ``knowledge`` (what
each reader knows of the face-down cards, COUP-X1) and ``disputes`` (moves the referee's
knowledge contradicts, COUP-X1).  See :mod:`referee.games.coup.table` for their meaning.

``check_record_types`` runs with the other type checks; ``check_records`` on a state whose
other fields passed.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.base import UNKNOWN, Problems
from referee.games.common.seats import next_seat
from referee.games.coup.apply import ACTION_CHALLENGE, ACTION_PROOF, OVER, RESOLVE, STAGES
from referee.games.coup.rules import (HOST, TARGETED, TURN_ACTIONS, blocking_characters,
                                      characters_in_game, copies_per_character,
                                      only_target_blocks)
from referee.games.coup.table import COURT, accounted

DISPUTE_FIELDS = ("turn", "player", "action", "card", "place", "reader", "rule", "known",
                  "copies")
DISPUTED_ACTIONS = ("prove", "lose_influence", "return_cards", "show_card", "examine_decide",
                    "choose_card")
"""The moves that name a face-down card, so the only ones a dispute can be about (COUP-X1)."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def bad_action(action: Any, players: list[str], actor: str) -> bool:
    """Not a declared action ``{"type", "target"?}`` of ``actor`` (COUP-T1, A9)."""
    kind = action.get("type") if isinstance(action, dict) else None
    keys = {"type", "target"} if kind in TARGETED else {"type"}
    return kind not in TURN_ACTIONS or set(action) != keys or (
        kind in TARGETED and (action["target"] not in players or action["target"] == actor))


# --- types ---------------------------------------------------------------------------------
def check_record_types(state: dict, problems: Problems) -> None:
    """Types and domains of ``last_turn``, ``knowledge`` and ``disputes``."""
    players, mode = state["players"], state["mode"]
    in_game = characters_in_game(state["options"]["exchanger"])
    last = state["last_turn"]
    if last is not None:
        block = last.get("block") if isinstance(last, dict) else None
        if (not isinstance(last, dict) or set(last) != {"player", "action", "block"}
                or last["player"] not in players
                or bad_action(last["action"], players, last["player"])
                or block is not None and (
                    not isinstance(block, dict) or set(block) != {"player", "character"}
                    or block["player"] not in players or block["player"] == last["player"]
                    or block["character"] not in blocking_characters(
                        last["action"]["type"], state["options"]["exchanger"])
                    or only_target_blocks(last["action"]["type"])
                    and block["player"] != last["action"]["target"])):
            problems.flag("COUP-T1", "coup.snapshot.bad_last_turn", "state.last_turn")
    knowledge = state["knowledge"]
    readers = [*players, HOST] if mode == "table" else []
    if not isinstance(knowledge, dict) or sorted(knowledge) != sorted(readers):
        problems.flag("COUP-X1", "coup.snapshot.bad_knowledge", "state.knowledge",
                      readers=', '.join(readers) or "none")
    else:
        places = {*players, COURT}
        for reader, records in knowledge.items():
            if not isinstance(records, list):
                problems.flag("COUP-X1", "coup.snapshot.bad_record", f"state.knowledge.{reader}",
                              reader=reader)
                continue
            for i, record in enumerate(records):
                if (not isinstance(record, dict) or set(record) != {"card", "places"}
                        or record["card"] not in in_game
                        or not isinstance(record["places"], list) or not record["places"]
                        or not all(isinstance(p, str) and p in places
                                   for p in record["places"])
                        or record["places"] != sorted(set(record["places"]))
                        or record["places"] == [reader]
                        or COURT not in record["places"] and (
                            reader == HOST or len(record["places"]) != 1)):
                    problems.flag("COUP-X1", "coup.snapshot.bad_record",
                                  f"state.knowledge.{reader}[{i}]", reader=reader)
    disputes = state["disputes"]
    if not isinstance(disputes, list) or (mode == "digital" and disputes):
        problems.flag("COUP-X1", "coup.snapshot.bad_disputes", "state.disputes")
        return
    copies = copies_per_character(len(players))
    for i, dispute in enumerate(disputes):
        if (not isinstance(dispute, dict) or set(dispute) != set(DISPUTE_FIELDS)
                or not _is_int(dispute["turn"]) or dispute["turn"] < 1
                or dispute["player"] not in players
                or dispute["action"] not in DISPUTED_ACTIONS
                or dispute["card"] not in in_game
                or dispute["place"] not in (*players, "pile")
                or dispute["reader"] not in (*players, HOST)
                or dispute["reader"] == dispute["player"]
                or dispute["rule"] != "COUP-X1" or dispute["copies"] != copies
                or not _is_int(dispute["known"]) or dispute["known"] < copies):
            problems.flag("COUP-X1", "coup.snapshot.bad_dispute", f"state.disputes[{i}]")


# --- consistency ---------------------------------------------------------------------------
def check_records(state: dict, problems: Problems) -> None:
    """The records agree with the rest of the state: the last turn is an earlier turn; each
    reader's records name living places and no more copies than the game has (beyond the
    ones disputed against that reader's knowledge); a dispute is of a turn so far."""
    turn, last = state["turn"], state["last_turn"]
    if (last is None) != (turn["number"] == 1) or (
            last is not None and turn["stage"] != OVER and last["player"] == turn["player"]):
        problems.flag("COUP-T1", "coup.snapshot.last_turn_mismatch", "state.last_turn",
                      number=turn["number"])
    _check_turn_order(state, problems)
    for i, dispute in enumerate(state["disputes"]):
        if dispute["turn"] > turn["number"]:
            problems.flag("COUP-X1", "coup.snapshot.dispute_later", f"state.disputes[{i}]",
                          number=turn["number"])
    if state["mode"] != "table":
        return
    copies = copies_per_character(len(state["players"]))
    disputed = Counter((d["reader"], d["card"]) for d in state["disputes"])
    court_unknown = state["court"].count(UNKNOWN)
    for reader, records in state["knowledge"].items():
        where = f"state.knowledge.{reader}"
        for i, record in enumerate(records):
            out = [p for p in record["places"] if p != COURT and not state["hands"][p]]
            if out:
                problems.flag("COUP-X1", "coup.snapshot.record_place_out", f"{where}[{i}]",
                              reader=reader, player=out[0])
        pinned = Counter(tuple(r["places"]) for r in records if len(r["places"]) == 1)
        for (place,) in pinned:  # a card a seat was shown was named to the referee (A8b)
            if reader == HOST or place == COURT:
                continue
            seen = Counter(r["card"] for r in records if r["places"] == [place])
            named = Counter(state["hands"][place])
            short = sorted(c for c, k in seen.items() if named[c] < k)
            if short:
                problems.flag("COUP-A8b", "coup.snapshot.record_not_named", where,
                              reader=reader, player=place, name=short[0])
        for (place,), count in pinned.items():
            room = court_unknown if place == COURT and reader == HOST else len(
                state["court"] if place == COURT else state["hands"][place])
            if count > room:
                problems.flag("COUP-X1", "coup.snapshot.records_too_many", where, reader=reader,
                              place=place, count=count, room=room)
        known = accounted(state, reader, "")
        for card, count in sorted(known.items()):
            allowed = copies + disputed[(reader, card)]
            if count > allowed:
                problems.flag("COUP-S3", "coup.snapshot.known_copies", where, reader=reader,
                              name=card, count=count, copies=copies)
    _check_host_named(state, problems)


def _check_turn_order(state: dict, problems: Problems) -> None:
    """Flow step 6 (S1, S8, L2): the first turn is the first player's; a later one is that of
    the next living player after the last turn's; a steal declared on an empty target needs
    ``steal_from_empty`` (A6); a target is living until the action's challenge is settled."""
    turn, last, options = state["turn"], state["last_turn"], state["options"]
    if turn["stage"] == OVER:
        return
    out = [p for p in state["players"] if not state["hands"][p]]
    first = options["first_player"] or state["players"][0]
    if last is None and turn["number"] == 1 and turn["player"] != first:
        problems.flag("COUP-S8", "coup.snapshot.not_first_player", "state.turn.player",
                      first=first)
    elif last is not None and last["player"] in state["players"] and next_seat(
            state["players"], last["player"], out) != turn["player"]:
        problems.flag("COUP-T1", "coup.snapshot.turn_order", "state.turn.player",
                      last=last["player"], player=turn["player"])
    action, stage = turn["action"], turn["stage"]
    if action is None or action.get("target") is None:
        return
    target = action["target"]
    if stage in (ACTION_CHALLENGE, ACTION_PROOF) and not state["hands"][target]:
        problems.flag("COUP-A9", "coup.snapshot.target_out", "state.turn.action",
                      target=target)
    elif (action["type"] == "steal" and not options["steal_from_empty"]
          and state["coins"][target] == 0 and state["hands"][target]
          and STAGES.index(stage) < STAGES.index(RESOLVE) and state["loss"] is None):
        problems.flag("COUP-A6", "coup.snapshot.steal_from_empty", "state.turn.action",
                      target=target)


def _check_host_named(state: dict, problems: Problems) -> None:
    """Cards go into the court deck only to be shuffled at once (C4, A7, A8): at a table,
    after the first shuffle no court card is named and before it nothing is known to be in
    the court deck but the cards entered there (COUP-X1)."""
    if state["shuffles"] and any(c != UNKNOWN for c in state["court"]):
        problems.flag("COUP-X1", "coup.snapshot.court_order_known", "state.court")
    elif not state["shuffles"] and any(COURT in r["places"] for records in
                                       state["knowledge"].values() for r in records):
        problems.flag("COUP-X1", "coup.snapshot.court_record_unshuffled", "state.knowledge")
