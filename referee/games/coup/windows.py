"""Windows and claims: challenge, pass, block, close_window, prove, concede (COUP-W1, C1–C5,
B1, B2, A5, A6, X1).

A window is open to every eligible living player at once; it closes at the first challenge
(or block), when everyone eligible passed, or when the host sends ``close_window`` (W1).
"""
from __future__ import annotations

from typing import Any

from referee.games.base import Problems, event
from referee.games.coup.apply import (ACTION_CHALLENGE, ACTION_PROOF, BLOCK, BLOCK_CHALLENGE,
                                      BLOCK_PROOF, END, OPEN_BLOCK, RESOLVE, advance, claimant,
                                      claimed, replace_card, window_waiting)
from referee.games.coup.rules import (ACTION_RULES, CHARACTERS, HOST, blocking_characters,
                                      characters_in_game, only_target_blocks)
from referee.games.coup.table import can_take


def _check_window_member(state: dict[str, Any], player: str, problems: Problems) -> None:
    """The player must be one the open window waits for (W1, C1, A5, A6, L2)."""
    turn = state["turn"]
    if player in window_waiting(state):
        return
    if not state["hands"][player]:
        problems.flag("COUP-L2", "coup.window.player_out", "action.player", player=player)
    elif player in turn["passed"]:
        problems.flag("COUP-W1", "coup.window.already_passed", "action.player", player=player)
    elif turn["stage"] == BLOCK and only_target_blocks(turn["action"]["type"]):
        kind = turn["action"]["type"]
        problems.flag(ACTION_RULES[kind], "coup.block.only_target", "action.player",
                      target=turn['action']['target'], action=kind)
    elif turn["stage"] == BLOCK:
        problems.flag("COUP-A2", "coup.block.own_foreign_aid", "action.player", player=player)
    else:
        problems.flag("COUP-C1", "coup.challenge.own_claim", "action.player", player=player,
                      character=claimed(state))


def check_challenge(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-C1: any other living player who has not passed may challenge the claim."""
    _check_window_member(state, action["player"], problems)


def play_challenge(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Close the window at the first challenge (W1); the claimant must now prove or concede."""
    turn = state["turn"]
    who = claimant(state)
    events.append(event("challenged", player=action["player"], claimant=who,
                        character=claimed(state), rule="COUP-C1"))
    turn["challenger"] = action["player"]
    turn["passed"] = []
    turn["stage"] = ACTION_PROOF if turn["stage"] == ACTION_CHALLENGE else BLOCK_PROOF


def check_pass(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-W1: an eligible player who has not acted in the open window may pass."""
    _check_window_member(state, action["player"], problems)


def play_pass(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Record the pass; the window closes when every eligible player has passed (W1)."""
    state["turn"]["passed"].append(action["player"])
    events.append(event("passed", player=action["player"], window=state["turn"]["stage"]))
    advance(state, events)


def check_block(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-B1, B2: an eligible blocker (A2 anyone, A5/A6 the target) claims a character of
    this game that blocks this action (a character that does not: the action's rule, A2, A5
    or A6)."""
    _check_window_member(state, action["player"], problems)
    character = action["character"]
    exchanger = state["options"]["exchanger"]
    kind = state["turn"]["action"]["type"]
    if character not in CHARACTERS:
        problems.flag("COUP-S2", "coup.block.not_a_character", "action.character",
                      name=repr(character))
    elif character not in characters_in_game(exchanger):
        problems.flag("COUP-B2", "coup.block.character_not_in_game", "action.character",
                      character=character, characters=[exchanger])
    elif character not in blocking_characters(kind, exchanger):
        # the action's own rule names who blocks it (A2 Duchess, A5 Countess, A6 Captain or
        # the exchanger): what the objecting player quotes, not B1's "a block is a claim"
        problems.flag(ACTION_RULES[kind], "coup.block.wrong_character", "action.character",
                      character=character, action=kind,
                      characters=list(blocking_characters(kind, exchanger)))


def play_block(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """The block closes the block window (W1) and opens its challenge window (C1)."""
    turn = state["turn"]
    turn["block"] = {"player": action["player"], "character": action["character"]}
    turn["passed"] = []
    turn["stage"] = BLOCK_CHALLENGE
    events.append(event("blocked", player=action["player"], character=action["character"],
                        rule="COUP-B1"))
    advance(state, events)


def check_close_window(state: dict[str, Any], action: dict[str, Any],
                       problems: Problems) -> None:
    """COUP-W1: only the host (``"player": "host"``) closes a window."""
    if action["player"] != HOST:
        problems.flag("COUP-W1", "coup.window.host_only", "action.player", player=action['player'])


def play_close_window(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """Everyone who has not acted is taken to pass (W1): the event names them as
    ``taken_to_pass``, not as having passed."""
    waiting = window_waiting(state)
    state["turn"]["passed"].extend(waiting)
    events.append(event("window_closed_by_host", taken_to_pass=waiting, rule="COUP-W1"))
    advance(state, events)


def _check_claimant(state: dict[str, Any], player: str, problems: Problems) -> bool:
    who = claimant(state)
    if player != who:
        problems.flag("COUP-C2", "coup.proof.not_the_claimant", "action.player", claimant=who,
                      character=claimed(state))
        return False
    return True


def check_prove(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-C2: reveal exactly the claimed character, held (digital) or still possible in
    the hand (table mode, X1, where ``card`` is required)."""
    player = action["player"]
    if not _check_claimant(state, player, problems):
        return
    character = claimed(state)
    card = action.get("card")
    if card is None and state["mode"] == "table":
        problems.flag("COUP-X1", "coup.proof.card_required", "action.card")
    elif card is not None and card not in CHARACTERS:
        problems.flag("COUP-C2", "coup.proof.not_a_character", "action.card", name=card,
                      character=character)
    elif card is not None and card != character:
        problems.flag("COUP-C2", "coup.proof.wrong_card", "action.card", card=card,
                      character=character)
    elif not can_take(state, state["hands"][player], [character], player, player):
        if state["mode"] == "table":
            problems.flag("COUP-X1", "coup.proof.every_copy_seen", "action.card", player=player,
                          character=character)
        else:
            problems.flag("COUP-C2", "coup.proof.not_held", "action.card", player=player,
                          character=character)


def play_prove(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """COUP-C4: the card is shuffled into the court deck and replaced, the challenger loses
    one influence, and the action (or block) goes ahead."""
    turn = state["turn"]
    character = claimed(state)
    replace_card(state, action["player"], character, events)
    state["loss"] = {"player": turn["challenger"], "rule": "COUP-C4"}
    turn["challenger"] = None
    if turn["stage"] == ACTION_PROOF:
        blockable = blocking_characters(turn["action"]["type"], state["options"]["exchanger"])
        turn["stage"] = OPEN_BLOCK if blockable else RESOLVE
    else:
        events.append(event("action_blocked", player=turn["player"], rule="COUP-B1",
                            blocker=turn["block"]["player"]))
        turn["stage"] = END
    advance(state, events)


def check_concede(state: dict[str, Any], action: dict[str, Any], problems: Problems) -> None:
    """COUP-C2: the claimant may decline to prove, even holding the card."""
    _check_claimant(state, action["player"], problems)


def play_concede(state: dict[str, Any], action: dict[str, Any], events: list) -> None:
    """COUP-C3: the claimant loses one influence; the action fails (an assassination's coins
    come back, A5) or the block fails and the action resolves (B1)."""
    turn = state["turn"]
    player = action["player"]
    state["loss"] = {"player": player, "rule": "COUP-C3"}
    turn["challenger"] = None
    if turn["stage"] == ACTION_PROOF:
        refund = 3 if turn["action"]["type"] == "assassinate" else 0
        state["coins"][player] += refund
        state["treasury"] -= refund
        events.append(event("action_failed", player=player, coins_returned=refund,
                            rule="COUP-C3"))
        turn["stage"] = END
    else:
        events.append(event("block_failed", player=player, rule="COUP-B1"))
        turn["stage"] = RESOLVE
    advance(state, events)


def legal_window(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action of the open window: each waiting player's challenge (or blocks) and pass,
    and the host's close_window (W1, C1, B1)."""
    turn = state["turn"]
    out = []
    for player in window_waiting(state):
        if turn["stage"] == BLOCK:
            kind = turn["action"]["type"]
            out += [{"type": "block", "player": player, "character": c}
                    for c in blocking_characters(kind, state["options"]["exchanger"])]
        else:
            out.append({"type": "challenge", "player": player})
        out.append({"type": "pass", "player": player})
    out.append({"type": "close_window", "player": HOST})
    return out


def legal_proof(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The claimant's answers: prove (when possible, C2/X1) or concede."""
    player, character = claimant(state), claimed(state)
    out = []
    if can_take(state, state["hands"][player], [character], player, player):
        out.append({"type": "prove", "player": player, "card": character})
    out.append({"type": "concede", "player": player})
    return out
