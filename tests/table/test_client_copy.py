"""The page talks to the service through the JavaScript client (clients/js, issue 22 item 5):
``referee/table/static/client/`` is a byte-for-byte copy of ``clients/js/src/*.js`` (the
Python package ships the page, not the repository's clients/ folder), and the page's one door
to the service, ``static/js/api.js``, imports it rather than calling fetch itself."""
from __future__ import annotations

from referee.api.table import STATIC
from tests.conftest import REPO

SOURCE = REPO / "clients" / "js" / "src"
COPY = STATIC / "client"
REFRESH = "cp clients/js/src/*.js referee/table/static/client/"


def _files(folder):
    return {p.name: p.read_bytes() for p in folder.glob("*.js")}


def test_the_served_client_is_the_client():
    source, copy = _files(SOURCE), _files(COPY)
    assert len(source) >= 7
    assert set(copy) == set(source), f"refresh the copy: {REFRESH}"
    assert [n for n in source if copy[n] != source[n]] == [], f"refresh the copy: {REFRESH}"
    assert {p.name for p in COPY.iterdir()} == set(source)  # nothing else in the folder


def test_the_page_reaches_the_service_only_through_the_client():
    api = (STATIC / "js" / "api.js").read_text()
    assert 'from "../client/index.js"' in api
    calling = {p.name for p in (STATIC / "js").glob("*.js") if "fetch(" in p.read_text()}
    assert calling == {"strings.js"}  # its only own request: the page's words


def test_the_check_can_fail():
    copy = _files(COPY)
    name = sorted(copy)[0]
    assert copy[name] + b" " != _files(SOURCE)[name]
