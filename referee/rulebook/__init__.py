"""The rulebook, shipped as data: one YAML file per game (``referee/rulebook/<game>.yaml``).

Each rule has an ``id`` (``COUP-A2``), a ``section``, a ``source`` tag (``seed``, ``official`` or
``decision``; ``also`` lists further tags), the ``options`` that switch it (option names of
``GET /v1/games/{game}``), a ``title`` and ``text`` in every language of
:data:`referee.i18n.LANGUAGES` (``en``, ``my``) and, where the rule goes beyond what its Burmese
seed document says, a ``beyond_seed`` note in every language saying so (so a reader of the seed
knows that part is a decision or the publisher's rule, not a translation).  Game terms in the
Burmese texts are the glossary's words (``referee/rulebook/glossary/``).  The YAML files are the one source of truth:
``docs/rules/<game>.md`` is generated from them (``referee contract``), the API serves them
(``GET /v1/games/{game}/rules``) and violations take their ``title`` from them.

Files are read once per process (:func:`book` is cached); a malformed file raises
:class:`RulebookError` at first use, and the test suite loads every file.

Layer 1.  May import: ``referee.games``, and its own layer: ``referee.store``, ``referee.i18n``,
``referee.rulebook``, ``referee.schemas``, ``referee.registry``, ``referee.ops``,
``referee.refusals``, ``referee.json_digits``; never ``referee.matches``, ``referee.api`` or
``referee.serving`` (``tests/test_layers.py``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

FOLDER = Path(__file__).resolve().parent

FILES = {"all-fours": "allfours", "coup": "coup", "gnoming": "gnoming", "spy": "spy"}
"""Registry name of each game -> its rulebook file's stem (``allfours.yaml``)."""

PREFIXES = {"AF": "all-fours", "COUP": "coup", "GN": "gnoming", "SPY": "spy"}
"""The rule-ID prefix of each game (``AF-P3`` is an All Fours rule)."""

SOURCES = ("seed", "official", "decision")
LANGUAGES = ("en", "my")
RULE_ID = re.compile(r"\b(?:COUP|SPY|AF|GN)-[A-Z]+\d+[a-z]?\b")
"""What a rule ID looks like (``COUP-A8b``); used to find the IDs the code and tests cite."""


class RulebookError(ValueError):
    """A rulebook file breaks the format described in this module."""


@dataclass(frozen=True)
class Rule:
    """One rule: texts per language (``title["my"]``), tags, switching options."""

    id: str
    game: str
    section: str
    source: str
    also: tuple[str, ...]
    options: tuple[str, ...]
    title: dict[str, str]
    text: dict[str, str]
    beyond_seed: dict[str, str] | None = None

    def to_dict(self, lang: str, section_title: str) -> dict[str, Any]:
        """The rule as the API serves it, in language ``lang``: ``{"id", "title", "text",
        "section", "section_title", "source", "also", "options", "beyond_seed"}``
        (``beyond_seed`` null when the rule says nothing its seed does not)."""
        return {"id": self.id, "title": self.title[lang], "text": self.text[lang],
                "section": self.section, "section_title": section_title,
                "source": self.source, "also": list(self.also), "options": list(self.options),
                "beyond_seed": self.beyond_seed[lang] if self.beyond_seed else None}


@dataclass(frozen=True)
class Book:
    """One game's rulebook: its title and sections per language, its rules in file order."""

    game: str
    title: dict[str, str]
    seed: str
    sections: dict[str, dict[str, str]]
    rules: dict[str, Rule]

    def rule(self, rule_id: str) -> Rule | None:
        """The rule ``rule_id`` (exact ID, e.g. ``COUP-A8b``), or None."""
        return self.rules.get(rule_id)

    def answer(self, lang: str) -> dict[str, Any]:
        """``GET /v1/games/{game}/rules``: ``{"game", "title", "language", "rules": [...]}``."""
        return {"game": self.game, "title": self.title[lang], "language": lang,
                "rules": [r.to_dict(lang, self.sections[r.section][lang])
                          for r in self.rules.values()]}


def _texts(where: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or set(value) != set(LANGUAGES) or not all(
            isinstance(v, str) and v.strip() for v in value.values()):
        raise RulebookError(f"{where}: needs a non-empty text in each of {LANGUAGES}")
    if not re.search("[\u1000-\u109f]", value["my"]):
        raise RulebookError(f"{where}: the Burmese text has no Myanmar script")
    return {lang: " ".join(value[lang].split()) for lang in LANGUAGES}


def parse(game: str, data: Any) -> Book:
    """Check and build one rulebook from its parsed YAML; :class:`RulebookError` names the
    first problem (missing language, unknown source tag or section, duplicate or foreign ID)."""
    if not isinstance(data, dict) or data.get("game") != game:
        raise RulebookError(f"{game}: the file must say game: {game}")
    sections = {key: _texts(f"{game} section {key}", value)
                for key, value in (data.get("sections") or {}).items()}
    rules: dict[str, Rule] = {}
    for entry in data.get("rules") or []:
        rid = entry.get("id", "")
        if not RULE_ID.fullmatch(rid) or PREFIXES[rid.split("-")[0]] != game:
            raise RulebookError(f"{game}: {rid!r} is not a rule ID of this game")
        if rid in rules:
            raise RulebookError(f"{game}: {rid} appears twice")
        tags = (entry.get("source"), *entry.get("also", ()))
        if any(tag not in SOURCES for tag in tags):
            raise RulebookError(f"{rid}: source tags must be among {SOURCES}, not {tags}")
        if entry.get("section") not in sections:
            raise RulebookError(f"{rid}: unknown section {entry.get('section')!r}")
        note = entry.get("beyond_seed")
        rules[rid] = Rule(rid, game, entry["section"], tags[0], tuple(tags[1:]),
                          tuple(entry.get("options", ())), _texts(f"{rid} title", entry.get(
                              "title")), _texts(f"{rid} text", entry.get("text")),
                          _texts(f"{rid} beyond_seed", note) if note is not None else None)
    return Book(game, _texts(f"{game} title", data.get("title")), str(data.get("seed", "")),
                sections, rules)


@cache
def book(game: str) -> Book:
    """The rulebook of registry game ``game`` (read once per process); KeyError if the game
    has no rulebook file."""
    path = FOLDER / f"{FILES[game]}.yaml"
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's where PyYAML has it
    return parse(game, yaml.load(path.read_text(encoding="utf-8"), Loader=loader))


def find(rule_id: str) -> Rule | None:
    """The rule with ID ``rule_id`` in whichever game its prefix names, or None (also for a
    pseudo-rule such as ``OPTIONS``)."""
    game = PREFIXES.get(rule_id.split("-")[0]) if "-" in rule_id else None
    return book(game).rule(rule_id) if game else None


def all_ids() -> set[str]:
    """Every rule ID of every rulebook."""
    return {rid for game in FILES for rid in book(game).rules}
