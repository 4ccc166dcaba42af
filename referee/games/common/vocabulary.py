"""A game's action vocabulary, declared once (issue #10 item 3): each action's ``type``, the
sentence that documents it, its fields (each a *kind* of value, required or not), the rule a
wrong shape cites and who sends it (a seat or the host).

Both sides are derived from the declaration: the marshmallow ``ACTION_SCHEMAS`` of
``referee/schemas/<game>.py`` (hence the OpenAPI and the JSON Schemas, see
``referee.schemas.vocabulary``) and the engine's shape check (:func:`check_shape`) and dispatch
tables (:func:`dispatch`).  Pure data and one checker: no Flask, no marshmallow.

A field kind names what a value is (``"player"``, ``"character"``, ``"card"``,
``"card_or_unknown"``, ``"cards"``, ``"bool"``, ``"int"``, ``"str"``, ``"choice"``, and a
game's own kinds such as Gnoming's ``"position"``); :data:`KINDS` gives the JSON types the
engine accepts for each, and a game adds or narrows kinds in its :class:`Vocabulary`.
"""
from __future__ import annotations

import functools

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

from referee.games.base import Violation, violation

SEAT = "seat"
"""An action a seated player sends (``player`` is one of the game's players)."""
HOST = "host"
"""An action of the host, not a seat: its ``player`` is ``"host"`` (Coup's ``close_window``,
COUP-W1).  The name is reserved: no player may take it."""


@dataclass(frozen=True)
class Kind:
    """What a value of a field kind is for the engine's shape check: the JSON types it takes
    (``bool`` is never an ``int``) and, where the game checks it at shape level, a predicate
    on the value (Gnoming's positions and cards).  Without one, the rules check the value and
    cite their own rule (Coup's COUP-S2 for a name that is no character)."""

    types: tuple[type, ...]
    valid: Callable[[Any], bool] | None = None

    def accepts(self, value: Any) -> bool:
        """True when ``value`` has one of :attr:`types` and passes :attr:`valid`."""
        if isinstance(value, bool) and bool not in self.types:
            return False
        if not isinstance(value, self.types):
            return False
        return self.valid is None or self.valid(value)


KINDS: Mapping[str, Kind] = MappingProxyType({
    "player": Kind((str,)), "character": Kind((str,)), "card": Kind((str,)),
    "card_or_unknown": Kind((str,)), "cards": Kind((list,)), "bool": Kind((bool,)),
    "int": Kind((int,)), "str": Kind((str,)), "choice": Kind((str,))})
"""The field kinds every game may use, with the JSON types the engine accepts."""


@dataclass(frozen=True)
class Phrase:
    """How a game words one kind of wrong shape: the rule it cites (``None``: the action's
    own rule), the message ``code``, and its params as ``{catalog param: fact}`` where a fact
    is one of ``"type"`` (the action's type), ``"value"`` (the offending value, quoted),
    ``"key"`` (the field's name, quoted), ``"known"`` (the action types, comma-separated),
    ``"players"`` (the players, comma-separated), ``"types"`` (the JSON types a field takes,
    ``"str or list"``) and ``"host"`` (the host's name, quoted); ``constants`` adds fixed
    params."""

    rule: str | None
    code: str
    params: Mapping[str, str] = field(default_factory=dict)
    constants: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FieldSpec:
    """One field of an action besides ``type`` and ``player``: its ``kind``, whether it is
    ``required``, for ``"choice"`` the allowed ``choices``, for ``"cards"`` the kind of its
    ``items`` and its allowed ``length`` (``(min, max)``), and the ``refusal`` that a wrong
    value cites when the game words it per field (Gnoming's GN-S1 for a bad position)."""

    kind: str
    required: bool = False
    choices: tuple = ()
    items: str | None = None
    length: tuple[int, int] | None = None
    refusal: Phrase | None = None


@dataclass(frozen=True)
class ActionSpec:
    """One action type: its ``type``, ``doc`` (the OpenAPI description), ``fields``, the
    ``rule`` a wrong shape of it cites, and its ``sender``: :data:`SEAT` or :data:`HOST`."""

    type: str
    doc: str
    fields: Mapping[str, FieldSpec] = field(default_factory=dict)
    rule: str | None = None
    sender: str = SEAT

    @functools.cached_property
    def keys(self) -> frozenset[str]:
        """Every key an action of this type may hold: ``type``, ``player`` and its fields."""
        return frozenset(("type", "player", *self.fields))


@dataclass(frozen=True)
class ShapeWords:
    """A game's wording of wrong shapes, each a :class:`Phrase` (the codes and rule IDs of
    its catalogs).  ``None`` leaves that check to the game's rules or to the API: All Fours'
    rules judge its cards (AF-D1), Spy's its steps and targets (SPY-M1, SPY-P1).
    ``quote`` renders a value quoted in a message."""

    unknown_type: Phrase
    not_a_player: Phrase
    not_object: Phrase | None = None
    not_host: Phrase | None = None
    unknown_field: Phrase | None = None
    bad_value: Phrase | None = None
    quote: Callable[[Any], str] = repr


@dataclass(frozen=True)
class Vocabulary:
    """A game's actions (:class:`ActionSpec`, in the order the API lists them), its wording
    of wrong shapes and its field kinds (:data:`KINDS` plus the game's own)."""

    actions: tuple[ActionSpec, ...]
    words: ShapeWords
    kinds: Mapping[str, Kind] = field(default_factory=lambda: KINDS)

    @functools.cached_property
    def types(self) -> tuple[str, ...]:
        """The action types, in declaration order."""
        return tuple(spec.type for spec in self.actions)

    @functools.cached_property
    def _by_type(self) -> dict[str, ActionSpec]:
        return {spec.type: spec for spec in self.actions}

    @property
    def host_actors(self) -> tuple[str, ...]:
        """``(HOST,)`` when some action is the host's (its ``player`` is ``"host"``), else
        ``()``: the registry's ``host_actors``."""
        return (HOST,) if any(spec.sender == HOST for spec in self.actions) else ()

    def spec(self, kind: Any) -> ActionSpec | None:
        """The :class:`ActionSpec` of type ``kind``, or ``None`` (any value)."""
        return self._by_type.get(kind) if isinstance(kind, str) else None

    def fields_of(self, kind: str) -> tuple[str, ...]:
        """The field names of action ``kind`` besides ``type`` and ``player``."""
        return tuple(self.spec(kind).fields)


def dispatch(vocabulary: Vocabulary, handlers: Mapping[str, Any]) -> dict[str, Any]:
    """``handlers`` (``{action type: handler}``) in declaration order, checked to cover the
    vocabulary exactly; raises ``ValueError`` naming a type declared without a handler or a
    handler of an undeclared type (so an engine cannot load with the two apart)."""
    missing = [t for t in vocabulary.types if t not in handlers]
    extra = [t for t in handlers if t not in vocabulary.types]
    if missing or extra:
        raise ValueError(f"dispatch differs from the vocabulary: no handler for {missing}, "
                         f"undeclared {extra}")
    return {t: handlers[t] for t in vocabulary.types}


def check_shape(vocabulary: Vocabulary, action: Any, players: list[str], *,
                rule: str | None = None) -> list[Violation]:
    """Every wrong shape of ``action`` in a game of ``players``, worded by the game's
    :class:`ShapeWords` (empty: the rules may judge it).  In order: not an object, or an
    unknown ``type`` (alone: nothing else can be read); a ``player`` who may not send it (a
    seat, or for a host action the host or a seat, whose rule then refuses it); each field
    the type does not have (sorted); each field value of the wrong kind, a missing required
    one counting as ``null``.  Fields are named ``action.<field>``; ``rule`` overrides the
    action's own rule (Coup's exchange return, COUP-A7 or COUP-A8a)."""
    words = vocabulary.words
    if not isinstance(action, dict):
        phrase = words.not_object or words.unknown_type
        return [_say(words, phrase, "action", None, value=None,
                     known=", ".join(vocabulary.types))]
    kind = action.get("type")
    spec = vocabulary.spec(kind)
    if spec is None:
        return [_say(words, words.unknown_type, "action.type", None, value=kind,
                     known=", ".join(vocabulary.types))]
    rule = rule or spec.rule
    found = []
    player = action.get("player")
    seated = isinstance(player, str) and player in players
    if spec.sender == HOST and not seated and player != HOST and words.not_host:
        found.append(_say(words, words.not_host, "action.player", rule, host=HOST))
    elif spec.sender == SEAT and not seated:
        found.append(_say(words, words.not_a_player, "action.player", rule, value=player,
                          players=", ".join(players)))
    if words.unknown_field is not None and not spec.keys.issuperset(action):
        for key in sorted((k for k in action if k not in spec.keys), key=str):
            found.append(_say(words, words.unknown_field, f"action.{key}", rule, type=kind,
                              key=key))
    for key, fspec in spec.fields.items():
        phrase = fspec.refusal or words.bad_value
        value = action.get(key)
        if phrase is None or (key not in action and not fspec.required):
            continue
        if not _fits(vocabulary, fspec, value):
            found.append(_say(words, phrase, f"action.{key}", rule, type=kind, key=key,
                              value=value, types=" or ".join(
                                  t.__name__ for t in vocabulary.kinds[fspec.kind].types)))
    return found


def _fits(vocabulary: Vocabulary, fspec: FieldSpec, value: Any) -> bool:
    if not vocabulary.kinds[fspec.kind].accepts(value):
        return False
    return not fspec.choices or value in fspec.choices


def _say(words: ShapeWords, phrase: Phrase, where: str, rule: str | None,
         **facts: Any) -> Violation:
    quoted = {name: words.quote(value) if name in ("value", "key", "host") else value
              for name, value in facts.items()}
    params = {param: quoted[fact] for param, fact in phrase.params.items()}
    return violation(phrase.rule or rule, phrase.code, where, **params, **phrase.constants)
