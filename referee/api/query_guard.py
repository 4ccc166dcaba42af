"""Query strings are checked like bodies: each ``/v1`` endpoint takes only the query parameters
its query schema names (``@blp.arguments(..., location="query")``; none for the others), each
at most once.  ``?after=1&after=5`` (which one counts?) and ``?aftr=5`` (a typo silently
ignored) are 422 ``invalid-input`` naming ``query.<name>``.

Cheap: a request without a query string costs one attribute test; the allowed names of an
endpoint are worked out once from its documentation (``_apidoc``) and cached.
"""
from __future__ import annotations

from flask import current_app, request

from referee.refusals import InvalidInput

GUARDED_PREFIX = "/v1/"
"""The API's paths (health, docs, OpenAPI and metrics are not guarded)."""


def guard_query() -> None:
    """before_request: 422 ``invalid-input`` for an unknown or repeated query parameter of a
    ``/v1`` endpoint (``errors``: one per offending name, ``query.<name>``)."""
    if not request.query_string or not request.path.startswith(GUARDED_PREFIX):
        return
    endpoint = request.endpoint
    if endpoint is None:  # no route: the 404 says so
        return
    known = current_app.extensions.setdefault("referee.query_parameters", {})
    key = (endpoint, request.method)
    allowed = known.get(key)
    if allowed is None:
        allowed = known[key] = allowed_parameters(current_app, endpoint, request.method)
    bad = [name for name, values in request.args.lists()
           if name not in allowed or len(values) > 1]
    if bad:
        errors = [{"field": f"query.{name}", "message": "Unknown query parameter."
                   if name not in allowed else "A query parameter may be given only once."}
                  for name in bad]
        raise InvalidInput.naming(errors)


def allowed_parameters(app, endpoint: str, method: str) -> frozenset[str]:
    """The query parameter names ``endpoint`` takes with ``method``: the ``data_key`` (or
    name) of every field of its query schemas."""
    view = app.view_functions[endpoint]
    view_class = getattr(view, "view_class", None)
    function = getattr(view_class, method.lower(), None) if view_class else view
    doc = getattr(function, "_apidoc", None) or {}
    names: set[str] = set()
    for argument in doc.get("arguments", {}).get("parameters", []):
        if argument.get("in") != "query":
            continue
        schema = argument["schema"]
        schema = schema() if isinstance(schema, type) else schema
        names.update(field.data_key or name for name, field in schema.fields.items())
    return frozenset(names)
