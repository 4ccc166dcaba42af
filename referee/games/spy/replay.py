"""Replaying a Spy snapshot's ``log`` move by move (issue 12 item 8): :func:`replay_problems`.

The log holds every public event since the start (``setup`` writes ``[]``), so the turn, each
Spy's gap and facing, the exposures, the lit bombs, the declared numbers and the eliminations
follow from it.  The one fact the log does not hold is where each Spy sat at the start
(SPY-S2, any gap and facing): it is taken from the Spy's first event (the first move's
``from_gap``, the facing before its first turn), or from the base when the Spy never moved.

Each event is checked against the replay so far (whose turn, the order of a turn, where the
Spy was, what the answer had to be, who is eliminated, who plays next), then the state's own
fields against the replay's end.  The first event that does not follow stops the replay (what
comes after it cannot be judged).  The cost is linear in the log: each event is a few lookups.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import UNKNOWN, Problems
from referee.games.common.seats import next_seat
from referee.games.spy.answers import ANSWER_RULE, true_answer
from referee.games.spy.judge import in_turn_order
from referee.games.spy.positions import faced_index, mirror_index, moved_gap, turned_round
from referee.games.spy.rules import EXPOSED_CARD_STEPS, TOP_SECRET_2, movement_table, short_repr


class _Stop(Exception):
    """An event that does not follow from the log before it (already flagged)."""


def replay_problems(state: dict[str, Any], problems: Problems) -> None:
    """Add a problem for the first log event that does not follow from the events before it
    (SPY-T1, SPY-P1, SPY-P2, SPY-M1…M4, SPY-C3, SPY-R1…R7, SPY-S3, SPY-E1, SPY-E2), else for
    each field of the state that is not where the log leaves it: ``bases.P.spy_gap`` /
    ``facing`` (SPY-M1, SPY-M4), ``exposed`` (SPY-R3), ``lit`` (SPY-R4), ``declared``
    (SPY-C3), ``eliminated`` (SPY-E1), ``turn.player`` (SPY-S3), ``turn.done`` (SPY-T1),
    ``turn.pending`` (SPY-P2).  ``state`` is otherwise checked (types, bases, log shapes)."""
    replay = _Replay(state, problems)
    try:
        for index, entry in enumerate(state["log"]):
            replay.event(index, entry)
    except _Stop:
        return
    replay.finish()


class _Replay:
    """The public facts of a game as its log builds them, event by event."""

    def __init__(self, state: dict[str, Any], problems: Problems):
        self.state, self.problems = state, problems
        players, bases = state["players"], state["bases"]
        self.size = len(bases[players[0]]["cards"])
        self.numbers = movement_table(state["mode"], state["options"].get("card_moves"))
        self.spies = _start_spies(state)
        self.exposed = {p: [] for p in players}
        self.lit = {p: set() for p in players}
        self.declared = {p: [None] * self.size for p in players}
        self.eliminated: list[str] = []
        self.player = state["options"].get("first_player") or players[0]  # SPY-S3
        self.done: list[str] = []
        self.spied: dict[str, Any] | None = None  # a spy not answered yet
        self.due: list[tuple[str, str]] | None = None  # after an answer: eliminations owed
        self.over = False

    def flag(self, rule: str, code: str, index: int, field: str | None, **params: Any) -> None:
        """Flag log entry ``index`` (its ``field``, or the whole entry) and stop the replay."""
        where = f"state.log[{index}]" if field is None else f"state.log[{index}].{field}"
        self.problems.flag(rule, code, where, index=index, **params)
        raise _Stop

    # --- one event ------------------------------------------------------------------------
    def event(self, index: int, entry: dict[str, Any]) -> None:
        kind = entry["type"]
        if self.over:
            self.flag("SPY-E2", "spy.snapshot.log_after_end", index, None)
        if self.due:
            self._elimination(index, entry)
            return
        if self.spied is not None and kind != "answer":
            self.flag("SPY-P2", "spy.snapshot.log_answer_missing", index, "type",
                      defender=self.spied["target"])
        if kind == "answer":
            self._answer(index, entry)
        elif kind in ("turn", "game_over"):
            self._pass(index, entry)
        elif kind == "eliminated":
            self.flag("SPY-E1", "spy.snapshot.log_unexplained_elimination", index, "player",
                      player=entry["player"])
        else:
            self._action(index, entry)

    def _action(self, index: int, entry: dict[str, Any]) -> None:
        """turn_round (SPY-M4), move (SPY-M1…M3, SPY-C3), spy (SPY-P1, SPY-P2)."""
        kind, player = entry["type"], entry["player"]
        if player != self.player or self.due is not None:
            self.flag("SPY-P2", "spy.snapshot.log_out_of_turn", index, "player",
                      player=player, turn=self.player)
        done = self.done
        if not in_turn_order(done, kind):
            self.flag("SPY-T1", "spy.snapshot.log_turn_order", index, "type",
                      kind=kind, player=player)
        done.append(kind)
        spy = self.spies[player]
        if kind == "turn_round":
            if entry["facing"] != turned_round(spy[1]):
                self.flag("SPY-M4", "spy.snapshot.log_facing", index, "facing",
                          player=player, facing=turned_round(spy[1]))
            spy[1] = entry["facing"]
        elif kind == "move":
            self._move(index, entry, spy)
        else:
            self._spy(index, entry, spy)

    def _move(self, index: int, entry: dict[str, Any], spy: list) -> None:
        player, (gap, facing) = entry["player"], spy
        if entry["facing"] != facing:
            self.flag("SPY-M4", "spy.snapshot.log_facing", index, "facing",
                      player=player, facing=facing)
        if entry["from_gap"] != gap:
            self.flag("SPY-M1", "spy.snapshot.log_from_gap", index, "from_gap",
                      player=player, gap=gap)
        faced = faced_index(gap, facing, self.size)
        if entry["faced"] != faced:
            self.flag("SPY-M3", "spy.snapshot.log_faced", index, "faced",
                      position=faced, gap=gap, facing=facing)
        steps = entry["steps"]
        where = {"player": player, "position": faced, "steps": steps}
        if faced in self.exposed[player]:
            if steps not in EXPOSED_CARD_STEPS:
                self.flag("SPY-M2", "spy.snapshot.log_steps_exposed", index, "steps",
                          **where)
        else:
            card = self.state["bases"][player]["cards"][faced]
            number = self.numbers.get(card) if card != UNKNOWN else None
            if number is not None and steps != number:
                self.flag("SPY-M1", "spy.snapshot.log_steps_card", index, "steps", card=card,
                          number=number, **where)
            declared = self.declared[player][faced]
            if declared is not None and declared != steps:
                self.flag("SPY-C3", "spy.snapshot.log_steps_declared", index, "steps",
                          declared=declared, **where)
            self.declared[player][faced] = steps
        reached = moved_gap(gap, facing, steps, self.size)
        if entry["spy_gap"] != reached:
            self.flag("SPY-M1", "spy.snapshot.log_spy_gap", index, "spy_gap",
                      gap=reached, steps=steps, facing=facing, from_gap=gap)
        spy[0] = reached

    def _spy(self, index: int, entry: dict[str, Any], spy: list) -> None:
        player, target = entry["player"], entry["target"]
        if target == player or target in self.eliminated:
            self.flag("SPY-P2", "spy.snapshot.log_spy_target", index, "target",
                      player=player, target=target)
        position = mirror_index(faced_index(spy[0], spy[1], self.size), self.size,
                                self.state["options"]["mirror"])
        if entry["position"] != position:
            self.flag("SPY-P1", "spy.snapshot.log_spied_position", index, "position",
                      player=player, position=position)
        self.spied = entry

    def _answer(self, index: int, entry: dict[str, Any]) -> None:
        """The answer to the spy just before it (SPY-P2), the true one (SPY-R2…R6); what it
        exposes (SPY-R3), lights (SPY-R4) and who it eliminates (SPY-R5, SPY-R7)."""
        spied = self.spied
        if spied is None:
            self.flag("SPY-P2", "spy.snapshot.log_answer_unasked", index, "type")
        for key, expected in (("player", spied["target"]), ("attacker", spied["player"]),
                              ("position", spied["position"])):
            if entry[key] != expected:
                self.flag("SPY-P2", "spy.snapshot.log_answer_spy", index, key,
                          key=key, expected=short_repr(expected))
        defender, position, answer = entry["player"], entry["position"], entry["answer"]
        exposed, lit = self.exposed[defender], self.lit[defender]
        card = self.state["bases"][defender]["cards"][position]
        if card != UNKNOWN:
            truth = true_answer({"cards": self.state["bases"][defender]["cards"],
                                 "exposed": exposed, "lit": lit}, position)
            if (answer, entry.get("card")) != truth:
                self.flag(ANSWER_RULE[truth[0]], "spy.snapshot.log_answer_truth",
                          index, "answer", player=defender, position=position,
                          given=short_repr(answer), expected=short_repr(truth[0]))
        elif position in lit or answer not in ("safe", "top_secret", "tsss"):
            # an unknown card was never shown (exposed, lit_bomb) nor exposed before
            truth = "lit_bomb" if position in lit else "tsss"
            self.flag(ANSWER_RULE[truth], "spy.snapshot.log_answer_truth", index, "answer",
                      player=defender, position=position,
                      given=short_repr(answer), expected=short_repr(truth))
        self.due = []
        if answer == "tsss":
            lit.add(position)
        elif answer == "exposed":
            exposed.append(position)
            if entry["card"] == TOP_SECRET_2 and self.state["options"]["top_secret_2_eliminates"]:
                self.due.append((defender, "SPY-R7"))
        elif answer == "lit_bomb":
            self.due.append((spied["player"], "SPY-R5"))
        self.spied = None

    def _elimination(self, index: int, entry: dict[str, Any]) -> None:
        player, rule = self.due[0]
        if (entry["type"], entry.get("player"), entry.get("rule")) != ("eliminated", player, rule):
            self.flag(rule, "spy.snapshot.log_elimination", index, None,
                      player=player, rule=rule)
        self.eliminated.append(player)
        self.due.pop(0)

    def _pass(self, index: int, entry: dict[str, Any]) -> None:
        """The turn passes to the next player still in (SPY-S3, SPY-E1), or the last one left
        wins (SPY-E2): after an answer, or an ``end_turn`` (then nobody was eliminated)."""
        left = [p for p in self.state["players"] if p not in self.eliminated]
        if len(left) == 1:
            if entry["type"] != "game_over" or entry["winner"] != left[0]:
                self.flag("SPY-E2", "spy.snapshot.log_game_over", index, "type",
                          winner=left[0])
            self.over, self.due = True, None
            return
        following = next_seat(self.state["players"], self.player, self.eliminated)
        if entry["type"] != "turn" or entry["player"] != following:
            field = "player" if entry["type"] == "turn" else "type"
            self.flag("SPY-S3", "spy.snapshot.log_next_turn", index, field,
                      player=following)
        self.player, self.done, self.due = following, [], None

    # --- the end: the state's fields where the log leaves them -------------------------------
    def finish(self) -> None:
        state, problems = self.state, self.problems
        if self.due is not None:
            problems.flag("SPY-T1", "spy.snapshot.log_unfinished", "state.log")
            return
        for player in state["players"]:
            self._base_end(player, state["bases"][player])
        if state["eliminated"] != self.eliminated:
            problems.flag("SPY-E1", "spy.snapshot.replay_eliminated", "state.eliminated",
                          players=", ".join(self.eliminated) or "-")
        if self.over or problems:
            return
        turn = state["turn"]
        if turn["player"] != self.player:
            problems.flag("SPY-S3", "spy.snapshot.replay_turn_player", "state.turn.player",
                          player=self.player)
        if turn["done"] != self.done:
            problems.flag("SPY-T1", "spy.snapshot.replay_done", "state.turn.done",
                          done=short_repr(self.done))
        spied = self.spied
        pending = None if spied is None else {
            "attacker": spied["player"], "defender": spied["target"], "position": spied["position"]}
        if turn["pending"] != pending or pending and state["mode"] == "digital":
            problems.flag("SPY-P2", "spy.snapshot.replay_pending", "state.turn.pending",
                          pending=short_repr(pending))

    def _base_end(self, player: str, base: dict[str, Any]) -> None:
        where, problems = f"state.bases.{player}", self.problems
        gap, facing = self.spies[player]
        if base["spy_gap"] != gap:
            problems.flag("SPY-M1", "spy.snapshot.replay_spy_gap", f"{where}.spy_gap",
                          player=player, gap=gap)
        if base["facing"] != facing:
            problems.flag("SPY-M4", "spy.snapshot.replay_facing", f"{where}.facing",
                          player=player, facing=facing)
        if base["exposed"] != self.exposed[player]:
            problems.flag("SPY-R3", "spy.snapshot.replay_exposed", f"{where}.exposed",
                          player=player, positions=short_repr(self.exposed[player]))
        lit = sorted(self.lit[player])
        if base["lit"] != lit:
            problems.flag("SPY-R4", "spy.snapshot.replay_lit", f"{where}.lit", player=player,
                          positions=short_repr(lit))
        for position, number in enumerate(self.declared[player]):
            if base["declared"][position] != number:
                problems.flag("SPY-C3", "spy.snapshot.replay_declared",
                              f"{where}.declared[{position}]", player=player,
                              position=position, number=short_repr(number))


def _start_spies(state: dict[str, Any]) -> dict[str, list]:
    """Each Spy's ``[gap, facing]`` at the start: from its first move and first event, else
    where the base has it (a Spy that never moved nor turned round)."""
    spies = {p: [base["spy_gap"], base["facing"]] for p, base in state["bases"].items()}
    gap_known, facing_known = set(), set()
    for entry in state["log"]:
        kind = entry["type"]
        if kind not in ("turn_round", "move"):
            continue
        player = entry["player"]
        if player not in facing_known:
            facing_known.add(player)
            spies[player][1] = entry["facing"] if kind == "move" else turned_round(entry["facing"])
        if kind == "move" and player not in gap_known:
            gap_known.add(player)
            spies[player][0] = entry["from_gap"]
    return spies
