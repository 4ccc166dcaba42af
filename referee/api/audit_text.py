"""The audit's JSON text written a part at a time (issue 21 item 1): the audit of a finished
12,800-action match is 2.6 MB, ~200 ms of dumping and writing in one piece, during which a
gevent worker answered nobody else.

:func:`audit_chunks` yields the very bytes the whole answer would be (``AuditSchema``'s dump
in its order, compact JSON, a newline: what ``current_app.json.response`` writes), its long
lists (``steps``, ``actions``, ``history``) :data:`~referee.matches.pauses.CHUNK` items at
a time, pausing between two parts (:func:`referee.matches.pauses.pause`) so that the worker
serves others; the audit stays exempt from the 64 KB cap of the other answers.  A long list
given as :class:`~referee.matches.audit.Texts` (:func:`~referee.matches.audit.audit_texts`)
holds its items' JSON texts already: they are joined, not written again.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from flask import current_app

from referee.matches import pauses
from referee.matches.audit import LONG, Texts
from referee.schemas.matches import AuditSchema


def audit_chunks(audit: dict[str, Any], rest: Callable[[], None] | None = None
                 ) -> Iterator[bytes]:
    """The answer's bytes of ``audit`` (:func:`~referee.matches.audit.audit_data` or
    :func:`~referee.matches.audit.audit_texts`), in parts; ``rest()``
    (default :func:`~referee.matches.pauses.pause`) between two chunks of a long list.  Call
    it inside the request: it dumps the short fields and takes the app's JSON writer at
    once, so the parts need no request context (the request's turn,
    :mod:`referee.api.fair_share`, is given back before they are written)."""
    write = current_app.json.dumps
    # The short fields dumped by the schema as a whole; the long lists' items are plain
    # objects (fields.Dict), written as they are.
    dumped = AuditSchema().dump({**audit, **{key: [] for key in LONG}})

    def dumps(value: Any) -> str:
        return write(value, separators=(",", ":"))

    def parts() -> Iterator[bytes]:
        text = "{"
        for index, (key, value) in enumerate(dumped.items()):
            text += ("," if index else "") + dumps(key) + ":"
            if key not in LONG:
                text += dumps(value)
                continue
            text += "["
            items = audit[key]
            size = pauses.CHUNK
            for start in range(0, len(items), size):
                if start:
                    yield text.encode()
                    (rest or pauses.pause)()
                    text = ","
                if isinstance(items, Texts):
                    text += ",".join(items[start:start + size])
                else:
                    text += dumps(items[start:start + size])[1:-1]
            text += "]"
        yield (text + "}\n").encode()
    return parts()
