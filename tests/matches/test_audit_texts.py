"""The audit cut from the history's stored texts (referee.matches.audit.audit_texts, issue 21
item 1) is the audit written as data (audit_data: every entry decoded, the line found by
line_at, each item written again), byte for byte: on played-out matches of every game on the
in-process store and on Redis (rollbacks with their digital reshuffles, a withdrawn proposal,
a re-issued seat token, a rematch, seats named in Latin, Cyrillic and Han, a reason holding
``": ``, ``NaN`` and ``Infinity`` as text), and on made-up histories (rollbacks to any
version, entries written with spaces as an older version wrote them, floats, long integers,
entries committed after the version read)."""
from __future__ import annotations

import json
import random

import pytest
from flask import current_app

from referee.matches.audit import Texts, audit_data, audit_lists, audit_texts
from referee.matches.history import actions_of, line_at
from referee.matches.service import MatchService
from referee.registry import GAMES
from referee.schemas.matches import AuditSchema
from referee.serving.app import create_app
from tests.matches.conftest import bearer

NAMES = ["zoë", "дарья", "李雷", "ana", "ben", "cy", "dee"]
"""Seat names: their text in the answer is ``\\u`` escapes."""
REASON = 'a "misdeal": NaN, -Infinity señor'
"""A reason whose compact text holds ``": `` (as text with spaces would) and the words a
non-finite number is written with."""


def players_of(game: str) -> list[str]:
    return NAMES[:GAMES[game].engine.describe()["players"]["counts"][-1]]


def roll_back(client, match, to_version: int, players: list[str]) -> int:
    """A rollback to ``to_version`` proposed by the host and approved by every seat; the
    version it was applied at."""
    version = match.read("host")["version"]
    proposed = client.post(f"{match.url}/rollback",
                           json={"to_version": to_version, "reason": REASON},
                           headers={**bearer(match.token("host")), "If-Match": f'"{version}"'})
    assert proposed.status_code == 200, proposed.get_json()
    for seat in players:
        answer = client.post(f"{match.url}/rollback/votes", json={
            "proposal": proposed.get_json()["rollback"]["proposal"], "approve": True},
            headers=bearer(match.token(seat))).get_json()
    assert answer["status"] == "applied", answer
    return answer["version"]


def withdrawn(client, match) -> None:
    """A proposal the host withdraws (two entries that are not actions)."""
    version = match.read("host")["version"]
    proposed = client.post(f"{match.url}/rollback",
                           json={"to_version": version - 1, "reason": REASON},
                           headers={**bearer(match.token("host")), "If-Match": f'"{version}"'})
    assert proposed.status_code == 200, proposed.get_json()
    assert client.delete(f"{match.url}/rollback",
                         headers=bearer(match.token("host"))).status_code == 200


def as_data(app, match_id: str) -> bytes:
    """The answer as it was written before: the audit as data, dumped by the schema, written
    by the app's JSON writer."""
    with app.test_request_context():
        svc = MatchService(app.extensions["referee.store"], 3600)
        return current_app.json.response(AuditSchema().dump(
            audit_data(svc, svc.load(match_id)))).get_data()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_audit_cut_from_the_texts_is_the_audit_written_as_data(clients, table, game):
    client, other = clients
    players = players_of(game)
    match = table.create(client, game=game, players=players, seed=5)
    rng = random.Random(11)
    applied = []
    for to_version in (2, None):
        for _ in range(4):
            assert match.step(rng) is not None and not match.read("host")["over"]
        applied.append(roll_back(client, match, to_version or applied[0], players))
    withdrawn(client, match)
    reissued = client.post(f"{match.url}/seats/{players[1]}/token",
                           headers=bearer(match.token("host")))
    assert reissued.status_code == 200, reissued.get_json()
    match.created["seats"][players[1]] = reissued.get_json()["token"]
    match.play_out(rng)
    assert client.post(f"{match.url}/rematch",
                       headers=bearer(match.token("host"))).status_code == 201

    answer = other.get(f"{match.url}/audit")
    assert answer.status_code == 200
    assert answer.get_data() == as_data(other.application, match.id)
    audit = answer.get_json()
    assert [s["version"] for s in audit["steps"] if "reshuffle" in s] == applied
    assert "rematch" in audit["history"][-1] and b"\\u0434\\u0430" in answer.get_data()
    with other.application.test_request_context():  # the texts were cut, not the fallback
        svc = MatchService(other.application.extensions["referee.store"], 3600)
        cut = audit_texts(svc, svc.load(match.id))
        sorted_keys = audit_texts(svc, svc.load(match.id), sort_keys=True)
    assert all(type(cut[key]) is Texts for key in ("steps", "actions", "history"))
    assert type(sorted_keys["history"]) is list  # another writer: the audit as data


def history_of(seed: int, length: int) -> list[dict]:
    """Actions (non-ASCII text, floats, a long integer), applied rollbacks to any earlier
    version (with a reshuffle or without), other rollback steps, seat steps and a rematch."""
    rng = random.Random(seed)
    out = []
    for version in range(2, length + 2):
        roll = rng.random()
        if roll < 0.08 and version > 2:
            step = {"step": "applied", "from_version": version - 1,
                    "to_version": rng.randrange(1, version), "reason": REASON}
            if rng.random() < 0.6:
                step["reshuffle"] = f"{rng.getrandbits(64):016x}"
            out.append({"version": version, "rollback": step})
        elif roll < 0.14:
            out.append({"version": version, "rollback": {"step": "vote", "player": "zoë",
                                                         "approve": True}})
        elif roll < 0.17:
            out.append({"version": version, "seat": {"step": "reissued", "player": "李雷"}})
        elif roll < 0.18:
            out.append({"version": version, "rematch": "m" + str(version)})
        else:
            action = {"type": rng.choice(["play", "draw"]), "player": rng.choice(NAMES),
                      "card": rng.choice(["7♥", "AS", 'a "quoted": card'])}
            if rng.random() < 0.1:
                action["weight"] = rng.choice([0.5, 1e-05, -0.0, 2 ** 70])
            out.append({"version": version, "action": action})
    return out


def stored(history: list[dict], rng: random.Random) -> list[str]:
    """The store's texts: compact, and some with spaces (``json.dumps``' default: an older
    version's Redis store)."""
    return [json.dumps(entry) if rng.random() < 0.05 else
            json.dumps(entry, separators=(",", ":")) for entry in history]


def written_as_data(app, history: list[dict], version: int) -> dict[str, str]:
    """The three lists as the audit as data writes them (the app's writer)."""
    kept = [entry for entry in history if entry["version"] <= version]
    steps = line_at(kept)
    lists = {"history": kept, "steps": steps,
             "actions": [s["action"] for s in actions_of(steps)]}
    with app.app_context():
        return {key: app.json.dumps(value, separators=(",", ":"))
                for key, value in lists.items()}


@pytest.mark.parametrize("seed", range(30))
def test_lists_cut_from_made_up_histories_are_the_lists_written_as_data(seed):
    app = create_app({"TESTING": True, "REDIS_URL": None})
    rng = random.Random(seed)
    history = history_of(seed, rng.choice([0, 1, 5, 60, 200]))
    texts = stored(history, rng)
    last = len(history) + 1
    for version in sorted({last, max(last - 1, 1), max(last - 3, 1)}):  # later commits cut
        cut = audit_lists(texts, version)
        assert cut is not None, version
        assert {key: "[" + ",".join(value) + "]" for key, value in cut.items()} == \
            written_as_data(app, history, version), version


def test_a_nan_or_an_infinity_in_an_entry_leaves_the_audit_to_be_written_as_data():
    # json writes NaN, the app's orjson writer null: no schema admits one, but a text that
    # holds one is not cut (the answer is then made as data, as before); as text it is cut.
    for number in ("NaN", "Infinity", "-Infinity"):
        texts = ['{"version":2,"action":{"type":"play","card":"NaN Infinity"}}',
                 '{"version":3,"action":{"type":"play","weight":%s}}' % number]
        assert audit_lists(texts, 3) is None
        assert audit_lists(texts[:1], 3)["actions"] == ['{"type":"play","card":"NaN Infinity"}']


def test_a_rollback_to_a_version_line_at_does_not_know_leaves_the_audit_to_be_written_as_data():
    # line_at raises there (KeyError): the audit as data does as before, whether or not the
    # rollback is on the way back from the last entry.
    for to_version in (3, 4, 0):
        texts = ['{"version":2,"action":{}}',
                 '{"version":3,"rollback":{"step":"applied","to_version":%d}}' % to_version,
                 '{"version":4,"rollback":{"step":"applied","to_version":1}}']
        assert audit_lists(texts, 4) is None
        with pytest.raises(KeyError):
            line_at([json.loads(text) for text in texts])
