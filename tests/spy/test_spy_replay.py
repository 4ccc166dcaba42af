"""The log of a Spy snapshot is replayed move by move (issue 12 item 8, ``spy/replay.py``): an
event that does not follow from the events before it is refused, and so is a field of the
state that is not where the log leaves it, each citing the rule and naming the field."""
from __future__ import annotations

from bench.worst_inputs import replaced
from referee.games.spy.engine import ENGINE
from tests.spy.harness import start
from tests.spy.test_spy_snapshot import BASES, played, problems


def test_spy_m1_the_gap_is_where_the_last_move_left_it():
    state = played()  # C moved 1 from gap 4 to gap 5 (log[6]); A never moved
    assert state["bases"]["C"]["spy_gap"] == 5
    assert problems(replaced(state, ("bases", "C", "spy_gap"), 0)) == {
        ("SPY-M1", "state.bases.C.spy_gap")}
    # A spied from gap 5 facing right (c5, mirror c0); from gap 4 the mirror is c1
    assert problems(replaced(state, ("bases", "A", "spy_gap"), 4)) == {
        ("SPY-P1", "state.log[0].position")}
    assert problems(replaced(state, ("log", 6, "spy_gap"), 0)) == {
        ("SPY-M1", "state.log[6].spy_gap")}


def test_spy_c3_declared_numbers_are_the_log_moves():
    game = start(BASES, mode="table").do("move", "A", steps=2)  # A faces c5 (hidden to all)
    state = game.state
    assert state["bases"]["A"]["declared"] == [None] * 5 + [2]
    ENGINE.check_snapshot(state)
    assert problems(replaced(state, ("bases", "A", "declared", 5), 3)) == {
        ("SPY-C3", "state.bases.A.declared[5]")}
    assert problems(replaced(state, ("bases", "A", "declared", 0), 1)) == {
        ("SPY-C3", "state.bases.A.declared[0]")}


def test_spy_r4_a_lit_bomb_is_one_the_log_lit():
    state = played()  # B's c0 was answered tsss (log[1])
    assert state["bases"]["B"]["lit"] == [0]
    assert problems(replaced(state, ("bases", "B", "lit"), [])) == {
        ("SPY-R4", "state.bases.B.lit")}


def test_spy_p2_r2_each_event_follows_from_the_log_before_it():
    state = played()
    # log[3] is B's spy in B's turn: C cannot act then
    assert problems(replaced(state, ("log", 3, "player"), "C")) == {
        ("SPY-P2", "state.log[3].player")}
    # C's c3 is Top Secret 2 and C's target Safe 1: the true answer is "top_secret"
    assert problems(replaced(state, ("log", 4, "answer"), "safe")) == {
        ("SPY-R2", "state.log[4].answer")}
    doubled = replaced(state, ("log",), [state["log"][0]] + state["log"])
    assert problems(doubled) == {("SPY-P2", "state.log[1].type")}  # the spy is unanswered


def test_spy_s3_t1_the_turn_is_where_the_log_leaves_it():
    state = played()  # the log ends with the turn passing to A, who has done nothing yet
    assert problems(replaced(state, ("turn", "player"), "B")) == {
        ("SPY-S3", "state.turn.player")}
    assert problems(replaced(state, ("turn", "done"), ["move"])) == {
        ("SPY-T1", "state.turn.done")}
