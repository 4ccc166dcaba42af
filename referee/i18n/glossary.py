"""The glossary: every game term and every identifier a player can see, with its one word in
each language (``referee/rulebook/glossary/<game>.yaml``, shared words in ``common.yaml``).

A term is filed under a *kind* (``character``, ``action``, ``stage``, ``phase``, ``card``,
``suit``…) and keyed by the identifier the API uses (``"captain"``, ``"lose_influence"``,
``"top_secret_2"``, ``"M"``); concepts that are no identifier (``influence``, ``court deck``)
are kind ``concept``, keyed by their English name.  Each entry gives ``en`` (the English
term), ``my`` (its one Burmese word), ``seed`` (the Burmese seed document's word, or null),
``why`` (required when ``my`` does not contain ``seed``: a seed word that is a
machine-translation error, a name the seed keeps in English…), ``avoid`` (other spellings that must not come back; the tests
fail on them in rules and verdicts) and ``en_text`` (how an English verdict names the
identifier when not by the identifier itself: ``"an assassination"``, ``"the Captain"``).

:func:`lookup` finds a term; :func:`referee.i18n.verdicts.render` renders every message
parameter that holds a term through it, so no Burmese answer shows a raw identifier.  Files are
read once per process; a malformed file raises :class:`GlossaryError` at first use.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from referee.i18n import LANGUAGES

FOLDER = Path(__file__).resolve().parent.parent / "rulebook" / "glossary"
STEMS = {"all-fours": "allfours", "coup": "coup", "gnoming": "gnoming", "spy": "spy"}
"""Registry name of each game -> its glossary file's stem; ``common.yaml`` serves every game."""
FIELDS = {*LANGUAGES, "seed", "why", "avoid", "en_text"}
MYANMAR = re.compile("[\u1000-\u109f]")


class GlossaryError(ValueError):
    """A glossary file breaks the format described in this module."""


@dataclass(frozen=True)
class Term:
    """One term: its kind and identifier, its word per language, the seed's word and why the
    glossary's differs, the spellings to avoid, and the English a verdict prints for it."""

    game: str | None
    kind: str
    id: str
    words: dict[str, str]
    seed: str | None
    why: str | None
    avoid: tuple[str, ...]
    en_text: str | None

    def word(self, lang: str) -> str:
        """The term's one word in ``lang`` (``en``: the English term)."""
        return self.words[lang]

    def in_sentence(self, lang: str) -> str | None:
        """What a verdict sentence in ``lang`` prints for the identifier: the Burmese word, or
        in English ``en_text`` — ``None`` when English prints the identifier itself."""
        return self.en_text if lang == "en" else self.words[lang]


def _entry(where: str, game: str | None, kind: str, ident: str, data: Any) -> Term:
    if not isinstance(data, dict) or not set(data) <= FIELDS or not all(
            isinstance(data.get(lang), str) and data[lang].strip() for lang in LANGUAGES):
        raise GlossaryError(f"{where}: needs {LANGUAGES} texts and only the fields {FIELDS}")
    if not MYANMAR.search(data["my"]):
        raise GlossaryError(f"{where}: the Burmese word has no Myanmar script")
    seed = data.get("seed")
    if seed is not None and seed not in data["my"] and not data.get("why"):
        raise GlossaryError(f"{where}: differs from the seed's {seed!r} without a why")
    avoid = tuple(data.get("avoid") or ())
    if data["my"] in avoid:
        raise GlossaryError(f"{where}: avoids its own word")
    return Term(game, kind, str(ident), {lang: data[lang] for lang in LANGUAGES}, seed,
                data.get("why"), avoid, data.get("en_text"))


def parse(stem: str, data: Any) -> dict[str, dict[str, Term]]:
    """Check and build one glossary file: ``{kind: {identifier: Term}}``."""
    if not isinstance(data, dict) or not isinstance(data.get("terms"), dict):
        raise GlossaryError(f"{stem}: the file needs a terms mapping")
    game = data.get("game")
    out: dict[str, dict[str, Term]] = {}
    for kind, entries in data["terms"].items():
        if not isinstance(entries, dict) or not entries:
            raise GlossaryError(f"{stem}: kind {kind} has no terms")
        out[kind] = {str(i): _entry(f"{stem} {kind} {i}", game, kind, i, e)
                     for i, e in entries.items()}
    return out


@cache
def load(stem: str) -> dict[str, dict[str, Term]]:
    """One glossary file (``common`` or a game's stem), read once per process."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    text = (FOLDER / f"{stem}.yaml").read_text(encoding="utf-8")
    return parse(stem, yaml.load(text, Loader=loader))


def lookup(game: str, kind: str, ident: str) -> Term | None:
    """The term of kind ``kind`` and identifier ``ident`` in ``game``'s glossary (a registry
    name such as ``"all-fours"``), else in the shared one; ``None`` when neither has it (a
    player name, a value the request sent)."""
    stem = STEMS.get(game)
    for terms in ((load(stem) if stem else {}), load("common")):
        term = terms.get(kind, {}).get(ident)
        if term is not None:
            return term
    return None


def find_any(kind: str, ident: str) -> Term | None:
    """The term of kind ``kind`` and identifier ``ident`` in any game's glossary (for a
    message that belongs to no game, such as ``options.not_a_choice``), else ``None``."""
    for game in STEMS:
        term = lookup(game, kind, ident)
        if term is not None:
            return term
    return None


CHOICE_KINDS = ("mode", "action", "phase", "stage", "beg", "source", "facing", "answer",
                "colour", "option_value", "role", "approval")
"""The kinds of identifier a request field takes as one of a fixed set (suits and card codes
are notation, written as the client types them, and are not among them)."""


def name_all(idents: list[str], lang: str, game: str = "") -> list[str] | None:
    """The words in ``lang`` of identifiers a field may take, each looked up among
    :data:`CHOICE_KINDS` of ``game``'s glossary first, then every other; ``None`` unless every
    one is known."""
    games = [game] if game in STEMS else []
    games += [g for g in STEMS if g not in games]
    words = []
    for ident in idents:
        found = next((t for game_name in games for kind in CHOICE_KINDS
                      if (t := lookup(game_name, kind, ident)) is not None), None)
        if found is None:
            return None
        words.append(found.word(lang))
    return words


def all_terms() -> list[Term]:
    """Every term of every glossary file (shared first, then the games in name order)."""
    return [term for stem in ("common", *sorted(STEMS.values()))
            for kind in load(stem).values() for term in kind.values()]
