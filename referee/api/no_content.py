"""Answers with no content (RFC 9110): Flask's automatic ``OPTIONS`` answer is a 204 with
the methods in ``Allow`` (section 9.3.7), and a 204 or 304 carries no ``Content-Type``
(sections 15.3.5, 15.4.5)."""
from __future__ import annotations

from flask import Flask, Response, request


def no_content(response: Response) -> Response:
    """after_request: an empty 200 to an ``OPTIONS`` that is not a CORS preflight (which
    keeps flask-cors's answer) becomes 204; a 204/304 drops its ``Content-Type``."""
    if (request.method == "OPTIONS" and response.status_code == 200
            and not response.is_streamed and not response.get_data()
            and "Access-Control-Request-Method" not in request.headers):
        response.status_code = 204
    if response.status_code in (204, 304):
        response.headers.pop("Content-Type", None)
    return response


def init_app(app: Flask) -> None:
    """Install :func:`no_content` (after the ops hooks, so it runs before them: Flask runs
    after_request functions last registered first, and the access line logs the 204)."""
    app.after_request(no_content)
