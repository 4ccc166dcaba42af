"""Serving the table page: /table/ and /table/score from the package's static files, with a
strict Content-Security-Policy, year-long caching of versioned assets, gzip, and the page's
words from the gettext catalogs (no browser needed)."""
from __future__ import annotations

import gzip
import re

from referee.api.table import STATIC, asset_version

ASSET_URL = re.compile(r'(?:src|href)="(v/[0-9a-f]{12}/[^"]+)"')


def test_the_pages_carry_a_strict_csp_and_no_inline_code(client):
    for path in ("/table/", "/table/score"):
        page = client.get(path)
        assert page.status_code == 200 and page.mimetype == "text/html"
        csp = page.headers["Content-Security-Policy"]
        assert "script-src 'self';" in csp and "style-src 'self';" in csp
        assert "connect-src 'self';" in csp and "default-src 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert page.headers["Cache-Control"] == "no-cache"
        html = page.get_data(as_text=True)
        assert "://" not in html  # nothing from another origin
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # no inline script
        assert "style=" not in html and "<style" not in html  # no inline style
        assert "{{version}}" not in html and "{{module}}" not in html


def test_assets_are_versioned_cached_for_a_year_and_gzipped(client):
    html = client.get("/table/").get_data(as_text=True)
    assets = ASSET_URL.findall(html)
    assert f"v/{asset_version()}/js/app.js" in assets
    assert f"v/{asset_version()}/js/scorer.js" in ASSET_URL.findall(
        client.get("/table/score").get_data(as_text=True))
    for asset in assets:
        answer = client.get(f"/table/{asset}", headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, asset
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert answer.headers["Content-Encoding"] == "gzip"
        name = asset.split("/", 2)[2]
        assert gzip.decompress(answer.data) == (STATIC / name).read_bytes()
        again = client.get(f"/table/{asset}", headers={"If-None-Match": answer.headers["ETag"]})
        assert again.status_code == 304 and not again.data


def test_modules_are_javascript_and_an_old_version_is_not_cached(client):
    answer = client.get("/table/v/000000000000/js/api.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"


def test_nothing_outside_the_static_files_is_served(client):
    for path in ("/table/v/x/../__init__.py", "/table/v/x/%2e%2e/__init__.py",
                 "/table/v/x/page.html", "/table/v/x/nope.js", "/table/strings/fr.json"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.mimetype == "application/problem+json"


def test_the_page_s_words_come_from_the_catalogs(client):
    english = client.get("/table/strings/en.json").get_json()
    burmese = client.get("/table/strings/my.json").get_json()
    assert english["lang"] == "en" and burmese["lang"] == "my"
    assert english["strings"]["table.score.title"] == "All Fours trick sheet"
    assert burmese["strings"]["table.score.title"] == "လေးခုလုံး လှည့်ကွက်စာရွက်"
    # the game terms are the glossary's, the cards named as a verdict names them
    assert english["strings"]["card.all-fours.QH"] == "the queen of hearts"
    assert burmese["strings"]["card.all-fours.QH"] == "ဟတ် ကွင်း"
    assert burmese["strings"]["glossary.coup.concept.court deck"] == "ဗဟိုကတ်ထုပ်"
    assert burmese["strings"]["glossary.common.role.host"] == "အိမ်ရှင်"
    assert set(english["strings"]) == set(burmese["strings"])


def test_the_first_load_is_under_150_kb_compressed(client):
    """Every static file (both pages, every module, the vendored QR library, the stylesheet)
    and the larger catalog, as served gzipped, add up to less than 150 KB."""
    total = 0
    for path in STATIC.rglob("*"):
        if path.is_file() and path.suffix != ".html" and path.name not in ("LICENSE",
                                                                           "MANIFEST.json"):
            name = path.relative_to(STATIC).as_posix()
            total += len(client.get(f"/table/v/{asset_version()}/{name}",
                                    headers={"Accept-Encoding": "gzip"}).data)
    for page in ("/table/", "/table/score"):
        total += len(client.get(page, headers={"Accept-Encoding": "gzip"}).data)
    total += max(len(gzip.compress(client.get(f"/table/strings/{lang}.json").data))
                 for lang in ("en", "my"))
    assert total < 150_000, total
    assert total > 20_000  # the sum is of real files (the check can fail)
