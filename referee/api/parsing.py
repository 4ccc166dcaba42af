"""The request body is parsed once: ``limits.guard_request`` parses it into ``flask.g``;
views read it back from there, and so does webargs (``@blp.arguments``)."""
from __future__ import annotations

from typing import Any

import flask_smorest
import marshmallow as ma
from flask import g
from webargs.flaskparser import FlaskParser

from referee.api.errors import Problem


class ParsedBodyParser(FlaskParser):
    """A webargs parser whose JSON location is the body ``guard_request`` already parsed, and
    which builds each schema class given to ``@blp.arguments`` once (webargs builds one per
    request; marshmallow schemas are stateless once built, as ``loading`` relies on too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._schemas: dict[type, ma.Schema] = {}

    def _get_schema(self, argmap, req) -> ma.Schema:
        if isinstance(argmap, type) and issubclass(argmap, ma.Schema):
            if argmap not in self._schemas:
                self._schemas[argmap] = argmap()
            return self._schemas[argmap]
        return super()._get_schema(argmap, req)

    def _raw_load_json(self, req) -> Any:
        if "json_body" in g:
            return g.json_body
        return super()._raw_load_json(req)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's ``Blueprint`` reading ``@arguments`` bodies from the parsed body."""

    ARGUMENTS_PARSER = ParsedBodyParser()


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, as ``limits.guard_request`` parsed it (it already
    refused what is not JSON); 422 ``invalid-input`` for a missing body or a JSON value that is
    not an object."""
    if "json_body" not in g:
        raise Problem("invalid-input", "The request needs a JSON object body.",
                      errors=[{"field": "body", "message": "Missing body."}])
    data = g.json_body
    if not isinstance(data, dict):
        raise Problem("invalid-input", "The request body must be a JSON object, not "
                      f"{type(data).__name__ if data is not None else 'null'}.",
                      errors=[{"field": "body", "message": "Not a JSON object."}])
    return data
