"""CPU per request of the worst input found per endpoint (issue 12 item 3).

For every endpoint taking a body, a valid body is built (a fresh game's snapshot, one of its
legal actions, a small trick sheet…); then every list inside it is inflated in turn, filled
with copies of its first element, with empty lists or with empty objects: to the longest array
a body may hold (``referee.api.limits.MAX_ITEMS``) and to just under the 256 KiB body limit.  Each inflated body is sent once through Flask's test client
(limits off, the in-process store) and its CPU time (``time.process_time``) recorded; the
worst per endpoint is printed as a Markdown table (bench/RESULTS.md, "Worst inputs").

    .venv/bin/python bench/worst_inputs.py [--only SUBSTRING]
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import time

os.environ["REFEREE_RATE_LIMITS"] = "off"

from referee.api.limits import MAX_ITEMS  # noqa: E402
from referee.serving.app import create_app  # noqa: E402

LIMIT = 256 * 1024 - 512
GAMES = {"coup": {"players": ["ana", "ben", "cy"]},
         "spy": {"players": ["ana", "ben"]},
         "all-fours": {"players": ["ana", "ben"], "dealer": "ana"},
         "gnoming": {"players": ["ana", "ben", "cy"]}}
SHEET = {"players": ["ana", "ben"], "dealer": "ana", "kicks": ["4H"], "beg": "stand",
         "tricks": [{"leader": "ben", "cards": ["2H", "3H"]}]}


def lists(node, path=()):
    """Every path to a list inside ``node``."""
    if isinstance(node, list):
        yield path
        for i, item in enumerate(node[:1]):
            yield from lists(item, path + (i,))
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from lists(value, path + (key,))


def replaced(body, path, value):
    out = copy.deepcopy(body)
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return out


def inflations(body):
    """``(description, body)`` for each list of ``body`` filled up to the size limit."""
    for path in lists(body):
        if not path:
            continue
        node = body
        for step in path:
            node = node[step]
        fillers = [("[]", []), ("{}", {})] + ([("copies", node[0])] if node else [])
        for name, filler in fillers:
            size = len(json.dumps(filler)) + 2
            room = LIMIT - len(json.dumps(body))
            where = ".".join(map(str, path))
            for count in sorted({min(MAX_ITEMS, max(1, room // size)), max(1, room // size)}):
                yield f"{where} × {count} {name}", replaced(body, path, [filler] * count)


def cpu(client, method, url, body, headers=None):
    start = time.process_time()
    answer = client.open(url, method=method, json=body, headers=headers or {})
    return time.process_time() - start, answer.status_code, len(answer.data)


def endpoints(client):
    """``(label, method, url, valid body, headers)`` of every endpoint with a body."""
    for game, setup in GAMES.items():
        state = client.post(f"/v1/games/{game}/setup", json={**setup, "seed": 7}).get_json()
        state = state["state"]
        legal = client.post(f"/v1/games/{game}/legal-actions", json={"state": state})
        action = legal.get_json()["actions"][0]
        yield f"POST /v1/games/{game}/setup", "POST", f"/v1/games/{game}/setup", \
            {**setup, "seed": 7}, None
        yield f"POST /v1/games/{game}/legal-actions", "POST", \
            f"/v1/games/{game}/legal-actions", {"state": state}, None
        for op in ("validate", "apply"):
            yield f"POST /v1/games/{game}/{op}", "POST", f"/v1/games/{game}/{op}", \
                {"state": state, "action": action}, None
    yield "POST /v1/games/all-fours/score", "POST", "/v1/games/all-fours/score", \
        {"sheet": SHEET}, None
    layouts = {"ana": [["5", "5", "5"]] * 3, "ben": [["1", "2", "3"]] * 3}
    yield "POST /v1/games/gnoming/score-round", "POST", "/v1/games/gnoming/score-round", \
        {"round": {"layouts": layouts}}, None
    yield "POST /v1/games/gnoming/score-game", "POST", "/v1/games/gnoming/score-game", \
        {"rounds": [{"layouts": layouts}]}, None
    yield "POST /v1/matches", "POST", "/v1/matches", {"game": "coup",
                                                      "players": ["ana", "ben"]}, None
    created = client.post("/v1/matches", json={"game": "coup", "players": ["ana", "ben"]})
    created = created.get_json()
    url = f"/v1/matches/{created['id']}/actions"
    seat = {"Authorization": f"Bearer {created['seats']['ana']}", "If-Match": '"1"'}
    yield "POST /v1/matches/{id}/actions", "POST", url, \
        {"action": {"type": "income", "player": "ana", "cards": ["duke"]}}, seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    client = create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": False,
                         "MAX_LIVE_MATCHES": None, "MEMORY_STORE_MAX_BYTES": None}).test_client()
    print("| endpoint | worst input found (under 256 KiB) | CPU ms | status | answer bytes |")
    print("| --- | --- | ---: | ---: | ---: |")
    for label, method, url, body, headers in endpoints(client):
        if args.only not in label:
            continue
        worst = ("(the valid body)", *cpu(client, method, url, body, headers))
        for name, inflated in inflations(body):
            seconds, status, size = cpu(client, method, url, inflated, headers)
            if seconds > worst[1]:
                worst = (name, seconds, status, size)
        print(f"| {label} | {worst[0]} | {worst[1] * 1000:.0f} | {worst[2]} | {worst[3]} |",
              flush=True)


if __name__ == "__main__":
    main()
