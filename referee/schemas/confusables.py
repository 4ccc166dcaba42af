"""Seat names a table cannot mistake (issue 21 item 5): Unicode Technical Standard #39
(Unicode Security Mechanisms) as ICU's spoof checker implements it, with the confusables data
of the ICU it bundles (PyICU from the ``pyicu-wheels`` wheel, pinned in ``pyproject.toml``):
no table of our own.

- :func:`skeleton`: the TS #39 skeleton (section 4): two texts whose skeletons are equal can
  be taken for one another (Latin ``ana`` and ``аna`` with a Cyrillic ``а``; dotless ``ı`` and
  ``i``; ``1``, ``l`` and Arabic-Indic ``١``).
- :func:`script_problem`: why one name cannot be read as one name, or ``None``: it mixes
  scripts beyond TS #39's *moderately restrictive* level (section 5.2: one script, or Latin
  with one other script that is not Cyrillic, Greek or Cherokee, the scripts whose letters pass
  for Latin ones; Han with Hiragana and Katakana, or Hangul, counts as one; digits, spaces,
  punctuation and emoji belong to every script), digits of two number systems (``1`` and
  ``١``), a combining mark twice on one letter (the second shows nothing), or U+FFFD, the mark
  a decoder leaves where it could not read a character.

So a Burmese name (``ခင်မောင်``), a Latin one with digits and spaces (``Ana 2``), one with an
emoji (``Ana 🎲``), a Japanese one (``山田 たろう``) or a Burmese one with a Latin nickname
(``ကျော် (Kyaw)``) is fine; ``аna`` (Cyrillic ``а``, Latin ``na``) is not.  Pure functions of
the text, answers remembered (a bounded cache: the same few names come back request after
request); about 3 µs per name uncached.
"""
from __future__ import annotations

import functools
import unicodedata

import icu

_CHECKS = (icu.USpoofChecks.RESTRICTION_LEVEL | icu.USpoofChecks.MIXED_NUMBERS
           | icu.USpoofChecks.INVISIBLE)
"""The TS #39 checks a seat name must pass (ICU's ``USPOOF_RESTRICTION_LEVEL``,
``USPOOF_MIXED_NUMBERS``, ``USPOOF_INVISIBLE``); no identifier profile (names are not
identifiers: spaces, punctuation and emoji are allowed)."""
LEVEL = icu.URestrictionLevel.MODERATELY_RESTRICTIVE
"""TS #39 section 5.2's level a name must meet: Latin may join one other script, except
Cyrillic, Greek and Cherokee."""


def _checker() -> icu.SpoofChecker:
    checker = icu.SpoofChecker()
    checker.setChecks(_CHECKS)
    checker.setRestrictionLevel(LEVEL)
    return checker


_CHECKER = _checker()
"""Configured once; ICU's checks and skeletons do not change it (safe to share)."""
_COMMON = frozenset({icu.UScriptCode.COMMON, icu.UScriptCode.INHERITED})
REPLACEMENT = "\ufffd"


@functools.lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The TS #39 skeleton of ``text`` (NFD, each character mapped to its prototype in the
    Unicode confusables data, NFD again): ``skeleton("аna") == skeleton("ana") == "ana"``,
    ``skeleton("1") == skeleton("١") == "l"``.  Case is kept (``A`` and ``a`` differ)."""
    return _CHECKER.getSkeleton(0, text)


def describe(char: str) -> str:
    """``U+0430 (CYRILLIC SMALL LETTER A)``: a character as a message names it."""
    return f"U+{ord(char):04X} ({unicodedata.name(char, unicodedata.category(char))})"


def script_problem(name: str) -> str | None:
    """Why ``name`` is not one name a table can read (mixed scripts or number systems, a mark
    twice on one letter, U+FFFD), naming the characters at fault; ``None`` when it is fine.
    ASCII passes at once (one script, one number system, no marks)."""
    if name.isascii():
        return None
    return _script_problem(name)


@functools.lru_cache(maxsize=4096)
def _script_problem(name: str) -> str | None:
    if REPLACEMENT in name:
        return ("The name holds U+FFFD (REPLACEMENT CHARACTER), which a decoder leaves where "
                "it could not read a character: send the name as typed, in UTF-8.")
    failed = _CHECKER.check(name)
    if failed & icu.USpoofChecks.RESTRICTION_LEVEL:
        first, second = _mixed_scripts(name)
        return (f"The name mixes scripts whose letters can pass for one another: "
                f"{describe(first)} and {describe(second)} (write it in one script, or in "
                f"Latin and one other script but not Cyrillic, Greek or Cherokee: digits, "
                f"spaces and symbols go with any).")
    if failed & icu.USpoofChecks.MIXED_NUMBERS:
        first, second = _mixed_digits(name)
        return (f"The name mixes digits of two number systems: {describe(first)} and "
                f"{describe(second)}.")
    if failed & icu.USpoofChecks.INVISIBLE:
        return (f"The name puts the combining mark {describe(_repeated_mark(name))} twice on "
                f"one letter, where the second shows nothing.")
    return None


def _mixed_scripts(name: str) -> tuple[str, str]:
    """Two characters of ``name`` that cannot share it: the one whose arrival makes the
    shortest failing prefix fail (ICU's verdict, so never a guess), and the first character
    before it of a script it does not share (Common and Inherited ones excluded)."""
    end = next(k for k in range(2, len(name) + 1)
               if _CHECKER.check(name[:k]) & icu.USpoofChecks.RESTRICTION_LEVEL)
    late = name[end - 1]
    late_scripts = set(icu.Script.getScriptExtensions(late))
    for char in name[:end - 1]:
        scripts = set(icu.Script.getScriptExtensions(char))
        if not scripts <= _COMMON and not scripts & late_scripts:
            return char, late
    return name[0], late


def _mixed_digits(name: str) -> tuple[str, str]:
    """The first digits of ``name`` from two number systems (their zeros differ)."""
    zeros: dict[int, str] = {}
    for char in name:
        value = unicodedata.decimal(char, None)
        if value is not None:
            zeros.setdefault(ord(char) - value, char)
            if len(zeros) == 2:
                break
    found = list(zeros.values())
    return found[0], found[-1]  # two by ICU's verdict (the same digit values)


def _repeated_mark(name: str) -> str:
    """The first nonspacing mark found twice in one combining sequence of NFD(``name``)."""
    seen: set[str] = set()
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.category(char) != "Mn":
            seen = set()
        elif char in seen:
            return char
        else:
            seen.add(char)
    return name[-1]
