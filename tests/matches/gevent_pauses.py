"""Whether a gevent worker answers others while one request walks a whole long match:
``python -m tests.matches.gevent_pauses [--no-pauses]`` (run by
``tests/matches/test_long_reads.py`` in a process of its own, since gevent's monkey-patching
must come before every other import).

One app (the in-process store), one 3-seat Gnoming match played by random legal moves
(:func:`bench.payloads.playout`), parts of 10 events or history entries and a pause every 5
actions replayed (:mod:`referee.matches.pauses`: small, so that a short match has many).  Three
long requests, each in a greenlet of its own: the deciding vote of a rollback by one version
(every action replayed), then, the match played to its end, the audit and the stream from its
start.  Meanwhile another greenlet asks ``GET /livez`` again and again, yielding after each.
Prints one JSON line: how many ``/livez`` answers it got while each long request was running.
``--no-pauses`` turns :func:`referee.matches.pauses.pause` into nothing (as before: none).
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402

import gevent  # noqa: E402

from bench.payloads import playout, setup_body  # noqa: E402
from referee.matches import pauses  # noqa: E402
from referee.serving.app import create_app  # noqa: E402

SEED = 11


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-pauses", action="store_true")
    args = parser.parse_args()
    pauses.CHUNK, pauses.REPLAY_STEPS = 10, 5
    if args.no_pauses:
        pauses.pause = lambda: None
    client = create_app({"TESTING": True, "REDIS_URL": None,
                         "RATE_LIMITS_ENABLED": False}).test_client()
    setup = setup_body("gnoming", 3)
    plan = [action for _, action in playout("gnoming", SEED, 100_000, setup)[1]]
    created = client.post("/v1/matches", json={"game": "gnoming", "seed": SEED,
                                               **setup}).get_json()
    url, seats, host = f"/v1/matches/{created['id']}", created["seats"], created["host_token"]

    def token(who: str | None) -> dict:
        return {"Authorization": f"Bearer {seats.get(who, host) if who else host}"}

    def act(action: dict, version: int) -> int:
        moved = client.post(url + "/actions", json={"action": action},
                            headers={**token(action.get("player")), "If-Match": f'"{version}"'})
        assert moved.status_code == 200, moved.get_json()
        return version + 1

    version = 1
    for action in plan[:-1]:
        version = act(action, version)

    def served_during(request) -> int:
        """``/livez`` answers got while ``request()`` runs in a greenlet of its own."""
        running, served = [True], [0]

        def long() -> None:
            try:
                request()
            finally:
                running[0] = False

        def other() -> None:
            while running[0]:
                assert client.get("/livez").status_code == 200
                if running[0]:
                    served[0] += 1
                gevent.sleep(0)
        gevent.joinall([gevent.spawn(long), gevent.spawn(other)], raise_error=True)
        return served[0]

    proposed = client.post(url + "/rollback", json={"to_version": version - 1, "reason": "a "
                                                    "misplayed card", "approval": "majority"},
                           headers={**token(None), "If-Match": f'"{version}"'}).get_json()
    players = list(seats)
    for seat in players[:-2]:
        client.post(url + "/rollback/votes", headers=token(seat),
                    json={"proposal": proposed["rollback"]["proposal"], "approve": True})

    def deciding_vote() -> None:
        voted = client.post(url + "/rollback/votes", headers=token(players[-2]), json={
            "proposal": proposed["rollback"]["proposal"], "approve": True}).get_json()
        assert voted["status"] == "applied", voted
    found = {"vote": served_during(deciding_vote)}
    rng = random.Random(SEED)
    while True:
        legal = client.get(url + "/legal-actions", headers=token(None)).get_json()
        if not legal["actions"]:
            break
        act(rng.choice(legal["actions"]), legal["version"])

    def audit() -> None:
        assert client.get(url + "/audit").get_data().endswith(b"}\n")

    def stream() -> None:
        text = client.get(url + "/stream?after=0", headers=token(players[0])).get_data()
        assert text.endswith(b'"reason":"over"}\n\n')
    found["audit"] = served_during(audit)
    found["stream"] = served_during(stream)
    found["actions"] = len(plan)
    print(json.dumps(found), flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
