"""Abuse limits (Flask-Limiter): separate budgets for creating matches, playing them and the
stateless calls, per client IP and per token; and the client's IP behind a trusted proxy.

| budget | applies to | key | default |
| --- | --- | --- | --- |
| ``REFEREE_LIMIT_CREATE`` | ``POST /v1/matches`` | client IP | ``20/minute;200/hour`` |
| ``REFEREE_LIMIT_MATCH_PER_TOKEN`` | every other ``/v1/matches/…`` call with a token | token (a stream ticket: the token that minted it) | ``240/minute`` |
| ``REFEREE_LIMIT_MATCH_PUBLIC`` | every other ``/v1/matches/…`` call without one | client IP and match | ``300/minute`` |
| ``REFEREE_LIMIT_MATCH_PER_IP`` | every other ``/v1/matches/…`` call | client IP | ``1200/minute`` |
| ``REFEREE_LIMIT_STATELESS_PER_IP`` | ``/v1/games/…`` | client IP, per worker process | ``3000/minute`` |
| ``REFEREE_LIMIT_CLAIM`` | ``POST …/claim``, ``…/seats/{player}/claim``, ``…/host/token`` (a code is the credential) | client IP | ``20/minute;200/hour`` |

The claim budget is spent besides the match budgets: it is what makes guessing an invite code
hopeless (60 bits: at 200 guesses an hour against the at most 8 live codes of a match, one
address has about one chance in 7·10¹⁴ an hour; :mod:`referee.matches.codes`).

A call with a token spends that token's budget; a read with a stream ticket the budget of the
token that minted it (one budget per seat or host, however many tickets it mints and in
whichever second: the ticket is checked against the match's record first, read before the
counters for such a read).  A call with neither — a public read: a scoreboard, phones without
a seat; a ticket that is not one of this match's counts as none — spends the public budget of
its address and match instead, sized for a scoreboard polling the match once a second and
four phones more behind the same address (:data:`DEFAULTS`; live readers should follow the
stream, which counts once).  Every match call also spends its address's ``match-ip`` budget.
A stream (``…/stream``) or long-poll (``…/events?wait=``) counts once when it opens, not per
event or heartbeat it carries.  A 429 names the budget spent and what it is keyed by
(``errors[0].field``: ``Authorization``, ``ticket`` or ``client``, the address).  The keys of
each call are :mod:`referee.api.budget_keys`'.
Every budget is kept in the store's Redis whatever its topology (:func:`storage`; in memory
without Redis) but the stateless one.  The create budget is Flask-Limiter's, whose hooks run
for ``POST /v1/matches`` only; the two budgets of every other match call are counted by
:class:`SharedBudgets` in the limiter's storage, both in one round trip (Flask-Limiter's
fixed-window counters and keys, without its per-request evaluation) which, when that storage
is the match store's Redis, also reads the match's record for the view (``g.match_read``).  The stateless budget is counted in
the worker's memory (:class:`LocalBudget`, the same ``limits`` notation), so a stateless call
costs no Redis round trip and a few microseconds (with N worker processes a client may make up
to N times it).  Health, docs and OpenAPI
routes have no limit.  The caps on open streams and long-polls (:mod:`referee.api.open_caps`)
are counted in the same storage.  ``REFEREE_RATE_LIMITS=off`` turns every limit off.

A breached budget answers 429 ``rate-limited`` (problem+json) with ``Retry-After`` (seconds)
and ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds), naming the
budget in ``RateLimit-Policy``; the waits are the seconds left in the spent window, rounded up
(at most the window: a 60-second budget says 60 at most; :func:`seconds_left` reads the
counter's PTTL).  A limit storage that does not answer lets requests through (logged: one
warning line per request, :func:`quiet_swallowed`): the match store's own failure is then
the 503.  When the budgets' round trip is the one that reads the record
(``RedisStore.load_along``) and it fails for the store, the request answers the store's 503 at
once (after one timeout, not a second one reading the record again); an error of a counter
alone (OOM or READONLY refusing the counter's write) still lets the request through.

Caps on what one store holds: ``REFEREE_MAX_LIVE_MATCHES`` (default 10000) live matches, and
for the in-process store ``REFEREE_MEMORY_STORE_MAX_BYTES`` (default 268435456, 256 MiB) of
match text; a new match past either is 503 ``match-limit-reached`` with ``Retry-After``.

``REFEREE_TRUSTED_PROXY_HOPS`` (default 0): with N > 0 the client IP is taken from the N-th
last ``X-Forwarded-For`` entry (werkzeug's ``ProxyFix``); leave it 0 unless N proxies you run
sit in front, or any client can pick its IP.
"""
from __future__ import annotations

import functools
import logging
import math
import os
import threading
import time
from typing import Any, Mapping

from flask import Flask, Response, g, request
from flask_limiter import Limiter, RequestLimit
from limits import parse_many
from limits.storage import RedisStorage
from werkzeug.middleware.proxy_fix import ProxyFix

from referee.api.budget_keys import (PUBLIC_SCOPE, blamed_field, ip_key, public_key,
                                     ticket_keys, token_key)
from referee.api import open_caps
from referee.api.errors import problem_response
from referee.matches.service import MATCH_ID
from referee.ops.logs import as_warning
from referee.store import StoreUnavailable
from referee.store.connect import limiter_storage

log = logging.getLogger("referee.limits")

DEFAULTS = {"LIMIT_CREATE": "20/minute;200/hour", "LIMIT_MATCH_PER_TOKEN": "240/minute",
            "LIMIT_MATCH_PUBLIC": "300/minute", "LIMIT_MATCH_PER_IP": "1200/minute",
            "LIMIT_STATELESS_PER_IP": "3000/minute", "LIMIT_CLAIM": "20/minute;200/hour"}
"""The budgets (``limits`` notation: ``count/period``, several joined by ``;``).  The public
one: a scoreboard reading a match once a second (60 a minute) and four phones more doing the
same behind one address."""

CREATE_ENDPOINT = "matches.Matches"
"""flask-smorest's endpoint name of ``POST /v1/matches``."""

def settings(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Flask config of the limits from ``env`` (default ``os.environ``)."""
    env = os.environ if env is None else env
    out: dict[str, Any] = {name: env.get(f"REFEREE_{name}") or value
                           for name, value in DEFAULTS.items()}
    out["RATE_LIMITS_ENABLED"] = env.get("REFEREE_RATE_LIMITS", "on").lower() not in (
        "off", "0", "false", "no")
    out["RATELIMIT_STORAGE_URI"] = env.get("REFEREE_RATELIMIT_STORAGE_URI") or None
    out["TRUSTED_PROXY_HOPS"] = int(env.get("REFEREE_TRUSTED_PROXY_HOPS", 0))
    out["MAX_LIVE_MATCHES"] = int(env.get("REFEREE_MAX_LIVE_MATCHES", 10000))
    out["MEMORY_STORE_MAX_BYTES"] = int(env.get("REFEREE_MEMORY_STORE_MAX_BYTES", 256 << 20))
    return out


def storage(config: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Where the match budgets are counted, as ``(storage URI, storage options)``:
    ``REFEREE_RATELIMIT_STORAGE_URI`` if set (any ``limits`` storage URI), else the match
    store's Redis derived from ``REDIS_URL`` for every topology (single, Unix socket, Cluster,
    Sentinel: :func:`referee.store.connect.limiter_storage`), else ``memory://`` (the
    in-process store: one process).  Redis connections time out quickly (0.5 s to connect,
    1 s a call), so a limit storage that does not answer lets requests through."""
    options = {"socket_connect_timeout": 0.5, "socket_timeout": 1.0}
    explicit = config.get("RATELIMIT_STORAGE_URI")
    if explicit:
        return explicit, (options if explicit.startswith(("redis", "valkey")) else {})
    url = config.get("REDIS_URL")
    if not url:
        return "memory://", {}
    return limiter_storage(url, **options)


def quiet_swallowed(record: logging.LogRecord) -> bool:
    """A ``flask-limiter`` log filter: with ``swallow_errors`` Flask-Limiter logs a limit
    storage it cannot reach ("Failed to rate limit. Swallowing error") as an error with a
    traceback, once per request; here that is the fail-open the module docstring describes, so
    it becomes one warning line without the traceback, naming the error's type (as the match
    budgets' line does).  Every other record passes unchanged."""
    if record.exc_info and "Swallowing error" in str(record.msg):
        as_warning(record, "create budget not counted (limit storage: %s); request let through",
                   type(record.exc_info[1]).__name__)
    return True


def _is_create() -> bool:
    return request.endpoint == CREATE_ENDPOINT and request.method == "POST"


def _not_create() -> bool:
    return not _is_create()


class LocalBudget:
    """A fixed-window budget counted in this process (the stateless calls): a dict per window,
    replaced when the window ends, so it holds one counter per client seen in the current
    window.  A few microseconds per call, where a Flask-Limiter instance costs ~100 (its
    request context and in-memory storage start a timer thread per hit)."""

    def __init__(self, spec: str, scope: str):
        self.items = parse_many(spec)
        self.scope = scope
        self._lock = threading.Lock()
        self._windows = [(-1, {}) for _ in self.items]  # (window number, key -> count)

    def hit(self, key: str, now: float | None = None) -> tuple[Any, int] | None:
        """Count one call of ``key``; return ``(item, seconds until its window ends)`` for
        the first budget spent, else ``None``."""
        now = time.time() if now is None else now
        with self._lock:
            for i, item in enumerate(self.items):
                expiry = item.get_expiry()
                number = int(now // expiry)
                window, counts = self._windows[i]
                if window != number:
                    counts = {}
                    self._windows[i] = (number, counts)
                counts[key] = count = counts.get(key, 0) + 1
                if count > item.amount:
                    return item, max(1, math.ceil((number + 1) * expiry - now))
        return None


class SharedBudgets:
    """Budgets counted in a ``limits`` storage shared by every worker (Flask-Limiter's, from
    :func:`storage`): ``budgets`` is ``[(scope, spec, key function)]``.  A call counts once
    against each budget's counter, all in one round trip on Redis (a pipeline of the
    ``limits`` library's own counter script, ``incr_expire.lua``, one EVALSHA per counter:
    the key's Cluster slot decides its node); in memory, one ``incr`` each.  The counters are
    Flask-Limiter's fixed-window ones (key ``LIMITS:<prefix>/<key>/<scope>/<amount>/<n>/
    <unit>``, a window starting at the first call and lasting the period), so they are shared
    with Flask-Limiter's count of the same budget.  A call refused by one budget still counts
    against the others (Flask-Limiter stopped at the first breach)."""

    def __init__(self, storage: Any, prefix: str, budgets: list[tuple[str, str, Any]],
                 store: Any = None):
        self.storage = storage
        self.prefix = prefix
        self.budgets = [(scope, parse_many(spec), key) for scope, spec, key in budgets]
        self._redis = isinstance(storage, RedisStorage)
        self.store = store if self._redis and hasattr(store, "load_along") else None

    def hit(self, match_id: str | None = None, keys: Mapping[str, str] | None = None
            ) -> tuple[tuple[str, Any, int] | None, dict[str, Any] | None]:
        """Count this request; return ``(spent, record)``: ``spent`` is ``(scope, item,
        seconds until its window ends)`` of the first budget spent, else ``None``; ``record``
        the record of match ``match_id``, read in the same round trip when the budgets are
        counted in the match store's Redis (:attr:`store`: ``load_along``), else ``None``.
        ``keys``: ``{scope: key}`` for budgets whose key is known already (a ticket's), used
        instead of their key functions.  A budget whose key is ``None`` is not spent (the
        token budget by a public call, the public budget by a call with a token).  Storage
        errors propagate (the caller lets the request through)."""
        keys = keys or {}
        chosen = [(scope, items, keys[scope] if scope in keys else key())
                  for scope, items, key in self.budgets]
        counters = [(scope, item, item.key_for(self.prefix, key, scope))
                    for scope, items, key in chosen if key is not None for item in items]
        counts, record = self._count(counters, match_id)
        for (scope, item, key), count in zip(counters, counts):
            if count > item.amount:
                return (scope, item, seconds_left(self.storage, key, item)), record
        return None, record

    def _count(self, counters: list[tuple[str, Any, str]], match_id: str | None
               ) -> tuple[list[int], dict[str, Any] | None]:
        storage = self.storage
        if not self._redis:
            return [storage.incr(key, item.get_expiry()) for _, item, key in counters], None
        sha = storage.lua_incr_expire.sha
        # EVALSHA by execute_command: redis-py's cluster pipeline blocks its evalsha() method
        calls = [("EVALSHA", sha, 1, storage.prefixed_key(key), item.get_expiry(), 1)
                 for _, item, key in counters]
        record = None
        if self.store is not None and match_id is not None:
            record, replies = self.store.load_along(match_id, calls)
        else:
            pipe = storage.get_connection().pipeline(transaction=False)
            for call in calls:
                pipe.execute_command(*call)
            replies = pipe.execute(raise_on_error=False)
        counts = []
        for (_, item, key), count in zip(counters, replies):
            if type(count).__name__ == "NoScriptError":  # not counted: the node lacks it
                count = storage.incr(key, item.get_expiry())  # loads it, then counts
            elif isinstance(count, Exception):
                raise count
            counts.append(int(count))
        return counts, record


def seconds_left(storage: Any, key: str, item: Any) -> int:
    """Whole seconds until the fixed window of counter ``key`` (budget ``item``) ends: the
    time left rounded up, from 1 to the window's length (a 60-second window says 60 at most,
    never 61).  Redis: the counter's ``PTTL`` (milliseconds; ``TTL`` is rounded to the
    nearest second, so it could say 59 with 59.4 s left); other storages: its expiry time.
    A counter with no expiry (gone between the count and this read) says the whole window."""
    window = item.get_expiry()
    if isinstance(storage, RedisStorage):
        millis = storage.get_connection(True).pttl(storage.prefixed_key(key))
        left = millis / 1000 if millis >= 0 else window
    else:
        left = storage.get_expiry(key) - time.time()
    return min(window, max(1, math.ceil(left)))


def _claim_budget(claiming: SharedBudgets) -> tuple[str, Any, int] | None:
    """Count a claim against ``claiming`` (the client address's claim budget); the spent
    budget, else ``None``.  A limit storage that fails lets the claim through (logged), as
    for the match budgets."""
    try:
        return claiming.hit()[0]
    except Exception as exc:  # noqa: BLE001 - fail open, as swallow_errors does
        log.warning("claim budget not counted (limit storage: %s); request let through",
                    type(exc).__name__)
        return None


def breach_response(scope: str, item: Any, wait: int):
    """429 ``rate-limited``: the ``scope`` budget (``item``, a ``limits`` item) is spent for
    ``wait`` more seconds; the detail names that budget (the public one says the stream is the
    way to read live), ``errors[0].field`` what it is keyed by (:func:`blamed_field`);
    ``Retry-After`` and ``RateLimit-*`` say so."""
    if scope == PUBLIC_SCOPE:
        detail = (f"Too many requests without a token: the {scope} budget allows "
                  f"{item.amount} requests to one match from one address every "
                  f"{item.get_expiry()} seconds; retry in {wait} seconds, or follow the "
                  "match's stream, which counts once.")
    else:
        detail = (f"Too many requests: the {scope} budget allows {item.amount} requests "
                  f"every {item.get_expiry()} seconds; retry in {wait} seconds.")
    return problem_response(
        "rate-limited", detail,
        errors=[{"field": blamed_field(scope), "message": f"{scope} budget spent"}],
        headers={"Retry-After": str(wait), "RateLimit-Limit": str(item.amount),
                 "RateLimit-Remaining": "0", "RateLimit-Reset": str(wait),
                 "RateLimit-Policy": f'"{scope}";q={item.amount};w={item.get_expiry()}'})


def too_many(limit: RequestLimit):
    """Flask-Limiter's ``on_breach``: :func:`breach_response` for the breached ``limit``
    (its scope is the last part of the counter's key), its wait :func:`seconds_left` in the
    counter's window (not ``limit.reset_at``, which Flask-Limiter rounds down and adds 1 to:
    61 for a window with 60.4 s left)."""
    storage = limit.extension.storage
    return breach_response(limit.request_args[-1], limit.limit,
                           seconds_left(storage, limit.key, limit.limit))


def _only_when(test, function):
    """``function`` (a request hook) run only for requests where ``test()`` holds."""
    @functools.wraps(function)
    def hook(*args):
        if test():
            return function(*args)
        return args[0] if args and isinstance(args[0], Response) else None
    return hook


def _confine(app: Flask, limiter: Limiter, test) -> None:
    """Make ``limiter``'s request hooks (registered app-wide by Flask-Limiter) run only for
    requests where ``test()`` holds, in the same place (before the body is read): other calls
    pay nothing."""
    for table in (app.before_request_funcs, app.after_request_funcs,
                  app.teardown_request_funcs):
        hooks = table.get(None, [])
        for i, hook in enumerate(hooks):
            owner = getattr(hook, "__self__", None)
            if owner is None and isinstance(hook, functools.partial):
                owner = hook.args[0] if hook.args else None
            if owner is limiter:
                hooks[i] = _only_when(test, hook)


def init_app(app: Flask, matches: Any, stateless: list,
             claims: frozenset[str] = frozenset()) -> None:
    """Install the budgets on ``app`` (``matches``: the match blueprint; ``stateless``: the
    blueprints of the stateless endpoints, one shared budget; ``claims``: the endpoints that
    also spend the claim budget) and, with
    ``TRUSTED_PROXY_HOPS``, ``ProxyFix``.  Call before other ``before_request`` hooks (the
    checks then come before the body is read)."""
    config = app.config
    hops = config.get("TRUSTED_PROXY_HOPS") or 0
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops)  # type: ignore[method-assign]
    if not config.get("RATE_LIMITS_ENABLED", True):
        return
    uri, options = storage(config)
    prefix = f"{config.get('REDIS_KEY_PREFIX') or 'referee'}:limits"
    limiter = Limiter(ip_key, app=app, storage_uri=uri, storage_options=options,
                      strategy="fixed-window", key_prefix=prefix, swallow_errors=True,
                      headers_enabled=False, on_breach=too_many)
    limiter.shared_limit(config["LIMIT_CREATE"], scope="create", key_func=ip_key,
                         exempt_when=_not_create)(matches)
    _confine(app, limiter, lambda: request.blueprint == matches.name and _is_create())
    same_redis = config.get("REDIS_URL") and not config.get("RATELIMIT_STORAGE_URI")
    playing = SharedBudgets(limiter.storage, prefix, [
        ("match-token", config["LIMIT_MATCH_PER_TOKEN"], token_key),
        (PUBLIC_SCOPE, config["LIMIT_MATCH_PUBLIC"], public_key),
        ("match-ip", config["LIMIT_MATCH_PER_IP"], ip_key)],
        store=app.extensions.get("referee.store") if same_redis else None)
    claiming = SharedBudgets(limiter.storage, prefix,
                             [("claim", config["LIMIT_CLAIM"], ip_key)])
    budget = LocalBudget(config["LIMIT_STATELESS_PER_IP"], "stateless")
    names = frozenset(blueprint.name for blueprint in stateless)
    store = app.extensions.get("referee.store")

    @app.before_request
    def _match_budgets():
        if request.blueprint == matches.name and not _is_create():
            match_id = (request.view_args or {}).get("match_id")
            if request.method == "OPTIONS" or (
                    match_id is not None and not MATCH_ID.fullmatch(match_id)):
                match_id = None  # a preflight reads no record: it is answered without one
            try:
                keys, record = ticket_keys(store, match_id) if match_id else (None, None)
                if keys is None:
                    spent, record = playing.hit(match_id)
                else:  # a ticket's read: its record is read already (for its keys)
                    spent, _ = playing.hit(None, keys)
            except StoreUnavailable:
                # The round trip that also reads the record failed: the match store is what
                # does not answer, so answer its 503 now (one timeout), not after reading again.
                raise
            except Exception as exc:  # noqa: BLE001 - fail open, as swallow_errors does
                log.warning("match budgets not counted (limit storage: %s); request let "
                            "through", type(exc).__name__)
                return None
            if record is not None:
                g.match_read = (match_id, record)  # the view uses it (referee.api.matches)
            if spent is None and request.endpoint in claims:
                spent = _claim_budget(claiming)
            if spent is not None:
                return breach_response(*spent)
        return None

    @app.before_request
    def _stateless_budget():
        if request.blueprint in names:
            spent = budget.hit(ip_key())
            if spent is not None:
                return breach_response(budget.scope, *spent)
        return None

    app.extensions["referee.limits"] = {"matches": limiter, "playing": playing,
                                        "claiming": claiming, "stateless": budget}
    caps = open_caps.make(config, limiter.storage, prefix)
    if caps is not None:
        app.extensions["referee.open_caps"] = caps
    limiter_log = logging.getLogger("flask-limiter")
    limiter_log.setLevel(logging.WARNING)  # not a line per 429
    limiter_log.addFilter(quiet_swallowed)  # added once (the same function)
