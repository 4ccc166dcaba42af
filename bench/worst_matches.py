"""The match endpoints' part of :mod:`bench.worst_inputs`: bodies changed as for the stateless
endpoints (:mod:`bench.worst_bodies`) on a match of each game, and every read, rollback and
rematch on the longest match a playout makes (Gnoming, 7 players, ``options.rounds`` 50, the
most the game allows: about 12,800 actions), each of whose actions is measured on the way.

A body that an endpoint accepts changes the match: the match is then made again before the
next body (the same seed deals the same game, so the same actions fit it).
"""
from __future__ import annotations

import statistics
from typing import Iterator

from bench.payloads import playout, setup_body
from bench.worst_bodies import bodies, dumps
from bench.worst_inputs import REPEATS, Bench, Endpoint, search
from referee.matches.kept import KEEP_EVERY
from referee.registry import GAMES

SEED = 11
LONGEST = {"game": "gnoming", "players": 7, "options": {"rounds": 50}}
"""The longest match: Gnoming's most players and rounds (GN-C2, GN-C3)."""


class Table:
    """A match of ``game`` played ``steps`` actions into a playout dealt from :data:`SEED`."""

    def __init__(self, bench: Bench, game: str, setup: dict, steps: int | None = None):
        self.bench, self.game, self.setup = bench, game, setup
        self.plan = [action for _, action in playout(game, SEED, 100_000, setup)[1]]
        bench.freeze()  # the plan is the bench's, not a worker's: out of the collector's way
        self.steps = len(self.plan) // 2 if steps is None else steps
        self.cpu: list[tuple[float, int]] = []  # (CPU seconds, step) of each action sent
        self.pad = 0  # commits that change no game state made before the first action
        self.make()

    def make(self) -> None:
        answer = self.bench.client.post("/v1/matches", json={
            "game": self.game, "seed": SEED, **self.setup})
        created = answer.get_json()
        self.id, self.seats, self.host = created["id"], created["seats"], created["host_token"]
        self.version = self.acted_at = created["version"]
        seat = next(iter(self.seats))
        for _ in range(self.pad):  # the host re-issues a seat's token: a version, no move
            answer = self.bench.client.post(f"/v1/matches/{self.id}/seats/{seat}/token",
                                            headers=self.token(None))
            assert answer.status_code == 200, answer.get_json()
            self.seats[seat], self.version = answer.get_json()["token"], self.version + 1
        for step, action in enumerate(self.plan[:self.steps]):
            seconds, status, _ = self.act(action, collect=False)  # as a worker plays it
            assert status == 200, (self.game, step, status)
            self.cpu.append((seconds, step))

    def token(self, player: str | None) -> dict:
        who = self.seats.get(player, self.host) if player else self.host
        return {"Authorization": f"Bearer {who}"}

    def act(self, action: dict, raw: bytes | None = None, collect: bool = True):
        headers = {**self.token(action.get("player")), "If-Match": f'"{self.version}"'}
        found = self.bench.send("POST", f"/v1/matches/{self.id}/actions",
                                raw or dumps({"action": action}), headers, collect)
        if found[1] == 200:
            self.version += 1
            self.acted_at = self.version
        return found

    @property
    def url(self) -> str:
        return f"/v1/matches/{self.id}"

    @property
    def next_action(self) -> dict:
        return self.plan[self.steps]

    def current(self) -> None:
        """Read the version again (a body accepted may have moved it)."""
        self.version = int(self.bench.client.get(self.url).headers["ETag"].strip('"'))


def _keep(table: Table, request):
    """``request`` then, if it changed the match, the match made again."""
    def send(raw):
        found = request(raw)
        if found[1] in (200, 201):
            table.make()
        return found
    return send


def created(bench: Bench, quick: bool) -> Endpoint:
    found = Endpoint("POST /v1/matches", lambda raw: bench.send("POST", "/v1/matches", raw))
    for game in sorted(GAMES) if not quick else ["gnoming"]:
        most = GAMES[game].engine.describe()["players"]["max"]
        search(found, bodies({"game": game, **setup_body(game), "seed": 7}, bench.limit, most))
    return found


def actions(bench: Bench, quick: bool) -> Endpoint:
    """Each game's match halfway through its playout, sent its next action changed."""
    found = Endpoint("POST /v1/matches/{id}/actions", None)
    for game in sorted(GAMES) if not quick else ["gnoming"]:
        table = Table(bench, game, setup_body(game))
        action = table.next_action

        def send(raw, table=table, action=action):
            return table.act(action, raw)
        found.request = _keep(table, send)
        most = GAMES[game].engine.describe()["players"]["max"]
        search(found, ((f"{game}: {name}", raw) for name, raw in
                       bodies({"action": action}, bench.limit, most)))
    return found


def longest(bench: Bench, quick: bool) -> Iterator[Endpoint]:
    """The longest match: its actions on the way, then every read of it, a rollback by one
    version (every action replayed), the audit, the stream and the rematch once it is over."""
    setup = {**setup_body(LONGEST["game"], LONGEST["players"])}
    setup["options"] = {**setup["options"], **LONGEST["options"]}
    if quick:
        setup["options"]["rounds"] = 3
    table = Table(bench, LONGEST["game"], setup, steps=0)
    table.steps = len(table.plan) - 1  # all but the last: still being played
    # the deciding vote's worst case: a rollback by one action to a version just before a
    # kept state (referee.matches.kept) replays KEEP_EVERY - 1 actions from the one before;
    # the target is version steps + pad, so pad the start with seat steps to get there
    table.pad = (KEEP_EVERY - 1 - table.steps) % KEEP_EVERY
    table.make()
    label = f"{len(table.plan)}-action match"
    played = Endpoint("POST /v1/matches/{id}/actions (playing the longest match)", None)
    worst = sorted(table.cpu, reverse=True)[:REPEATS]  # each action is sent once only
    cpu = [seconds * 1000 for seconds, _ in worst]
    played.fixed = {"endpoint": played.label, "median": statistics.median(cpu),
                    "max": max(cpu), "status": 200, "bytes": 0, "size": 0,
                    "input": f"{label}: the {len(worst)} costliest of its actions "
                             f"(action {worst[0][1] + 1} the worst; each sent once)"}
    yield played
    host, seat = table.token(None), table.token(table.plan[0]["player"])
    reads = [("GET /v1/matches/{id}", "GET", table.url, seat, "a seat's view"),
             ("GET /v1/matches/{id}/events", "GET", f"{table.url}/events?after=0", seat,
              "the first page, a seat"),
             ("GET /v1/matches/{id}/events", "GET", f"{table.url}/events?after=0&limit=200",
              seat, "the first page of 200, a seat"),
             ("GET /v1/matches/{id}/events", "GET",
              f"{table.url}/events?after=0&limit=200&wait=1", seat,
              "a long-poll's first page of 200, a seat"),
             ("GET /v1/matches/{id}/legal-actions", "GET", f"{table.url}/legal-actions", host,
              "the host's"),
             ("POST /v1/matches/{id}/stream-tickets", "POST", f"{table.url}/stream-tickets",
              seat, "a seat's ticket")]
    yield from _reads(bench, reads, label)
    yield from _rollback(bench, table, label)
    table.act(table.plan[-1])  # the last action: the match is over
    yield from _reads(bench, [
        ("GET /v1/matches/{id}/audit", "GET", f"{table.url}/audit", {}, "the audit"),
        ("GET /v1/matches/{id}/stream", "GET", f"{table.url}/stream?after=0", seat,
         "the finished match's stream from its start, a seat: its first part "
         "(live.CATCH_UP_EVENTS logged events, then end reconnect)"),
        ("POST /v1/matches/{id}/rematch", "POST", f"{table.url}/rematch", host,
         "the rematch")], label)


def _reads(bench: Bench, reads, label: str) -> Iterator[Endpoint]:
    for endpoint, method, url, headers, what in reads:
        found = Endpoint(endpoint, lambda raw, m=method, u=url, h=headers:
                         bench.send(m, u, None, h))
        found.try_(f"{label}: {what}", None)
        yield found


def _rollback(bench: Bench, table: Table, label: str) -> Iterator[Endpoint]:
    """Propose going back one version (majority), then the deciding vote (every action of
    the match but the last replayed); the last action is then played again."""
    def proposal() -> dict:
        return {"to_version": table.acted_at - 1, "reason": "a misplayed card",
                "approval": "majority"}

    def propose(raw):
        table.current()
        found = bench.send("POST", f"{table.url}/rollback", raw,
                           {**table.token(None), "If-Match": f'"{table.version}"'})
        if found[1] == 200:
            bench.send("DELETE", f"{table.url}/rollback", None, table.token(None))
        return found
    found = Endpoint("POST /v1/matches/{id}/rollback", propose)
    search(found, ((f"{label}: {name}", raw) for name, raw in
                   bodies(proposal(), bench.limit, 7)))
    found.try_(f"{label}: to version 2 (every action undone)",
               dumps({**proposal(), "to_version": 2}))
    yield found
    seats = list(table.seats)
    half = len(seats) // 2

    def decide(raw):
        table.current()
        bench.send("POST", f"{table.url}/rollback", dumps(proposal()),
                   {**table.token(None), "If-Match": f'"{table.version}"'})
        table.current()
        vote = dumps({"proposal": table.version, "approve": True})
        for seat in seats[:half]:
            bench.send("POST", f"{table.url}/rollback/votes", vote, table.token(seat))
        found = bench.send("POST", f"{table.url}/rollback/votes", vote,
                           table.token(seats[half]))
        assert found[1] == 200 and b'"applied"' in found[2], found[2][:300]
        table.current()
        assert table.act(table.plan[table.steps - 1])[1] == 200  # played again
        return found
    found = Endpoint("POST /v1/matches/{id}/rollback/votes", decide)
    found.try_(f"{label}: the deciding vote of a rollback by one action (the first: "
               f"{KEEP_EVERY - 1} actions replayed from a kept state; each later one replays "
               "from the rollback before it)", None)
    yield found


LONGEST_LABELS = ("POST /v1/matches/{id}/actions (playing the longest match)",
                  "GET /v1/matches/{id}", "GET /v1/matches/{id}/events",
                  "GET /v1/matches/{id}/legal-actions", "POST /v1/matches/{id}/stream-tickets",
                  "POST /v1/matches/{id}/rollback", "POST /v1/matches/{id}/rollback/votes",
                  "GET /v1/matches/{id}/audit", "GET /v1/matches/{id}/stream",
                  "POST /v1/matches/{id}/rematch")


def matches(bench: Bench, quick: bool, only: str = "") -> Iterator[Endpoint]:
    """The searched match endpoints, one at a time (those whose label holds ``only``)."""
    if only in "POST /v1/matches":
        yield created(bench, quick)
    if only in "POST /v1/matches/{id}/actions":
        yield actions(bench, quick)
    if any(only in label for label in LONGEST_LABELS):
        yield from longest(bench, quick)
