"""Is a submitted snapshot a state a legal game of Coup can reach?  ``check_snapshot`` raises
:class:`ImpossibleState` naming every problem: wrong types or missing fields, cards that are not
the game's cards or not all there (COUP-S2, S3), coins that do not add up to 54 (S7, X2), hand
sizes (S4, S5, L1), the out (L2), the winner (E1) and a turn record that no turn can produce.

The state layout is documented in :mod:`referee.games.coup.engine` and
:mod:`referee.games.coup.apply`.
"""
from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from referee.games.base import (MODES, REFEREE, UNKNOWN, ImpossibleState, Problems,
                                violation)
from referee.games.common.card_sets import all_in
from referee.games.common.options import snapshot_option_problems
from referee.games.coup.apply import (ACTION_CHALLENGE, ACTION_PROOF, BLOCK, BLOCK_CHALLENGE,
                                      BLOCK_PROOF, CHOOSE, CONTINUATIONS, DECIDE, DECLARE, END,
                                      EXCHANGE, OPEN_BLOCK, OVER, PROOFS, RESOLVE, SHOW, STAGES,
                                      WINDOWS, claimant, eligible_blockers, living,
                                      window_candidates, window_waiting)
from referee.games.coup.rules import (EXCHANGE_DRAW, HAND_SIZE, HOST, TREASURY_VALUE,
                                      blocking_characters, characters_in_game,
                                      only_target_blocks,
                                      claimed_character, full_deck, is_card_name)
from referee.games.coup.snapshot_records import bad_action, check_record_types, check_records
from referee.games.coup.table import card_locations

TOP_FIELDS = ("game", "mode", "seed", "options", "players", "coins", "treasury", "hands",
              "revealed", "court", "piles", "shuffles", "turn", "loss", "winner", "last_turn",
              "knowledge", "disputes")
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
        raise ImpossibleState(violation("COUP-S1", "coup.snapshot.not_object", "state"))
    _check_types(state, resolve_options, problems)
    problems.raise_as(ImpossibleState)
    _check_cards(state, problems)
    _check_seats(state, problems)
    problems.raise_as(ImpossibleState)
    _check_turn(state, problems)
    problems.raise_as(ImpossibleState)
    check_records(state, problems)
    problems.raise_as(ImpossibleState)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# --- types ---------------------------------------------------------------------------------
def _check_types(state: dict, resolve_options, problems: Problems) -> None:
    """Every field present with its type; cards are card names of this game (COUP-S2)."""
    for key in state:
        if key not in TOP_FIELDS:
            problems.flag("COUP-S1", "coup.snapshot.unknown_field", f"state.{key}", key=repr(key))
    missing = [k for k in TOP_FIELDS if k not in state]
    if missing:
        problems.flag("COUP-S1", "coup.snapshot.missing_fields", "state",
                      fields=', '.join(missing))
        return
    if state["game"] != "coup":
        problems.flag("COUP-S1", "coup.snapshot.not_coup", "state.game")
    if state["mode"] not in MODES:
        problems.flag("COUP-X1", "coup.snapshot.bad_mode", "state.mode", modes=', '.join(MODES))
    seed = state["seed"]
    if not (_is_int(seed) or isinstance(seed, str) and seed):
        problems.flag("COUP-S4", "coup.snapshot.bad_seed", "state.seed")
    players = state["players"]
    if (not isinstance(players, list) or not 2 <= len(players) <= 8
            or not all(isinstance(p, str) and p and p not in (HOST, REFEREE) for p in players)
            or len(set(players)) != len(players)):
        problems.flag("COUP-S1", "coup.snapshot.bad_players", "state.players", host=repr(HOST),
                      referee=repr(REFEREE))
        return
    _check_options(state, resolve_options, problems)
    if problems:
        return
    mode = state["mode"]
    in_game = characters_in_game(state["options"]["exchanger"])
    for key in ("coins", "hands", "revealed"):
        _check_seat_table(state, key, problems)
    if not _is_int(state["treasury"]):
        problems.flag("COUP-S7", "coup.snapshot.bad_treasury", "state.treasury")
    if not _is_int(state["shuffles"]):
        problems.flag("COUP-S4", "coup.snapshot.bad_shuffles", "state.shuffles")
    piles = state["piles"]
    if len(players) == 2:
        _check_seat_table(state, "piles", problems)
    elif piles != {}:
        problems.flag("COUP-S5", "coup.snapshot.piles_not_two", "state.piles")
    if problems:
        return
    for p in players:
        if not _is_int(state["coins"][p]):
            problems.flag("COUP-S7", "coup.snapshot.bad_coins", f"state.coins.{p}", player=p)
        _check_cards_list(state["hands"][p], f"state.hands.{p}", mode, in_game, problems)
        _check_cards_list(state["revealed"][p], f"state.revealed.{p}", "digital", in_game,
                          problems)
        if len(players) == 2:
            _check_cards_list(piles[p], f"state.piles.{p}", mode, in_game, problems)
    _check_cards_list(state["court"], "state.court", mode, in_game, problems)
    _check_turn_types(state, problems)
    for key in ("loss", "winner"):
        _check_loss_winner(state, key, problems)
    check_record_types(state, problems)


def _check_options(state: dict, resolve_options, problems: Problems) -> None:
    """COUP-S2, S8: every option present and valid; first_player one of the players."""
    problems.items += snapshot_option_problems(state["options"], resolve_options, "COUP-S2")
    if problems:
        return
    options = state["options"]
    first = options.get("first_player")
    if first is not None and first not in state["players"]:
        problems.flag("COUP-S8", "coup.snapshot.first_player_unknown",
                      "state.options.first_player", first=repr(first))


def _check_seat_table(state: dict, key: str, problems: Problems) -> None:
    table = state[key]
    kind = "coins" if key == "coins" else "a list of cards"
    if (not isinstance(table, dict) or set(table) != set(state["players"])
            or (key != "coins" and not all(isinstance(v, list) for v in table.values()))):
        problems.flag("COUP-S1", "coup.snapshot.bad_seat_table", f"state.{key}", key=key,
                      kind=kind)


def _check_cards_list(cards: Any, where: str, mode: str, in_game: tuple,
                      problems: Problems) -> None:
    if not isinstance(cards, list):
        problems.flag("COUP-S2", "coup.snapshot.not_a_list", where, place=where)
        return
    if all_in(_allowed(in_game, mode == "table"), cards):  # the usual case, one set test
        return
    for i, card in enumerate(cards):
        if not is_card_name(card, mode) or (card != UNKNOWN and card not in in_game):
            code = ("coup.snapshot.unknown_here" if card == UNKNOWN
                    else "coup.snapshot.not_a_card")
            problems.flag("COUP-S2", code, f"{where}[{i}]", place=where, i=i, name=repr(card))


@functools.lru_cache(maxsize=16)
def _allowed(in_game: tuple[str, ...], table: bool) -> frozenset[str]:
    """The card names a list of ``_check_cards_list`` may hold: the characters in the game,
    and ``"unknown"`` in table mode (COUP-S2, COUP-X1)."""
    return frozenset(in_game) | ({UNKNOWN} if table else set())


def _check_turn_types(state: dict, problems: Problems) -> None:
    turn, players = state["turn"], state["players"]
    if not isinstance(turn, dict) or set(turn) != set(TURN_FIELDS):
        problems.flag("COUP-T1", "coup.snapshot.bad_turn_fields", "state.turn",
                      fields=', '.join(TURN_FIELDS))
        return
    if not _is_int(turn["number"]) or turn["number"] < 1:
        problems.flag("COUP-T1", "coup.snapshot.bad_turn_number", "state.turn.number")
    if turn["player"] not in players:
        problems.flag("COUP-T1", "coup.snapshot.bad_turn_player", "state.turn.player")
    if turn["stage"] not in STAGES:
        problems.flag("COUP-T1", "coup.snapshot.bad_stage", "state.turn.stage",
                      stages=', '.join(STAGES))
    if turn["action"] is not None and bad_action(turn["action"], players, turn["player"]):
        problems.flag("COUP-A9", "coup.snapshot.bad_action", "state.turn.action")
    passed = turn["passed"]
    if (not isinstance(passed, list) or not all(p in players for p in passed)
            or len(set(passed)) != len(passed)):
        problems.flag("COUP-W1", "coup.snapshot.bad_passed", "state.turn.passed")
    if turn["challenger"] is not None and turn["challenger"] not in players:
        problems.flag("COUP-C1", "coup.snapshot.bad_challenger", "state.turn.challenger")
    block = turn["block"]
    if block is not None and (not isinstance(block, dict) or set(block) != {"player", "character"}
                              or block["player"] not in players
                              or block["character"] not in
                              characters_in_game(state["options"]["exchanger"])):
        problems.flag("COUP-B1", "coup.snapshot.bad_block", "state.turn.block")
    in_game = characters_in_game(state["options"]["exchanger"])
    _check_cards_list(turn["drawn"], "state.turn.drawn", state["mode"], in_game, problems)
    shown = turn["shown"]
    if shown is not None and not (is_card_name(shown, state["mode"])
                                  and (shown == UNKNOWN or shown in in_game)):
        problems.flag("COUP-A8b", "coup.snapshot.bad_shown", "state.turn.shown")


def _check_loss_winner(state: dict, key: str, problems: Problems) -> None:
    value = state[key]
    if value is None:
        return
    if key == "winner":
        if value not in state["players"]:
            problems.flag("COUP-E1", "coup.snapshot.bad_winner", "state.winner")
        return
    if (not isinstance(value, dict) or set(value) != {"player", "rule"}
            or value["player"] not in state["players"] or value["rule"] not in LOSS_RULES):
        problems.flag("COUP-W2", "coup.snapshot.bad_loss", "state.loss",
                      rules=', '.join(LOSS_RULES))


# --- invariants ----------------------------------------------------------------------------
def _check_cards(state: dict, problems: Problems) -> None:
    """COUP-S2, S3, X1: every card of the game once; known cards never more than the copies."""
    n = len(state["players"])
    deck = Counter(full_deck(state["options"]["exchanger"], n))
    cards = [c for where in card_locations(state) for c in where]
    if len(cards) != sum(deck.values()):
        problems.flag("COUP-S3", "coup.snapshot.card_count", "state", count=len(cards), players=n,
                      total=sum(deck.values()))
    counts = Counter(c for c in cards if c != UNKNOWN)
    for character, copies in deck.items():  # table mode: snapshot_records (with disputes)
        if state["mode"] == "digital" and counts[character] != copies:
            problems.flag("COUP-S3", "coup.snapshot.copies", "state", count=counts[character],
                          name=character, copies=copies)
    drawn = len(state["turn"]["drawn"])
    court = 3 if n == 2 else sum(deck.values()) - HAND_SIZE * n  # COUP-S4, S5
    if len(state["court"]) + drawn != court:
        problems.flag("COUP-S4", "coup.snapshot.court_size", "state.court",
                      count=len(state['court']), drawn=drawn, court=court)


MAX_COINS = 12
"""The most coins a player can hold (COUP-T2): 9 at the start of a turn plus tax's 3."""


def _check_seats(state: dict, problems: Problems) -> None:
    """Hand sizes (S4, S5), coins (S7, X2), the out (L2) and the winner (E1)."""
    players = state["players"]
    coins = sum(state["coins"].values())
    if coins + state["treasury"] != TREASURY_VALUE:
        problems.flag("COUP-S7", "coup.snapshot.coins_not_conserved", "state.treasury",
                      coins=coins, treasury=state['treasury'], total=coins + state['treasury'],
                      value=TREASURY_VALUE)
    choosing = state["turn"]["stage"] == CHOOSE
    for p in players:
        hand, revealed = state["hands"][p], state["revealed"][p]
        if len(players) == 2:
            pile = len(state["piles"][p])
            if (choosing and (len(hand), pile) not in ((1, 5), (2, 4))
                    or not choosing and pile != 4):
                problems.flag("COUP-S5", "coup.snapshot.pile_size", f"state.piles.{p}", player=p,
                              count=len(hand), pile=pile)
            if choosing and revealed:
                problems.flag("COUP-S5", "coup.snapshot.lost_before_choice", f"state.revealed.{p}")
        if len(hand) + len(revealed) != HAND_SIZE and not (choosing and len(hand) == 1):
            problems.flag("COUP-S4", "coup.snapshot.hand_size", f"state.hands.{p}", player=p,
                          down=len(hand), up=len(revealed), size=HAND_SIZE)
        if state["coins"][p] > MAX_COINS:
            problems.flag("COUP-T2", "coup.snapshot.too_many_coins", f"state.coins.{p}", player=p,
                          coins=state['coins'][p], most=MAX_COINS)
        if not hand and state["coins"][p]:
            problems.flag("COUP-L2", "coup.snapshot.out_with_coins", f"state.coins.{p}", player=p,
                          coins=state['coins'][p])
    alive = living(state)
    winner = state["winner"]
    over = state["turn"]["stage"] == OVER
    if len(alive) == 1 and (winner != alive[0] or not over):
        problems.flag("COUP-E1", "coup.snapshot.winner_missing", "state.winner", player=alive[0])
    elif not alive:
        problems.flag("COUP-E1", "coup.snapshot.nobody_alive", "state.hands")
    elif len(alive) != 1 and (winner is not None or over):
        problems.flag("COUP-E1", "coup.snapshot.winner_too_early", "state.winner",
                      count=len(alive))


def _check_turn(state: dict, problems: Problems) -> None:
    """The turn record is one some turn reaches (flow steps 1–6, W1, W2, C1, B1, A7, A8)."""
    turn, stage = state["turn"], state["turn"]["stage"]
    action, loss = turn["action"], state["loss"]
    where = "state.turn"
    if stage == OVER:
        if loss is not None:
            problems.flag("COUP-E1", "coup.snapshot.loss_after_end", "state.loss")
        return
    if not state["hands"][turn["player"]]:
        problems.flag("COUP-L2", "coup.snapshot.turn_of_out_player", f"{where}.player",
                      player=turn['player'])
        return
    if stage == CHOOSE and len(state["players"]) != 2:
        problems.flag("COUP-S5", "coup.snapshot.choose_not_two", f"{where}.stage")
    if (action is None) != (stage in (CHOOSE, DECLARE)):
        problems.flag("COUP-T1", "coup.snapshot.action_present" if stage in (CHOOSE, DECLARE)
                      else "coup.snapshot.action_absent", f"{where}.action", stage=stage)
        return
    if (loss is not None) != (stage in CONTINUATIONS):
        problems.flag("COUP-W2", "coup.snapshot.loss_stage", "state.loss",
                      stages=', '.join(CONTINUATIONS), stage=stage)
        return
    if loss is not None:
        hand = state["hands"][loss["player"]]
        if not hand or (state["mode"] == "digital" and len(hand) == 1):
            problems.flag("COUP-L1", "coup.snapshot.loss_without_choice", "state.loss",
                          player=loss['player'], count=len(hand))
        elif not _loss_arises(state):
            problems.flag("COUP-W2", "coup.snapshot.loss_not_arising", "state.loss",
                          player=loss['player'], cause=loss['rule'], stage=stage)
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
        problems.flag("COUP-B2", "coup.snapshot.examine_without_inquisitor", f"{where}.action")
    if stage in (ACTION_CHALLENGE, ACTION_PROOF) and claimed_character(kind, exchanger) is None:
        problems.flag("COUP-C1", "coup.snapshot.nothing_to_challenge", f"{where}.stage",
                      action=kind)
    if stage in (BLOCK, BLOCK_CHALLENGE, BLOCK_PROOF) and not blocking_characters(kind,
                                                                                  exchanger):
        problems.flag("COUP-B1", "coup.snapshot.not_blockable", f"{where}.stage", action=kind)
    block = turn["block"]
    if (block is not None) != (stage in (BLOCK_CHALLENGE, BLOCK_PROOF)) and stage in (
            BLOCK, BLOCK_CHALLENGE, BLOCK_PROOF, DECLARE, ACTION_CHALLENGE, ACTION_PROOF):
        problems.flag("COUP-B2", "coup.snapshot.block_absent" if block is None
                      else "coup.snapshot.block_present", f"{where}.block", stage=stage)
    elif block is not None and (
            block["character"] not in blocking_characters(kind, exchanger)
            or block["player"] == turn["player"]
            or only_target_blocks(kind) and block["player"] != action["target"]
            or (stage in (BLOCK_CHALLENGE, BLOCK_PROOF)
                and block["player"] not in eligible_blockers(state))):
        problems.flag("COUP-B1", "coup.snapshot.bad_block_claim", f"{where}.block",
                      player=block['player'], action=kind, name=block['character'])
    if problems:
        return
    challenger = turn["challenger"]
    if (challenger is not None) != (stage in PROOFS):
        problems.flag("COUP-C1", "coup.snapshot.challenger_absent" if challenger is None
                      else "coup.snapshot.challenger_present", f"{where}.challenger",
                      stage=stage)
    elif challenger is not None and (not state["hands"][challenger]
                                     or challenger == claimant(state)):
        problems.flag("COUP-C1", "coup.snapshot.bad_challenger_seat", f"{where}.challenger",
                      challenger=challenger)
    if stage in WINDOWS:
        if not set(turn["passed"]) <= set(window_candidates(state)):
            problems.flag("COUP-W1", "coup.snapshot.passed_not_eligible", f"{where}.passed")
        elif not window_waiting(state):
            problems.flag("COUP-W1", "coup.snapshot.window_all_passed", f"{where}.passed")
    elif turn["passed"]:
        problems.flag("COUP-W1", "coup.snapshot.passed_without_window", f"{where}.passed",
                      stage=stage)
    draw = EXCHANGE_DRAW[exchanger] if stage == EXCHANGE else 0
    if stage == EXCHANGE and kind != "exchange" or len(turn["drawn"]) != draw:
        problems.flag("COUP-A7", "coup.snapshot.drawn_count", f"{where}.drawn", stage=stage,
                      draw=draw)
    if stage in (SHOW, DECIDE) and kind != "examine":
        problems.flag("COUP-A8b", "coup.snapshot.stage_not_examine", f"{where}.stage", stage=stage)
    elif stage in (SHOW, DECIDE) and not state["hands"][action["target"]]:
        problems.flag("COUP-R1", "coup.snapshot.examined_out", f"{where}.action")
    elif (turn["shown"] is not None) != (stage == DECIDE) or (
            stage == DECIDE and turn["shown"] not in state["hands"][action["target"]]):
        problems.flag("COUP-A8b", "coup.snapshot.bad_shown_card", f"{where}.shown")
