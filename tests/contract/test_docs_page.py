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


AUTHORIZE_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body>
<div id="swagger-ui"></div><pre id="outcome">pending</pre>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>
window.onload = function () {
  const ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui",
    onComplete: async function () {
      const out = document.getElementById("outcome");
      try {
        // what the Authorize dialog does with a token typed into the seatToken box
        ui.authActions.authorize({seatToken: {name: "seatToken", value: "%(token)s",
          schema: ui.specSelectors.securityDefinitions().get("seatToken")}});
        const request = ui.fn.buildRequest({spec: ui.specSelectors.specJson().toJS(),
          operationId: "getMatchesByMatchId", parameters: {match_id: "%(match_id)s"},
          securities: {authorized: ui.authSelectors.authorized().toJS()}});
        const answer = await fetch(request.url, {headers: request.headers});
        const body = await answer.json();
        out.textContent = "status=" + answer.status + " role=" + body.role + " seat=" + body.seat;
      } catch (error) { out.textContent = "error " + error; }
    }});
};
</script></body></html>
"""


@pytest.mark.skipif(_chromium() is None, reason="no chromium on PATH (`./dev test` installs "
                    "Debian's chromium)")
def test_swagger_ui_authorize_sends_the_seat_token_in_headless_chromium():
    """The OpenAPI's bearer scheme lets /docs send a token: Swagger UI, authorized with ana's
    seat token, builds GET /v1/matches/{match_id} with it and is answered with ana's view."""
    from flask import Response

    from referee.serving.app import create_app
    from tests.contract.helpers import live_server

    app = create_app({"TESTING": True, "REDIS_URL": None})
    page = {}
    app.add_url_rule("/authorize-check", "authorize_check",
                     lambda: Response(page["html"], mimetype="text/html"))
    created = app.test_client().post("/v1/matches", json={
        "game": "spy", "players": ["ana", "ben"]}).get_json()
    page["html"] = AUTHORIZE_PAGE % {"token": created["seats"]["ana"],
                                     "match_id": created["id"]}
    with live_server(app) as url, tempfile.TemporaryDirectory() as profile:
        run = subprocess.run(
            [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={profile}", "--virtual-time-budget=15000", "--dump-dom",
             f"{url}/authorize-check"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "status=200 role=seat seat=ana" in run.stdout, run.stdout[-1500:]
    assert 'class="btn authorize' in run.stdout  # the Authorize button is on the page
