"""What a Burmese text may hold in Latin script (issue 24, docs/translating.md "No English inside
a Burmese sentence"), and sample parameters to render every Burmese message with.

The allow-list, in full:

- rule IDs (``COUP-A5``);
- player names (the sample names below, and the reserved names ``host``, ``__referee__`` and
  ``unknown`` where a message says a name is reserved);
- JSON names: the property names of the published schemas (``schemas/``, ``openapi.yaml``) and
  of the snapshots' own records (Gnoming's ``state.turn``, a layout cell ``{"card", "up"}``),
  alone or as a path (``state.turn.stage``, ``deal.hands``, ``action.cards[0]``), and the
  games' registry names (``all-fours``, ``coup``, ``gnoming``, ``spy``: the API's paths);
- card notation, where a message says how to write a card (``10H``, ``QD``; Gnoming ``M``,
  ``H``) — what a client types, not a word;
- :data:`PROTOCOL`: JSON's literals and the names of the HTTP protocol and text encodings;
- ``QR`` (the table page's "QR code": the code's own name, as Burmese writes it).

Everything else Latin inside a Burmese text is an English word left untranslated.
"""
from __future__ import annotations

import json
import re
from functools import cache

import yaml

from referee.games.common.cards import PACK, RANKS, SUITS
from referee.games.gnoming.rules import DECK_COUNTS
from referee.games.gnoming.snapshot import STATE_KEYS as GN_STATE_KEYS
from referee.games.gnoming.snapshot import TURN_KEYS as GN_TURN_KEYS
from referee.i18n.catalogs import placeholders
from referee.i18n.glossary import STEMS, load
from referee.i18n.term_params import kind_of
from referee.rulebook import RULE_ID
from tests.conftest import REPO

PLAYERS = ("ana", "ben", "cy", "dee", "zed", "host", "__referee__", "unknown")
"""Sample player names (and the reserved names a message may quote)."""
PROTOCOL = ("true", "false", "null", "JSON", "UTF-8", "UTF-16", "ASCII", "Unicode", "NFC",
            "If-Match", "Idempotency-Key", "Authorization", "Bearer", "Transfer-Encoding",
            "chunked", "application/json", "charset", "CRLF", "RFC", "W", "GET", "POST",
            "HTTP", "QR")
"""JSON's literals and protocol names (HTTP headers and methods, media types, encodings,
the API's path words) that stay as the protocol spells them."""
LATIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-+/.][A-Za-z0-9_]+)*")
CODE_POINT = re.compile(r"U\+[0-9A-F{}0-9]+|\\u[0-9a-f]{4}|/v1/[\w{}/-]*|/metrics")
"""What is stripped before looking for words: code points (``U+FEFF``) and the API's paths."""


@cache
def json_names() -> frozenset[str]:
    """The property names of every published JSON Schema (``schemas/**.json``)."""
    names: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            names.update(node.get("properties", {}) if isinstance(
                node.get("properties"), dict) else ())
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    for path in (REPO / "schemas").rglob("*.json"):
        walk(json.loads(path.read_text()))
    walk(yaml.safe_load((REPO / "openapi.yaml").read_text()))
    return frozenset(names | {*GN_STATE_KEYS, *GN_TURN_KEYS, "card", "up"})


@cache
def allowed_words() -> frozenset[str]:
    """Every single Latin token the allow-list admits."""
    notation = {*PACK, *RANKS, *SUITS, *(c for c in DECK_COUNTS if not c.lstrip("-").isdigit())}
    return frozenset({*PLAYERS, *PROTOCOL, *json_names(), *STEMS, *notation})


def english_words(text: str, sent: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The Latin-script words of ``text`` that the allow-list does not admit; a value quoted
    as the request ``sent`` it (``'fly'``) is the request's own text and passes."""
    text = re.sub(r"'([^']*)'|\"([^\"]*)\"", lambda m: " " if (m.group(1) or m.group(2) or "")
                  in sent else m.group(0), text)
    text = CODE_POINT.sub(" ", RULE_ID.sub(" ", text))
    bad = []
    for token in LATIN.findall(text):
        parts = re.split(r"[.\-/]", token)
        if token in allowed_words() or all(p in allowed_words() or p.isdigit() or not p
                                           for p in parts):
            continue
        bad.append(token)
    return bad


# --- sample parameters ---------------------------------------------------------------------
PLACE = "state.turn"
NOW = {"code": "coup.now.loss", "params": {"player": "ana"}}
PLAYER_PARAMS = {"player", "players", "actor", "target", "claimant", "challenger", "winner",
                 "defender", "attacker", "dealer", "eldest", "due", "other", "owner",
                 "leader", "expected", "first", "turn", "turn_player", "went_out", "starter",
                 "reader", "readers", "viewer", "side", "sides", "host", "referee"}
PATH_PARAMS = {"place", "at", "key", "keys", "fields", "turn_keys"}
NUMBER_PARAMS = {"count", "number", "index", "position", "gap", "from_gap", "steps", "size",
                 "coins", "cost", "total", "treasury", "value", "copies", "have", "times",
                 "trick", "tricks", "kicks", "limit", "points", "rnd", "rounds", "got",
                 "minimum", "maximum", "down", "up", "drawn", "court", "draw", "pile", "room",
                 "held", "dealt", "hand", "game", "most", "after", "allowed", "declared",
                 "deck_size", "r", "c", "i", "last", "target_points", "counts", "version",
                 "returned", "0", "1", "2", "3", "min", "max", "equal", "rnd"}


def kind_ids(game: str, kind: str) -> list[str]:
    """Every identifier of ``kind`` (a term_params kind) the glossary has for ``game``."""
    base = {"doing": "action"}.get(kind.removesuffix("_id"), kind.removesuffix("_id"))
    if base == "card" and game == "all-fours":
        return list(PACK) + ["unknown"]
    if base == "card" and game == "coup":
        return [*load("coup")["character"], "unknown"]
    if base == "card" and game == "gnoming":
        return list(DECK_COUNTS) + ["unknown"]
    stems = [STEMS[game]] if game in STEMS else list(STEMS.values())
    found = [i for stem in (*stems, "common") for i in load(stem).get(base, {})]
    return found + (["unknown"] if base == "card" else [])


def samples(code: str, english: str, game: str) -> list[dict]:
    """Parameter sets that render ``code`` with every term its parameters can hold (each
    term parameter in turn takes every identifier of its kind, the others one sample)."""
    names = list(dict.fromkeys(placeholders(english)))
    base, varied = {}, {}
    for name in names:
        kind = kind_of(code, name)
        if name == "now":
            base[name] = NOW
        elif kind == "points" or kind == "count":
            base[name] = 3
        elif kind is not None:
            ids = kind_ids(game, kind)
            base[name] = ids[0] if ids else "ana"
            varied[name] = ids
        elif name in PLAYER_PARAMS:
            base[name] = "ana"
        elif name in PATH_PARAMS:
            base[name] = PLACE
        elif name in NUMBER_PARAMS or name.isdigit():
            base[name] = 3
        else:
            base[name] = "'ana'"  # a value the request sent, quoted as sent
    out = [base]
    for name, ids in varied.items():
        out += [{**base, name: ident} for ident in ids[1:]]
        out.append({**base, name: ids[:3]})
    return out
