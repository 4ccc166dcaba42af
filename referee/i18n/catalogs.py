"""Loading the gettext catalogs (``.po`` -> in-memory ``.mo`` -> Babel ``Translations``), once
per process, and translating the HTTP layer's texts.

The HTTP layer writes its texts in English, often as f-strings; the catalog's msgids are their
templates (``"No game is called {0}; known games: {1}."``, see :mod:`referee.contract.messages`).
:func:`translate` finds the msgid a rendered text came from — an exact msgid first, else the
most specific template whose literal parts match — and renders the translation with the same
values (values that are texts of the catalog are translated too).  A text no msgid matches is
returned as it is (the completeness tests keep that from happening for the HTTP layer).
"""
from __future__ import annotations

import io
import re
import string
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from referee.i18n import DEFAULT
from referee.i18n.glossary import name_all
from referee.i18n.term_params import HTTP_TERM_FIELDS

LOCALES = Path(__file__).resolve().parent / "locales"
_FIELDS = string.Formatter()
_NEXT_FIELD = re.compile(r"; (?=[^\s;:]+(?: \(key\))?: )")
"""Where a detail of several fields ("field: message; field: message") starts the next one: a
message may hold "; " itself ("Unknown action type 'x' for coup; one of: …")."""


def po_path(lang: str, domain: str = "messages") -> Path:
    """Where the catalog of ``domain`` in ``lang`` lives."""
    return LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"


def part_paths(lang: str, domain: str) -> list[Path]:
    """The files of ``domain`` in ``lang``: ``<domain>.po`` and its parts ``<domain>-*.po``
    (the ``verdicts`` domain keeps one part per game: ``verdicts-coup.po``…), sorted."""
    folder = po_path(lang, domain).parent
    return [po_path(lang, domain), *sorted(folder.glob(f"{domain}-*.po"))]


@cache
def catalog(lang: str, domain: str = "messages"):
    """The Babel ``Catalog`` of ``domain`` in ``lang``: ``po_path(lang, domain)`` with every
    part file of :func:`part_paths` merged in (cached); a msgid in two files is an error."""
    whole = None
    for path in part_paths(lang, domain):
        with path.open("rb") as fp:
            part = read_po(fp, locale=lang, domain=domain)
        if whole is None:
            whole = part
            continue
        for message in part:
            if message.id:
                if message.id in whole:
                    raise ValueError(f"{message.id} is in two {domain} catalogs of {lang}")
                whole[message.id] = message
    return whole


@cache
def translations(lang: str, domain: str = "messages") -> Translations:
    """The compiled gettext ``Translations`` of ``domain`` in ``lang`` (cached per process)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog(lang, domain))
    buffer.seek(0)
    return Translations(buffer, domain=domain)


def placeholders(text: str) -> list[str]:
    """The ``{name}`` fields of a format string, in order (``{{`` escapes excluded)."""
    return [name for _, name, _, _ in _FIELDS.parse(text) if name is not None]


@cache
def _templates(lang: str) -> tuple[list[tuple[re.Pattern, str, list[str]]], dict[str, str]]:
    """The catalog of ``lang`` as exact texts and as patterns of its templates, the templates
    with the most literal text first (the most specific match wins); built once."""
    gettext = translations(lang).gettext
    exact: dict[str, str] = {}
    patterns = []
    for message in catalog(lang):
        msgid = message.id
        if not msgid or not message.string:
            continue
        names = placeholders(msgid)
        if not names:
            exact[msgid] = gettext(msgid)
            continue
        literal = "".join(part for part, _, _, _ in _FIELDS.parse(msgid))
        if not re.search(r"[^\W\d_]", literal):
            continue  # "{0}: {1}" (a field and its message) is split by _part, not matched
        regex, groups = "", []
        for part, name, _, _ in _FIELDS.parse(msgid):
            regex += re.escape(part)
            if name is not None:
                regex += f"(?P<p{len(groups)}>.+?)"
                groups.append(name)
        patterns.append((len(literal), re.compile(regex, re.S), gettext(msgid), groups, msgid))
    patterns.sort(key=lambda item: -item[0])
    return [(p, t, g, m) for _, p, t, g, m in patterns], exact


def translate(text: str, lang: str, _depth: int = 0) -> str:
    """``text`` (an English text of the HTTP layer) in ``lang``; ``text`` itself for English or
    when no msgid matches.  ``"field: message; field: message"`` details are translated part by
    part (field paths stay as they are)."""
    if lang == DEFAULT or not text:
        return text
    patterns, exact = _templates(lang)
    if text in exact:
        return exact[text]
    for pattern, translated, names, msgid in patterns:
        match = pattern.fullmatch(text)
        if match:
            values = {name: (translate(match.group(f"p{i}"), lang, _depth + 1) if _depth < 2
                             else match.group(f"p{i}")) for i, name in enumerate(names)}
            if msgid in HTTP_TERM_FIELDS:
                name, game = HTTP_TERM_FIELDS[msgid]
                words = name_all(match.group(f"p{names.index(name)}").split(", "), lang,
                                 match.group(f"p{names.index(game)}") if game else "")
                if words is not None:
                    values[name] = text_of("term.list_separator", lang).join(words)
            return _format(translated, values)
    if _depth == 0 and "; " in text:
        return "; ".join(_part(part, lang) for part in _NEXT_FIELD.split(text))
    if _depth == 0:
        return _part(text, lang)
    return text


def text_of(code: str, lang: str) -> str:
    """The ``verdicts`` catalog's text of ``code`` in ``lang`` (a list separator…)."""
    return translations(lang, "verdicts").gettext(code)


def _part(part: str, lang: str) -> str:
    field, sep, message = part.partition(": ")
    if sep and " " not in field:
        return f"{field}: {translate(message, lang, 1)}"
    return translate(part, lang, 1)


def _format(template: str, values: dict[str, str]) -> str:
    out = []
    for literal, name, _, _ in _FIELDS.parse(template):
        out.append(literal)
        if name is not None:
            out.append(values.get(name, "{" + name + "}"))
    return "".join(out)
