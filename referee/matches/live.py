"""Following a match as it happens: the Server-Sent Events stream, the long-poll and the
stream tickets.

**Stream** (``GET /v1/matches/{id}/stream``, ``text/event-stream``, :func:`follow`): first the
logged events the reader may see with ``seq`` greater than ``Last-Event-ID`` (or ``?after``),
then the reader's view; afterwards, whenever the match changes, its new events and the view
again.  Messages:

- ``event: event`` with ``id: <seq>`` and ``data:`` the event (as ``GET …/events`` gives it);
- ``event: view`` (no ``id``): ``{"version", "rollback", "phase", "to_move", "awaiting",
  "awaiting_message", "score", "outcome", "over", "view"}`` (the match view's envelope), the
  reader's view after the events before it;
- ``: heartbeat`` comment lines every ``heartbeat`` seconds while nothing happens;
- ``event: end`` (last, then the stream closes): ``{"version", "reason"}``, ``reason``
  ``"over"`` (the match ended), ``"gone"`` (deleted or expired), ``"revoked"`` (the token or
  ticket that opened it was re-issued: :mod:`referee.matches.seating`; nothing after the
  re-issue is sent to it) or ``"reconnect"`` (the stream's time is up, a read of the store
  failed, or it caught up a part and is still behind: reconnect with ``Last-Event-ID``).

**Catching up** a part at a time: a reader far behind (a finished match followed from its
start: 19,000 events on the longest) goes through at most :data:`CATCH_UP_EVENTS` logged
events per stream; a stream still behind then ends with ``reconnect`` right after the last
event it sent (no view before it; its ``version`` is that of the last view sent, ``null``
before the first), and the reader resumes after that event's ``id``.  Each reconnection is a
new stream: it counts once against the token's budget (``REFEREE_LIMIT_MATCH_PER_TOKEN``) and
the open-stream caps while it is open; the longest match takes about 10 streams from its start.
A catch-up in which the reader was sent no event (all hidden from it) goes on until one is
sent, so that resuming always moves on.

The store is read when a notice wakes the stream (a change, or the feed's resync after it
subscribes again), never per heartbeat.  So a Redis whose connections close ends every stream
with ``reconnect`` at once (the feed's subscription breaks and wakes them; their reads fail),
while a Redis that hangs with its connections open leaves a quiet stream open, beating, until
it answers again; a read that falls in the hang times out and ends it with ``reconnect``.

Each event is sent once per reader with the fields it may see (:func:`referee.matches.reading.
for_reader`); resuming after ``Last-Event-ID`` = *n* sends exactly the events after *n*.

**Tickets** (:func:`issue_ticket`): a browser's ``EventSource`` cannot send headers, so a
token holder trades its token for a read-only ticket valid for :data:`TICKET_SECONDS` and
passes it as ``?ticket=``; the token itself never goes in a URL.  A ticket is
``<role>.<expiry>.<mac>``: the role (``h`` host, ``s<n>`` seat *n*), the Unix expiry, and an
HMAC-SHA-256 keyed with the stored hash of that role's token, so every worker and pod checks
it with no state of its own, and nobody without the token (or the store) can make one.  A
ticket has one form, the one issued (decimal numbers without a leading zero, 32 lower-case hex
digits): any other text is 401, even one that would decode to the same role and expiry
(``h.0<expiry>.<mac>``).  Whatever tickets a token mints, their reads spend that token's one
budget (:func:`ticket_token_hash`, used by :mod:`referee.api.ratelimits`).

Waiting never holds a thread of its own: each reader waits on a
:class:`~referee.store.feed.Watch` (a greenlet's event under gevent).
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import re
import time
from typing import Any, Callable, ContextManager, Iterator

from referee.i18n import DEFAULT
from referee.i18n.negotiation import speaking
from referee.json_text import compact
from referee.matches.loading import game_entry
from referee.matches.callers import Caller, still_holds
from referee.matches.envelope import envelope
from referee.matches.service import rollback_view, stored
from referee.matches import pauses
from referee.matches.reading import for_reader, page, visible_window
from referee.schemas.matches import PAGE_EVENTS
from referee.refusals import NotFound, Refusal, Unauthorized
from referee.store import MatchNotFound, MatchStore, StoreUnavailable

TICKET_SECONDS = 120
"""How long a stream ticket may be used to open a stream or long-poll (an open stream stays
open after it expires)."""

CATCH_UP_EVENTS = 2 * pauses.CHUNK
"""The most logged events a stream goes through in one catch-up (its reads of
:data:`~referee.matches.pauses.CHUNK` events in a row; ~7 ms of CPU per 1,000 events, so
~14 ms: issue 21 item 1, every request's CPU under 25 ms).  A stream still behind then ends
with ``reconnect`` right after the last event it sent (:func:`follow`)."""

MAX_WAIT_SECONDS = 25
"""The longest long-poll (``?wait=``), in seconds."""


# --- tickets -----------------------------------------------------------------------------
def issue_ticket(record: dict[str, Any], caller: Caller, now: float | None = None
                 ) -> dict[str, Any]:
    """A read-only ticket for ``caller`` (a seat or the host; 401 ``unauthorized`` for the
    public, who needs none): ``{"ticket", "expires_in"}`` (seconds)."""
    if caller.role == "public":
        raise Refusal("unauthorized", "A stream ticket is made with a seat or host token "
                      "(Authorization: Bearer <token>); the public view needs none.")
    role = "h" if caller.host else f"s{record['players'].index(caller.seat)}"
    expires = int(now if now is not None else time.time()) + TICKET_SECONDS
    return {"ticket": f"{role}.{expires}.{_mac(record, role, expires)}",
            "expires_in": TICKET_SECONDS}


_TICKET = re.compile(r"(h|s(?:0|[1-9][0-9]{0,2}))\.([1-9][0-9]{0,11})\.([0-9a-f]{32})")
"""The one form of a ticket, as :func:`issue_ticket` writes it: ``h`` or ``s<n>``, the expiry,
the MAC; ASCII digits, no leading zero, no sign, no other case or spacing."""


def ticket_caller(record: dict[str, Any], ticket: str, now: float | None = None) -> Caller:
    """Who ``ticket`` was issued to; 401 ``unauthorized`` if it is not in the one form
    :func:`issue_ticket` writes (:data:`_TICKET`: ``h.0<expiry>.<mac>`` or a full-width digit
    is refused, though it would decode to the same expiry), forged, of another match or
    expired."""
    form = _TICKET.fullmatch(ticket)
    caller = _role_caller(record, form.group(1)) if form is not None else None
    if caller is None:
        raise _bad_ticket("This is not a stream ticket of this match.")
    role, expiry, mac = form.groups()
    if not hmac.compare_digest(_mac(record, role, int(expiry)), mac):
        raise _bad_ticket("This is not a stream ticket of this match.")
    if int(expiry) < (now if now is not None else time.time()):
        raise _bad_ticket("This stream ticket has expired: get a new one with the token "
                          "(POST /v1/matches/{id}/stream-tickets).")
    return caller


def ticket_token_hash(record: dict[str, Any], ticket: str, now: float | None = None
                      ) -> str | None:
    """The stored hash (SHA-256 hex, :func:`referee.matches.callers.token_hash`) of the token that
    minted ``ticket``, whichever second it was minted in; ``None`` when :func:`ticket_caller`
    refuses the ticket.  A ticket's reads are counted against that token's budget."""
    try:
        caller = ticket_caller(record, ticket, now)
    except Refusal:
        return None
    return caller.credential


def _role_caller(record: dict[str, Any], role: str) -> Caller | None:
    """The caller of ticket role ``role`` with its seat's (or the host's) stored token hash,
    or ``None`` for no such role or an open seat (no token: no ticket)."""
    if role == "h":
        return Caller(host=True, credential=record["host"])
    if role[:1] == "s" and role[1:].isdigit() and int(role[1:]) < len(record["players"]):
        seat = record["players"][int(role[1:])]
        stored = record["seats"].get(seat)
        return Caller(seat=seat, credential=stored) if stored is not None else None
    return None


def _mac(record: dict[str, Any], role: str, expires: int) -> str:
    key = _role_caller(record, role).credential
    message = f"stream-ticket\n{record['id']}\n{role}\n{expires}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()[:32]


def _bad_ticket(detail: str) -> Refusal:
    return Refusal("unauthorized", detail, errors=[{"field": "ticket", "message": detail}])


# --- the stream --------------------------------------------------------------------------
def sse(data: dict[str, Any], event: str, event_id: int | None = None) -> str:
    """One SSE message: ``id:`` (if given), ``event:`` and one ``data:`` line of JSON
    (``json.dumps`` with compact separators: :func:`referee.json_text.compact`)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {compact(data)}\n\n"


def reader_view(record: dict[str, Any], caller: Caller) -> dict[str, Any]:
    """``{"version", "rollback", "phase", "to_move", "awaiting", "awaiting_message", "score",
    "outcome", "over", "view"}`` of ``record`` for ``caller`` (the match view's envelope,
    :func:`referee.matches.envelope.envelope`)."""
    entry = game_entry(record["game"])
    return {"version": record["version"], "rollback": rollback_view(record),
            **envelope(entry, record, record["state"], caller)}


def follow(store: MatchStore, match_id: str, caller: Caller, after: int, heartbeat: float,
           limit: float, lang: str = DEFAULT,
           part: Callable[[], ContextManager] = contextlib.nullcontext) -> Iterator[str]:
    """The SSE text of ``caller``'s stream of ``match_id`` from ``seq`` > ``after``, for at
    most ``limit`` seconds, a heartbeat after each ``heartbeat`` quiet seconds (see the module
    docstring), its views and events rendered in ``lang`` (the request's negotiated language:
    the stream outlives its request).  Reads the store once per change (a read shared with the
    other readers of the match woken by the same change); never raises once started.  Each
    read and its rendering run inside ``part()`` (the HTTP layer's turn of the client's
    address, :func:`referee.api.fair_share.address_turn`: one address's streams catching up
    take their parts one at a time, like its bodies), never a write to the socket.

    A reader far behind (a finished match followed from its start: 19,000 events on the
    longest) catches up :data:`~referee.matches.pauses.CHUNK` events per read, a pause
    between two (:func:`~referee.matches.pauses.pause`: the worker serves others), the same
    text in the end as one read of them all would send; after :data:`CATCH_UP_EVENTS` logged
    events (the events with ``seq`` in ``after + 1 … after + CATCH_UP_EVENTS`` that the reader
    may see: ``seq`` numbers the log from 1) a stream still behind ends with
    ``reconnect``; resuming after its last ``id`` sends the rest (the events of the streams
    together are those of one stream without the cap)."""
    deadline = time.monotonic() + limit
    shown = None
    caught, told = 0, False  # this catch-up: logged events gone through, any of them sent

    def step(since) -> tuple[str, bool, bool]:
        """One read and what it sends: ``(text, the stream ends, still catching up)``."""
        nonlocal after, caught, told, shown
        # a part goes one event past what it sends; the cap's last part stops at the cap
        room = CATCH_UP_EVENTS - caught
        count = min(pauses.CHUNK, room + 1) if room > 0 else pauses.CHUNK
        try:
            record, logged, rendered = store.feed.reads.read(
                _read_accepted(store), (match_id, after, count), since)
        except MatchNotFound:
            return sse({"version": shown, "reason": "gone"}, "end"), True, False
        except StoreUnavailable:
            return sse({"version": shown, "reason": "reconnect"}, "end"), True, False
        if not still_holds(record, caller):
            return sse({"version": shown, "reason": "revoked"}, "end"), True, False
        if len(logged) >= count:  # catching up: this part, a pause, then the rest
            text = _once(rendered, lang, _events_but_last, logged, caller)
            after = logged[-2]["seq"]
            caught, told = caught + len(logged) - 1, told or bool(text)
            if caught >= CATCH_UP_EVENTS and told:  # still behind: the client resumes
                return text + sse({"version": shown, "reason": "reconnect"}, "end"), True, False
            return text, False, True
        caught, told = 0, False
        # what one change brings goes out in one write
        sent = [_once(rendered, lang, _events_text, logged, caller)]
        after = logged[-1]["seq"] if logged else after
        if record["version"] != shown:
            shown = record["version"]
            view, over = _once(rendered, lang, _view_text, record, caller)
            sent.append(view)
            if over:
                return "".join(sent) + sse({"version": shown, "reason": "over"}, "end"), True, \
                    False
        if time.monotonic() >= deadline:
            ending = sse({"version": shown, "reason": "reconnect"}, "end")
            return "".join(sent) + ending, True, False
        return "".join(sent), False, False

    yield "retry: 2000\n\n"
    with store.feed.watch(match_id) as watch:
        while True:
            since = watch.clear()
            with part():
                text, ends, behind = step(since)
            if text:
                yield text
            if ends:
                return
            if behind:
                pauses.pause()
                continue
            while not watch.wait(min(heartbeat, max(deadline - time.monotonic(), 0.0))):
                if time.monotonic() >= deadline:
                    break
                yield ": heartbeat\n\n"


def _read_accepted(store: MatchStore):
    """``store.read`` whose record's state is trusted (:func:`referee.matches.service.stored`: the
    service wrote it), shared by the readers the same change woke, with the memo of what they
    rendered from it (:func:`_once`)."""
    def read(match_id: str, after: int, count: int):
        record, logged = store.read(match_id, after, count)
        return stored(record), logged, {}
    return read


def _once(rendered: dict, lang: str, render, part, caller: Caller):
    """``render(part, caller)`` in ``lang``, made once per renderer, viewer and language
    among the readers sharing one store read (``rendered``, its memo): a seat's phones, the
    host's, the public's get the same text, rendered once per change."""
    key = (render, caller.viewer, lang)
    if key not in rendered:
        with speaking(lang):
            rendered[key] = render(part, caller)
    return rendered[key]


def _events_text(logged: list[dict[str, Any]], caller: Caller) -> str:
    """The SSE messages of the events of ``logged`` that ``caller`` may see."""
    return "".join(sse(ev, "event", ev["seq"]) for ev in for_reader(logged, caller.viewer))


def _events_but_last(logged: list[dict[str, Any]], caller: Caller) -> str:
    """:func:`_events_text` of a part of the log whose last event is left for the next part
    (the next event decides whether it is sent: :func:`referee.matches.reading.for_reader`)."""
    last = logged[-1]["seq"]
    return "".join(sse(ev, "event", ev["seq"]) for ev in for_reader(logged, caller.viewer)
                   if ev["seq"] != last)


def _view_text(record: dict[str, Any], caller: Caller) -> tuple[str, bool]:
    """The SSE ``view`` message of ``record`` for ``caller``, and whether the match is over."""
    current = reader_view(record, caller)
    return sse(current, "view"), current["over"]


def long_poll(store: MatchStore, record: dict[str, Any], caller: Caller, after: int,
              wait: float, idle: Callable[[], ContextManager] = contextlib.nullcontext,
              limit: int = PAGE_EVENTS) -> dict[str, Any]:
    """``{"version", "events", "next"}``: a page of the events ``caller`` may see with ``seq``
    > ``after`` (as :meth:`referee.matches.service.MatchService.events` pages them, at most
    ``limit``); when there are none yet and the match is not over, wait up to ``wait``
    seconds for some.  404 ``not-found`` if the match goes away meanwhile, 401
    ``unauthorized`` if the caller's token is re-issued meanwhile.  ``idle()`` is entered
    around each wait (the HTTP layer gives back the client's turn at the worker meanwhile)."""
    deadline = time.monotonic() + wait
    over = game_entry(record["game"]).engine.is_over
    with store.feed.watch(record["id"]) as watch:
        while True:
            watch.clear()
            read: list[dict[str, Any]] = []

            def window(start: int, count: int, match_id: str = record["id"]):
                found, logged = store.read(match_id, start, count)
                read[:] = [found]
                return logged
            try:
                events = visible_window(window, caller.viewer, after, limit)
                record = stored(read[0])
            except MatchNotFound:
                raise NotFound(f"The match {record['id']!r} was deleted or "
                                   "expired.") from None
            if not still_holds(record, caller):
                raise Unauthorized("This token was re-issued while waiting: it no longer "
                                   "reads this match.")
            left = deadline - time.monotonic()
            if events or left <= 0 or over(record["state"]):
                events, following = page(events, limit)
                return {"version": record["version"], "events": events, "next": following}
            with idle():
                watch.wait(left)
