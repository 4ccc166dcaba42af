"""The error a referee answer raises: :class:`RefereeError`, built from the RFC 9457 problem body."""
from __future__ import annotations

from typing import Any

import requests

JSON = dict[str, Any]


class RefereeError(Exception):
    """The API answered with an error (any status that is not 2xx).

    ``status``: the HTTP status; ``problem``: the RFC 9457 body (``type``, ``title``,
    ``status``, ``detail``, ``errors``?, ``violations``?, ``current_version``? …); ``type``:
    the problem's slug, e.g. ``"version-conflict"`` (``"about:blank"`` for a body that was not
    problem+json, such as a proxy's error page)."""

    def __init__(self, status: int, problem: JSON):
        self.status = status
        self.problem = problem
        self.type = str(problem.get("type", "")).rsplit("/", 1)[-1]
        super().__init__(f"{status} {problem.get('title', 'error')}: "
                         f"{problem.get('detail', '')}".rstrip(": "))

    @property
    def detail(self) -> str:
        """The problem's sentence for people (in the answer's language), or ``""``."""
        return str(self.problem.get("detail", ""))

    @property
    def violations(self) -> list[JSON]:
        """The rules an illegal action breaks: ``[{"rule", "title", "code", "message",
        "field"?}]`` (empty when the problem has none)."""
        return list(self.problem.get("violations", []))

    @property
    def errors(self) -> list[JSON]:
        """The input errors (``[{"field", "message", "rule"?, "code"?}]``; empty if none)."""
        return list(self.problem.get("errors", []))


def problem_of(response: requests.Response) -> JSON:
    """The problem body of an error answer (one is made up if the body is not JSON)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        return body
    return {"type": "about:blank", "title": response.reason or "Error",
            "status": response.status_code, "detail": response.text[:500]}
