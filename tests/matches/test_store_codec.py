"""How the Redis store writes a match (``referee.store.codec``, issue 11): every record and
event reads back equal to what was written (real mid-game states and events of every game,
integers past 64 bits, non-ASCII names, NaN as json.dumps writes it), compressed ones are
smaller than their JSON, and matches written as plain JSON by an older version still read."""
from __future__ import annotations

import json
import math

import pytest

from bench.payloads import playout
from referee.registry import GAMES
from referee.store import codec
from referee.store.redis_store import RedisStore


def played(game: str):
    """A mid-game record-like value and every event of the first half of a playout."""
    _, steps = playout(game, 5)
    events = []
    for seq, (state, action) in enumerate(steps[:len(steps) // 2], start=1):
        _, new = GAMES[game].engine.apply(state, action)
        events += [{**ev, "seq": seq, "version": seq} for ev in new]
    return {"version": 7, "state": steps[len(steps) // 2][0], "seed": 2**255 + 1}, events


@pytest.mark.parametrize("game", sorted(GAMES))
def test_records_and_events_read_back_as_written(game):
    record, events = played(game)
    stored = codec.encode_record(record)
    assert codec.decode(stored) == record
    assert len(stored) < len(json.dumps(record))
    for event in events:
        text = codec.encode_event(event)
        assert codec.decode(text) == event
        assert len(text) < len(json.dumps(event))
    assert events


def test_odd_values_read_back():
    value = {"name": "Zoë 山田", "n": -(2**70), "x": 0.1, "nan": float("nan"), "l": [None, True]}
    for text in (codec.encode_record(value), codec.encode_event(value), codec.compact(value)):
        back = codec.decode(text)
        assert math.isnan(back.pop("nan")) and back == {k: v for k, v in value.items()
                                                        if k != "nan"}


def test_fast_json_only_where_it_means_the_same_data():
    """orjson writes and reads what it cannot get wrong; the rest goes through json."""
    import base64
    import zlib
    plain = {"name": "Zoë", "hand": ["AH", "7D"], "n": 12}
    raw = zlib.decompress(base64.b64decode(codec.encode_record(plain)[1:]))
    assert "Zoë".encode() in raw  # orjson's UTF-8, not json's \u00eb: the fast path ran
    edge = {"i63": 2**63 - 1, "u64": 2**64 - 1, "big": 2**64, "neg": -(2**63) - 1,
            "digits": "1234567890123456789012", "t": (1, 2), "f": 1e300}
    for text in (codec.encode_record(edge), codec.encode_event(edge)):
        back = codec.decode(text)
        assert back == {**edge, "t": [1, 2]}
        assert all(type(back[k]) is int for k in ("i63", "u64", "big", "neg"))  # not floats
    for text in (codec.encode_record({"nan": math.nan}), codec.encode_event({"nan": math.nan})):
        assert math.isnan(codec.decode(text)["nan"])  # orjson would write it as null
    assert codec.decode('{"s":"x","n":18446744073709551617}')["n"] == 2**64 + 1
    assert math.isinf(codec.decode('{"n":1e400}')["n"])  # orjson refuses it, json reads it


def test_plain_json_of_an_older_version_still_reads(redis_url, redis_prefix):
    store = RedisStore(redis_url, prefix=redis_prefix)
    old_record = {"version": 3, "state": {"turn": 3}}
    old_event = {"type": "played", "seq": 1, "version": 3}
    key, events_key, *_ = store.keys("m-old")
    store.client.hset(key, mapping={"version": 3, "record": json.dumps(old_record)})
    store.client.rpush(events_key, json.dumps(old_event))
    assert store.load("m-old") == old_record
    assert store.events("m-old") == [old_event]
    store.commit("m-old", 3, {"version": 4, "state": {"turn": 4}}, {"version": 4},
                 [{"type": "played", "seq": 2, "version": 4}], 600)
    assert store.read("m-old") == ({"version": 4, "state": {"turn": 4}},
                                   [old_event, {"type": "played", "seq": 2, "version": 4}])
