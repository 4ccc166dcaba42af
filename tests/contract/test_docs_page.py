"""``/docs``: Swagger UI from the flask-swagger-ui package's bundled files, no CDN; loaded in
headless Chromium, it renders the endpoints' summaries from ``/openapi.json``."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile

import pytest

SUMMARY = "Score one hand from a trick sheet"  # POST /v1/games/all-fours/score's summary


def test_the_page_loads_only_assets_served_by_the_app(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "://" not in html  # no CDN: every URL is on this server
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert "/docs/swagger-ui-bundle.js" in sources and "/docs/swagger-ui.css" in sources
    for source in sources:
        asset = client.get(source)
        assert asset.status_code == 200, source
    bundle = client.get("/docs/swagger-ui-bundle.js").get_data(as_text=True)
    assert "SwaggerUIBundle" in bundle
    assert '"url": "/openapi.json"' in html


def test_unknown_asset_is_a_404_problem(client):
    answer = client.get("/docs/../../etc/passwd")
    assert answer.status_code == 404
    answer = client.get("/docs/app.py")
    assert answer.status_code == 404 and answer.mimetype == "application/problem+json"


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.mark.skipif(_chromium() is None, reason="no chromium on PATH (`./dev test` installs "
                    "Debian's chromium)")
def test_swagger_ui_renders_the_endpoints_in_headless_chromium(base_url):
    with tempfile.TemporaryDirectory() as profile:
        run = subprocess.run(
            [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={profile}", "--virtual-time-budget=15000", "--dump-dom",
             f"{base_url}/docs"],
            capture_output=True, text=True, timeout=120)
    dom = run.stdout
    assert run.returncode == 0, run.stderr[-2000:]
    assert 'class="swagger-ui' in dom, dom[:2000]
    assert SUMMARY in dom
    assert "/v1/games/all-fours/apply" in dom and "/v1/matches/{match_id}/actions" in dom
