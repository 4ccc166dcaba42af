"""What a Gnoming A Round action may do now: its violations and the list of legal actions.

Actions (rules file, Vocabulary): ``flip`` (``position``), ``draw`` (``source``
``"draw_pile"``/``"discard"`` + ``pile``), ``place`` (``position``), ``discard`` (``pile``;
none for a Hazard).  In table mode (GN-X1) a card turned up is entered with ``card``: on
``flip``, on ``draw`` from the draw pile, on ``place`` onto a face-down card (the card it
replaces), and on ``discard`` when a discard pile is started (GN-S1) or restarted (GN-D4).

Phases of the state: ``setup`` (GN-S2 flips; in table mode the starter starts the piles),
``draw``, ``play`` (holding the drawn card), ``bounce`` (holding a replaced card that may
bounce, GN-B1), ``discard`` (holding a card that must be discarded), ``restart`` (table mode,
GN-D4), ``hazard`` (GN-D1 flips), ``reveal`` (table mode, GN-E2), ``over``.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import Violation, violation
from referee.games.common.vocabulary import check_shape, dispatch
from referee.games.gnoming.rules import HAZARD, MULLIGAN, POSITIONS, is_positive, pos_name
from referee.games.gnoming.table import entered_card_problem, possible_from_draw_pile, unseen
from referee.games.gnoming.vocabulary import VOCABULARY

HOLDING_PHASES = ("play", "bounce", "discard")
TURN_PHASES = ("draw", *HOLDING_PHASES, "restart")
AFTER_DRAW = (*HOLDING_PHASES, "restart", "hazard")
"""Phases in which the turn's player has drawn this turn: a second draw breaks GN-T1 in each
(the turn passes only after the restart and the Hazard flips)."""
AFTER_DISCARD = ("restart", "hazard")
"""Phases in which the turn's player has discarded already: a further place or discard breaks
GN-T3 (the discard is the last step of a turn), not the rule the game now waits on."""


def face_down_count(grid: list[list[dict]]) -> int:
    """How many cards of a layout are still face down (GN-E1: none left = out)."""
    return sum(not cell["up"] for row in grid for cell in row)


def face_up_mulligans(grid: list[list[dict]]) -> int:
    """How many face-up Mulligans a layout holds (GN-M1)."""
    return sum(cell["up"] and cell["card"] == MULLIGAN for row in grid for cell in row)


def to_move(state: dict[str, Any]) -> list[str]:
    """Players who may act now, in seat order."""
    phase = state["phase"]
    if phase in TURN_PHASES:
        return [state["turn"]["player"]]
    if phase == "reveal":
        return [p for p in state["players"] if face_down_count(state["layouts"][p])]
    movers = [p for p in state["players"] if state["flips_due"][p] > 0]
    if phase == "setup" and state["mode"] == "table" and not all(state["discard_piles"]):
        movers = sorted(set(movers) | {state["starter"]}, key=state["players"].index)
    return movers if phase in ("setup", "hazard") else []


def bounce_problem(state: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Why the card just replaced may not bounce (GN-B1) as ``(code, params)`` of a
    ``gnoming.place.cannot_bounce…`` message, or ``None`` when it may."""
    turn = state["turn"]
    card, player = turn["holding"], turn["player"]
    holding = repr(card)
    if not turn["replaced_face_down"]:
        return ("gnoming.place.cannot_bounce.after_face_up",
                {"holding": holding, "position": pos_name(turn["filled"][-1])})
    if not is_positive(card):
        kind = {MULLIGAN: "mulligan", HAZARD: "hazard"}.get(card, "negative")
        return f"gnoming.place.cannot_bounce.{kind}", {"holding": holding}
    grid = state["layouts"][player]
    if not any(cell["up"] and cell["card"] == card for row in grid for cell in row):
        return "gnoming.place.cannot_bounce.no_match", {"holding": holding, "player": player}
    if len(turn["filled"]) == len(POSITIONS):
        return "gnoming.place.cannot_bounce.all_filled", {"holding": holding}
    return None


def shape_violations(state: dict[str, Any], action: Any) -> list[Violation]:
    """Violations of an action's shape (``vocabulary.py``): type, player, fields and their
    values (GN-T1, GN-C2, GN-S1, GN-C1)."""
    return check_shape(VOCABULARY, action, state["players"])


def violations(state: dict[str, Any], action: Any) -> list[Violation]:
    """Every rule ``action`` breaks in ``state`` (a checked state); empty when legal."""
    return shape_violations(state, action) or rule_violations(state, action)


def rule_violations(state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
    """:func:`violations` of an action whose shape is known to be right (one that
    :func:`legal_actions` built: a type, a player to move, fields of their kinds): the rules
    only (GN-W1 and each type's checks), without checking the shape again."""
    if state["phase"] == "over":
        return [violation('GN-W1', "gnoming.game.over")]
    return CHECKS[action["type"]](state, action)


def _card_entry(state: dict[str, Any], action: dict, needed_at: str | None) -> list[Violation]:
    """GN-X1: in table mode ``card`` is sent exactly when a card is turned up (``needed_at``
    ``"face_down"`` or ``"draw_pile"``) and must still be possible; digital mode never sends it."""
    card = action.get("card")
    if state["mode"] == "digital":
        return [] if card is None else [violation('GN-X1', "gnoming.card.digital_mode", 'action.card')]
    if needed_at is None:
        return [] if card is None else [violation('GN-X1', "gnoming.card.not_turned_up", 'action.card')]
    if card is None:
        return [violation('GN-X1', "gnoming.card.missing", 'action.card')]
    problem = entered_card_problem(state, card, needed_at)
    return [violation("GN-X1", problem[0], "action.card", **problem[1])] if problem else []


def _not_now(state: dict[str, Any], player: str, doing: str) -> Violation:
    """The violation for an action out of turn or out of phase; ``doing`` is the action type
    (a Gnoming action named as a verb, ``doing`` in referee.i18n.term_params: "turn up a
    card", "draw"…)."""
    phase, turn_player = state["phase"], state["turn"]["player"]
    if phase in TURN_PHASES and player != turn_player:
        return violation('GN-S3', "gnoming.turn.not_yours", 'action.player', turn_player=turn_player, player=player)
    rule = {"setup": "GN-S2", "hazard": "GN-D1", "reveal": "GN-E2", "restart": "GN-D4",
            "draw": "GN-T1", "play": "GN-T2", "bounce": "GN-B1", "discard": "GN-T3"}[phase]
    return violation(rule, f"gnoming.turn.waits.{phase}", player=player, doing=doing,
                     turn_player=turn_player)


def _no_flip_owed(state: dict[str, Any], player: str, rule: str) -> Violation:
    """The most specific rule a flip owed by nobody breaks: GN-S2 (the two setup cards are
    turned up), GN-D1 (the Hazard's discarder turns up nothing; one card per Hazard), GN-D3
    (never the last face-down card)."""
    if rule == "GN-S2":
        return violation("GN-S2", "gnoming.flip.setup_done", "action.player", player=player)
    if player == state["turn"]["player"]:
        return violation("GN-D1", "gnoming.flip.hazard_discarder", "action.player",
                         player=player)
    if face_down_count(state["layouts"][player]) <= 1:
        return violation("GN-D3", "gnoming.flip.hazard_last_card", "action.player",
                         player=player)
    return violation("GN-D1", "gnoming.flip.hazard_done", "action.player", player=player)


def _check_flip(state: dict[str, Any], action: dict) -> list[Violation]:
    """GN-S2 (two cards before play), GN-D1/GN-D3 (one card for a Hazard), GN-E2 (table mode:
    every face-down card at the end of the round)."""
    player, phase = action["player"], state["phase"]
    rule = {"setup": "GN-S2", "hazard": "GN-D1", "reveal": "GN-E2"}.get(phase)
    if rule is None:  # a flip is no part of a turn: only a Hazard owes one after setup
        return [violation("GN-D1", "gnoming.flip.not_owed", "action.type", player=player)]
    grid = state["layouts"][player]
    if phase != "reveal" and state["flips_due"][player] == 0:
        return [_no_flip_owed(state, player, rule)]
    if phase == "reveal" and not face_down_count(grid):
        return [violation(rule, "gnoming.flip.none_face_down", 'action.player', player=player)]
    r, c = action["position"]
    if grid[r][c]["up"]:
        return [violation(rule, "gnoming.flip.face_up", 'action.position', position=pos_name((r, c)), player=player)]
    return _card_entry(state, action, "face_down")


def _check_draw(state: dict[str, Any], action: dict) -> list[Violation]:
    """GN-T1: the turn's player draws once, from the draw pile or a non-empty discard pile."""
    player = action["player"]
    if state["phase"] != "draw" or player != state["turn"]["player"]:
        if player == state["turn"]["player"] and state["phase"] in AFTER_DRAW:
            return [violation('GN-T1', "gnoming.draw.twice", player=player)]
        return [_not_now(state, player, "draw")]
    if action["source"] == "draw_pile":
        if "pile" in action:
            return [violation('GN-T1', "gnoming.draw.pile_not_discard", 'action.pile')]
        return _card_entry(state, action, "draw_pile")
    if "pile" not in action:
        return [violation('GN-T1', "gnoming.draw.no_pile", 'action.pile')]
    if not state["discard_piles"][action["pile"]]:
        return [violation('GN-T1', "gnoming.draw.empty_pile", 'action.pile', pile=action['pile'])]
    return _card_entry(state, action, None)


def _not_holding(state: dict[str, Any], player: str, doing: str) -> Violation:
    """Why ``player`` cannot ``doing`` (``place`` or ``discard``) a drawn card now: nothing
    drawn yet this turn (GN-T1), the turn's card already discarded (GN-T3), or not the
    player's move at all (:func:`_not_now`)."""
    if player == state["turn"]["player"] and state["phase"] == "draw":
        code = {"place": "gnoming.place.before_draw", "discard": "gnoming.discard.before_draw"}
        return violation('GN-T1', code[doing], player=player)
    if player == state["turn"]["player"] and state["phase"] in AFTER_DISCARD:
        return violation('GN-T3', "gnoming.turn.discarded", player=player)
    return _not_now(state, player, doing)


def _check_place(state: dict[str, Any], action: dict) -> list[Violation]:
    """GN-T2 (place the drawn card anywhere), GN-B1 (bounce onto a position not filled this
    turn), GN-M1 (the Mulligan limit)."""
    player, phase, turn = action["player"], state["phase"], state["turn"]
    if player != turn["player"] or phase not in HOLDING_PHASES:
        return [_not_holding(state, player, "place")]
    if phase == "discard":
        code, params = bounce_problem(state)
        return [violation("GN-B1", code, **params)]
    r, c = action["position"]
    found = []
    if [r, c] in turn["filled"]:
        found.append(violation('GN-B1', "gnoming.place.filled_this_turn", 'action.position', position=pos_name((r, c))))
    grid = state["layouts"][player]
    if turn["holding"] == MULLIGAN:
        after = face_up_mulligans(grid) + 1 - (grid[r][c]["up"] and grid[r][c]["card"] == MULLIGAN)
        allowed = max(1, turn["mulligans_at_start"])
        if after > allowed:
            found.append(violation('GN-M1', "gnoming.place.mulligan_limit", 'action.position', player=player, after=after, allowed=allowed))
    found += _card_entry(state, action, None if grid[r][c]["up"] else "face_down")
    return found


def _check_discard(state: dict[str, Any], action: dict) -> list[Violation]:
    """GN-T3 (discard onto either pile), GN-D2 (a Hazard leaves play, no pile), and in table
    mode the card turned up to start (GN-S1) or restart (GN-D4) an empty pile."""
    player, phase, turn = action["player"], state["phase"], state["turn"]
    starting = (state["mode"] == "table" and
                (phase == "restart" and player == turn["player"]
                 or phase == "setup" and player == state["starter"]
                 and not all(state["discard_piles"])))
    if starting:
        rule = "GN-D4" if phase == "restart" else "GN-S1"
        if "pile" not in action or state["discard_piles"][action["pile"]]:
            empty = [i for i, pile in enumerate(state["discard_piles"]) if not pile]
            return [violation(rule, "gnoming.discard.restart_pile", 'action.pile', pile=empty[0])]
        return _card_entry(state, action, "draw_pile")
    if player != turn["player"] or phase not in HOLDING_PHASES:
        return [_not_holding(state, player, "discard")]
    found = _card_entry(state, action, None)
    if turn["holding"] == HAZARD and "pile" in action:
        found.append(violation('GN-D2', "gnoming.discard.hazard_pile", 'action.pile'))
    elif turn["holding"] != HAZARD and "pile" not in action:
        found.append(violation('GN-T3', "gnoming.discard.no_pile", 'action.pile', holding=repr(turn['holding'])))
    return found


CHECKS = dispatch(VOCABULARY, {"flip": _check_flip, "draw": _check_draw,
                               "place": _check_place, "discard": _check_discard})


def legal_actions(state: dict[str, Any], player: str | None = None) -> list[dict[str, Any]]:
    """Every legal action now, of ``player`` or of everyone; in table mode one action per card
    the turned-up card may still be (GN-X1)."""
    if state["phase"] == "over":
        return []
    table = state["mode"] == "table"
    face_down_cards = unseen(state) if table else []
    draw_cards = possible_from_draw_pile(state) if table else []
    # (action without its card, the cards it may enter in table mode)
    shapes: list[tuple[dict[str, Any], list[str]]] = []
    for p in to_move(state):
        if player is not None and p != player:
            continue
        grid = state["layouts"][p]
        down = [[r, c] for r, c in POSITIONS if not grid[r][c]["up"]]
        if state["phase"] in ("setup", "hazard", "reveal"):
            shapes += [({"type": "flip", "player": p, "position": pos}, face_down_cards)
                       for pos in down]
        if state["phase"] in ("setup", "restart") and table:
            shapes += [({"type": "discard", "player": p, "pile": i}, draw_cards) for i in (0, 1)]
        if state["phase"] == "draw":
            shapes.append(({"type": "draw", "player": p, "source": "draw_pile"}, draw_cards))
            shapes += [({"type": "draw", "player": p, "source": "discard", "pile": i}, [])
                       for i in (0, 1)]
        if state["phase"] in HOLDING_PHASES:
            shapes += [({"type": "place", "player": p, "position": [r, c]},
                        [] if grid[r][c]["up"] else face_down_cards) for r, c in POSITIONS]
            if state["turn"]["holding"] == HAZARD:
                shapes.append(({"type": "discard", "player": p}, []))
            else:
                shapes += [({"type": "discard", "player": p, "pile": i}, []) for i in (0, 1)]
    legal = []
    for action, entries in shapes:  # built in the vocabulary's shapes: the rules decide
        # every card listed is still possible, so one card decides for all of them
        if not table or not entries:
            legal += [action] if not rule_violations(state, action) else []
        elif not rule_violations(state, {**action, "card": entries[0]}):
            legal += [{**action, "card": card} for card in entries]
    return legal
