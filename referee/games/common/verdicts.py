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


class RefereeError(ValueError):
    """Base of every engine error; ``violations`` lists what is wrong."""

    title = "Referee error"

    def __init__(self, violations: list[Violation] | Violation):
        if isinstance(violations, Violation):
            violations = [violations]
        self.violations = list(violations)
        super().__init__("; ".join(f"{v.rule}: {v.code or v.text}" for v in self.violations))


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
    """Collects violations while checking something; ``raise_as(cls)`` raises if any."""

    items: list[Violation] = field(default_factory=list)

    def add(self, rule: str, message: str, where: str | None = None) -> None:
        """Record one broken rule as an English sentence (only while it has no code: prefer
        :meth:`flag`), with the offending field if any."""
        self.items.append(Violation(rule, message, where))

    def flag(self, rule: str, code: str, where: str | None = None, **params: Any) -> None:
        """Record one broken rule by message ``code`` and ``params`` (:func:`violation`)."""
        self.items.append(Violation(rule, field=where, code=code, params=params))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_as(self, cls: type[RefereeError]) -> None:
        """Raise ``cls`` with every recorded violation, if there is any."""
        if self.items:
            raise cls(self.items)
