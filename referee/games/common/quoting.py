"""How a value of the request is quoted inside a sentence (no Flask: the loaders, the engines'
edge and the problem bounds share it).

- :data:`QUOTE_CHARS`: a quoted value keeps at most this many characters, then "…";
- :func:`clip`: a text cut so;
- :func:`quoted`: any JSON value as a message shows it — a string as a quoted text
  (``'plya'``), anything else as the JSON the request sent (``null``, ``true``, ``[1, 2]``),
  never a Python repr — cut to :data:`QUOTE_CHARS` characters plus "…".
"""
from __future__ import annotations

import json
from typing import Any

QUOTE_CHARS = 64
"""A quoted user value keeps at most this many characters (then "…")."""


def clip(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` cut to ``limit`` characters plus "…" when longer, else as it is; a quoted
    text (``'…'``, ``"…"``) is measured and cut inside its quotes and keeps both, so a value
    quoted and cut once is not cut again (``clip(clip(t)) == clip(t)``)."""
    if len(text) > 2 and text[0] in "'\"" and text[-1] == text[0]:  # the quotes do not count
        return text if len(text) - 2 <= limit else text[:limit + 1] + "…" + text[0]
    if len(text) <= limit:
        return text
    return text[:limit] + "…"


def quoted(value: Any) -> str:
    """``value`` (any JSON value) quoted for a sentence, as README "Errors" says: a string's
    first :data:`QUOTE_CHARS` characters (then "…") quoted as ``repr`` quotes a text
    (``'plya'``, the quoting of every other message); anything else as JSON writes it
    (``null``, ``true``, ``42.0``, ``[1, 2]``, ``{"k": 1}``), that text cut by :func:`clip`."""
    if isinstance(value, str):
        return repr(clip(value))
    return clip(json.dumps(value, ensure_ascii=False, default=str))
