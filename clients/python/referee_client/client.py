"""The Python client of the referee API (``requests``-based): :class:`RefereeClient`.

>>> from referee_client import RefereeClient, RefereeError
>>> referee = RefereeClient("http://127.0.0.1:8000")
>>> referee.score_trick_sheet(sheet)["points"]          # doctest: +SKIP
{'X': 4, 'Y': 1}

Every method returns the decoded JSON answer (a ``dict``, or a ``list`` for :meth:`games`).
Any answer that is not 2xx raises :class:`RefereeError` carrying the problem+json body
(``.problem``), the HTTP ``.status`` and the problem's ``.type`` slug (``"illegal-action"``).

Retries: requests that change nothing on the server (reads and the stateless endpoints) are
retried on a lost connection, a timeout or a 503 (after its ``Retry-After``, at most
``MAX_WAIT`` seconds); :meth:`act` and the rollback steps retry with the **same**
``Idempotency-Key`` and version, so a move whose answer was lost is never applied twice (the
server answers the first response again); so are the claims (:meth:`claim_seat`,
:meth:`claim`) with theirs (the same token again).  :meth:`create_match` is retried only when
given an ``idempotency_key``.  The host's seat calls (:meth:`invite_seat`,
:meth:`reissue_seat_token`, :meth:`recover_host`) are retried as they are: each makes a new
code or token and only the last one works, which is the one returned.  A ``409 version-conflict`` is never retried: the action was chosen on an
old position, so read the match and choose again.  The JavaScript client (``clients/js``) has
the same calls, in camelCase.
"""
from __future__ import annotations

import time
import uuid
from typing import Any, Iterator

import requests

from .errors import JSON, RefereeError, problem_of
from .sse import parse_sse

RETRIED = (requests.ConnectionError, requests.Timeout)
"""The failures after which a safe request is sent again (and a 503 answer)."""

STREAM_LOST = RETRIED + (requests.exceptions.ChunkedEncodingError,)
"""The failures after which :meth:`RefereeClient.follow` reconnects (a stream cut mid-answer,
e.g. by its server stopping, raises ``ChunkedEncodingError``)."""

MAX_WAIT = 10.0
"""The longest ``Retry-After`` (seconds) the client waits before retrying a 503."""

STREAM_READ_TIMEOUT = 60.0
"""Seconds :meth:`RefereeClient.follow` waits for a byte (heartbeats come every 15 s) before
treating the stream as lost and reconnecting."""

RECONNECT_DELAYS = (0.25, 0.5, 1.0, 2.0, 4.0)
"""Seconds :meth:`RefereeClient.follow` waits before its 1st, 2nd, … reconnection in a row
after a lost connection (then the last, again); an ``end`` with reason ``reconnect`` (the
server asks) is followed at once."""


class RefereeClient:
    """Client of one referee service at ``base_url`` (e.g. ``"http://127.0.0.1:8000"``).

    ``timeout``: seconds per request; ``retries``: how many times a safe request (or a write
    with its idempotency key) is sent again after a lost connection, a timeout or a 503;
    ``session``: a ``requests.Session`` to use (one is made otherwise); ``language``: the
    ``Accept-Language`` of every request (``"en"``, ``"my"``; the server's default if
    ``None``)."""

    def __init__(self, base_url: str = "http://127.0.0.1:8000", *, timeout: float = 10.0,
                 retries: int = 2, session: requests.Session | None = None,
                 language: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.session = session or requests.Session()
        self.language = language
        self.sleep = time.sleep  # how a retry after 503 or a reconnection waits (tests replace it)

    # -- games -------------------------------------------------------------------------------

    def games(self) -> list[JSON]:
        """Every registered game: name, title, player counts, modes, options, action types."""
        return self._call("GET", "/v1/games")

    def game(self, game: str) -> JSON:
        """One game's description (``RefereeError`` 404 ``unknown-game``)."""
        return self._call("GET", f"/v1/games/{game}")

    def rules(self, game: str) -> JSON:
        """The game's rulebook: ``{"game", "title", "language", "rules": [{"id", "title",
        "text", …}]}`` in the client's ``language``."""
        return self._call("GET", f"/v1/games/{game}/rules")

    def rule(self, game: str, rule_id: str) -> JSON:
        """One rule by its ID (``"AF-B1"``): ``{"id", "title", "text", …}`` (404 if none)."""
        return self._call("GET", f"/v1/games/{game}/rules/{rule_id}")

    # -- stateless refereeing ----------------------------------------------------------------

    def setup(self, game: str, players: list[str], **fields: Any) -> JSON:
        """Start a game; returns the first snapshot (the ``state``).  ``fields``: the game's
        setup fields (``options``, ``mode``, ``seed``, ``deal``, All Fours ``dealer``…)."""
        return self._call("POST", f"/v1/games/{game}/setup",
                          json={"players": players, **fields})["state"]

    def legal_actions(self, game: str, state: JSON, player: str | None = None, *,
                      form: str | None = None) -> JSON:
        """``{"actions", "to_move"}``: every legal action now (of ``player`` if given).
        ``form="grouped"`` adds ``groups``: one entry per action type with each field's
        ``choices`` and the ``illegal`` combinations (README "Legal actions for pickers");
        another form is a 422 :class:`RefereeError` naming ``query.form``."""
        body = {"state": state, **({"player": player} if player is not None else {})}
        return self._call("POST", f"/v1/games/{game}/legal-actions", json=body,
                          params=_form(form))

    def validate(self, game: str, state: JSON, action: JSON) -> JSON:
        """``{"legal", "violations"}`` for ``action`` in ``state``, without applying it."""
        return self._call("POST", f"/v1/games/{game}/validate",
                          json={"state": state, "action": action})

    def apply(self, game: str, state: JSON, action: JSON) -> JSON:
        """``{"state", "events", "score", "over"}`` after ``action``; an illegal action raises
        ``RefereeError`` 422 ``illegal-action`` (see ``.violations``)."""
        return self._call("POST", f"/v1/games/{game}/apply",
                          json={"state": state, "action": action})

    def reshuffle(self, game: str, state: JSON, seed: int | str) -> JSON:
        """``{"state"}``: ``state`` with its hidden orders dealt afresh from ``seed`` (a
        ``{"version", "reshuffle"}`` step of a match audit's ``steps``)."""
        return self._call("POST", f"/v1/games/{game}/reshuffle",
                          json={"state": state, "seed": seed})

    def score_trick_sheet(self, sheet: JSON, options: JSON | None = None) -> JSON:
        """Score an All Fours hand from its trick sheet: ``points``, ``score``, ``winner``,
        ``high``, ``low``, ``jack``, ``game``, ``reneges`` (422 ``inconsistent-sheet``)."""
        return self._call("POST", "/v1/games/all-fours/score", json=_with_options(
            {"sheet": sheet}, options))

    def score_gnoming_round(self, round_: JSON, options: JSON | None = None) -> JSON:
        """Score a finished Gnoming round: ``scores`` and ``breakdown`` per player."""
        return self._call("POST", "/v1/games/gnoming/score-round", json=_with_options(
            {"round": round_}, options))

    def score_gnoming_game(self, rounds: list[JSON], options: JSON | None = None) -> JSON:
        """Score a whole Gnoming game: ``round_scores``, ``totals``, ``winners``."""
        return self._call("POST", "/v1/games/gnoming/score-game", json=_with_options(
            {"rounds": rounds}, options))

    # -- matches: creating, joining, reading -------------------------------------------------

    def create_match(self, game: str, players: list[str], *,
                     idempotency_key: str | None = None, **fields: Any) -> JSON:
        """Create a match kept by the service: ``{"id", "version", "commitment", "seats"
        (player → token), "open_seats", "invites" (open seat → ``{"code", "expires_at",
        "expires_in"}``), "host_token", "recovery_code", "ttl", …}``.  Keep the tokens and the
        recovery code: they are shown only here.  ``open_seats=[...]`` (a field) names the
        seats created open: no token, an invite code each instead.

        Without ``idempotency_key`` it is sent once (a retry would make a second match); with
        one (32-255 visible ASCII characters, e.g. ``str(uuid.uuid4())``) it carries
        ``Idempotency-Key`` and is retried like :meth:`act`: the server answers a retry within
        ``REFEREE_CREATE_REPLAY_SECONDS`` (600) with the first 201, the same match and tokens,
        so an app that stores the key before sending loses nothing.  422
        ``idempotency-key-reused``: the key was used with another body."""
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        return self._call("POST", "/v1/matches", json={"game": game, "players": players,
                                                       **fields},
                          headers=headers, retry=idempotency_key is not None)

    def invite_seat(self, match_id: str, host_token: str, player: str) -> JSON:
        """The host's new invite code for ``player``'s seat (``POST …/seats/{player}/invite``):
        ``{"id", "player", "code", "expires_at", "expires_in", "version"}``; the seat's unused
        older code stops working.  For an open seat, or a taken one whose phone lost its token
        (claiming it then replaces that token).  Retried: only the last code made works, and
        it is the one returned.  ``RefereeError`` 403 not the host token, 404 no such seat."""
        return self._call("POST", f"/v1/matches/{match_id}/seats/{player}/invite",
                          token=host_token)

    def claim_seat(self, match_id: str, player: str, code: str, *,
                   idempotency_key: str | None = None) -> JSON:
        """Trade ``player``'s invite code for the seat's token (``POST
        …/seats/{player}/claim``; no token: the code is the credential): ``{"id", "player",
        "token", "version", "ttl"}``.  Sent with an ``Idempotency-Key`` (a fresh UUID unless
        given) and retried with it: the server answers a retry with the same token.
        ``RefereeError`` 403 ``invite-invalid``, 409 ``invite-used``, 410 ``invite-expired``,
        404 no such seat."""
        return self._call("POST", f"/v1/matches/{match_id}/seats/{player}/claim",
                          json={"code": code}, headers=_idempotency(idempotency_key))

    def claim(self, match_id: str, code: str, *, idempotency_key: str | None = None) -> JSON:
        """:meth:`claim_seat` for whichever seat ``code`` invites to (``POST
        /v1/matches/{id}/claim``), for a link that carries only the match and the code; the
        answer's ``player`` names the seat."""
        return self._call("POST", f"/v1/matches/{match_id}/claim", json={"code": code},
                          headers=_idempotency(idempotency_key))

    def reissue_seat_token(self, match_id: str, host_token: str, player: str) -> JSON:
        """The host re-issues ``player``'s seat token (``POST …/seats/{player}/token``):
        ``{"id", "player", "token", "version", "ttl"}``.  The old token stops working at once
        (401; its streams end with reason ``revoked``); the game state does not change.
        Retried: only the last token made works, and it is the one returned.  403 not the host
        token, 404 no such seat."""
        return self._call("POST", f"/v1/matches/{match_id}/seats/{player}/token",
                          token=host_token)

    def recover_host(self, match_id: str, recovery_code: str) -> JSON:
        """A new host token for the match's ``recovery_code`` (from :meth:`create_match`; no
        token needed), ``POST …/host/token``: ``{"id", "host_token", "version", "ttl"}``.  The
        old host token stops working; the recovery code stays valid.  Retried: the last token
        made is the one returned.  403 another code, 422 not a recovery code at all."""
        return self._call("POST", f"/v1/matches/{match_id}/host/token",
                          json={"recovery_code": recovery_code})

    def match(self, match_id: str, token: str | None = None) -> JSON:
        """The match as ``token`` sees it (a seat's view, the host's referee view, or the
        public view without a token): ``version``, ``to_move``, ``over``, ``view``…"""
        return self._call("GET", f"/v1/matches/{match_id}", token=token)

    def match_legal_actions(self, match_id: str, token: str, *, form: str | None = None) -> JSON:
        """``{"version", "actions", "to_move"}``: the token's seat's legal actions now.
        ``form="grouped"`` adds ``groups`` (the picker form, as :meth:`legal_actions`)."""
        return self._call("GET", f"/v1/matches/{match_id}/legal-actions", token=token,
                          params=_form(form))

    def events(self, match_id: str, token: str | None = None, after: int = 0,
               wait: int = 0, limit: int | None = None) -> JSON:
        """``{"version", "events", "next"}``: a page of the events with ``seq`` > ``after`` the
        token may see (at most ``limit``, 1-200, default 100, and under 64 KB); ``next`` is
        the ``after`` of the next page, ``None`` at the end of the log.
        ``wait=0`` (the default) means no wait: the answer comes at once.  With ``wait``
        (seconds, 1-25; e.g. ``wait=25`` to long-poll) and none yet, the server waits up to
        that long for one."""
        params = {"after": after, **({"wait": wait} if wait else {}),
                  **({"limit": limit} if limit is not None else {})}
        return self._call("GET", f"/v1/matches/{match_id}/events", token=token,
                          params=params, timeout=self.timeout + wait)

    def stream_ticket(self, match_id: str, token: str) -> JSON:
        """``{"ticket", "expires_in"}``: a read-only ticket for ``?ticket=`` URLs (browsers)."""
        return self._call("POST", f"/v1/matches/{match_id}/stream-tickets", token=token)

    def follow(self, match_id: str, token: str | None = None, *, after: int = 0,
               reconnects: int = 8) -> Iterator[JSON]:
        """Follow the match's live stream: yield each message as ``{"event", "id", "data"}``
        (``event`` is ``"event"``, ``"view"`` or ``"end"``; ``id`` the event's seq or
        ``None``; ``data`` the decoded JSON), from the events after ``after``, until the
        ``end`` message (yielded last) of a finished or deleted match (``reason`` ``"over"``,
        ``"gone"``) or of a re-issued token (``"revoked"``).  A lost connection (or a server
        restarting) reconnects with ``Last-Event-ID`` after :data:`RECONNECT_DELAYS`, at most
        ``reconnects`` times in a row (a 503 counts as lost too), and an ``end`` with
        ``reason`` ``"reconnect"`` at once, so no event is missed; each event is yielded once
        (by ``seq``) and each version's view once.  Error answers raise ``RefereeError``; a
        stream lost more than ``reconnects`` times in a row raises
        ``requests.ConnectionError``."""
        last, failures, shown = after, 0, None
        while True:
            headers = {"Last-Event-ID": str(last), **self._language()}
            if token is not None:
                headers["Authorization"] = f"Bearer {token}"
            lost = True  # unless the server asks to reconnect (end, reason "reconnect")
            try:
                with self.session.get(f"{self.base_url}/v1/matches/{match_id}/stream",
                                      headers=headers, stream=True,
                                      timeout=(self.timeout, STREAM_READ_TIMEOUT)) as response:
                    if response.status_code != 503 and not response.ok:
                        raise RefereeError(response.status_code, problem_of(response))
                    for message in parse_sse(response.iter_lines(decode_unicode=True)
                                             if response.ok else ()):
                        failures = 0
                        kind, data = message["event"], message["data"]
                        if kind == "end" and data.get("reason") == "reconnect":
                            lost = False
                            break
                        if kind == "event":
                            if message["id"] is None or message["id"] <= last:
                                continue
                            last = message["id"]
                        elif kind == "view":
                            if data.get("version") == shown:
                                continue
                            shown = data.get("version")
                        yield message
                        if kind == "end":
                            return
            except STREAM_LOST:
                pass
            if not lost:
                continue
            failures += 1
            if failures > reconnects:
                raise requests.ConnectionError(f"the stream of {match_id} was lost "
                                               f"{failures} times in a row")
            self.sleep(RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS)) - 1])

    # -- matches: playing --------------------------------------------------------------------

    def act(self, match_id: str, token: str, action: JSON, *,
            expected_version: int | None = None, idempotency_key: str | None = None) -> JSON:
        """Apply ``action`` in a match as ``token``'s seat; returns ``{"version", "events",
        "view", "to_move", "over", …}``.

        Without ``expected_version`` the match's current version is read first.  The request
        carries ``If-Match: "<version>"`` and an ``Idempotency-Key`` (a fresh UUID unless
        given); after a lost connection, a timeout or a 503 it is sent again, up to
        ``retries`` times, with the same key and version, so it is applied at most once.  Raises
        ``RefereeError``: 409 ``version-conflict`` (``problem["current_version"]``: read and
        choose again), 422 ``illegal-action``, 401/403/404…"""
        if expected_version is None:
            expected_version = self.match(match_id, token)["version"]
        headers = {"If-Match": f'"{expected_version}"', **_idempotency(idempotency_key)}
        return self._call("POST", f"/v1/matches/{match_id}/actions", token=token,
                          json={"action": action}, headers=headers)

    def propose_rollback(self, match_id: str, host_token: str, to_version: int, reason: str,
                         *, approval: str = "all", expected_version: int | None = None,
                         idempotency_key: str | None = None) -> JSON:
        """Take the match back to ``to_version`` (host token): applied at once in table mode,
        else proposed to the seats (``approval`` ``"all"`` or ``"majority"``).  Returns
        ``{"status": "applied"|"pending", "rollback", "version", "events", "view", …}``.

        Carries ``If-Match`` (read first unless ``expected_version`` is given) and an
        ``Idempotency-Key``, retried like :meth:`act`, so it is proposed at most once.  Raises
        ``RefereeError``: 409 ``version-conflict`` / ``rollback-pending``, 422
        ``invalid-input``, 403 for a seat."""
        if expected_version is None:
            expected_version = self.match(match_id, host_token)["version"]
        return self._call("POST", f"/v1/matches/{match_id}/rollback", token=host_token,
                          json={"to_version": to_version, "reason": reason,
                                "approval": approval},
                          headers={"If-Match": f'"{expected_version}"',
                                   **_idempotency(idempotency_key)})

    def vote_rollback(self, match_id: str, token: str, proposal: int,
                      approve: bool = True, *, idempotency_key: str | None = None) -> JSON:
        """A seat approves (or rejects) the pending rollback ``proposal``; returns the outcome
        (``status`` ``"pending"``, ``"applied"`` or ``"rejected"``).  Sent with an
        ``Idempotency-Key`` and retried like :meth:`act`, so a vote whose answer was lost is
        counted once.  A repeated vote changes nothing: the same answer while pending, 409
        ``no-rollback`` once decided."""
        return self._call("POST", f"/v1/matches/{match_id}/rollback/votes", token=token,
                          json={"proposal": proposal, "approve": approve},
                          headers=_idempotency(idempotency_key))

    def withdraw_rollback(self, match_id: str, host_token: str, *,
                          idempotency_key: str | None = None) -> JSON:
        """The host withdraws the pending rollback (``status`` ``"withdrawn"``); sent with an
        ``Idempotency-Key`` and retried like :meth:`act`."""
        return self._call("DELETE", f"/v1/matches/{match_id}/rollback", token=host_token,
                          headers=_idempotency(idempotency_key))

    def rematch(self, match_id: str, host_token: str, body: JSON | None = None) -> JSON:
        """Start (or find) the rematch of a finished match: ``{"id", "rematch_of", …}``; the
        same seat and host tokens act in it.  ``body`` (optional) enters the new deal's facts,
        which a rematch never copies: All Fours ``kick``/``dealer``, Coup or Gnoming ``deal``,
        Spy ``bases`` (required in table mode, SPY-S2).  Retried: asking again finds the same
        rematch."""
        return self._call("POST", f"/v1/matches/{match_id}/rematch", token=host_token,
                          **({"json": body} if body is not None else {}))

    def audit(self, match_id: str) -> JSON:
        """Once the match is over: ``seed``, ``setup``, every action and the final state
        (403 ``forbidden`` before)."""
        return self._call("GET", f"/v1/matches/{match_id}/audit")

    def delete_match(self, match_id: str, host_token: str) -> None:
        """Delete the match and everything kept of it (host token only)."""
        self._call("DELETE", f"/v1/matches/{match_id}", token=host_token)

    # -- transport ---------------------------------------------------------------------------

    def _language(self) -> dict[str, str]:
        return {"Accept-Language": self.language} if self.language else {}

    def _call(self, method: str, path: str, *, token: str | None = None,
              headers: dict[str, str] | None = None, retry: bool = True, **kwargs: Any) -> Any:
        headers = {**self._language(), **(headers or {})}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        kwargs.setdefault("timeout", self.timeout)
        attempts = 1 + (self.retries if retry else 0)
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = self.session.request(method, self.base_url + path, headers=headers,
                                                **kwargs)
            except RETRIED:
                if last:
                    raise
                continue
            if response.status_code == 503 and not last:  # store-unavailable: wait, retry
                self.sleep(_retry_after(response))
                continue
            break
        if not response.ok:
            raise RefereeError(response.status_code, problem_of(response))
        return response.json() if response.content else None


def _retry_after(response: requests.Response) -> float:
    """Seconds to wait before retrying a 503: its ``Retry-After`` (1 if absent), at most 10."""
    try:
        return min(max(float(response.headers.get("Retry-After", 1)), 0.0), MAX_WAIT)
    except ValueError:
        return 1.0


def _idempotency(key: str | None) -> dict[str, str]:
    """The ``Idempotency-Key`` header of a write: ``key``, or a fresh UUID (one per call, so
    the retries of that call carry the same key)."""
    return {"Idempotency-Key": key or str(uuid.uuid4())}


def _form(form: str | None) -> dict[str, str] | None:
    return {"form": form} if form is not None else None


def _with_options(body: JSON, options: JSON | None) -> JSON:
    return {**body, "options": options} if options is not None else body
