"""A match stream's bytes are the same whether its fast paths are on or off (issue 25 item 4),
per game, on both stores: the JSON of each message by orjson (:func:`referee.json_text.
compact`) or ``json.dumps``, one store read shared by every stream a change woke
(:class:`referee.store.feed.SharedReads`) with each reader kind's text rendered once from it
(``live._once``) or one read and one rendering each, one write per change or one per
message.  Each run follows one match with every kind of reader (each seat, the host, the
public) through a playout; the seats of one game have non-ASCII names (Burmese), so the
standard library's path is taken for some messages too.  A difference injected into the fast
path is caught (the last test)."""
from __future__ import annotations

import json

import pytest

from bench.payloads import playout
from referee.matches import live
from referee.serving.app import create_app
from referee import json_text
from tests import topologies
from tests.matches.conftest import bearer

MOVES = 40
"""Moves followed per match (or the whole playout when shorter)."""
SEED = 5
NAMES = {"all-fours": ["ana", "ben", "cy", "dee"], "coup": ["ana", "ben", "cy"],
         "gnoming": ["မောင်မောင်", "ဘ", "cy"], "spy": ["ana", "ben", "cy"]}


def _setup(game):
    from referee.registry import GAMES
    return {"players": NAMES[game], "mode": "digital",
            "options": GAMES[game].engine.resolve_options({})}


def _plain(monkeypatch, store):
    """Every fast path of the stream off: ``json.dumps``, a store read per reader."""
    monkeypatch.setattr(live, "compact", lambda obj: json.dumps(obj, separators=(",", ":")))
    monkeypatch.setattr(store.feed.reads, "read", lambda read, key, since: read(*key))


def _follow_playout(app, game) -> dict[str, str]:
    """Each reader's stream text (heartbeats left out) while the playout's moves are made,
    each move read by every stream before the next."""
    client = app.test_client()
    setup = _setup(game)
    _, steps = playout(game, SEED, limit=MOVES, setup=setup)
    created = client.post("/v1/matches", json={"game": game, "seed": SEED, **setup})
    assert created.status_code == 201, created.get_json()
    match = created.get_json()
    url = f"/v1/matches/{match['id']}"
    tokens = {**match["seats"], "host": match["host_token"], "public": None}
    streams = {who: client.get(url + "/stream", headers=bearer(token), buffered=False)
               for who, token in tokens.items()}
    chunks = {who: response.iter_encoded() for who, response in streams.items()}
    texts = {who: "" for who in tokens}

    def read_until(version: int) -> None:
        for who, source in chunks.items():
            while f'event: view\ndata: {{"version":{version},' not in texts[who]:
                chunk = next(source).decode()
                if chunk != ": heartbeat\n\n":
                    texts[who] += chunk
    read_until(1)
    for n, (_, action) in enumerate(steps):
        token = match["seats"].get(action["player"], match["host_token"])
        moved = client.post(url + "/actions", json={"action": action}, headers={
            **bearer(token), "If-Match": f'"{n + 1}"'})
        assert moved.status_code == 200, moved.get_json()
        read_until(n + 2)
    for response in streams.values():
        response.close()
    return texts


@pytest.fixture(params=["memory", *(f"redis-{t}" for t in topologies.selected())])
def make_app(request):
    """A function making an app on the in-process store or on the test Redis (each topology
    of ``REFEREE_TEST_TOPOLOGIES``; a key prefix of its own per app)."""
    prefixes = []

    def make():
        config = {"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": False,
                  "STREAM_HEARTBEAT_SECONDS": 0.01}
        if request.param != "memory":
            url = request.getfixturevalue("redis_url_of")(request.param.removeprefix("redis-"))
            context = request.getfixturevalue("redis_key_prefix")(url)
            prefixes.append(context)
            config.update(REDIS_URL=url, REDIS_KEY_PREFIX=context.__enter__())
        return create_app(config)
    yield make
    for context in prefixes:
        context.__exit__(None, None, None)


@pytest.mark.parametrize("game", ["all-fours", "coup", "gnoming", "spy"])
def test_a_stream_is_byte_identical_with_its_fast_paths_off(game, make_app, monkeypatch):
    fast_calls = []
    real = json_text.fast_compact
    monkeypatch.setattr(json_text, "fast_compact",
                        lambda obj, *a: fast_calls.append(1) or real(obj, *a))
    fast = _follow_playout(make_app(), game)
    assert fast_calls  # the fast path was taken
    plain_app = make_app()
    with monkeypatch.context() as plain:
        _plain(plain, plain_app.extensions["referee.store"])
        slow = _follow_playout(plain_app, game)
    assert fast.keys() == slow.keys()
    for who in fast:
        assert fast[who] == slow[who], who
        assert fast[who].count("event: view\n") >= 2


def test_a_difference_in_the_fast_path_is_caught(make_app, monkeypatch):
    """The check above is shown to fail: a fast path that writes non-ASCII text as it is
    (``json.dumps`` escapes it) makes Gnoming's Burmese seat names differ."""
    real = json_text.fast_compact
    monkeypatch.setattr(json_text, "fast_compact",
                        lambda obj, *a: real(obj, False) if a == () else real(obj, *a))
    fast = _follow_playout(make_app(), "gnoming")
    plain_app = make_app()
    with monkeypatch.context() as plain:
        _plain(plain, plain_app.extensions["referee.store"])
        slow = _follow_playout(plain_app, "gnoming")
    assert any(fast[who] != slow[who] for who in fast)
