"""The reads of a whole long match go a part at a time, each the same bytes as in one piece
(issue 21 item 1: on a 12,793-action match the audit cost ~280 ms, a finished match's stream
from its start ~140 ms, the deciding vote of a rollback ~360 ms, each in one go, a gevent
worker answering nobody else meanwhile).  Parts of :data:`referee.matches.pauses.CHUNK`
events or history entries, with a pause between two; here parts of 2, 3 and 7 against parts
larger than the match, on the in-process store and on Redis: the answers must be identical.
That the pauses let a gevent worker serve others is ``tests/matches/gevent_pauses.py``."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from flask import current_app

from referee.matches import pauses
from referee.matches.audit import audit_data
from referee.matches.service import MatchService
from referee.schemas.matches import AuditSchema
from tests.matches.conftest import bearer
from tests.matches.test_event_pages import SEATS, play_long
from tests.matches.test_rollback_idempotency import store, two_apps  # noqa: F401 - fixture

REPO = Path(__file__).resolve().parents[2]
WHOLE = 10 ** 9
"""A part larger than any match: the whole in one piece, as before."""


@pytest.fixture
def finished(store, table):
    """An 8-seat Coup match of stalling moves (exchanges: public events and their private
    twins, COUP-A7) with a rollback by the seats, then played to its end."""
    client, _ = two_apps(store)
    game = play_long(table.create(client, game="coup", players=SEATS, seed=7), 40)
    version = game.read("host")["version"]
    proposed = client.post(f"{game.url}/rollback", json={"to_version": version - 5,
                                                         "reason": "a misplayed card"},
                           headers={**bearer(game.token("host")), "If-Match": f'"{version}"'})
    assert proposed.status_code == 200, proposed.get_json()
    for seat in SEATS:
        voted = client.post(f"{game.url}/rollback/votes", headers=bearer(game.token(seat)),
                            json={"proposal": proposed.get_json()["rollback"]["proposal"],
                                  "approve": True}).get_json()
    assert voted["status"] == "applied", voted
    game.play_out(random.Random(5))
    return game


def test_a_finished_match_s_stream_in_parts_is_the_stream_in_one_piece(finished, monkeypatch):
    game = finished
    logged = game.client.application.extensions["referee.store"].events(game.id)
    assert sum("visible_to" in ev for ev in logged) >= 10  # twins at the parts' edges
    for who in ("host", "ana", "hal", None):
        texts = {}
        for size in (WHOLE, 2, 3, 7):
            monkeypatch.setattr(pauses, "CHUNK", size)
            answer = game.client.get(game.url + "/stream?after=0",
                                     headers=bearer(game.token(who)))
            texts[size] = answer.get_data(as_text=True)
        assert texts[WHOLE].count("event: event\n") > 100
        assert texts[WHOLE].endswith('"reason":"over"}\n\n')
        for size in (2, 3, 7):
            assert texts[size] == texts[WHOLE], (who, size)


def test_the_audit_in_parts_is_the_audit_in_one_piece(finished, monkeypatch):
    game = finished
    app = game.client.application
    with app.test_request_context():
        svc = MatchService(app.extensions["referee.store"], 3600)
        whole = current_app.json.response(AuditSchema().dump(
            audit_data(svc, svc.load(game.id)))).get_data()
    assert b'"reshuffle"' in whole and b'"rollback"' in whole
    for size in (WHOLE, 2, 3, 7):
        monkeypatch.setattr(pauses, "CHUNK", size)
        answer = game.client.get(game.url + "/audit")
        assert answer.status_code == 200 and answer.mimetype == "application/json"
        assert answer.headers["ETag"] == f'"{answer.get_json()["version"]}"'
        assert answer.get_data() == whole, size


def test_a_rollback_replays_the_same_state_with_pauses(finished, monkeypatch):
    # The rollback of the fixture was applied with a pause every REPLAY_STEPS actions; the
    # audit replays the same line in one go: the final states agree (checked by test_audit's
    # replay) and the pauses were taken.
    game = finished
    taken = []
    monkeypatch.setattr(pauses, "REPLAY_STEPS", 3)
    monkeypatch.setattr(pauses, "pause", lambda: taken.append(1))
    from referee.matches.history import line_at, replay
    from referee.registry import GAMES
    app = game.client.application
    svc = MatchService(app.extensions["referee.store"], 3600)
    record = svc.load(game.id)
    line = line_at(svc.history(record))
    state = replay(GAMES["coup"].engine, record["setup"], record["seed"], line,
                   rest=pauses.pause)
    assert state == record["state"]
    assert len(taken) >= len(line) // 3


def _served(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.matches.gevent_pauses", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "REFEREE_LOG_LEVEL": "WARNING"})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_gevent_worker_answers_others_while_one_request_walks_a_long_match():
    # Under gevent (tests/matches/gevent_pauses.py): while the deciding vote replays every
    # action, the audit is written and the stream catches up from the start, another
    # greenlet's /livez is answered between their parts; without the pauses, never.
    paused, unpaused = _served(), _served("--no-pauses")
    assert paused["actions"] > 300
    assert all(paused[request] > 0 for request in ("vote", "audit", "stream")), paused
    assert {request: unpaused[request] for request in ("vote", "audit", "stream")} == {
        "vote": 0, "audit": 0, "stream": 0}


def test_a_proposal_reads_the_log_s_tail_and_finds_the_same_scored_hands(client, table,
                                                                          monkeypatch):
    # AF-S1-S6: a rollback that undoes a hand_scored needs every seat.  The walked proposal
    # (a record made before kept states) reads the log back from its end to the first undone
    # version only, the kept one reads the record's ``scored``; for every target of a 2-seat
    # All Fours match of several hands, both say what the whole log says.
    from referee.matches.disputes import _undoing, _undoing_walked
    from referee.matches.kept import SCORING_EVENTS
    game = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                        seed=4)
    rng = random.Random(2)
    for _ in range(120):
        if game.step(rng) is None:
            break
    svc = MatchService(client.application.extensions["referee.store"], 3600)
    record = svc.load(game.id)
    logged = svc.store.events(game.id)
    scored = {ev["version"] for ev in logged if ev["type"] in SCORING_EVENTS}
    assert len(scored) >= 3
    assert record["scored"] == sorted(scored)
    monkeypatch.setattr(pauses, "CHUNK", 3)
    for first in range(2, record["version"] + 1):
        undone = set(range(first, record["version"] + 1))
        whole = any(ev["type"] in SCORING_EVENTS and ev["version"] in undone for ev in logged)
        assert _undoing(svc, record, first - 1)[2] == whole, first
        assert _undoing_walked(svc, record, first - 1)[2] == whole, first
    for first in range(1, record["version"] + 2):
        assert svc.logged_since(record, first) == [ev for ev in logged
                                                   if ev["version"] >= first], first
