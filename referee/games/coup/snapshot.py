"""Is a submitted snapshot a state a legal game of Coup can reach?  ``check_snapshot`` raises
:class:`ImpossibleState` naming every problem: wrong types or missing fields, cards that are not
the game's cards or not all there (COUP-S2, S3), coins that do not add up to 54 (S7, X2), hand
sizes (S4, S5, L1), the out (L2), the winner (E1) and a turn record that no turn can produce.

The state layout is documented in :mod:`referee.games.coup.engine` and
:mod:`referee.games.coup.flow`.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.base import (MODES, REFEREE, UNKNOWN, ImpossibleState, Problems,
                                Violation)
from referee.games.common.options import snapshot_option_problems
from referee.games.coup.cards import (EXCHANGE_DRAW, HAND_SIZE, HOST, TARGETED, TREASURY_VALUE,
                                      TURN_ACTIONS, blocking_characters, characters_in_game,
                                      claimed_character, full_deck, is_card_name)
from referee.games.coup.flow import (ACTION_CHALLENGE, ACTION_PROOF, BLOCK, BLOCK_CHALLENGE,
                                     BLOCK_PROOF, CHOOSE, CONTINUATIONS, DECIDE, DECLARE, END,
                                     EXCHANGE, OPEN_BLOCK, OVER, PROOFS, RESOLVE, SHOW, STAGES,
                                     WINDOWS, claimant, eligible_blockers, living,
                                     window_candidates, window_waiting)
from referee.games.coup.table import can_take, card_locations

TOP_FIELDS = ("game", "mode", "seed", "options", "players", "coins", "treasury", "hands",
              "revealed", "court", "piles", "shuffles", "turn", "loss", "winner")
LOSS_RULES = ("COUP-A3", "COUP-A5", "COUP-C3", "COUP-C4")
"""Why someone may have to lose influence: a coup, an assassination, a lost challenge."""
TURN_FIELDS = ("number", "player", "stage", "action", "passed", "challenger", "block",
               "drawn", "shown")


def check_snapshot(state: Any, resolve_options) -> None:
    """Raise :class:`ImpossibleState` listing every inconsistency of ``state``.

    ``resolve_options`` is the engine's option checker (raises :class:`InvalidSetup`).
    Types are checked first; the game's invariants only on a well-typed state.
    """
    problems = Problems()
    if not isinstance(state, dict):
        raise ImpossibleState(Violation("COUP-S1", "The state must be an object.", "state"))
    _check_types(state, resolve_options, problems)
    problems.raise_as(ImpossibleState)
    _check_cards(state, problems)
    _check_seats(state, problems)
    problems.raise_as(ImpossibleState)
    _check_turn(state, problems)
    problems.raise_as(ImpossibleState)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# --- types ---------------------------------------------------------------------------------
def _check_types(state: dict, resolve_options, problems: Problems) -> None:
    """Every field present with its type; cards are card names of this game (COUP-S2)."""
    for key in state:
        if key not in TOP_FIELDS:
            problems.add("COUP-S1", f"Unknown field {key!r} in a Coup state.", f"state.{key}")
    missing = [k for k in TOP_FIELDS if k not in state]
    if missing:
        problems.add("COUP-S1", f"The state lacks {', '.join(missing)}.", "state")
        return
    if state["game"] != "coup":
        problems.add("COUP-S1", "state.game must be 'coup'.", "state.game")
    if state["mode"] not in MODES:
        problems.add("COUP-X1", f"state.mode must be one of {', '.join(MODES)}.", "state.mode")
    seed = state["seed"]
    if not (_is_int(seed) or isinstance(seed, str) and seed):
        problems.add("COUP-S4", "state.seed must be an integer ≥ 0 or a string.", "state.seed")
    players = state["players"]
    if (not isinstance(players, list) or not 2 <= len(players) <= 8
            or not all(isinstance(p, str) and p and p not in (HOST, REFEREE) for p in players)
            or len(set(players)) != len(players)):
        problems.add("COUP-S1", "state.players must list 2 to 8 different names (not "
                     f"{HOST!r} nor {REFEREE!r}).",
                     "state.players")
        return
    _check_options(state, resolve_options, problems)
    if problems:
        return
    mode = state["mode"]
    in_game = characters_in_game(state["options"]["exchanger"])
    for key in ("coins", "hands", "revealed"):
        _check_seat_table(state, key, problems)
    if not _is_int(state["treasury"]):
        problems.add("COUP-S7", "state.treasury must be a whole number of coins ≥ 0.",
                     "state.treasury")
    if not _is_int(state["shuffles"]):
        problems.add("COUP-S4", "state.shuffles must be an integer ≥ 0.", "state.shuffles")
    piles = state["piles"]
    if len(players) == 2:
        _check_seat_table(state, "piles", problems)
    elif piles != {}:
        problems.add("COUP-S5", "Only a 2-player game has piles.", "state.piles")
    if problems:
        return
    for p in players:
        if not _is_int(state["coins"][p]):
            problems.add("COUP-S7", f"{p}'s coins must be a whole number ≥ 0.",
                         f"state.coins.{p}")
        _check_cards_list(state["hands"][p], f"state.hands.{p}", mode, in_game, problems)
        _check_cards_list(state["revealed"][p], f"state.revealed.{p}", "digital", in_game,
                          problems)
        if len(players) == 2:
            _check_cards_list(piles[p], f"state.piles.{p}", mode, in_game, problems)
    _check_cards_list(state["court"], "state.court", mode, in_game, problems)
    _check_turn_types(state, problems)
    for key in ("loss", "winner"):
        _check_loss_winner(state, key, problems)


def _check_options(state: dict, resolve_options, problems: Problems) -> None:
    """COUP-S2, S8: every option present and valid; first_player one of the players."""
    problems.items += snapshot_option_problems(state["options"], resolve_options, "COUP-S2")
    if problems:
        return
    options = state["options"]
    first = options.get("first_player")
    if first is not None and first not in state["players"]:
        problems.add("COUP-S8", f"options.first_player {first!r} is not a player.",
                     "state.options.first_player")


def _check_seat_table(state: dict, key: str, problems: Problems) -> None:
    table = state[key]
    kind = "coins" if key == "coins" else "a list of cards"
    if (not isinstance(table, dict) or set(table) != set(state["players"])
            or (key != "coins" and not all(isinstance(v, list) for v in table.values()))):
        problems.add("COUP-S1", f"state.{key} must give {kind} for each player and no one "
                     "else.", f"state.{key}")


def _check_cards_list(cards: Any, where: str, mode: str, in_game: tuple,
                      problems: Problems) -> None:
    if not isinstance(cards, list):
        problems.add("COUP-S2", f"{where} must be a list of cards.", where)
        return
    for i, card in enumerate(cards):
        if not is_card_name(card, mode) or (card != UNKNOWN and card not in in_game):
            problems.add("COUP-S2", f"{where}[{i}] {card!r} is not a card of this game"
                         f"{' here' if card == UNKNOWN else ''}.", f"{where}[{i}]")


def _check_turn_types(state: dict, problems: Problems) -> None:
    turn, players = state["turn"], state["players"]
    if not isinstance(turn, dict) or set(turn) != set(TURN_FIELDS):
        problems.add("COUP-T1", f"state.turn must hold exactly {', '.join(TURN_FIELDS)}.",
                     "state.turn")
        return
    if not _is_int(turn["number"]) or turn["number"] < 1:
        problems.add("COUP-T1", "state.turn.number must be an integer ≥ 1.", "state.turn.number")
    if turn["player"] not in players:
        problems.add("COUP-T1", "state.turn.player must be a player.", "state.turn.player")
    if turn["stage"] not in STAGES:
        problems.add("COUP-T1", f"state.turn.stage must be one of {', '.join(STAGES)}.",
                     "state.turn.stage")
    action = turn["action"]
    if action is not None:
        kind = action.get("type") if isinstance(action, dict) else None
        keys = {"type", "target"} if kind in TARGETED else {"type"}
        if kind not in TURN_ACTIONS or set(action) != keys or (
                kind in TARGETED and (action["target"] not in players
                                      or action["target"] == turn["player"])):
            problems.add("COUP-A9", "state.turn.action must be a turn action, with a target "
                         "(another player) when it takes one.", "state.turn.action")
    passed = turn["passed"]
    if (not isinstance(passed, list) or not all(p in players for p in passed)
            or len(set(passed)) != len(passed)):
        problems.add("COUP-W1", "state.turn.passed must list different players.",
                     "state.turn.passed")
    if turn["challenger"] is not None and turn["challenger"] not in players:
        problems.add("COUP-C1", "state.turn.challenger must be a player.",
                     "state.turn.challenger")
    block = turn["block"]
    if block is not None and (not isinstance(block, dict) or set(block) != {"player", "character"}
                              or block["player"] not in players
                              or block["character"] not in
                              characters_in_game(state["options"]["exchanger"])):
        problems.add("COUP-B1", "state.turn.block must be {player, character} of this game.",
                     "state.turn.block")
    in_game = characters_in_game(state["options"]["exchanger"])
    _check_cards_list(turn["drawn"], "state.turn.drawn", state["mode"], in_game, problems)
    shown = turn["shown"]
    if shown is not None and not (is_card_name(shown, state["mode"])
                                  and (shown == UNKNOWN or shown in in_game)):
        problems.add("COUP-A8b", "state.turn.shown must be a card of this game.",
                     "state.turn.shown")


def _check_loss_winner(state: dict, key: str, problems: Problems) -> None:
    value = state[key]
    if value is None:
        return
    if key == "winner":
        if value not in state["players"]:
            problems.add("COUP-E1", "state.winner must be a player or null.", "state.winner")
        return
    if (not isinstance(value, dict) or set(value) != {"player", "rule"}
            or value["player"] not in state["players"] or value["rule"] not in LOSS_RULES):
        problems.add("COUP-W2", "state.loss must be null or {player, rule} with rule one of "
                     f"{', '.join(LOSS_RULES)}.", "state.loss")


# --- invariants ----------------------------------------------------------------------------
def _check_cards(state: dict, problems: Problems) -> None:
    """COUP-S2, S3, X1: every card of the game once; known cards never more than the copies."""
    n = len(state["players"])
    deck = Counter(full_deck(state["options"]["exchanger"], n))
    cards = [c for where in card_locations(state) for c in where]
    if len(cards) != sum(deck.values()):
        problems.add("COUP-S3", f"The state holds {len(cards)} cards; a {n}-player game has "
                     f"{sum(deck.values())}.", "state")
    counts = Counter(c for c in cards if c != UNKNOWN)
    for character, copies in deck.items():
        if counts[character] > copies or (state["mode"] == "digital"
                                          and counts[character] != copies):
            problems.add("COUP-S3", f"The state holds {counts[character]} {character} cards; "
                         f"the game has {copies}.", "state")
    drawn = len(state["turn"]["drawn"])
    court = 3 if n == 2 else sum(deck.values()) - HAND_SIZE * n  # COUP-S4, S5
    if len(state["court"]) + drawn != court:
        problems.add("COUP-S4", f"The court deck holds {len(state['court'])} cards (and "
                     f"{drawn} drawn); it should hold {court}.", "state.court")


MAX_COINS = 12
"""The most coins a player can hold (COUP-T2): 9 at the start of a turn plus tax's 3."""


def _check_seats(state: dict, problems: Problems) -> None:
    """Hand sizes (S4, S5), coins (S7, X2), the out (L2) and the winner (E1)."""
    players = state["players"]
    coins = sum(state["coins"].values())
    if coins + state["treasury"] != TREASURY_VALUE:
        problems.add("COUP-S7", f"Coins do not add up: {coins} with the players and "
                     f"{state['treasury']} in the treasury make {coins + state['treasury']}, "
                     f"not {TREASURY_VALUE}.", "state.treasury")
    choosing = state["turn"]["stage"] == CHOOSE
    for p in players:
        hand, revealed = state["hands"][p], state["revealed"][p]
        if len(players) == 2:
            pile = len(state["piles"][p])
            if (choosing and (len(hand), pile) not in ((1, 5), (2, 4))
                    or not choosing and pile != 4):
                problems.add("COUP-S5", f"{p} holds {len(hand)} card(s) with a pile of {pile}.",
                             f"state.piles.{p}")
            if choosing and revealed:
                problems.add("COUP-S5", "No card is lost before both players chose.",
                             f"state.revealed.{p}")
        if len(hand) + len(revealed) != HAND_SIZE and not (choosing and len(hand) == 1):
            problems.add("COUP-S4", f"{p} has {len(hand)} face-down and {len(revealed)} "
                         f"face-up cards; a player has {HAND_SIZE} in all.", f"state.hands.{p}")
        if state["coins"][p] > MAX_COINS:
            problems.add("COUP-T2", f"{p} has {state['coins'][p]} coins; nobody can hold more "
                         f"than {MAX_COINS} (coins are gained only on one's own turn, and a "
                         "turn begun with 10 or more must be a coup).", f"state.coins.{p}")
        if not hand and state["coins"][p]:
            problems.add("COUP-L2", f"{p} is out but still has {state['coins'][p]} coins.",
                         f"state.coins.{p}")
    alive = living(state)
    winner = state["winner"]
    over = state["turn"]["stage"] == OVER
    if len(alive) == 1 and (winner != alive[0] or not over):
        problems.add("COUP-E1", f"Only {alive[0]} has influence left: they have won.",
                     "state.winner")
    elif not alive:
        problems.add("COUP-E1", "Nobody has influence left; one player always does.",
                     "state.hands")
    elif len(alive) != 1 and (winner is not None or over):
        problems.add("COUP-E1", f"{len(alive)} players have influence left; nobody has won.",
                     "state.winner")


def _check_turn(state: dict, problems: Problems) -> None:
    """The turn record is one some turn reaches (flow steps 1–6, W1, W2, C1, B1, A7, A8)."""
    turn, stage = state["turn"], state["turn"]["stage"]
    action, loss = turn["action"], state["loss"]
    where = "state.turn"
    if stage == OVER:
        if loss is not None:
            problems.add("COUP-E1", "The game is over: nobody has a loss to take.", "state.loss")
        return
    if not state["hands"][turn["player"]]:
        problems.add("COUP-L2", f"{turn['player']} is out and cannot have the turn.",
                     f"{where}.player")
        return
    if stage == CHOOSE and len(state["players"]) != 2:
        problems.add("COUP-S5", "Only a 2-player game chooses cards.", f"{where}.stage")
    if (action is None) != (stage in (CHOOSE, DECLARE)):
        problems.add("COUP-T1", f"At stage {stage} the declared action must be "
                     f"{'absent' if stage in (CHOOSE, DECLARE) else 'present'}.",
                     f"{where}.action")
        return
    if (loss is not None) != (stage in CONTINUATIONS):
        problems.add("COUP-W2", f"A pending loss goes with stages {', '.join(CONTINUATIONS)} "
                     f"only (stage {stage}).", "state.loss")
        return
    if loss is not None:
        hand = state["hands"][loss["player"]]
        if not hand or (state["mode"] == "digital" and len(hand) == 1):
            problems.add("COUP-L1", f"{loss['player']} cannot have a loss pending with "
                         f"{len(hand)} face-down card(s).", "state.loss")
        elif not _loss_arises(state):
            problems.add("COUP-W2", f"No step of this turn costs {loss['player']} an influence "
                         f"under {loss['rule']} at stage {stage}.", "state.loss")
    _check_stage_fields(state, problems)


def _loss_arises(state: dict) -> bool:
    """The pending loss is one the turn so far produces (W2): the target of a coup or an
    assassination (A3, A5) once it resolves; a claimant who conceded (C3: the actor, the action
    then ends; the blocker, the action then resolves); a challenger of a proven claim (C4: not
    the actor, before the block window or resolution; not the blocker, the block standing)."""
    turn, loss = state["turn"], state["loss"]
    stage, kind, block = turn["stage"], turn["action"]["type"], turn["block"]
    player, rule = loss["player"], loss["rule"]
    exchanger = state["options"]["exchanger"]
    claims = claimed_character(kind, exchanger) is not None
    blockable = bool(blocking_characters(kind, exchanger))
    if rule in ("COUP-A3", "COUP-A5"):
        return (stage == END and kind == ("coup" if rule == "COUP-A3" else "assassinate")
                and player == turn["action"]["target"])
    if rule == "COUP-C3":
        return (stage == END and block is None and claims and player == turn["player"]
                or stage == RESOLVE and block is not None and player == block["player"])
    after_action_proof = OPEN_BLOCK if blockable else RESOLVE
    return (stage == after_action_proof and block is None and claims
            and player != turn["player"]
            or stage == END and block is not None and player != block["player"])


def _check_stage_fields(state: dict, problems: Problems) -> None:
    turn, stage = state["turn"], state["turn"]["stage"]
    action = turn["action"]
    exchanger = state["options"]["exchanger"]
    where = "state.turn"
    kind = action["type"] if action else None
    if kind == "examine" and exchanger != "inquisitor":
        problems.add("COUP-B2", "examine needs the Inquisitor in the game.", f"{where}.action")
    if stage in (ACTION_CHALLENGE, ACTION_PROOF) and claimed_character(kind, exchanger) is None:
        problems.add("COUP-C1", f"{kind} claims no character to challenge.", f"{where}.stage")
    if stage in (BLOCK, BLOCK_CHALLENGE, BLOCK_PROOF) and not blocking_characters(kind,
                                                                                  exchanger):
        problems.add("COUP-B1", f"{kind} cannot be blocked.", f"{where}.stage")
    block = turn["block"]
    if (block is not None) != (stage in (BLOCK_CHALLENGE, BLOCK_PROOF)) and stage in (
            BLOCK, BLOCK_CHALLENGE, BLOCK_PROOF, DECLARE, ACTION_CHALLENGE, ACTION_PROOF):
        problems.add("COUP-B2", f"At stage {stage} there is {'no' if block is None else 'a'} "
                     "block.", f"{where}.block")
    elif block is not None and (
            block["character"] not in blocking_characters(kind, exchanger)
            or block["player"] == turn["player"]
            or (stage in (BLOCK_CHALLENGE, BLOCK_PROOF)
                and block["player"] not in eligible_blockers(state))):
        problems.add("COUP-B1", f"{block['player']} cannot block {kind} with the "
                     f"{block['character']}.", f"{where}.block")
    if problems:
        return
    challenger = turn["challenger"]
    if (challenger is not None) != (stage in PROOFS):
        problems.add("COUP-C1", f"At stage {stage} there is {'no' if challenger is None else 'a'}"
                     " challenger.", f"{where}.challenger")
    elif challenger is not None and (not state["hands"][challenger]
                                     or challenger == claimant(state)):
        problems.add("COUP-C1", f"{challenger} cannot challenge here.", f"{where}.challenger")
    if stage in WINDOWS:
        if not set(turn["passed"]) <= set(window_candidates(state)):
            problems.add("COUP-W1", "Only eligible players can have passed.", f"{where}.passed")
        elif not window_waiting(state):
            problems.add("COUP-W1", "Every eligible player passed: the window is closed.",
                         f"{where}.passed")
    elif turn["passed"]:
        problems.add("COUP-W1", f"No window is open at stage {stage}.", f"{where}.passed")
    draw = EXCHANGE_DRAW[exchanger] if stage == EXCHANGE else 0
    if stage == EXCHANGE and kind != "exchange" or len(turn["drawn"]) != draw:
        problems.add("COUP-A7", f"At stage {stage} an exchange has drawn {draw} card(s).",
                     f"{where}.drawn")
    if stage in (SHOW, DECIDE) and kind != "examine":
        problems.add("COUP-A8b", f"Stage {stage} belongs to an examine.", f"{where}.stage")
    elif stage in (SHOW, DECIDE) and not state["hands"][action["target"]]:
        problems.add("COUP-R1", "The examined player is out.", f"{where}.action")
    elif (turn["shown"] is not None) != (stage == DECIDE) or (
            stage == DECIDE and not can_take(state, state["hands"][action["target"]],
                                             [turn["shown"]])):
        problems.add("COUP-A8b", "Only a card of the examined player's hand is shown, until "
                     "the Inquisitor decides.", f"{where}.shown")
