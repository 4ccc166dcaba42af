"""Why the service refuses a request, outside the rules of a game: HTTP-free exceptions.

The match service (:mod:`referee.matches.service`) and the loaders (:mod:`referee.matches.loading`)
raise these; :mod:`referee.api.errors` maps each to exactly one problem type (its ``slug``, e.g.
``"version-conflict"`` → 409) and adds the HTTP headers it implies.  Rule failures are the engines'
errors (:mod:`referee.games.base`), not these.
"""
from __future__ import annotations

from typing import Any, Iterable


class Refusal(Exception):
    """A refused request: ``slug`` names the problem type (``"invalid-input"``,
    ``"forbidden"``…), ``detail`` is a sentence for people, ``errors`` the offending fields
    (``[{"field", "message"}]``), ``extra`` further members (``current_version``)."""

    def __init__(self, slug: str, detail: str, *, errors: Iterable[dict] | None = None,
                 **extra: Any):
        super().__init__(detail)
        self.slug, self.detail = slug, detail
        self.errors = list(errors or [])
        self.extra = extra


def fields_detail(errors: list[dict]) -> str:
    """A detail naming the first three of ``errors`` (``[{"field", "message"}]``): "field:
    message; field: message; field: message" (translated part by part at the edge,
    :func:`referee.i18n.catalogs.translate`)."""
    return "; ".join(f"{e['field']}: {e['message']}" for e in errors[:3])


class InvalidInput(Refusal):
    """Input of the wrong shape or type (422 ``invalid-input``), naming each field."""

    def __init__(self, detail: str, *, errors: Iterable[dict] | None = None):
        super().__init__("invalid-input", detail, errors=errors)

    @classmethod
    def naming(cls, errors: list[dict]) -> "InvalidInput":
        """``invalid-input`` naming each of ``errors``, the first three in its detail
        (:func:`fields_detail`)."""
        return cls(fields_detail(errors), errors=errors)


class UnknownGame(Refusal):
    """No game is registered by that name (404 ``unknown-game``)."""

    def __init__(self, detail: str, *, errors: Iterable[dict] | None = None):
        super().__init__("unknown-game", detail, errors=errors)


class NotFound(Refusal):
    """No such match (404 ``not-found``)."""

    def __init__(self, detail: str):
        super().__init__("not-found", detail)


class Unauthorized(Refusal):
    """A token is needed, malformed or unknown (401 ``unauthorized``; the challenge is
    ``Bearer``)."""

    def __init__(self, detail: str):
        super().__init__("unauthorized", detail,
                         errors=[{"field": "Authorization", "message": detail}])


class Forbidden(Refusal):
    """The token may not do this (403 ``forbidden``)."""

    def __init__(self, detail: str, *, errors: Iterable[dict] | None = None):
        super().__init__("forbidden", detail, errors=errors)


class PreconditionRequired(Refusal):
    """The version an action was chosen at is missing (428 ``precondition-required``)."""

    def __init__(self, detail: str, *, errors: Iterable[dict] | None = None):
        super().__init__("precondition-required", detail, errors=errors)


class StaleVersion(Refusal):
    """The match moved on (409 ``version-conflict``; ``current_version`` is where it is)."""

    def __init__(self, detail: str, current_version: int):
        super().__init__("version-conflict", detail, current_version=current_version)


def version_moved(current: int, expected: int) -> StaleVersion:
    """409 ``version-conflict``: the match is at ``current``, the caller chose against
    ``expected`` (``If-Match`` / ``expected_version``, or the version it read)."""
    return StaleVersion(f"The match is at version {current}, not {expected}: read it again "
                        "and choose again.", current)


class IdempotencyKeyReused(Refusal):
    """An ``Idempotency-Key`` reused for another request (422 ``idempotency-key-reused``)."""

    def __init__(self, detail: str, *, errors: Iterable[dict] | None = None):
        super().__init__("idempotency-key-reused", detail, errors=errors)
