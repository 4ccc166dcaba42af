"""The table companion: a web page for every phone at the table, served by the service itself.

``/table/`` (host and seat screens) and ``/table/score`` (the All Fours trick-sheet scorer) are
static files kept in ``referee/table/static/`` (plain ES modules, no build step), served with a
strict Content-Security-Policy (no inline script or style; the page talks only to this origin).
The page holds no rules: it is a client of the API like any app (see ``static/js/api.js``).

Assets are served under ``/table/v/<version>/…`` where ``<version>`` is a digest of every
static file, so they can be cached for a year: a new release changes the version and every URL.
The HTML pages (``no-cache``) carry the version; modules import each other by relative paths.

The page's own words are the ``table`` gettext domain (``referee/i18n/locales/<lang>/
LC_MESSAGES/table.po``); its game terms come from the glossary the API renders verdicts with
(:mod:`referee.i18n.glossary`, one word per term) and the cards are named by the verdicts' own
function (:func:`referee.i18n.verdicts.card_name`), so the page and the API never differ; all
served together as ``/table/strings/<lang>.json`` (:func:`page_strings`).

Layer 3 (HTTP), like the other blueprints.  May import: flask, :mod:`referee.i18n`.  Only
the app factory imports it.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
from functools import cache
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, request

from referee.i18n import LANGUAGES
from referee.i18n.catalogs import catalog
from referee.i18n.glossary import STEMS, load
from referee.i18n.verdicts import card_name, term

STATIC = Path(__file__).resolve().parents[1] / "table" / "static"
"""The page's files: HTML, CSS, ES modules, vendored libraries (each with its licence)."""

PAGE = "page.html"
"""The one HTML shell of both pages: its ``{{module}}`` is the page's ES module, ``{{version}}``
the assets' version."""

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; "
       "form-action 'none'; frame-ancestors 'none'")
"""No inline script or style, nothing from another origin, no framing."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the fragment is never sent, nor the page's path
    "Cross-Origin-Opener-Policy": "same-origin",
}

ASSET_CACHE = "public, max-age=31536000, immutable"
TERM_PREFIXES = ("term.",)
"""The ``verdicts`` entries served with the page's strings: the grammar of term phrases
(``term.card.gnoming`` "a {value}", ``term.list_separator``…); the words are the glossary's."""
AF_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

MIMETYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
             ".html": "text/html", ".json": "application/json", ".svg": "image/svg+xml",
             ".txt": "text/plain"}

blp = Blueprint("table", __name__, url_prefix="/table")


def init_app(app: Flask) -> None:
    """Serve the table page on ``app``."""
    app.register_blueprint(blp)


@cache
def asset_version() -> str:
    """A digest of every static file's path and bytes (12 hex digits), fixed per process."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@cache
def _file(name: str, module: str = "") -> tuple[bytes, bytes, str, str]:
    """``name``'s bytes, gzipped bytes, content type and strong ETag (read once); the HTML
    shell with ``module`` and the assets' version filled in."""
    path = (STATIC / name).resolve()
    if STATIC not in path.parents or not path.is_file():
        raise FileNotFoundError(name)
    data = path.read_bytes()
    if path.suffix == ".html":
        data = data.replace(b"{{version}}", asset_version().encode()).replace(
            b"{{module}}", module.encode())
    kind = MIMETYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or (
        "application/octet-stream")
    if kind.startswith("text/") or kind.endswith(("json", "xml")):
        kind += "; charset=utf-8"
    return data, gzip.compress(data, 9, mtime=0), kind, hashlib.sha256(data).hexdigest()[:24]


def _send(name: str, cache_control: str, module: str = "") -> Response:
    """The static file ``name`` (404 for anything else), gzipped when the client takes it,
    with its ETag (a matching ``If-None-Match`` is answered 304)."""
    try:
        data, packed, kind, etag = _file(name, module)
    except (FileNotFoundError, OSError):
        abort(404)
    headers = {"Cache-Control": cache_control, "ETag": f'"{etag}"',
               "Vary": "Accept-Encoding", **SECURITY_HEADERS}
    if f'"{etag}"' in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers=headers)
    if "gzip" in request.headers.get("Accept-Encoding", "") and len(packed) < len(data):
        headers["Content-Encoding"] = "gzip"
        data = packed
    return Response(data, content_type=kind, headers=headers)


@blp.get("/")
def index():
    """The host and seat screens (which one from the URL fragment, read by the page)."""
    return _send(PAGE, "no-cache", "app")


@blp.get("/score")
def score():
    """The All Fours trick-sheet scorer (``POST /v1/games/all-fours/score``, no match)."""
    return _send(PAGE, "no-cache", "scorer")


@blp.get("/v/<version>/<path:name>")
def asset(version: str, name: str):
    """A static file; cached for a year when ``version`` is the current one (an old page's
    request gets today's file, not cached)."""
    if name.endswith(".html"):
        abort(404)
    return _send(name, ASSET_CACHE if version == asset_version() else "no-cache")


@blp.get("/strings/<lang>.json")
def strings(lang: str):
    """The page's words in ``lang`` (``en`` or ``my``): ``{"lang", "strings": {id: text}}`` —
    the ``table`` domain and the ``verdicts`` game terms (404 for another language)."""
    if lang not in LANGUAGES:
        abort(404)
    body = json.dumps({"lang": lang, "strings": page_strings(lang)}, ensure_ascii=False,
                      sort_keys=True).encode()
    etag = hashlib.sha256(body).hexdigest()[:24]
    headers = {"Cache-Control": "no-cache", "ETag": f'"{etag}"', **SECURITY_HEADERS}
    if f'"{etag}"' in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers=headers)
    return Response(body, content_type="application/json; charset=utf-8", headers=headers)


@cache
def page_strings(lang: str) -> dict[str, str]:
    """Every text the page shows in ``lang``, by id: the ``table`` domain (``table.…``), the
    verdicts' phrase grammar (``term.…``), every glossary word (``glossary.<game>.<kind>.<id>``,
    ``<game>`` a registry name or ``common``: ``glossary.coup.character.captain`` "Captain" /
    "ကပ္ပတိန်"), every card's name as a verdict gives it (``card.<game>.<code>``: ``card.
    all-fours.10H`` "the 10 of hearts" / "ဟတ် 10"; Gnoming's numbers are ``term.card.gnoming``)
    and each suit as a verdict names it (``suit_name.<S>``)."""
    found = {m.id: m.string for m in catalog(lang, "table") if m.id and m.string}
    found.update({m.id: m.string for m in catalog(lang, "verdicts")
                  if m.id and m.string and m.id.startswith(TERM_PREFIXES)})
    for game, stem in (("common", "common"), *STEMS.items()):
        for kind, terms in load(stem).items():
            found.update({f"glossary.{game}.{kind}.{i}": t.word(lang) for i, t in terms.items()})
    suits = load("allfours")["suit"]
    cards = {"all-fours": [r + s for s in suits for r in AF_RANKS],
             "coup": list(load("coup")["character"]), "spy": list(load("spy")["card"]),
             "gnoming": list(load("gnoming")["card"])}
    for game, codes in cards.items():
        found.update({f"card.{game}.{c}": card_name(game, c, lang) for c in (*codes, "unknown")})
    found.update({f"suit_name.{s}": term("suit", "all-fours", s, lang) for s in suits})
    return found
