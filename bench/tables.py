"""Matches through Redis: several tables in parallel, each playing its moves in order.

Every table plays a random legal playout worked out in process from the seed its matches were
created with (a digital deal depends only on the seed, so one playout fits every match dealt
from it).  Each move is ``POST /v1/matches/{id}/actions`` with the acting seat's token (the
host's for host-only actions) and ``If-Match`` — the version check and compare-and-set of
every real move.  A table whose match is over moves on to its next match.

:func:`memory` reads Redis ``MEMORY USAGE`` of a match halfway through its playout.
"""
from __future__ import annotations

import json

import requests

from bench.load import Source, request_bytes
from bench.payloads import playout, setup_body
from referee.registry import GAMES
from referee.store.redis_store import RedisStore

SEED = 20261201


def moves(game: str, seed: int = SEED) -> list[dict]:
    """The actions of a random legal playout of ``game`` dealt from ``seed``."""
    return [action for _, action in playout(game, seed)[1]]


def create(base: str, game: str, seed: int = SEED) -> dict:
    """Create a match of ``game`` dealt from ``seed``: the creation answer (id, tokens)."""
    answer = requests.post(f"{base}/v1/matches", json={"game": game, "seed": seed,
                                                        **setup_body(game)}, timeout=10)
    answer.raise_for_status()
    return answer.json()


class Tables(Source):
    """One connection per table; table ``i`` plays game ``games[i % len(games)]``, match after
    match, each from :data:`SEED`."""

    def __init__(self, base: str, tables: int, actions_needed: int):
        self.games = sorted(GAMES)
        self.plays = {game: moves(game) for game in self.games}
        per_table = actions_needed // tables + 1
        self.queue: list[list[tuple[dict, list[dict]]]] = []
        for i in range(tables):
            game = self.games[i % len(self.games)]
            count = per_table // len(self.plays[game]) + 1
            self.queue.append([(create(base, game), self.plays[game]) for _ in range(count)])
        self.step = [0] * tables
        self.failures: list[str] = []

    def next(self, conn: int) -> bytes | None:
        matches = self.queue[conn]
        while matches and self.step[conn] >= len(matches[0][1]):
            matches.pop(0)
            self.step[conn] = 0
        if not matches:
            return None
        match, actions = matches[0]
        action = actions[self.step[conn]]
        token = match["seats"].get(action["player"], match["host_token"])
        version = match["version"] + self.step[conn]
        self.step[conn] += 1
        return request_bytes("POST", f"/v1/matches/{match['id']}/actions",
                             json.dumps({"action": action}).encode(),
                             {"Authorization": f"Bearer {token}", "If-Match": f'"{version}"'})

    def answered(self, conn: int, status: int, body: bytes) -> None:
        if status != 200 and len(self.failures) < 5:
            self.failures.append(f"{status} {body[:200]!r}")


def memory(base: str, redis_url: str) -> dict[str, dict[str, float]]:
    """Per game, at mid-game: ``MEMORY USAGE`` (bytes) of the match's state key, and of its
    event log and action log divided by the actions applied so far."""
    store = RedisStore(redis_url)
    out = {}
    for game in sorted(GAMES):
        actions = moves(game)
        half = len(actions) // 2
        match = create(base, game)
        for n, action in enumerate(actions[:half]):
            token = match["seats"].get(action["player"], match["host_token"])
            answer = requests.post(f"{base}/v1/matches/{match['id']}/actions",
                                   json={"action": action}, timeout=10,
                                   headers={"Authorization": f"Bearer {token}",
                                            "If-Match": f'"{match["version"] + n}"'})
            answer.raise_for_status()
        state_key, events_key, actions_key, *_ = store.keys(match["id"])
        usage = {key: store.client.memory_usage(key, samples=0) or 0
                 for key in (state_key, events_key, actions_key)}
        out[game] = {"actions": half, "state": usage[state_key],
                     "events_per_action": usage[events_key] / max(1, half),
                     "events": store.client.llen(events_key),
                     "actions_per_action": usage[actions_key] / max(1, half)}
    return out
