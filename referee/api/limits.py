"""Request guards that run before any parsing: a deadline for the body, JSON bodies only, and a
nesting limit.

A body nested thousands of levels deep would exhaust Python's recursion in the JSON decoder;
it is refused with 400 ``malformed-json`` before it is parsed.  A body that does not arrive
within ``BODY_TIMEOUT_SECONDS`` (``REFEREE_BODY_TIMEOUT_SECONDS``, default 10; enforced under
gevent, where referee is served) is 408 ``request-timeout`` and the connection is closed.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import sys

import orjson

from flask import current_app, g, request
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge

from referee.api.errors import Problem
from referee.api.body_shape import (MAX_CONTAINERS, MAX_ITEMS, MAX_MEMBERS, SMALL,
                                   containers, json_depth, long_number, outside_strings,
                                   oversized, repeated_key, tally, unencodable)
from referee.api.json_codec import fast_loads
from referee.json_digits import ZERO_DIGITS

MAX_DEPTH = 64
MAX_INT_DIGITS = 80
"""The longest integer a body may hold, in digits (a 256-bit seed has 78; every count of every
game far fewer).  A longer one is 422 before any engine reads it: an engine adding up numbers
near Python's 4,300-digit limit would make a sum it cannot write (a 500), and the work grows
with the length."""

JSON_TYPES = ("application/json",)
"""The one media type of every request body (openapi.yaml documents no other); RFC 6839's
``+json`` suffix names other documents (a merge patch, a problem) and is refused (415)."""
_NUMBER_RUN = b"0" * (MAX_INT_DIGITS + 1)
_EXPONENT = re.compile(rb"[0-9][eE]")
"""A float with an exponent may be infinite (``1e400``); ``json.loads`` then needs the hook."""
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
"""A ``\\u`` escape of a UTF-16 surrogate: the only way a string of the body can hold one."""
def settings(env=None) -> dict:
    """Flask config of the body deadline from ``env`` (default ``os.environ``)."""
    env = os.environ if env is None else env
    return {"BODY_TIMEOUT_SECONDS": float(env.get("REFEREE_BODY_TIMEOUT_SECONDS", 10))}


CLOSE = {"Connection": "close"}
"""Headers of an answer after which the connection is closed (:mod:`referee.serving.worker`)."""


def body_deadline(seconds: float):
    """A context that interrupts a body read after ``seconds`` (``gevent.Timeout``) when the
    process is gevent's (gunicorn's gevent worker patched the sockets); else a no-op (the
    development server and the test client)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("socket"):
        return contextlib.nullcontext()
    import gevent
    return gevent.Timeout(seconds)


def _broken_framing(exc: BaseException) -> bool:
    """Whether ``exc`` is the server's HTTP parser refusing the body's framing while the app
    reads it (gunicorn's ``InvalidChunkSize``, ``ChunkMissingTerminator``,
    ``InvalidChunkExtension``…, all ``ParseException``; ``NoMoreData``: the client closed
    before the declared body ended)."""
    module = type(exc).__module__
    return module == "gunicorn.http.errors" and (
        any(cls.__name__ == "ParseException" for cls in type(exc).__mro__)
        or type(exc).__name__ == "NoMoreData")


def read_body() -> bytes:
    """The request body (cached for the views), read within ``BODY_TIMEOUT_SECONDS``: 408
    ``request-timeout`` (connection closed) when it does not arrive in time; 413 past
    ``MAX_CONTENT_LENGTH`` when it is declared; 408 too (connection closed) when it stops
    short of its ``Content-Length`` (a socket read timed out, or the client closed its side
    early: the part that came is never taken for the whole body); 400
    ``bad-request`` (connection closed: the rest of the stream cannot be framed) when the
    chunked framing is broken (a size that is
    not hexadecimal or is negative, a chunk line or chunk not ended by CRLF — a bare LF —,
    data shorter than its size); 413 at once when the chunk sizes declared pass the limit
    (``ffffffffffffffffffff``: :class:`referee.serving.worker.BoundedChunkedReader`)."""
    seconds = current_app.config.get("BODY_TIMEOUT_SECONDS", 10)
    try:
        with body_deadline(seconds):
            raw = request.get_data(cache=True)
    except BaseException as exc:
        if type(exc).__name__ == "ChunkedBodyTooLarge":  # referee.serving.worker's chunk reader
            raise RequestEntityTooLarge() from None
        if _broken_framing(exc):
            raise Problem("bad-request", "The request body's chunked framing is broken "
                          "(Transfer-Encoding: chunked): each chunk is a hexadecimal size, "
                          "CRLF, that many bytes, CRLF.", headers=CLOSE,
                          errors=[{"field": "body", "message": "broken chunked framing"}]
                          ) from None
        if isinstance(exc, ClientDisconnected):  # the body stopped short of its length: the
            # socket's own read timed out (REFEREE_IO_TIMEOUT_SECONDS) or the client went away
            raise Problem("request-timeout", "The request body stopped arriving before its "
                          "declared length.", headers=CLOSE) from None
        if type(exc).__name__ != "Timeout" or type(exc).__module__.split(".")[0] != "gevent":
            raise
        raise Problem("request-timeout", f"The request body did not arrive within {seconds:g} "
                      "seconds.", headers=CLOSE) from None
    declared = request.content_length
    if declared is not None and len(raw) < declared:
        # gunicorn marks its input terminated, so werkzeug reads to the end of the stream and
        # a client that closes early leaves a shorter body, not a ClientDisconnected
        raise Problem("request-timeout", "The request body stopped arriving before its "
                      "declared length.", headers=CLOSE,
                      errors=[{"field": "body", "message": f"{len(raw)} of {declared} bytes"}])
    return raw


def guard_request() -> None:
    """Check a POST/PUT/PATCH body before any view parses it: larger than the limit (413, also
    for chunked bodies), a Content-Type other than ``application/json`` (415, whatever its
    parameters; ``application/merge-patch+json`` and every other ``+json`` type too: such a
    body means another kind of document than the one the endpoints take), nested deeper than
    ``MAX_DEPTH`` or not parseable (400 ``malformed-json``), more than ``MAX_CONTAINERS``
    arrays and objects (counted on the text, before parsing), a number too long to convert,
    an array longer than ``MAX_ITEMS``, an object of more than ``MAX_MEMBERS`` members or one
    that names a key twice (422: ``{"player": "ana", "player": "ben"}`` would otherwise mean
    whichever the parser keeps) — so that no schema or rule ever walks a body larger than
    those bounds (issue 21: bench/RESULTS.md, "Worst admitted input per endpoint").

    Repeated keys cost no second parse: every ``key: value`` pair of JSON text has its colon
    outside strings, so a body whose colons (outside strings) outnumber the pairs its parsed
    objects hold repeats a key; only then is it parsed again to name the field."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    raw = read_body()  # raises 413 past MAX_CONTENT_LENGTH when it is known
    if not raw:
        return
    limit = request.max_content_length
    if limit is not None and len(raw) >= limit and request.content_length is None:
        # a chunked body has no Content-Length: werkzeug stops reading at the limit, so
        # reading one byte more tells whether the body went past it (that read raises 413)
        if request.stream.read(1):
            raise RequestEntityTooLarge()
    mimetype = request.mimetype or ""  # lower-cased, parameters apart
    if mimetype not in JSON_TYPES:  # a +json type (merge-patch…) says another document
        raise Problem("unsupported-media-type", f"Send the body as application/json, not "
                      f"{mimetype or 'an untyped body'}.",
                      errors=[{"field": "Content-Type", "message": "must be application/json"}])
    check_encoding(raw, request.mimetype_params.get("charset"))
    if containers(raw) > MAX_CONTAINERS:
        too_deep(raw)  # nested too deeply is the 400 it always was
        raise Problem("invalid-input", f"The body holds more than {MAX_CONTAINERS} arrays and "
                      "objects.", errors=[{"field": "body", "message": f"more than "
                                           f"{MAX_CONTAINERS} arrays and objects"}])
    data = fast_loads(raw, MAX_DEPTH)  # orjson, when it is sure to pass every check below
    if data is not None and len(raw) <= SMALL and b"\\" not in raw:
        # too short for a long array or a wide object (SMALL); no backslash: its strings
        # are written again byte for byte, and a colon fewer in the compact dump is a pair
        # a repeated key made the objects lose
        repeats = raw.count(b":") != orjson.dumps(data).count(b":")
    else:
        if data is None:  # orjson refused it or was not sure: a body orjson parsed is UTF-8
            check_utf8(raw)
            data = checked_loads(raw)
        pairs, longest, widest = tally(data)
        if longest > MAX_ITEMS or widest > MAX_MEMBERS:
            where, array = oversized(data)
            if array:
                raise Problem("invalid-input", f"An array in the body has more than {MAX_ITEMS} "
                              "items.", errors=[{"field": where or "body",
                                                 "message": f"more than {MAX_ITEMS} items"}])
            raise Problem("invalid-input", f"An object in the body has more than {MAX_MEMBERS} "
                          "members.", errors=[{"field": where or "body",
                                               "message": f"more than {MAX_MEMBERS} members"}])
        # a colon outside strings is a pair the objects lack
        repeats = raw.count(b":") != pairs and outside_strings(raw).count(b":") != pairs
    if repeats:
        where = repeated_key(raw)
        raise Problem("invalid-input", "An object in the body names the same key twice.",
                      errors=[{"field": where or "body", "message": "repeated key"}])
    g.json_body = data  # parsed once here; views read it back (loading.json_object)


def check_encoding(raw: bytes, charset: str | None) -> None:
    """Refuse a body that is not plain UTF-8 rather than guess (RFC 8259 section 8.1: JSON
    is UTF-8, with no byte order mark): 415 ``unsupported-media-type`` for a ``charset``
    parameter other than UTF-8 (field ``Content-Type``), 400 ``malformed-json`` for a body
    that starts with a byte order mark (field ``body``).  Invalid UTF-8 (a UTF-16 or UTF-32
    body) is :func:`check_utf8`'s, for the bodies orjson did not parse."""
    if charset is not None and charset.strip().lower() not in ("utf-8", "utf8"):
        raise Problem("unsupported-media-type", f"Send the body as UTF-8 JSON: charset "
                      f"{charset} is not accepted.", errors=[
                          {"field": "Content-Type", "message": "charset must be utf-8"}])
    if raw.startswith(b"\xef\xbb\xbf"):
        raise Problem("malformed-json", "The body starts with a byte order mark (U+FEFF); "
                      "send UTF-8 JSON without it.", errors=[
                          {"field": "body", "message": "starts with a byte order mark"}])


def check_utf8(raw: bytes) -> None:
    """400 ``malformed-json`` naming ``body`` when ``raw`` is not UTF-8 text (the standard
    library's parser would guess UTF-16 or UTF-32 instead)."""
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Problem("malformed-json", f"The body is not UTF-8 text (byte {exc.start}).",
                          errors=[{"field": "body", "message": "not UTF-8"}]) from None


def checked_loads(raw: bytes):
    """Parse ``raw`` with the standard library after checking its depth, and check its
    strings: 400 ``malformed-json`` (too deep, not JSON), 422 ``invalid-input`` (an integer
    of more than :data:`MAX_INT_DIGITS` digits, a lone surrogate: each naming its field)."""
    too_deep(raw)
    hooks = {"parse_constant": _float}
    if _NUMBER_RUN in raw.translate(ZERO_DIGITS) or _EXPONENT.search(raw):
        hooks.update(parse_float=_float, parse_int=_int)  # else no number can be too long
    try:  # or infinite, and the standard library's own conversions give the same values
        data = json.loads(raw, **hooks)
    except _TooLong:
        where = long_number(raw, MAX_INT_DIGITS)
        raise Problem("invalid-input", f"A number in the body has more than {MAX_INT_DIGITS} "
                      "digits.", errors=[{"field": where or "body", "message": "a number with "
                                          f"more than {MAX_INT_DIGITS} digits"}]) from None
    except ValueError as exc:
        raise malformed(exc) from None
    where = unencodable(data) if _SURROGATE.search(raw) else None  # only a \\u escape makes one
    if where is not None:
        raise Problem("invalid-input", "A string holds a lone UTF-16 surrogate (\\ud800-\\udfff "
                      "unpaired), which is not text.",
                      errors=[{"field": where or "body", "message": "not valid Unicode text"}])
    return data


def too_deep(raw: bytes) -> None:
    """400 ``malformed-json`` when ``raw`` nests deeper than :data:`MAX_DEPTH`."""
    if json_depth(raw) > MAX_DEPTH:
        raise Problem("malformed-json", f"The JSON body is nested deeper than {MAX_DEPTH} levels.",
                      errors=[{"field": "body", "message": "nested too deeply"}])


def malformed(exc: ValueError):
    """400 ``malformed-json`` for the parser's error ``exc``: a sentence of the referee's own
    (rendered in every language) with the position, never the parser's English text."""
    message = "Not valid JSON."
    if isinstance(exc, json.JSONDecodeError):
        message = (f"Not valid JSON at line {exc.lineno}, column {exc.colno} (character "
                   f"{exc.pos}).")
    return Problem("malformed-json", "The request body is not valid JSON.",
                   errors=[{"field": "body", "message": message}])


class _TooLong(ValueError):
    """An integer of more than :data:`MAX_INT_DIGITS` digits (:func:`_int`)."""


def _int(text: str) -> int:
    """``int(text)`` as ``json.loads`` makes it, refusing more than :data:`MAX_INT_DIGITS`
    digits (:class:`_TooLong`) before converting."""
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        raise _TooLong(text[:20])
    return int(text)


def _float(text: str) -> float:
    """``float(text)`` as ``json.loads`` makes it, noting a NaN or infinity in ``g`` so that
    answers echoing it are written by ``json.dumps`` as before (``json_codec``)."""
    value = float(text)
    if value - value != 0:  # NaN or ±infinity
        g.json_nonfinite = True
    return value


