"""The service documents itself: ``/openapi.json``, ``/openapi.yaml`` and ``/docs``.

The OpenAPI document is :func:`referee.contract.openapi.document` of the running app — the
same text as the committed ``openapi.yaml``.  ``/docs`` is Swagger UI, served from the files
bundled in the ``flask-swagger-ui`` PyPI package (Swagger UI 5, which reads OpenAPI 3.1): no
CDN, nothing fetched from outside.  These routes are not part of the documented API.
"""
from __future__ import annotations

import json
from importlib.resources import files

from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Flask, Response, current_app, send_from_directory, url_for
from flask_smorest import Api

from referee.api.errors import Problem, ProblemSchema
from referee.contract.openapi import document, render_json, render_yaml, schema_name

SWAGGER_UI_DIR = str(files("flask_swagger_ui") / "dist")
"""Swagger UI's bundled files (``swagger-ui-bundle.js``, ``swagger-ui.css``, …)."""

ASSETS = ("swagger-ui-bundle.js", "swagger-ui.css", "index.css", "favicon-32x32.png",
          "favicon-16x16.png")

blp = Blueprint("docs", __name__)


class RefereeApi(Api):
    """flask-smorest's ``Api`` with problem+json errors: no generic ``default`` error response
    (:mod:`referee.contract.openapi` lists each operation's statuses instead)."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_ERROR_RESPONSE_NAME = None


def make_api(app: Flask, description: str) -> Api:
    """The app's :class:`RefereeApi`: OpenAPI 3.1 (``OPENAPI_VERSION``), schemas named by
    :func:`referee.contract.openapi.schema_name`."""
    return RefereeApi(app, spec_kwargs={
        "info": {"description": description},
        "marshmallow_plugin": MarshmallowPlugin(schema_name_resolver=schema_name)})


def init_app(app: Flask) -> None:
    """Serve the OpenAPI document and the docs page on ``app``."""
    app.register_blueprint(blp)


def prepare(app: Flask) -> None:
    """Build the OpenAPI texts now (seconds of CPU): served by a gevent worker, the first
    ``/openapi.json`` would otherwise hold every connection of the worker while it is built."""
    with app.app_context():
        _text("json")
        _text("yaml")


def _text(kind: str) -> str:
    key = f"referee.openapi.{kind}"
    if key not in current_app.extensions:
        doc = document(current_app)
        current_app.extensions[key] = render_json(doc) if kind == "json" else render_yaml(doc)
    return current_app.extensions[key]


@blp.get("/openapi.json")
def openapi_json():
    """The OpenAPI 3.1 document as JSON."""
    return Response(_text("json"), mimetype="application/json")


@blp.get("/openapi.yaml")
def openapi_yaml():
    """The OpenAPI 3.1 document as YAML (byte for byte the committed ``openapi.yaml``)."""
    return Response(_text("yaml"), mimetype="application/yaml")


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>referee API</title>
  <link rel="stylesheet" href="{css}">
  <link rel="icon" type="image/png" href="{icon}">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{js}"></script>
  <script>
    window.onload = function () {{
      window.ui = SwaggerUIBundle({config});
    }};
  </script>
</body>
</html>
"""


@blp.get("/docs")
@blp.get("/docs/")
def page():
    """Swagger UI on ``/openapi.json``: every endpoint, its schemas, and "Try it out"."""
    config = {"url": url_for("docs.openapi_json"), "dom_id": "#swagger-ui",
              "deepLinking": True, "validatorUrl": None, "layout": "BaseLayout",
              "displayOperationId": False, "defaultModelsExpandDepth": 0}
    html = PAGE.format(css=url_for("docs.asset", name="swagger-ui.css"),
                       icon=url_for("docs.asset", name="favicon-32x32.png"),
                       js=url_for("docs.asset", name="swagger-ui-bundle.js"),
                       config=json.dumps(config))
    return Response(html, mimetype="text/html")


@blp.get("/docs/<name>")
def asset(name: str):
    """One of Swagger UI's bundled files (404 problem for anything else)."""
    if name not in ASSETS:
        raise Problem("not-found", f"No docs asset is called {name!r}.")
    return send_from_directory(SWAGGER_UI_DIR, name, max_age=3600)
