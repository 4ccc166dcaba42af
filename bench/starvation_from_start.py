"""The harder attack of :mod:`bench.starvation` (``--streams-from-start``): the attacker's 64
streams each read a long match from its start, again and again.

A black-box run found it: each stream opens ``…/stream?after=0`` of a long match, so the
server catches it up — at most :data:`referee.matches.live.CATCH_UP_EVENTS` logged events,
then ``event: end`` with reason ``reconnect`` — and the attacker opens it from event 0 again
rather than resuming, so every stream of the address keeps catching up.

- :func:`build` makes the long match before the measured server starts: a Gnoming match of
  :data:`LONG` (7 players, the attacker's 8 tokens being its 7 seats and its host), played
  action by action from a planned playout (:func:`bench.payloads.playout`, as
  :mod:`bench.worst_matches` makes its longest match) through the API of a **setup server**
  of its own on the same Redis, whose budgets are lifted (:data:`bench.servers.BUDGETS`);
  it is stopped before the measured server (the default limits) starts.  Under the default
  budgets (240 a minute per token, 1,200 per address) its ~5,000 actions would take
  minutes, and spend the attacker's budgets before the attack;
- :func:`reopen` is one of the attacker's 64 streams (8 per token): open, read until the
  stream's ``end``, close, open again, until the run ends; each open is logged with its
  answer's status and the ``end``'s reason;
- :func:`opens_in` counts the opens of the measured window, :func:`paragraph` says in
  ``bench/RESULTS.md`` what the attack did, between :data:`BEGIN` and :data:`END` (the
  default attack's section is kept beside it).
"""
from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

from bench.load import Connection, request_bytes
from bench.payloads import playout, setup_body
from bench.servers import Gunicorn
from referee.matches.live import CATCH_UP_EVENTS

SEED = 11
LONG = {"game": "gnoming", "players": 7, "rounds": 20}
"""The long match: 7 players (Gnoming's most, GN-C2), 20 rounds (GN-C3): 4,997 actions played
(all but the last of its playout), 6,898 logged events as the host reads them, so a stream
from event 0 would need 4 catch-up parts; about 10 s to build."""
SMOKE_ROUNDS = 8
"""``--smoke``'s match: 8 rounds, 1,794 actions, 2,473 logged events: a little over one
catch-up part (each stream still ends with ``reconnect``); about 4 s to build."""
BACKOFF = 0.2
"""Seconds a stream waits before opening again when refused (as the body senders do)."""
BEGIN = ("<!-- starvation-from-start:begin (written by python -m bench.starvation "
         "--streams-from-start) -->")
END = "<!-- starvation-from-start:end -->"
_END = re.compile(rb"event: end\ndata: (\{[^\n]*\})\n")


async def _build(port: int, rounds: int) -> dict:
    setup = setup_body(LONG["game"], LONG["players"])
    setup["options"] = {**setup["options"], "rounds": rounds}
    plan = [action for _, action in playout(LONG["game"], SEED, 100_000, setup)[1]]
    conn = Connection(port)

    async def call(method: str, path: str, body=None, token=None, version=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        status, answer = await conn.send(request_bytes(
            method, path, json.dumps(body).encode() if body is not None else b"", headers))
        if status not in (200, 201):
            raise SystemExit(f"starvation: building the long match, {method} {path} answered "
                             f"{status}: {answer[:300]!r}")
        return json.loads(answer)

    created = await call("POST", "/v1/matches", {"game": LONG["game"], "seed": SEED, **setup})
    url, version = f"/v1/matches/{created['id']}", created["version"]
    for action in plan[:-1]:  # all but the last: the match is still being played
        token = created["seats"].get(action.get("player"), created["host_token"])
        await call("POST", f"{url}/actions", {"action": action}, token, version)
        version += 1
    events, after = 0, 0
    while after is not None:  # the logged events, as the host reads them a page at a time
        page = await call("GET", f"{url}/events?after={after}&limit=200", None,
                          created["host_token"])
        events, after = events + len(page["events"]), page["next"]
    conn.close()
    return {"id": created["id"], "actions": len(plan) - 1, "events": events,
            "tokens": [created["seats"][seat] for seat in setup["players"]]
            + [created["host_token"]]}


def build(redis_url: str, log: Path, smoke: bool = False) -> dict:
    """Make the long match (see the module docstring) on a setup server of its own (budgets
    lifted, Redis at ``redis_url``, its log to ``log``), stopped before this returns:
    ``{"id", "actions", "events" (logged, as the host reads them), "tokens" (the 7 seats'
    then the host's), "seconds" (taken to build)}``.  ``SystemExit`` if a request is
    refused or the match has no more than :data:`CATCH_UP_EVENTS` events (a stream from 0
    would not end with ``reconnect``)."""
    began = time.monotonic()
    server = Gunicorn("referee.serving.wsgi:app", redis_url, log)
    try:
        built = asyncio.run(_build(server.port, SMOKE_ROUNDS if smoke else LONG["rounds"]))
    finally:
        server.stop()
    if built["events"] <= CATCH_UP_EVENTS:
        raise SystemExit(f"starvation: the long match has {built['events']} events, not more "
                         f"than one catch-up part ({CATCH_UP_EVENTS})")
    return {**built, "seconds": time.monotonic() - began}


async def _ending(reader: asyncio.StreamReader) -> str:
    """The reason of the stream's ``event: end`` (``"closed"``: it closed without one)."""
    seen = b""
    while chunk := await reader.read(65536):
        seen = seen[-200:] + chunk
        if found := _END.search(seen):
            return json.loads(found.group(1))["reason"]
    return "closed"


async def reopen(port: int, source: str, path: str, token: str, stop: float,
                 opens: list) -> None:
    """One of the attacker's streams, until ``stop`` (``time.monotonic()``): open ``path``
    from ``source`` with ``token`` (a new connection each time), read until its ``end``,
    close, open again at once (after :data:`BACKOFF` seconds if refused).  Appends
    ``(time.monotonic() when the answer's head came, status (0: the connection broke or
    was refused before one), the end's reason or None: the run ended first)`` to
    ``opens``."""
    while (left := stop - time.monotonic()) > 0:
        writer, status, answered, reason = None, 0, None, None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)), left)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                         f"{token}\r\n\r\n".encode())
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"),
                                          stop - time.monotonic())
            status, answered = int(head[9:12]), time.monotonic()
            if status == 200:
                reason = await asyncio.wait_for(_ending(reader), stop - time.monotonic())
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            pass
        finally:
            if writer is not None:
                writer.close()
        if answered is None:  # no answer: broken, refused, or cut by the end of the run
            if (answered := time.monotonic()) >= stop:
                return
        opens.append((answered, status, reason))
        if status != 200:
            await asyncio.sleep(BACKOFF)


def opens_in(opens: list, began: float, seconds: float) -> dict:
    """What the attacker's streams got in the measured window ``began`` … ``+ seconds``
    (``time.monotonic()``, the same clock in every process): ``{"opens", "per_s", "answers":
    {status: n}, "ends": {reason: n}, "first_200", "last_200"}``: ``ends`` counts the streams
    answered 200 by how they ended (``"cut"``: the run ended first); ``first_200`` and
    ``last_200`` are the seconds into the window of the first and last (``None``: none) — the
    address's budgets are per minute, so the 200s may stop part way."""
    mine = [(at, status, reason) for at, status, reason in opens
            if began <= at < began + seconds]
    answers: dict[int, int] = {}
    ends: dict[str, int] = {}
    for _, status, reason in mine:
        answers[status] = answers.get(status, 0) + 1
        if status == 200:
            ends[reason or "cut"] = ends.get(reason or "cut", 0) + 1
    admitted = [at - began for at, status, _ in mine if status == 200]
    return {"opens": len(mine), "per_s": len(mine) / seconds, "answers": answers,
            "ends": ends, "first_200": min(admitted, default=None),
            "last_200": max(admitted, default=None)}


def paragraph(result: dict, statuses, limits: dict) -> str:
    """What the attacker did, for the section (:func:`bench.starvation.render`; ``statuses``
    writes ``{status: n}``; ``limits``: the server's ``REFEREE_LIMIT_*``), ending with a
    semicolon."""
    a, long = result["attacker"], result["long_match"]
    w = a["measured"]
    bodies = (f"sent the worst bodies on {result['senders']} connections: "
              f"{statuses(a['answers'])} ({a['broken_connections']} connections refused or "
              "broken, reopened)") if result["senders"] else "sent no body (the control)"
    return f"""The attacker ({a['source']}) ran {a['streams']} streams ({long['tokens']} tokens × \
{a['streams'] // long['tokens']}: the 7 seats and the host of a {long['actions']:,}-action Gnoming
match of {long['events']:,} logged events, built in {long['seconds']:.0f} s through a setup server
with the budgets lifted, stopped before the measured one started), each opening `…/stream?after=0`
again as soon as its last ended (after {BACKOFF} s when refused): in the measured
{result['seconds']:.0f} s, **{w['opens']} opens ({w['per_s']:.1f}/s)**: {statuses(w['answers'])};
those answered 200 ({_when(w, limits)}) ended {statuses(w['ends']) or 'none'} (each reads at most
{CATCH_UP_EVENTS:,} logged events, then `reconnect`; cut: by the end of the run); in its whole
run (warm-up included) {a['opens_total']} opens: {statuses(a['answers_total'])}.  It also
{bodies};"""


def _when(window: dict, limits: dict) -> str:
    """When the 200s came, beside the budgets each open spends (fixed windows)."""
    if window["first_200"] is None:
        return "none in the window"
    return (f"from {window['first_200']:.1f} s to {window['last_200']:.1f} s into the window; "
            f"each open spends the address's {limits['REFEREE_LIMIT_MATCH_PER_IP']} and its "
            f"token's {limits['REFEREE_LIMIT_MATCH_PER_TOKEN']}")
