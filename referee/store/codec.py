"""How the Redis store writes what it keeps (issue 11: at most 4 KB for a match's current
state, 200 bytes per logged action), and reads it back.

* a match record (its state): compact JSON compressed by zlib (level 1), in base64 text with
  the prefix ``z`` — a mid-game Spy record of ~6 KB of JSON is ~1.4 KB, for ~25 µs of CPU to
  write and ~15 µs to read;
* a logged event: compact JSON compressed by raw deflate with the preset dictionary
  :data:`EVENT_DICTIONARY` (the keys and common values of every game's events), in base64
  with the prefix ``e1`` — an event of ~90 bytes is ~55;
* anything else (history entries, idempotency records): compact JSON.

:func:`decode` reads all of them and plain JSON as older versions wrote it (text starting
with ``{``), so matches stored before keep working.  The dictionary is part of the stored
format: never change it — add ``EVENT_DICTIONARY_2`` with the prefix ``e2`` instead.
Text, not bytes, because the store's client decodes replies (``decode_responses``).

JSON is written and read by orjson where that is sure to mean the same data as the standard
library (:func:`_dumps`, :func:`_loads`): a record or event that orjson cannot write exactly
(an integer past 64 bits, NaN) and text orjson would read differently (a run of 19 digits:
orjson reads an integer past 64 bits as a float) go through ``json`` as before.  The bytes
may differ (orjson writes non-ASCII text as UTF-8, ``json`` as ``\\u`` escapes); what they
decode to does not.
"""
from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import orjson

from referee.json_digits import has_long_digit_run

_COMPACT = json.JSONEncoder(separators=(",", ":")).encode

EVENT_DICTIONARY = (
    '"kept":,"players":,"layouts":,"went_out":,"scores":,"starter":,"discard_tops":,"remo'
    'ved":,"blocker":,"round":,"hand_number":,"cards_each":,"high":,"low":,"jack":,"game"'
    ':,"reneges":,"dealer":,"claimant":,"coins_returned":,"count":,"coins":,"taken_to_pas'
    's":,"character":,"steps":,"from_gap":,"spy_gap":,"faced":,"claim":,"cost":,"award":,'
    '"side":,"score":,"action":,"answer":,"target":,"facing":,"window":,"points":,"winner'
    '":,"cards":,"reason":,"attacker":,"number":,"visible_to":,"rule":,"replaced":,"repla'
    'ced_was_face_down":,"may_bounce":,"trick":,"source":,"pile":,"position":,"card":,"pl'
    'ayer":,"type":,"card":"8S","card":"7D","card":"AH","type":"action_blocked","action":'
    '"income","card":"H","replaced":"-4","card":"QC","card":"4H","card":"5C","card":"8C",'
    '"replaced":"M","reason":"GN-D1","replaced":"-1","card":"2C","award":"game","type":"d'
    'eal","character":"captain","window":"block","answer":"safe","card":"AC","award":"low'
    '","type":"blocked","replaced":"-2","card":"safe_2","card":"top_secret_1","award":"hi'
    'gh","type":"hand_scored","type":"kick","claim":"captain","type":"challenged","rule":'
    '"COUP-C1","type":"coins_taken","replaced":"-3","card":"top_secret_2","type":"influen'
    'ce_lost","type":"pile_started","window":"block_challenge","rule":"COUP-C3","type":"w'
    'indow_closed_by_host","rule":"COUP-B1","answer":"top_secret","card":"-4","reason":"G'
    'N-E2","replaced":"5","type":"move","facing":"right","type":"window_closed","type":"p'
    'assed","replaced":"7","type":"turn_round","facing":"left","card":"M","replaced":"6",'
    '"type":"turn_started","window":"action_challenge","replaced":"3","type":"spied_card"'
    ',"type":"action_declared","replaced":"8","replaced":"4","type":"points","card":"-1",'
    '"rule":"COUP-W1","reason":"GN-S2","type":"spy","type":"answer","card":"-3","card":"-'
    '2","type":"trick","card":"7","type":"flipped","card":"5","card":"3","card":"6","card'
    '":"4","card":"8","source":"draw_pile","source":"discard","type":"placed","type":"dis'
    'carded","type":"play","type":"drew","type":"turn","seq":,"version":'
).encode()
"""Version 1 of the events' preset dictionary (stored format: never change it)."""

_WBITS = -11  # raw deflate, a 2 KB window: the dictionary fits; small compressor state
assert len(EVENT_DICTIONARY) <= 2 ** -_WBITS


def compact(value: Any) -> str:
    """JSON without spaces (``json.dumps`` otherwise: same escapes, same numbers)."""
    return _COMPACT(value)


def _dumps(value: Any) -> bytes:
    """Compact JSON of ``value`` (UTF-8): orjson's when it reads back equal to ``value``
    (not for NaN, never equal to itself, nor an integer past 64 bits, which orjson refuses),
    else the standard library's."""
    try:
        out = orjson.dumps(value)
    except (orjson.JSONEncodeError, TypeError):
        return _COMPACT(value).encode()
    return out if _loads(out) == value else _COMPACT(value).encode()


def _loads(raw: bytes | str) -> Any:
    """``json.loads(raw)``, by orjson when it cannot differ: no run of 19 digits anywhere
    (orjson would read a long integer as a float); text orjson refuses (``NaN``, ``1e400``,
    a lone surrogate) goes to ``json.loads``, which reads it or raises as before."""
    data = raw.encode() if isinstance(raw, str) else raw
    if not has_long_digit_run(data):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)


def encode_record(record: dict[str, Any]) -> str:
    """A match record as stored: ``z`` + base64 of zlib level 1 of its compact JSON."""
    packed = zlib.compress(_dumps(record), 1)
    return "z" + base64.b64encode(packed).decode("ascii")


_PACKER = zlib.compressobj(1, zlib.DEFLATED, _WBITS, 1, zlib.Z_DEFAULT_STRATEGY,
                           EVENT_DICTIONARY)
"""A compressor with the dictionary loaded and nothing written: each event gets a copy
(cheaper than loading the dictionary again; the bytes are the same)."""


def encode_event(event: dict[str, Any]) -> str:
    """A logged event as stored: ``e1`` + base64 of its compact JSON deflated with the
    preset :data:`EVENT_DICTIONARY`."""
    packer = _PACKER.copy()
    packed = packer.compress(_dumps(event)) + packer.flush()
    return "e1" + base64.b64encode(packed).decode("ascii")


def decode(text: str) -> Any:
    """What :func:`encode_record`, :func:`encode_event` or :func:`compact` wrote (or plain
    JSON written by an older version)."""
    head = text[:1]
    if head == "z":
        return _loads(zlib.decompress(base64.b64decode(text[1:])))
    if head == "e" and text[1:2] == "1":
        unpacker = zlib.decompressobj(_WBITS, EVENT_DICTIONARY)
        raw = unpacker.decompress(base64.b64decode(text[2:])) + unpacker.flush()
        return _loads(raw)
    return _loads(text)
