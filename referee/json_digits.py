"""Digit tests on JSON text, shared by the JSON readers that use orjson where it is exact
(:mod:`referee.api.json_codec` for request bodies, :mod:`referee.store.codec` for stored
matches).  orjson reads an integer past 64 bits as a float, and such an integer has at least
19 digits, so text with no run of 19 digits cannot hold one."""
from __future__ import annotations

ZERO_DIGITS = bytes.maketrans(b"123456789", b"000000000")
"""Every digit to 0, so that "a digit then ..." is a plain substring search (fast)."""

_LONG_RUN = b"0" * 19


def has_long_digit_run(text: bytes) -> bool:
    """Whether ``text`` holds 19 or more digits in a row (anywhere, strings included)."""
    return _LONG_RUN in text.translate(ZERO_DIGITS)
