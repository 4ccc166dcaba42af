"""The action vocabulary (coup.md "Vocabulary"): each action's fields, which actions each stage
of the turn accepts, and the dispatch to the rules of each action.

``violations`` checks, in order: the action's shape, that the game is not over (E1), that a
pending loss is taken first (W2), that the action belongs to the current stage (T1, W1, C1,
B2…), then the action's own rules.  ``legal_actions`` lists every legal action of the stage.
"""
from __future__ import annotations

from typing import Any, Callable

from referee.games.base import Problems, Violation
from referee.games.coup import choices, declare, windows
from referee.games.coup.cards import (ACTION_RULES, HOST, TURN_ACTIONS, blocking_characters,
                                      exchange_return_rule)
from referee.games.coup.flow import (ACTION_CHALLENGE, BLOCK, BLOCK_CHALLENGE, CHOOSE, DECIDE,
                                     DECLARE, EXCHANGE, OVER, PROOFS, SHOW, WINDOWS, claimant,
                                     claimed, window_waiting)

# type: {field: (accepted python types, required)}
FIELDS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    **{kind: {} for kind in ("income", "foreign_aid", "tax", "exchange")},
    **{kind: {"target": ((str,), True)} for kind in ("coup", "assassinate", "steal", "examine")},
    **{kind: {} for kind in ("challenge", "pass", "concede", "close_window")},
    "block": {"character": ((str,), True)},
    "prove": {"card": ((str,), False)},
    "lose_influence": {"card": ((str,), True)},
    "return_cards": {"cards": ((list,), True)},
    "show_card": {"card": ((str,), True)},
    "examine_decide": {"swap": ((bool,), True)},
    "choose_card": {"card": ((str,), True)},
}

TYPE_RULES = {**ACTION_RULES, "challenge": "COUP-C1", "pass": "COUP-W1",
              "close_window": "COUP-W1", "block": "COUP-B1", "prove": "COUP-C2",
              "concede": "COUP-C2", "lose_influence": "COUP-L1", "return_cards": "COUP-A7",
              "show_card": "COUP-A8b", "examine_decide": "COUP-A8b", "choose_card": "COUP-S5"}

_WINDOW = ("pass", "close_window")
STAGE_ACTIONS = {
    CHOOSE: ("choose_card",), DECLARE: TURN_ACTIONS,
    ACTION_CHALLENGE: ("challenge", *_WINDOW), BLOCK: ("block", *_WINDOW),
    BLOCK_CHALLENGE: ("challenge", *_WINDOW), **{s: ("prove", "concede") for s in PROOFS},
    EXCHANGE: ("return_cards",), SHOW: ("show_card",), DECIDE: ("examine_decide",), OVER: (),
}
STAGE_RULES = {CHOOSE: "COUP-S5", DECLARE: "COUP-T1", **{s: "COUP-W1" for s in WINDOWS},
               **{s: "COUP-C2" for s in PROOFS}, EXCHANGE: "COUP-A7", SHOW: "COUP-A8b",
               DECIDE: "COUP-A8b", OVER: "COUP-E1"}

Check = Callable[[dict, dict, Problems], None]
Play = Callable[[dict, dict, list], None]
RULES: dict[str, tuple[Check, Play]] = {
    **{kind: (declare.check_declare, declare.play_declare) for kind in TURN_ACTIONS},
    "challenge": (windows.check_challenge, windows.play_challenge),
    "pass": (windows.check_pass, windows.play_pass),
    "block": (windows.check_block, windows.play_block),
    "close_window": (windows.check_close_window, windows.play_close_window),
    "prove": (windows.check_prove, windows.play_prove),
    "concede": (windows.check_concede, windows.play_concede),
    "lose_influence": (choices.check_lose, choices.play_lose),
    "return_cards": (choices.check_return, choices.play_return),
    "show_card": (choices.check_show, choices.play_show),
    "examine_decide": (choices.check_decide, choices.play_decide),
    "choose_card": (choices.check_choose, choices.play_choose),
}


def awaiting(state: dict[str, Any]) -> str:
    """Say, in a sentence, what the game waits for now."""
    turn = state["turn"]
    stage, actor = turn["stage"], turn["player"]
    if state["winner"] is not None:
        return f"The game is over: {state['winner']} won."
    if state["loss"] is not None:
        return f"{state['loss']['player']} must first turn up a face-down card (lose_influence)."
    if stage in PROOFS:
        return f"{claimant(state)} must prove the {claimed(state)} or concede."
    return {
        CHOOSE: "Each player must first choose their second card (choose_card).",
        DECLARE: f"{actor} must declare this turn's action.",
        ACTION_CHALLENGE: f"{', '.join(window_waiting(state))} may challenge or pass.",
        BLOCK: f"{', '.join(window_waiting(state))} may block or pass.",
        BLOCK_CHALLENGE: f"{', '.join(window_waiting(state))} may challenge the block or pass.",
        EXCHANGE: f"{actor} must return cards (return_cards).",
        SHOW: f"{(turn['action'] or {}).get('target')} must show a card (show_card).",
        DECIDE: f"{actor} must decide on the examined card (examine_decide).",
    }.get(stage, f"Stage {stage}.")


def _check_shape(state: dict[str, Any], action: Any, problems: Problems) -> bool:
    """The action is an object of a known type, by a seated player (the host for
    close_window), with exactly the fields of its type."""
    if not isinstance(action, dict):
        problems.add("COUP-T1", "An action must be an object with a type and a player.",
                     "action")
        return False
    kind, player = action.get("type"), action.get("player")
    if not isinstance(kind, str) or kind not in FIELDS:
        problems.add("COUP-T1", f"Unknown action type {kind!r}; known: "
                     f"{', '.join(FIELDS)}.", "action.type")
        return False
    rule = TYPE_RULES[kind]
    if kind == "return_cards":
        rule = exchange_return_rule(state["options"]["exchanger"])
    if kind == "close_window":
        if player != HOST and player not in state["players"]:
            problems.add("COUP-W1", f"close_window is sent by {HOST!r}.", "action.player")
    elif not isinstance(player, str) or player not in state["players"]:
        problems.add("COUP-S1", f"{player!r} is not a player of this game.", "action.player")
    for key in action:
        if key not in ("type", "player") and key not in FIELDS[kind]:
            problems.add(rule, f"{kind} takes no field {key!r}.", f"action.{key}")
    for key, (types, required) in FIELDS[kind].items():
        value = action.get(key)
        if value is None and not required:
            continue
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            problems.add(rule, f"{kind} needs {key!r} as "
                         f"{' or '.join(t.__name__ for t in types)}.", f"action.{key}")
    return not problems


def _check_stage(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> bool:
    """The game is on (E1), a pending loss comes first (W2) and the stage takes this action."""
    kind, player = action["type"], action["player"]
    loss, stage = state["loss"], state["turn"]["stage"]
    if state["winner"] is not None:
        problems.add("COUP-E1", awaiting(state), "action.type")
    elif loss is not None:
        if kind != "lose_influence" or player != loss["player"]:
            problems.add("COUP-W2", awaiting(state), "action.type")
    elif kind == "lose_influence":
        problems.add("COUP-L1", f"Nobody has to lose influence now; {awaiting(state)}",
                     "action.type")
    elif kind not in STAGE_ACTIONS[stage]:
        problems.add(*_wrong_stage(state, kind), "action.type")
    return not problems


def _wrong_stage(state: dict[str, Any], kind: str) -> tuple[str, str]:
    """The rule and sentence for an action the current stage does not take."""
    stage = state["turn"]["stage"]
    now = awaiting(state)
    declared = (state["turn"]["action"] or {}).get("type")
    exchanger = state["options"]["exchanger"]
    if kind == "block" and declared and not blocking_characters(declared, exchanger):
        # A4, A7, A8: "cannot be blocked" — not W1's "too early", which invites a retry.
        rule = (exchange_return_rule(exchanger) if declared == "exchange"
                else ACTION_RULES[declared])
        return rule, f"{declared} cannot be blocked; {now}"
    if kind == "block" and stage == ACTION_CHALLENGE:
        return "COUP-W1", f"No block while the action's challenge window is open; {now}"
    if kind == "block" and state["turn"]["block"] is not None:
        return "COUP-B2", f"Only one block per action; {now}"
    if kind == "challenge" and stage in PROOFS:
        return "COUP-C1", f"Only the first challenge counts; {now}"
    if kind in TURN_ACTIONS and stage != CHOOSE:
        actor = state["turn"]["player"]
        return "COUP-T1", f"{actor} has already declared this turn's action; {now}"
    return STAGE_RULES.get(stage, "COUP-W2"), f"{kind} is not possible now; {now}"


def violations(state: dict[str, Any], action: Any) -> list[Violation]:
    """Every rule ``action`` breaks in the (checked) ``state``; empty when legal."""
    problems = Problems()
    if _check_shape(state, action, problems) and _check_stage(state, action, problems):
        RULES[action["type"]][0](state, action, problems)
    return problems.items


def play(new: dict[str, Any], action: dict[str, Any]) -> list[dict]:
    """Apply a legal action to ``new`` (the caller's working copy) in place; return the
    events."""
    events: list[dict] = []
    RULES[action["type"]][1](new, action, events)
    return events


def legal_actions(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every legal action now, of every player and the host (see each stage's rules)."""
    if state["winner"] is not None:
        return []
    if state["loss"] is not None:
        return choices.legal_losses(state)
    stage = state["turn"]["stage"]
    if stage in WINDOWS:
        return windows.legal_window(state)
    if stage in PROOFS:
        return windows.legal_proof(state)
    return {CHOOSE: choices.legal_choices, DECLARE: declare.legal_declare,
            EXCHANGE: choices.legal_returns, SHOW: choices.legal_shows,
            DECIDE: choices.legal_decisions}[stage](state)
