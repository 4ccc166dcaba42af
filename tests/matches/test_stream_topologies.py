"""The live stream over Redis pub/sub on every topology (issue 14): ``./dev test-deploy`` runs
this on a real Redis Cluster and a real Sentinel (``REFEREE_TEST_TOPOLOGIES``; ``./dev test``
on the single Redis).  A seat follows ``GET …/stream`` on one app instance while the moves
are made through another instance on the same Redis: every move reaches the stream, in order,
as that seat may see it (AF-B1: after the deal, ana, on the dealer ben's right, stands)."""
from __future__ import annotations

from referee.serving.app import create_app
from tests.matches.conftest import Stream, Table, bearer


def instance(redis_url, prefix):
    wait = 1 if redis_url.startswith("redis+sentinel") else 0
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "REDIS_KEY_PREFIX": prefix,
                       "REDIS_WAIT_REPLICAS": wait,
                       "STREAM_HEARTBEAT_SECONDS": 0.05}).test_client()


def test_af_b1_a_stream_on_one_instance_sees_a_move_made_through_another(redis_url,
                                                                          redis_prefix):
    follower, mover = instance(redis_url, redis_prefix), instance(redis_url, redis_prefix)
    game = Table.create(mover, game="all-fours", players=["ana", "ben"], dealer="ben", seed=7)
    watched = Table(follower, game.created)
    ben = Stream(follower, game.url + "/stream", bearer(game.token("ben")))
    assert ben.status == 200
    first = ben.until("view")
    assert first[-1]["data"]["version"] == 1
    stand = game.act("ana", {"type": "stand", "player": "ana"}, 1)  # AF-B1
    assert stand.status_code == 200, stand.get_json()
    after = ben.until("view")
    ben.close()
    events = [m["data"] for m in after if m["event"] == "event"]
    assert events == [{"type": "stand", "player": "ana", "seq": 4, "version": 2}]  # 1-3: deal
    assert events == [e for e in watched.get("ben", "/events").get_json()["events"]
                      if e["version"] > 1]  # the deal's (version 1) came before the view
    assert after[-1]["data"]["version"] == 2
    assert after[-1]["data"]["view"] == watched.read("ben")["view"]  # ben's view, not ana's
