"""Kept answers that hold secrets: sealed with a key only their requester has.

An answer replayed for an ``Idempotency-Key`` usually holds nothing secret (a move's answer is
the mover's view).  Two answers do hold tokens: the new match (every seat token, the host
token, the invite and recovery codes) and a claimed seat's token.  Kept as they are, anyone
who could read the store (a backup, a dump, an operator) would hold every seat.  So they are
kept **sealed**: encrypted with AES-256-GCM (the ``cryptography`` package) under a key derived
from the request's own secrets — the ``Idempotency-Key`` (for a claim, with the invite code) —
which the service never stores.  The store holds the ciphertext under another derivation of the
same secrets (:func:`kept_id`), so neither its name nor its content gives the key away.  A
retry that sends the same secrets derives the same key and gets the first answer again; nobody
else can.

Derivations (SHA-256, each with its own label so none reveals another):
``kept_id`` = SHA-256(``"referee kept id\\n" + material``) (hex),
key = SHA-256(``"referee kept key\\n" + material``) (32 bytes).
The sealed text is base64url(12-byte random nonce ‖ ciphertext ‖ 16-byte tag).
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def kept_id(material: str) -> str:
    """The name a sealed answer of ``material`` (the request's secrets joined by newlines) is
    kept under: hex SHA-256, labelled apart from the key."""
    return hashlib.sha256(f"referee kept id\n{material}".encode()).hexdigest()


def _key(material: str) -> AESGCM:
    return AESGCM(hashlib.sha256(f"referee kept key\n{material}".encode()).digest())


def seal(material: str, data: Any) -> str:
    """``data`` (JSON-compatible) encrypted under the key of ``material``: base64url text."""
    nonce = os.urandom(12)
    sealed = _key(material).encrypt(nonce, json.dumps(data).encode(), None)
    return base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(material: str, text: str) -> Any | None:
    """The data :func:`seal` sealed under ``material``, or ``None`` when ``text`` was not
    sealed with its key (or was altered)."""
    try:
        raw = base64.urlsafe_b64decode(text.encode())
        return json.loads(_key(material).decrypt(raw[:12], raw[12:], None))
    except (InvalidTag, ValueError):
        return None
