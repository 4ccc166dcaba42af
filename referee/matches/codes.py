"""Codes people type or pass in a link: seat invite codes and the host's recovery code.

A code is Crockford base32 (digits and capitals without I, L, O, U), cut into groups of four
by hyphens: ``K7M2-Q9XD-4HPA``.  Each symbol carries 5 random bits from :mod:`secrets`:

- an **invite code** has :data:`INVITE_SYMBOLS` = 12 symbols, 60 bits: short enough to read
  out or type, and with the claim budget (``REFEREE_LIMIT_CLAIM``, per client address) and its
  expiry (``REFEREE_INVITE_SECONDS``) a guess is hopeless (README "Seats": about 10⁻¹⁵ per
  address for a whole hour of guessing at one match);
- the **recovery code** has :data:`RECOVERY_SYMBOLS` = 20 symbols, 100 bits: it never expires
  (it lives as long as its match), so it carries more.

Input is read the way Crockford's base32 is meant to be read: case does not matter, hyphens
and spaces are ignored, ``O`` is read as ``0`` and ``I``/``L`` as ``1``; anything else is 422
``invalid-input`` naming the field.  Only a code's hash is stored (:func:`code_hash`: SHA-256
of the code bound to its match and its use, so one stored hash says nothing of any other code).
"""
from __future__ import annotations

import hashlib
import secrets

from referee.refusals import InvalidInput

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32 symbols, 5 bits each."""

INVITE_SYMBOLS = 12
"""Symbols of an invite code: 60 random bits."""

RECOVERY_SYMBOLS = 20
"""Symbols of a recovery code: 100 random bits."""

_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
_IGNORED = str.maketrans("", "", "- ")


def new_code(symbols: int) -> str:
    """A fresh code of ``symbols`` random symbols in groups of four (``K7M2-Q9XD-4HPA``)."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(symbols))
    return "-".join(raw[i:i + 4] for i in range(0, symbols, 4))


def canonical(text: str, symbols: int, field: str) -> str:
    """``text`` as the code it spells: capitals, no hyphens or spaces, ``O`` read as ``0`` and
    ``I``/``L`` as ``1``, in groups of four.  422 ``invalid-input`` naming ``field`` when what
    is left is not ``symbols`` symbols of :data:`ALPHABET`."""
    plain = text.upper().translate(_IGNORED).translate(_READ_AS)
    if len(plain) != symbols or any(char not in ALPHABET for char in plain):
        raise InvalidInput(f"A code here is {symbols} letters and digits, such as "
                           f"{_EXAMPLE[:symbols + symbols // 4 - 1]}.",
                           errors=[{"field": field, "message": "not a code of this kind"}])
    return "-".join(plain[i:i + 4] for i in range(0, symbols, 4))


_EXAMPLE = "K7M2-Q9XD-4HPA-W3RT-8NVC"


def code_hash(match_id: str, use: str, code: str) -> str:
    """What is stored of a code: SHA-256 hex of ``"<use>\\n<match id>\\n<code>"`` (``use``:
    ``"invite:<player>"`` or ``"recovery"``), the code canonical (:func:`canonical`)."""
    return hashlib.sha256(f"{use}\n{match_id}\n{code}".encode()).hexdigest()
