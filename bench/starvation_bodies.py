"""The worst bodies the attacker of :mod:`bench.starvation` sends: the costliest of the variants
:mod:`bench.worst_inputs` searches of each stateless endpoint's valid body, measured with
Flask's test client (:func:`worst_bodies`)."""
from __future__ import annotations

import json
import time

SEARCH_SECONDS = 12.0
"""CPU seconds :func:`worst_bodies` spends measuring candidates (the rest of the run stays
within about a minute)."""
KEEP = 6
"""How many of the costliest bodies found the attacker sends, in turn."""
GAMES = {"coup": {"players": ["ana", "ben", "cy"]}, "spy": {"players": ["ana", "ben"]},
         "all-fours": {"players": ["ana", "ben"], "dealer": "ana"},
         "gnoming": {"players": ["ana", "ben", "cy"]}}
SHEET = {"players": ["ana", "ben"], "dealer": "ana", "kicks": ["4H"], "beg": "stand",
         "tricks": [{"leader": "ben", "cards": ["2H", "3H"]}]}
LAYOUTS = {"ana": [["5", "5", "5"]] * 3, "ben": [["1", "2", "3"]] * 3}


def _valid_bodies(client) -> list[tuple[str, str, dict]]:
    """``(label, path, body)``: a valid body of every stateless endpoint (a fresh game's
    snapshot and one of its legal actions, a trick sheet, a Gnoming round)."""
    out = []
    for game, setup in GAMES.items():
        base = f"/v1/games/{game}"
        state = client.post(f"{base}/setup", json={**setup, "seed": 7}).get_json()["state"]
        action = client.post(f"{base}/legal-actions", json={"state": state}
                             ).get_json()["actions"][0]
        out += [(f"POST {base}/setup", f"{base}/setup", {**setup, "seed": 7}),
                (f"POST {base}/legal-actions", f"{base}/legal-actions", {"state": state})]
        out += [(f"POST {base}/{op}", f"{base}/{op}", {"state": state, "action": action})
                for op in ("validate", "apply")]
    return out + [
        ("POST /v1/games/all-fours/score", "/v1/games/all-fours/score", {"sheet": SHEET}),
        ("POST /v1/games/gnoming/score-round", "/v1/games/gnoming/score-round",
         {"round": {"layouts": LAYOUTS}}),
        ("POST /v1/games/gnoming/score-game", "/v1/games/gnoming/score-game",
         {"rounds": [{"layouts": LAYOUTS}]})]


def _inflated(body: dict):
    """``(description, JSON bytes)`` of every costly variant :mod:`bench.worst_inputs`
    searches for ``body``: ``bench.worst_bodies.bodies`` where it exists, else
    ``worst_inputs.inflations``."""
    try:
        from bench.worst_bodies import bodies
    except ImportError:
        from bench.worst_inputs import inflations
        for name, inflated in inflations(body):
            yield name, json.dumps(inflated).encode()
        return
    yield from bodies(body, 256 * 1024, 8)


def _variants(label: str, path: str, body: dict):
    for name, raw in _inflated(body):
        yield label, path, name, raw


def worst_bodies(seconds: float = SEARCH_SECONDS) -> list[tuple[str, str, bytes]]:
    """``(label, path, body)`` of the :data:`KEEP` costliest bodies found in ``seconds`` of
    CPU (``time.process_time``, Flask's test client, limits off): the variants
    :mod:`bench.worst_inputs` searches of each stateless endpoint's valid body, tried in turn
    across the endpoints, and the issue's 202 KB Gnoming round of 4,000 players' 3×3
    layouts."""
    import itertools
    import os
    os.environ.setdefault("REFEREE_RATE_LIMITS", "off")  # the test client that measures them
    from referee.serving.app import create_app
    client = create_app({"REDIS_URL": None, "RATE_LIMITS_ENABLED": False,
                         "MAX_LIVE_MATCHES": None, "LOG_LEVEL": "WARNING",
                         "ACCESS_LOG": False}).test_client()
    layouts = {f"p{i}": [["1", "2", "3"]] * 3 for i in range(4000)}
    issue = [("POST /v1/games/gnoming/score-round", "/v1/games/gnoming/score-round",
              "4000 players' layouts", json.dumps({"round": {"layouts": layouts}}).encode())]
    streams = [_variants(label, path, body) for label, path, body in _valid_bodies(client)]
    found = []
    began = time.process_time()
    for label, path, name, raw in itertools.chain(
            issue, (c for batch in itertools.zip_longest(*streams) for c in batch if c)):
        if time.process_time() - began > seconds:
            break
        start = time.process_time()
        try:
            client.post(path, data=raw, content_type="application/json")
        except Exception:  # noqa: BLE001 - a body the test client itself cannot send
            continue
        found.append((time.process_time() - start, f"{label} ({name})", path, raw))
    found.sort(key=lambda item: -item[0])
    return [(f"{label}, {cpu * 1000:.0f} ms", path, raw)
            for cpu, label, path, raw in found[:KEEP]]
