"""What a check finds and how an engine reports it: :class:`Violation` (one broken rule, by
message code), :class:`Problems` (violations collected while checking) and the errors engines
raise, each mapped to one problem type by the API (re-exported by :mod:`referee.games.base`,
whose module docstring describes them)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Violation:
    """One broken rule: ``rule`` is a rule ID of the rulebook (e.g. ``"AF-P3"``), ``code`` the
    stable machine code of the sentence (``"allfours.play.must_follow"``) with its ``params``
    (player names, cards, counts: plain JSON values), ``field`` the offending input field if any.

    Engines return codes, never sentences: the text is rendered at the edge, in the reader's
    language, from the ``verdicts`` catalogs (:func:`referee.i18n.verdicts.render`).  Build one
    with :func:`violation` (or :meth:`Problems.flag`).  ``text`` is an English sentence for the
    few violations that have no code yet; :attr:`message` is the English sentence either way.
    """

    rule: str
    text: str = ""
    field: str | None = None
    code: str | None = None
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def message(self) -> str:
        """The English sentence (logs, exceptions, tests); answers render ``code`` in the
        negotiated language instead."""
        if self.code is None:
            return self.text
        from referee.i18n.verdicts import render  # the edge's renderer; engines never call it
        return render(self.code, self.params, "en")


def violation(rule: str, code: str, where: str | None = None, **params: Any) -> Violation:
    """A :class:`Violation` of ``rule`` with message ``code`` and its ``params``, about the
    input field ``where`` (``"action.card"``) if any."""
    return Violation(rule, field=where, code=code, params=params)


LISTED = 50
"""The most problems of one check worth wording: an answer lists 50 (``referee.api.errors``).
A check that finds more may count the others (:attr:`Problems.unlisted`) instead of building
a :class:`Violation` for each."""


class RefereeError(ValueError):
    """Base of every engine error; ``violations`` lists what is wrong, ``count`` how many
    problems were found in all (``unlisted`` more than listed: counted, not worded)."""

    title = "Referee error"

    def __init__(self, violations: list[Violation] | Violation, unlisted: int = 0):
        if isinstance(violations, Violation):
            violations = [violations]
        self.violations = list(violations)
        self.count = len(self.violations) + unlisted
        super().__init__("; ".join(f"{v.rule}: {v.code or v.text}" for v in
                                   self.violations[:LISTED]))


class InvalidSetup(RefereeError):
    """The setup body cannot start a game."""

    title = "Invalid setup"


class ImpossibleState(RefereeError):
    """The submitted snapshot cannot arise in a legal game."""

    title = "Impossible state"


class IllegalAction(RefereeError):
    """The action breaks the rules in this state."""

    title = "Illegal action"


@dataclass
class Problems:
    """Collects violations while checking something; ``raise_as(cls)`` raises if any.
    ``unlisted``: problems a check counted without wording them, once :data:`LISTED` were
    (each one problem of the input, as a :class:`Violation` would have been)."""

    items: list[Violation] = field(default_factory=list)
    unlisted: int = 0

    def add(self, rule: str, message: str, where: str | None = None) -> None:
        """Record one broken rule as an English sentence (only while it has no code: prefer
        :meth:`flag`), with the offending field if any."""
        self.items.append(Violation(rule, message, where))

    def flag(self, rule: str, code: str, where: str | None = None, **params: Any) -> None:
        """Record one broken rule by message ``code`` and ``params`` (:func:`violation`)."""
        self.items.append(Violation(rule, field=where, code=code, params=params))

    def __bool__(self) -> bool:
        return bool(self.items) or self.unlisted > 0

    @property
    def full(self) -> bool:
        """Whether :data:`LISTED` problems are worded: a check may count the next ones
        (``unlisted += 1``) instead of wording them."""
        return len(self.items) >= LISTED

    def raise_as(self, cls: type[RefereeError]) -> None:
        """Raise ``cls`` with every recorded violation (and the count of the unlisted ones),
        if there is any."""
        if self:
            raise cls(self.items, unlisted=self.unlisted)
