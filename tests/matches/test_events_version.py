"""``GET …/events`` answers the version its events were read at: the record (tokens, the
version) and the events are two reads, so a move landing between them must not leave the
``ETag`` older than the newest event returned; on the in-process store and on Redis (every
topology of REFEREE_TEST_TOPOLOGIES)."""
from __future__ import annotations

from tests.matches.conftest import Table
from tests.matches.test_rollback_idempotency import store, two_apps  # noqa: F401 - fixture

STAND = {"type": "stand", "player": "ben"}


def test_af_b1_a_move_between_the_two_reads_is_in_the_version_and_the_etag(store, monkeypatch):
    one, two = two_apps(store)
    match = Table.create(one, game="all-fours", players=["ana", "ben"], dealer="ana", seed=1)
    dealt = match.get(None, "/events").get_json()["events"]  # the deal's, at version 1
    assert {ev["version"] for ev in dealt} == {1}
    after = dealt[-1]["seq"]
    events = one.application.extensions["referee.store"].events

    def a_move_lands_first(match_id, after=0, count=None):
        # ben stands (AF-B1: he is on the dealer's right) after the record was read at
        # version 1 and before the events are read.
        moved = Table(two, match.created).act("ben", STAND, version=1)
        assert moved.status_code == 200, moved.get_json()
        return events(match_id, after, count)

    monkeypatch.setattr(one.application.extensions["referee.store"], "events",
                        a_move_lands_first)
    response = match.get(None, f"/events?after={after}")
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {
        "version": 2, "events": [{**STAND, "seq": after + 1, "version": 2}], "next": None}
    assert response.headers["ETag"] == '"2"'
