"""The contract every game engine fulfils, and the errors engines raise.

An engine is a pure object: no Flask, no Redis, no I/O, no randomness that is not passed in
(a seed in the state or the setup call). State is a plain JSON-compatible ``dict`` (the
*snapshot*); engines never mutate the state they are given, they return a new one.

Errors (all ``ValueError`` subclasses, each mapped to exactly one problem type by the API):

- :class:`InvalidSetup` — a setup body that cannot start a game (wrong player count, a card
  twice in an entered deal, an unknown option value).  HTTP 422 ``invalid-setup``.
- :class:`ImpossibleState` — a submitted snapshot that no legal game can reach (a card twice,
  coins that do not add up, wrong hand sizes).  HTTP 422 ``impossible-state``.
- :class:`IllegalAction` — a well-formed action the rules forbid now.  HTTP 422 ``illegal-action``
  with every violated rule.

They live in :mod:`referee.games.common.verdicts` (and are imported from here too).  Each
carries a list of :class:`Violation`: a rule ID (``AF-P3``), a message code and its params,
and where useful the offending field as a dotted path (``state.hands.ana[2]``).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Iterator

from referee.games.common.jsoncopy import json_copy
from referee.games.common.summary import generic
from referee.games.common.verdicts import (IllegalAction, ImpossibleState,  # noqa: F401
                                           InvalidSetup, Problems, RefereeError, Violation,
                                           violation)

REFEREE = "__referee__"
"""Viewer id for the referee (host) view, which sees everything."""

PUBLIC = None
"""Viewer id for the public (spectator) view."""

UNKNOWN = "unknown"
"""A face-down card the service was not told about (table mode)."""

MODES = ("digital", "table")


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its default, allowed values (``choices``) or type, and the rule it
    switches.  ``kind`` is one of ``"bool"``, ``"int"``, ``"str"``, ``"choice"``, ``"dict"``."""

    default: Any
    kind: str
    rule: str
    description: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The option as ``GET /v1/games/{game}`` shows it."""
        data = {"default": self.default, "type": self.kind, "rule": self.rule,
                "description": self.description}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


def event(kind: str, visible_to: list[str] | None = None, **data: Any) -> dict[str, Any]:
    """Build an event dict ``{"type": kind, **data}``.

    ``visible_to`` ``None`` makes it public; a list of players restricts it to those seats (and
    the referee).  Engines emit a public, redacted event plus a restricted one when only some
    seats may see a card.
    """
    ev = {"type": kind, **data}
    if visible_to is not None:
        ev["visible_to"] = sorted(visible_to)
    return ev


def event_visible(ev: dict[str, Any], viewer: str | None) -> bool:
    """True when ``viewer`` (a player, ``PUBLIC`` or ``REFEREE``) may see event ``ev``."""
    allowed = ev.get("visible_to")
    if allowed is None or viewer == REFEREE:
        return True
    return viewer is not None and viewer in allowed


class CheckedState(dict):
    """A snapshot the engine trusts: one that passed :meth:`Engine.check_snapshot`, or one an
    engine made (``setup``, ``apply``).  To everything else it is a plain ``dict`` (JSON,
    equality, schemas).  The engine's public methods check a plain ``dict`` first and trust a
    ``CheckedState``, so a request checks its snapshot once, at the boundary.

    Never change one in place: copy it (a copy, ``copy.deepcopy`` or ``json_copy``, is a
    plain ``dict`` and is checked again)."""

    __slots__ = ()

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        return copy.deepcopy(dict(self), memo)


class Engine:
    """A game engine: the checked public path, implemented once, over small per-game hooks.

    Public methods (what the API, the match service and the tests call) take a snapshot,
    check it once (:meth:`accept`) unless it is a :class:`CheckedState`, then call
    the game's hook of the same name with a leading underscore, which trusts its state:

    ============================  ==========================================================
    public                        hook (trusts a checked state)
    ============================  ==========================================================
    ``setup(body, seed)``         ``_setup`` (returns the first state)
    ``opening(body, seed)``       ``_opening`` (the first state and its events)
    ``check_snapshot(state)``     ``_check_snapshot`` (raise :class:`ImpossibleState`);
                                  ``accept`` also returns a :class:`CheckedState`
    ``legal_actions(state, p)``   ``_legal_actions(state, p)``
    ``violations(state, a)``      ``_violations(state, a)``
    ``apply(state, a)``           ``_violations``, ``_working_copy``, ``_play`` (in place)
    ``score(state)``              ``_score``
    ``is_over(state)``            ``_is_over``
    ``to_move(state)``            ``_to_move``
    ``view(state, viewer)``       ``_view``
    ``reshuffle_hidden(state,     ``_working_copy``, ``_reshuffle_hidden`` (in place)
    seed)``
    ``summary(state, viewer)``    ``_summary`` (phase, awaiting, score, outcome)
    ============================  ==========================================================

    Attributes:
        name: registry name (``"all-fours"``), used in URLs.
        title: human name.
        min_players / max_players: allowed player counts.
        rules_version: version of ``shared/rules/<game>.md`` implemented.
        options: ``{name: OptionSpec}``.
        vocabulary / dispatch: the game's actions, declared once (``<game>/vocabulary.py``),
            and ``{action type: its rules}`` covering them exactly (``vocabulary.dispatch``).
    """

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    rules_version: str = "1"
    options: dict[str, OptionSpec] = {}
    player_counts: tuple[int, ...] = ()
    """Allowed player counts when not every count from min to max is (All Fours: 2 or 4)."""
    vocabulary: Any = None
    dispatch: dict[str, Any] = {}
    dealt_fields: tuple[str, ...] = ()
    """Setup fields that are facts of one deal (an entered ``deal``, All Fours' table ``kick``,
    Spy's ``bases``): a rematch deals afresh without them (its body may enter new ones)."""
    reserved_names: dict[str, Violation] = {}
    """Names this game forbids to players (compared by ``referee.schemas.fields.name_key``:
    case and compatibility forms folded), each with the violation (rule and code; the setup
    boundary adds ``field`` and ``name``) that refuses it."""

    # --- the checked public path ---------------------------------------------------------
    def setup(self, body: dict[str, Any], seed: int | str | None) -> CheckedState:
        """Start a game from a validated setup body; ``seed`` drives every shuffle.

        ``body`` holds ``players``, ``options`` (already completed with defaults by
        :meth:`resolve_options`), ``mode`` and the game's own fields (an entered ``deal``...).
        Returns the initial state.  Raises :class:`InvalidSetup`.
        """
        return CheckedState(self._setup(body, seed))

    def opening(self, body: dict[str, Any], seed: int | str | None
                ) -> tuple[CheckedState, list[dict]]:
        """:meth:`setup` and the events its first deal makes (All Fours scores the kick at
        once, AF-K1, and may end the game): a match logs them at version 1."""
        state, events = self._opening(body, seed)
        return CheckedState(state), events

    def check_snapshot(self, state: dict[str, Any]) -> None:
        """Check a submitted snapshot, always (even a :class:`CheckedState`).  Raises
        :class:`ImpossibleState` listing every inconsistency (the rule IDs are the game's)."""
        self._check_snapshot(state)

    def accept(self, state: dict[str, Any]) -> CheckedState:
        """The boundary's entry: :meth:`check_snapshot`, then ``state`` as a
        :class:`CheckedState` that the other methods trust (no second check)."""
        self.check_snapshot(state)
        return state if type(state) is CheckedState else CheckedState(state)

    def checked(self, state: dict[str, Any]) -> CheckedState:
        """``state`` itself when it is a :class:`CheckedState`, else :meth:`accept`."""
        return state if type(state) is CheckedState else self.accept(state)

    def legal_actions(self, state: dict[str, Any], player: str | None = None) -> list[dict]:
        """Every legal action now, of ``player`` or (``None``) of every player.

        For free-form fields too large to enumerate (e.g. an answer text) one action per
        distinct legal shape.  Raises :class:`ImpossibleState` for an unchecked bad snapshot.
        """
        return self._legal_actions(self.checked(state), player)

    def violations(self, state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
        """Every rule ``action`` breaks in ``state``, each with its rule ID; empty when legal.
        Raises :class:`ImpossibleState` for an unchecked bad snapshot."""
        return self._violations(self.checked(state), action)

    def apply(self, state: dict[str, Any], action: dict[str, Any]
              ) -> tuple[CheckedState, list[dict]]:
        """Apply a legal action to one working copy of ``state`` (the input is never
        changed); return ``(new_state, events)``.  Events holding a card some seats may not
        see carry ``visible_to``.  Raises :class:`IllegalAction` with every violation,
        :class:`ImpossibleState` for an unchecked bad snapshot."""
        state = self.checked(state)
        work = CheckedState(self._working_copy(state))
        return work, self.play_in_place(work, action)

    def play_in_place(self, state: dict[str, Any], action: dict[str, Any]) -> list[dict]:
        """The unchecked inner step: judge ``action`` against ``state`` (trusted, not checked)
        and apply it to ``state`` itself; return the events.  For a caller that owns its state
        and plays many actions on it.  Raises
        :class:`IllegalAction`."""
        found = self._violations(state, action)
        if found:
            raise IllegalAction(found)
        return self._play(state, action)

    def score(self, state: dict[str, Any]) -> dict[str, Any]:
        """Score so far: at least ``points`` (this hand/round, per side or player), ``totals``
        (the match so far) and ``winner`` (side/player or ``None``)."""
        return self._score(self.checked(state))

    def is_over(self, state: dict[str, Any]) -> bool:
        """True when the game (the whole match to its target) has ended."""
        return self._is_over(self.checked(state))

    def to_move(self, state: dict[str, Any]) -> list[str]:
        """Players who may act now (several in an open window)."""
        return self._to_move(self.checked(state))

    def view(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """What ``viewer`` may see: a player's seat view, ``PUBLIC`` or ``REFEREE``.  A seat view
        never holds a card that seat may not see; the referee view is the whole state."""
        return self._view(self.checked(state), viewer)

    def reshuffle_hidden(self, state: dict[str, Any], seed: int | str) -> CheckedState:
        """A rollback's reshuffle (README "Disputes"): a new state in which every face-down
        order that nobody may know — Coup's court deck, All Fours' stock, Gnoming's draw pile
        with the face-down layout cards — is dealt afresh from ``seed``: its cards put in one
        fixed order (sorted), then shuffled by ``seed``, so the new order depends on the cards
        and ``seed`` alone, never on the order any seat saw before.  ``seed`` also drives every
        later shuffle of the game (it becomes the state's seed).  A seat's own cards (a hand, a
        base, a card drawn) stay where they are, and so does every count and every public
        fact: no seat view and no public view changes.  Table mode returns the state
        unchanged: the service never knows those orders (they are ``"unknown"``).  The input
        is never changed.  Raises :class:`ImpossibleState` for an unchecked bad snapshot."""
        state = self.checked(state)
        work = CheckedState(self._working_copy(state))
        if work["mode"] != "table":
            self._reshuffle_hidden(work, seed)
        return work
    def summary(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """What a match view's envelope says of the game for ``viewer`` (issue 22), the same
        shape in every game (:mod:`referee.games.common.summary`): ``{"phase": str (``"over"``
        once over), "awaiting": {"code", "params"} (what the game waits for), "score": the
        running score, "outcome": None | {"winners", "sides", "reason": {"code", "params"}}}``.
        Like a view it depends only on what ``viewer`` may see."""
        return self._summary(self.checked(state), viewer)

    def hidden_places(self, state: dict[str, Any], viewer: str | None
                      ) -> Iterator[tuple[Any, tuple]]:
        """The places of ``state`` that ``viewer`` may not see, as ``(pool, path)``: ``path``
        the keys from the state's root to a card (``("hands", "ana", 2)``), ``pool`` the
        group whose cards it could be exchanged with without any view changing (a deck, a
        base).  The conformance suite scrambles them and asserts no view changes."""
        return iter(())

    def repair_hidden(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        """Bring fields no view shows in line after hidden cards were exchanged (default:
        nothing to do)."""

    def conserved(self, state: dict[str, Any]) -> dict[str, Any]:
        """What no action changes (e.g. the cards in play, the coins), compared by the
        conformance suite before and after every action; default nothing."""
        return {}

    # --- the hooks: each trusts a checked state --------------------------------------------
    def _setup(self, body: dict[str, Any], seed: int | str | None) -> dict[str, Any]:
        raise NotImplementedError

    def _opening(self, body: dict[str, Any], seed: int | str | None
                 ) -> tuple[dict[str, Any], list[dict]]:
        return self._setup(body, seed), []  # a setup that scores nothing, ends nothing

    def _check_snapshot(self, state: dict[str, Any]) -> None:
        raise NotImplementedError

    def _legal_actions(self, state: dict[str, Any], player: str | None) -> list[dict]:
        raise NotImplementedError

    def _violations(self, state: dict[str, Any], action: dict[str, Any]) -> list[Violation]:
        raise NotImplementedError

    def _working_copy(self, state: dict[str, Any]) -> dict[str, Any]:
        """The copy ``apply`` changes: by default a JSON-structure copy of the whole state
        (games override it to share what an action never changes)."""
        return json_copy(state)

    def _play(self, state: dict[str, Any], action: dict[str, Any]) -> list[dict]:
        raise NotImplementedError

    def _reshuffle_hidden(self, state: dict[str, Any], seed: int | str) -> None:
        """Reshuffle, in place, a digital-mode state's face-down orders nobody may know
        (:meth:`reshuffle_hidden`); default: the game has none (Spy: every hidden card lies
        in a base its holder sees, SPY-S2)."""

    def _score(self, state: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def _is_over(self, state: dict[str, Any]) -> bool:
        raise NotImplementedError

    def _to_move(self, state: dict[str, Any]) -> list[str]:
        raise NotImplementedError

    def _view(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def _summary(self, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        return generic(self, state)  # a game that declares no summary of its own

    # --- shared helpers ------------------------------------------------------------------
    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Return ``given`` completed with defaults; raise :class:`InvalidSetup` on an unknown
        option or a value of the wrong type or out of its choices."""
        given = dict(given or {})
        problems = []
        resolved = {}
        for key in given:
            if key not in self.options:
                problems.append(violation("OPTIONS", "options.unknown", f"options.{key}",
                                          option=key, game=self.name,
                                          known=", ".join(sorted(self.options))))
        for key, spec in self.options.items():
            value = given.get(key, spec.default)
            problem = _option_problem(key, spec, value)
            if problem:
                problems.append(problem)
            resolved[key] = json_copy(value)  # options are JSON: scalars, lists, dicts
        if problems:
            raise InvalidSetup(problems)
        return resolved

    def describe(self) -> dict[str, Any]:
        """The registry entry shown by ``GET /v1/games``."""
        return {"name": self.name, "title": self.title,
                "players": {"min": self.min_players, "max": self.max_players,
                            "counts": list(self.player_counts or
                                           range(self.min_players, self.max_players + 1))},
                "modes": list(MODES), "rules_version": self.rules_version,
                "options": {k: v.to_dict() for k, v in self.options.items()}}


def _option_problem(key: str, spec: OptionSpec, value: Any) -> Violation | None:
    where = f"options.{key}"
    if spec.kind == "bool" and not isinstance(value, bool):
        return violation(spec.rule, "options.not_bool", where, option=key)
    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return violation(spec.rule, "options.not_int", where, option=key)
        if spec.minimum is not None and value < spec.minimum:
            return violation(spec.rule, "options.below_minimum", where, option=key,
                             minimum=spec.minimum)
        if spec.maximum is not None and value > spec.maximum:
            return violation(spec.rule, "options.above_maximum", where, option=key,
                             maximum=spec.maximum)
    if spec.kind in ("str", "choice") and not isinstance(value, str) and value is not None:
        return violation(spec.rule, "options.not_str", where, option=key)
    if spec.kind == "choice" and value not in spec.choices:
        return violation(spec.rule, "options.not_a_choice", where, option=key,
                         choices=", ".join(map(str, spec.choices)))
    if spec.kind == "dict" and not isinstance(value, dict):
        return violation(spec.rule, "options.not_object", where, option=key)
    return None


def each_card(cards: list, *prefix: Any) -> Iterator[tuple[str, tuple]]:
    """``("cards", (*prefix, i))`` for each index of ``cards``: hidden places of one pool."""
    return (("cards", (*prefix, i)) for i in range(len(cards)))
