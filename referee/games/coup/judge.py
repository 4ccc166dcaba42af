"""Judging Coup's actions (coup.md "Vocabulary", declared in ``vocabulary.py``): which actions
each stage of the turn accepts, and the dispatch to the rules of each action (:data:`RULES`:
each action's check and play, in ``declare.py``, ``windows.py`` and ``choices.py``; :func:`play`
runs the play half; what follows it is the turn's state machine in ``apply.py``).

``violations`` checks, in order: the action's shape, that the game is not over (E1), the
rule that forbids the action itself whatever the moment (issue 13: a challenge of an action
that claims no character cites A1–A3, a block of an unblockable action its own rule, a
second block B2, a character not in this game B2 — :func:`_specific`), that a pending loss
is taken first (W2), that the action belongs to the current stage (T1, W1, C1…), then the
action's own rules.  ``legal_actions`` lists every legal action of the stage.
"""
from __future__ import annotations

from typing import Any, Callable

from referee.games.base import Problems, Violation, violation
from referee.games.common.vocabulary import check_shape, dispatch
from referee.games.coup import choices, declare, windows
from referee.games.coup.apply import (ACTION_CHALLENGE, BLOCK, BLOCK_CHALLENGE, CHOOSE, DECIDE,
                                      DECLARE, EXCHANGE, OVER, PROOFS, SHOW, WINDOWS, claimant,
                                      claimed, window_waiting)
from referee.games.coup.rules import (ACTION_RULES, CHARACTERS, INQUISITOR, TURN_ACTIONS,
                                      blocking_characters, characters_in_game,
                                      claimed_character, exchange_return_rule,
                                      only_target_blocks)
from referee.games.coup.vocabulary import VOCABULARY

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
RULES: dict[str, tuple[Check, Play]] = dispatch(VOCABULARY, {
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
})


def awaiting(state: dict[str, Any]) -> dict[str, Any]:
    """What the game waits for now, as a message: ``{"code", "params"}`` (a ``now``
    parameter of the refusals below; the edge renders it in the reader's language)."""
    turn = state["turn"]
    stage, actor = turn["stage"], turn["player"]
    if state["winner"] is not None:
        return _now("over", winner=state["winner"])
    if state["loss"] is not None:
        return _now("loss", player=state["loss"]["player"])
    if stage in PROOFS:
        return _now("proof", claimant=claimant(state), character=claimed(state))
    if stage in WINDOWS:
        return _now(stage, players=", ".join(window_waiting(state)))
    if stage == SHOW:
        return _now(stage, target=(turn["action"] or {}).get("target"))
    return _now(stage, actor=actor)


def _now(what: str, **params: Any) -> dict[str, Any]:
    return {"code": f"coup.now.{what}", "params": params}


def _check_shape(state: dict[str, Any], action: Any, problems: Problems) -> bool:
    """The action is an object of a declared type (``vocabulary.py``), by a seated player (the
    host or a seat for close_window), with exactly the fields of its type, each of its kind;
    a wrong shape cites the action's rule (an exchange's return COUP-A7 or A8a)."""
    rule = None
    if isinstance(action, dict) and action.get("type") == "return_cards":
        rule = exchange_return_rule(state["options"]["exchanger"])
    problems.items += check_shape(VOCABULARY, action, state["players"], rule=rule)
    return not problems


def _check_stage(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> bool:
    """The game is on (E1), a pending loss comes first (W2) and the stage takes this action."""
    kind, player = action["type"], action["player"]
    loss, stage = state["loss"], state["turn"]["stage"]
    specific = _specific(state, action)
    if state["winner"] is not None:
        problems.flag("COUP-E1", "coup.stage.over", "action.type", now=awaiting(state))
    elif specific is not None:
        problems.items.append(specific)
    elif loss is not None:
        if kind != "lose_influence" or player != loss["player"]:
            problems.flag("COUP-W2", "coup.stage.loss_first", "action.type",
                          now=awaiting(state))
    elif kind == "lose_influence":
        problems.flag("COUP-L1", "coup.lose.nobody", "action.type", now=awaiting(state))
    elif kind not in STAGE_ACTIONS[stage]:
        problems.items.append(_wrong_stage(state, action))
    return not problems


def _answered(state: dict[str, Any]) -> tuple[dict | None, dict | None, str | None]:
    """The declared action a challenge or block would answer now, its block, and the player
    of the finished turn when it is the last turn's (at the next turn's declaration)."""
    turn, last = state["turn"], state["last_turn"]
    if turn["action"] is not None:
        return turn["action"], turn["block"], None
    if turn["stage"] == DECLARE and last is not None:
        return last["action"], last["block"], last["player"]
    return None, None, None


def _specific(state: dict[str, Any], action: dict[str, Any]) -> Violation | None:
    """The rule that forbids ``action`` itself, whatever the moment (issue 13 item 4: the rule
    the objecting player quotes, before a turn or window rule): a player who is out acts
    (L2); examine or a block claiming a
    character not in this game (B2); a challenge of an action that claims no character
    (A1–A3), or of the finished turn's claim, whose window has closed (W1); a block of an
    action that cannot be blocked (A1, A3, A4, A7, A8) or that was blocked already (B2)."""
    kind, exchanger = action["type"], state["options"]["exchanger"]
    if kind != "close_window" and not state["hands"][action["player"]] and (
            state["turn"]["stage"] != CHOOSE):
        return violation("COUP-L2", "coup.window.player_out", "action.player",
                         player=action["player"])
    if kind == "examine" and exchanger != INQUISITOR:
        return violation("COUP-B2", "coup.declare.examine_without_inquisitor", "action.type")
    character = action.get("character")
    if kind == "block" and character in CHARACTERS and character not in characters_in_game(
            exchanger):
        return violation("COUP-B2", "coup.block.character_not_in_game", "action.character",
                         character=character, characters=[exchanger])
    declared, block, finished_by = _answered(state)
    if kind not in ("challenge", "block") or declared is None:
        return None
    done, now = declared["type"], awaiting(state)
    if kind == "challenge":
        if claimed_character(done, exchanger) is None and block is None:
            return violation(ACTION_RULES[done], "coup.challenge.not_claimed", "action.type",
                             action=done)
        if finished_by is not None:
            return violation("COUP-W1", "coup.challenge.window_closed", "action.type",
                             player=finished_by, action=done, now=now)
        return None
    if not blocking_characters(done, exchanger):
        rule = exchange_return_rule(exchanger) if done == "exchange" else ACTION_RULES[done]
        return violation(rule, "coup.block.not_blockable", "action.type", action=done, now=now)
    if block is not None:
        return violation("COUP-B2", "coup.block.only_one", "action.type", now=now)
    return None


def _early_block(state: dict[str, Any], action: dict[str, Any]) -> Violation | None:
    """A block sent in the action's challenge window that no later moment would allow either:
    by a non-target of a steal or assassination (A6, A5), or claiming a character that does
    not block this action (S2; the action's rule A2, A5, A6, which names who blocks it) — the rule the objecting player quotes, not W1's "too
    early", which invites a retry (findings F4)."""
    turn, exchanger = state["turn"], state["options"]["exchanger"]
    declared, character = turn["action"]["type"], action["character"]
    if only_target_blocks(declared) and action["player"] != turn["action"]["target"]:
        return violation(ACTION_RULES[declared], "coup.block.only_target", "action.player",
                         target=turn["action"]["target"], action=declared)
    if character not in CHARACTERS:
        return violation("COUP-S2", "coup.block.not_a_character", "action.character",
                         name=repr(character))
    if character not in blocking_characters(declared, exchanger):
        return violation(ACTION_RULES[declared], "coup.block.wrong_character", "action.character",
                         character=character, action=declared,
                         characters=list(blocking_characters(declared, exchanger)))
    return None


def _wrong_stage(state: dict[str, Any], action: dict[str, Any]) -> Violation:
    """The violation of an action the current stage does not take."""
    kind = action["type"]
    stage = state["turn"]["stage"]
    now = awaiting(state)
    declared = (state["turn"]["action"] or {}).get("type")
    exchanger = state["options"]["exchanger"]
    where = "action.type"
    if kind == "block" and declared and not blocking_characters(declared, exchanger):
        # A4, A7, A8: "cannot be blocked" — not W1's "too early", which invites a retry.
        rule = (exchange_return_rule(exchanger) if declared == "exchange"
                else ACTION_RULES[declared])
        return violation(rule, "coup.block.not_blockable", where, action=declared, now=now)
    if kind == "block" and stage == ACTION_CHALLENGE:
        return _early_block(state, action) or violation("COUP-W1", "coup.block.too_early",
                                                        where, now=now)
    if kind == "block" and state["turn"]["block"] is not None:
        return violation("COUP-B2", "coup.block.only_one", where, now=now)
    if kind == "challenge" and stage in PROOFS:
        return violation("COUP-C1", "coup.challenge.only_first", where, now=now)
    if kind == "challenge" and declared and claimed_character(declared, exchanger) is None:
        # A1-A3: the action itself claims no character — not "too late" (W1).
        return violation(ACTION_RULES[declared], "coup.challenge.not_claimed", where,
                         action=declared)
    if kind == "challenge" and stage == DECLARE:
        return violation("COUP-C1", "coup.challenge.no_claim", where, now=now)
    if kind in ("prove", "concede"):
        return violation("COUP-C2", "coup.proof.no_challenge", where, action=kind, now=now)
    if kind in _WINDOW and stage not in WINDOWS:
        rule = "COUP-T1" if kind == "pass" and stage == DECLARE else "COUP-W1"
        code = "coup.declare.no_pass" if rule == "COUP-T1" else "coup.window.none_open"
        return violation(rule, code, where, action=kind, now=now)
    if kind in TURN_ACTIONS and stage != CHOOSE:
        return violation("COUP-T1", "coup.declare.already_declared", where,
                         actor=state["turn"]["player"], now=now)
    return violation(STAGE_RULES.get(stage, "COUP-W2"), "coup.stage.not_now", where,
                     action=kind, now=now)


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
