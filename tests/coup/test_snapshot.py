"""check_snapshot: impossible snapshots are refused naming the field (COUP-S2, S3, S4, S5, S7, L2,
E1, W1, W2), and junk of any shape raises ImpossibleState, never a KeyError/TypeError."""
from __future__ import annotations

import copy
import random

import pytest

from referee.games.base import ImpossibleState, RefereeError
from referee.games.coup.engine import ENGINE

HANDS = {"A": ["assassin", "duchess"], "B": ["captain", "countess"],
         "C": ["ambassador", "captain"]}


def _rules(state) -> set[str]:
    with pytest.raises(ImpossibleState) as error:
        ENGINE.check_snapshot(state)
    return {v.rule for v in error.value.violations}


def _fields(state) -> set[str]:
    with pytest.raises(ImpossibleState) as error:
        ENGINE.check_snapshot(state)
    return {v.field for v in error.value.violations}


@pytest.fixture
def start(new_game):
    return new_game(HANDS).state


def test_coup_s7_coins_that_do_not_add_up_to_54_are_refused(start):
    start["coins"]["A"] += 1                        # 7 with the players + 48 = 55
    assert _rules(start) == {"COUP-S7"}
    assert _fields(start) == {"state.treasury"}


def test_coup_s3_a_card_twice_too_many_is_refused(start):
    start["court"][start["court"].index("countess")] = "duchess"   # 4 duchesses, 2 countesses
    assert _rules(start) == {"COUP-S3"}


def test_coup_s2_a_card_of_another_game_or_unknown_in_digital_is_refused(start):
    start["hands"]["A"][0] = "inquisitor"            # an Ambassador game
    assert "COUP-S2" in _rules(start)
    assert "state.hands.A[0]" in _fields(start)
    start["hands"]["A"][0] = "unknown"               # digital mode knows every card
    assert "COUP-S2" in _rules(start)


def test_coup_s4_a_player_with_three_cards_is_refused(start):
    start["hands"]["A"].append(start["court"].pop())
    assert "COUP-S4" in _rules(start)


def test_coup_l2_an_out_player_with_coins_is_refused(start):
    start["revealed"]["C"] = start["hands"]["C"]
    start["hands"]["C"] = []
    assert _rules(start) == {"COUP-L2"}


def test_coup_e1_a_lone_survivor_without_a_winner_is_refused(start):
    for p in ("B", "C"):
        start["revealed"][p], start["hands"][p] = start["hands"][p], []
        start["treasury"] += start["coins"][p]
        start["coins"][p] = 0
    assert "COUP-E1" in _rules(start)


def test_coup_w2_a_loss_pending_at_the_declare_stage_is_refused(start):
    start["loss"] = {"player": "B", "rule": "COUP-A3"}
    assert _rules(start) == {"COUP-W2"}


def test_coup_w2_a_pending_loss_no_turn_can_produce_is_refused(new_game):
    """COUP-W2: losses arise from a coup or assassination (the target, A3/A5) or a lost
    challenge (the claimant C3, the challenger C4).  A snapshot demanding any other loss (after
    an income, of the wrong player, under the wrong rule) would make the referee take an
    influence the rules never took: it is refused, naming state.loss."""
    game = new_game(HANDS, coins={"A": 7}).do("coup", "A", target="B")
    assert game.state["loss"] == {"player": "B", "rule": "COUP-A3"}
    for loss in ({"player": "C", "rule": "COUP-A3"},     # not the coup's target
                 {"player": "B", "rule": "COUP-A5"},     # no assassination
                 {"player": "B", "rule": "COUP-C3"},     # no claim, no challenge
                 {"player": "B", "rule": "COUP-C4"}):
        state = copy.deepcopy(game.state)
        state["loss"] = loss
        assert _rules(state) == {"COUP-W2"} and _fields(state) == {"state.loss"}, loss
    income = copy.deepcopy(game.state)                   # the same loss after an income
    income["turn"]["action"] = {"type": "income"}
    assert _rules(income) == {"COUP-W2"}
    game = new_game(HANDS).do("tax", "A").do("challenge", "B").do("prove", "A")
    assert game.state["loss"] == {"player": "B", "rule": "COUP-C4"}
    ENGINE.check_snapshot(game.state)
    for loss in ({"player": "A", "rule": "COUP-C4"}, {"player": "A", "rule": "COUP-C3"}):
        state = copy.deepcopy(game.state)              # A proved the claim: A loses nothing
        state["loss"] = loss
        assert _rules(state) == {"COUP-W2"}, loss
    state = copy.deepcopy(game.state)                  # C might have been the challenger
    state["loss"] = {"player": "C", "rule": "COUP-C4"}
    ENGINE.check_snapshot(state)


def test_coup_w1_an_open_window_everyone_passed_is_refused(new_game):
    game = new_game(HANDS).do("tax", "A")
    state = copy.deepcopy(game.state)
    state["turn"]["passed"] = ["B", "C"]
    assert _rules(state) == {"COUP-W1"}


def test_check_state_accepts_every_state_the_engine_makes(new_game):
    game = new_game(HANDS).do("tax", "A").do("challenge", "B")
    ENGINE.check_snapshot(game.state)
    assert game.turn["stage"] == "action_proof"


JUNK = [None, True, 0, -1, 3.5, "x", "", [], {}, ["x"], {"x": 1}, [None], "unknown", "A",
        "duchess", "inquisitor", 10**6]


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


def _replaced(state, path, junk):
    state = copy.deepcopy(state)
    if not path:
        return junk
    holder = state
    for key in path[:-1]:
        holder = holder[key]
    if junk is _DELETE:
        del holder[path[-1]]
    else:
        holder[path[-1]] = junk
    return state


_DELETE = object()


def _positions(new_game):
    """Snapshots at many stages: declare, windows, proof, loss, exchange, examine, 2 players."""
    game = new_game(HANDS, top=("assassin", "duchess"))
    out = [copy.deepcopy(game.state)]
    game.do("steal", "A", target="B")
    out.append(copy.deepcopy(game.state))
    game.do("pass", "B").do("pass", "C").do("block", "B", character="captain")
    out.append(copy.deepcopy(game.state))
    game.do("challenge", "A")
    out.append(copy.deepcopy(game.state))
    game.do("prove", "B")
    out.append(copy.deepcopy(game.state))                     # A must lose influence
    game.do("lose_influence", "A", card="duchess").do("exchange", "B")
    game.do("pass", "A").do("pass", "C")
    out.append(copy.deepcopy(game.state))                     # B returns cards
    inq = new_game({"A": ["inquisitor", "duchess"], "B": ["captain", "countess"],
                    "C": ["assassin", "captain"]}, "inquisitor", mode="table")
    inq.do("examine", "A", target="B").do("pass", "B").do("pass", "C")
    inq.do("show_card", "B", card="captain")
    out.append(copy.deepcopy(inq.state))
    out.append(ENGINE.setup({"players": ["A", "B"]}, 3))
    return out


def test_junk_anywhere_in_a_snapshot_raises_impossible_state_never_a_crash(new_game):
    """Every field, at any depth, replaced by junk or deleted: ImpossibleState or a state the
    engine handles (legal_actions, violations and apply all answer)."""
    rng = random.Random(4)
    checked = 0
    for state in _positions(new_game):
        for path in _paths(state):
            for junk in rng.sample(JUNK, 6) + ([_DELETE] if path else []):
                bad = _replaced(state, path, junk)
                try:
                    ENGINE.check_snapshot(bad)
                except ImpossibleState as error:
                    assert error.violations and all(v.rule.startswith(("COUP-", "OPTIONS"))
                                                     for v in error.violations)
                    checked += 1
                    continue
                for action in ENGINE.legal_actions(bad)[:3]:
                    assert not ENGINE.violations(bad, action)
                    ENGINE.apply(bad, action)
                ENGINE.view(bad, None)
    assert checked > 1000


def test_junk_actions_yield_violations_never_a_crash(new_game):
    state = new_game(HANDS).state
    actions = [None, [], "income", {}, {"type": "income"}, {"player": "A"},
               {"type": "nonsense", "player": "A"}, {"type": "income", "player": "Z"},
               {"type": "income", "player": ["A"]}, {"type": ["income"], "player": "A"},
               {"type": "coup", "player": "A"}, {"type": "coup", "player": "A", "target": 3},
               {"type": "income", "player": "A", "extra": 1},
               {"type": "block", "player": "B", "character": None},
               {"type": "return_cards", "player": "A", "cards": "duchess"},
               {"type": "return_cards", "player": "A", "cards": [1, None]},
               {"type": "examine_decide", "player": "A", "swap": 1},
               {"type": "close_window", "player": "A"}, {"type": "pass", "player": "host"}]
    for action in actions:
        found = ENGINE.violations(state, action)
        assert found and all(v.rule.startswith("COUP-") for v in found), action
        with pytest.raises(RefereeError):
            ENGINE.apply(state, action)


def test_coup_t2_no_player_can_hold_more_than_twelve_coins():
    from referee.games.coup.engine import ENGINE
    from referee.games.base import ImpossibleState
    state = ENGINE.setup({"players": ["a", "b", "c"], "mode": "digital",
                          "options": ENGINE.resolve_options({})}, 1)
    state["coins"]["a"] += state["treasury"] - 10  # 40 coins, the treasury still adds up
    state["treasury"] = 10
    state["coins"]["a"] = 54 - 10 - state["coins"]["b"] - state["coins"]["c"]
    with pytest.raises(ImpossibleState) as err:
        ENGINE.check_snapshot(state)
    assert ("COUP-T2", "state.coins.a") in {(v.rule, v.field) for v in err.value.violations}
