"""Kept states (referee.matches.kept; issue 21 item 1): a rollback's proposal and its replay
read a kept state and a few hundred history entries, and answer exactly what walking the
whole history answers (referee.matches.disputes._undoing_walked, history.line_at + replay:
the way every rollback worked before, and still works for a record made before kept states).

Matches of every game with rollbacks at random (to any earlier version: back over undone
moves, over scored hands, over earlier rollbacks), a state kept every 4 versions so that every
case of the walk (a kept state, a rollback since it, version 1's deal) comes up often."""
from __future__ import annotations

import random

import pytest

from referee.matches import kept
from referee.matches.disputes import _undoing, _undoing_walked
from referee.matches.history import line_at, replay
from referee.matches.service import MatchService
from referee.registry import GAMES
from tests.matches.conftest import bearer

SETUPS = {
    "coup": {"game": "coup", "players": ["ana", "ben", "cy"]},
    "all-fours": {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana"},
    "gnoming": {"game": "gnoming", "players": ["ana", "ben", "cy"], "options": {"rounds": 2}},
    "spy": {"game": "spy", "players": ["ana", "ben", "cy"]},
    "all-fours-table": {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana",
                        "mode": "table"},
}


def rolled_back(game, rng, to_version: int, version: int) -> bool:
    """Propose a rollback to ``to_version`` and let every seat approve it when the table
    votes (digital mode, or a scored hand undone); ``True`` when it was applied."""
    answer = game.client.post(game.url + "/rollback", json={
        "to_version": to_version, "reason": "a move was made by mistake"},
        headers={**bearer(game.token("host")), "If-Match": f'"{version}"'})
    if answer.status_code == 422:  # nothing to undo at that version: a fact, not a failure
        return False
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    for seat in game.created["seats"]:
        if body["status"] != "pending":
            break
        body = game.client.post(game.url + "/rollback/votes",
                                json={"proposal": body["rollback"]["proposal"],
                                      "approve": True}, headers=bearer(game.token(seat))
                                ).get_json()
    assert body["status"] == "applied", body
    return True


def played_with_rollbacks(client, table, setup: dict, seed: int, moves: int):
    game = table.create(client, **setup, seed=seed)
    rng = random.Random(seed)
    rollbacks = 0
    for _ in range(moves):
        read = game.read("host")
        version = read["version"]
        if read["over"]:  # a finished match's result stands: no rollback, no move
            break
        if version > 2 and rng.random() < 0.25:
            rollbacks += rolled_back(game, rng, rng.randrange(1, version), version)
        elif game.step(rng) is None:
            break
    return game, rollbacks


def stepped(client, table, name: str, seed: int, moves: int):
    """A match of ``SETUPS[name]`` dealt from ``seed`` with ``moves`` random legal moves made
    (none ends it); returns it and the random source, to go on with."""
    game = table.create(client, **SETUPS[name], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        assert game.step(rng) is not None
    return game, rng


def whole_walk_state(svc: MatchService, record: dict) -> dict:
    """The state the whole history's line replays to (the way before kept states)."""
    engine = GAMES[record["game"]].engine
    return replay(engine, record["setup"], record["seed"], line_at(svc.history(record)))


def expanded(segments: list, history: list[dict]) -> list[dict]:
    """The steps a line of segments stands for: each action entry in a range, each reshuffle."""
    by_version = {entry["version"]: entry for entry in history}
    steps = []
    for segment in segments:
        if isinstance(segment, dict):
            steps.append(segment)
            continue
        for version in range(segment[0], segment[1] + 1):
            entry = by_version.get(version)
            if entry is not None and "action" in entry:
                steps.append({"version": version, "action": entry["action"]})
    return steps


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_target_s_undone_moves_state_and_line_are_the_whole_walk_s(
        client, table, monkeypatch, name, seed):
    monkeypatch.setattr(kept, "KEEP_EVERY", 4)
    same_as_the_whole_walk(client, table, name, seed)


@pytest.mark.parametrize("name", ["coup", "all-fours"])
def test_on_every_store_the_walk_is_the_whole_walk(clients, table, monkeypatch, name):
    # the kept states go through the Redis commit script and back (each topology)
    monkeypatch.setattr(kept, "KEEP_EVERY", 4)
    same_as_the_whole_walk(clients[0], table, name, 2)


def same_as_the_whole_walk(client, table, name: str, seed: int) -> None:
    """Play ``name`` with rollbacks, then for every earlier version compare the kept walk's
    answers with the whole walk's."""
    game, rollbacks = played_with_rollbacks(client, table, SETUPS[name], seed, 70)
    svc = MatchService(client.application.extensions["referee.store"], 3600)
    record = svc.load(game.id)
    history = svc.history(record)
    engine = GAMES[record["game"]].engine
    assert expanded(record["line"], history) == line_at(history)
    assert rollbacks >= 2, "the walk must meet rollbacks"
    walk = svc.walk(record)
    for target in range(1, record["version"]):
        assert _undoing(svc, record, target) == _undoing_walked(svc, record, target), target
        assert expanded(walk.line(target), history) == line_at(history, target), target
        whole = replay(engine, record["setup"], record["seed"], line_at(history, target))
        assert kept.state_at(walk, engine, record["setup"], record["seed"], target) == whole


def test_a_state_is_kept_at_every_multiple_and_every_applied_rollback(client, table,
                                                                      monkeypatch):
    monkeypatch.setattr(kept, "KEEP_EVERY", 4)
    game, rollbacks = played_with_rollbacks(client, table, SETUPS["coup"], 5, 40)
    store = client.application.extensions["referee.store"]
    svc = MatchService(store, 3600)
    record = svc.load(game.id)
    applied = {entry["version"] for entry in svc.history(record)
               if entry.get("rollback", {}).get("step") == "applied"}
    assert len(applied) == rollbacks >= 1
    for version in range(2, record["version"] + 1):
        found = store.checkpoint(game.id, version)
        assert (found is not None) == (version % 4 == 0 or version in applied), version


def test_the_longest_walk_reads_fewer_entries_than_one_kept_stretch(client, table,
                                                                    monkeypatch):
    # the point of it: a rollback to version 2 of a 60-version match reads at most a few
    # windows of KEEP_EVERY entries, not the history (the whole walk reads every entry)
    monkeypatch.setattr(kept, "KEEP_EVERY", 8)
    game, _ = stepped(client, table, "gnoming", 4, 60)
    store = client.application.extensions["referee.store"]
    svc = MatchService(store, 3600)
    record = svc.load(game.id)
    read = []
    real = store.actions
    monkeypatch.setattr(store, "actions", lambda *a: read.append(a) or real(*a))
    (listed, count), (redone, redone_count), _ = _undoing(svc, record, 2)
    assert count == record["actions"] - 1 and len(listed) == 20
    assert redone == [] and redone_count == 0
    assert sum(a[2] for a in read) <= 3 * 8 + 40, read
    read.clear()
    _undoing_walked(svc, record, 2)
    assert sum(len(real(*a)) for a in read) >= record["version"] - 1


def test_a_seat_step_at_a_kept_version_keeps_its_state_too(client, table, monkeypatch):
    # a re-issued token is a commit of its own (referee.matches.seating), so it keeps the
    # state of its version like any other; without it the next rollback would find no kept
    # state at version 2 and walk the whole history from then on (line None)
    monkeypatch.setattr(kept, "KEEP_EVERY", 2)
    game = table.create(client, **SETUPS["all-fours"], seed=42)
    host = bearer(game.token("host"))
    answer = client.post(game.url + "/seats/ben/token", headers=host)
    assert answer.status_code == 200 and answer.get_json()["version"] == 2
    game.created["seats"]["ben"] = answer.get_json()["token"]
    store = client.application.extensions["referee.store"]
    assert store.checkpoint(game.id, 2)["line"] == [[2, 1]]
    rng = random.Random(1)
    for _ in range(3):
        game.step(rng)
    assert rolled_back(game, rng, 2, 5)
    assert MatchService(store, 3600).load(game.id)["line"] is not None


def test_a_record_made_before_kept_states_walks_its_whole_history(client, table, monkeypatch):
    # a match stored by the version before kept states has no line fields: its rollbacks
    # still restore the right state (the whole walk), and it never gains half of them
    monkeypatch.setattr(kept, "fresh", lambda: {})
    game, rollbacks = played_with_rollbacks(client, table, SETUPS["coup"], 1, 70)
    assert rollbacks >= 2
    svc = MatchService(client.application.extensions["referee.store"], 3600)
    record = svc.load(game.id)
    assert record.get("line") is None and "actions" not in record
    assert record["state"] == whole_walk_state(svc, record)


def test_a_kept_state_gone_missing_falls_back_to_the_whole_walk_for_good(client, table,
                                                                         monkeypatch):
    # a store that lost a kept state (only a store fault could) answers by the whole walk,
    # and the record stops keeping its line (None) rather than keep a wrong one
    monkeypatch.setattr(kept, "KEEP_EVERY", 4)
    game, rng = stepped(client, table, "coup", 3, 9)
    store = client.application.extensions["referee.store"]
    monkeypatch.setattr(store, "checkpoint", lambda match_id, version: None)
    assert rolled_back(game, rng, 6, 10)
    svc = MatchService(store, 3600)
    record = svc.load(game.id)
    assert record["line"] is None
    assert record["state"] == whole_walk_state(svc, record)
    monkeypatch.undo()
    for _ in range(3):
        assert game.step(rng) is not None
    version = game.read("host")["version"]
    assert rolled_back(game, rng, version - 2, version)
    record = svc.load(game.id)
    assert record["line"] is None
    assert record["state"] == whole_walk_state(svc, record)


def test_the_difference_of_two_lines_is_the_set_difference_of_their_versions():
    # kept.difference sweeps both lines once; checked against sets of versions
    rng = random.Random(7)
    for _ in range(500):
        lines = []
        for _ in range(2):
            line, at = [], 2
            for _ in range(rng.randrange(0, 6)):
                at += rng.randrange(0, 4)
                end = at + rng.randrange(-1, 6)
                line.append([at, end])
                if rng.random() < 0.3:
                    line.append({"version": end + 1, "reshuffle": "r"})
                at = max(at, end + 1) + 1
            lines.append(line)
        ranges = kept.difference(*lines)
        mine = {v for seg in lines[0] if isinstance(seg, list) for v in range(seg[0], seg[1] + 1)}
        theirs = {v for seg in lines[1] if isinstance(seg, list)
                  for v in range(seg[0], seg[1] + 1)}
        assert {v for first, last in ranges for v in range(first, last + 1)} == mine - theirs
        assert all(a[1] + 1 < b[0] or a[1] < b[0] for a, b in zip(ranges, ranges[1:]))


def test_table_mode_rollbacks_by_one_move_again_and_again_do_not_grow_the_line(client, table):
    # the host alone decides table-mode rollbacks: 30 of them by one move each leave a line
    # of one segment and one empty one, not 30 empty segments
    game = table.create(client, **SETUPS["all-fours-table"], seed=1)
    rng = random.Random(1)
    for _ in range(30):
        game.step(rng)
        version = game.read("host")["version"]
        assert rolled_back(game, rng, version - 1, version)
    store = client.application.extensions["referee.store"]
    assert len(MatchService(store, 3600).load(game.id)["line"]) <= 2
