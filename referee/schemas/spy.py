"""Spy request bodies (``shared/rules/spy.md``, "Setup body" and "Vocabulary").

Types only: the engine (``referee.games.spy``) decides what is legal and possible and cites the
rule (a Bomb 2 in a 3-player base is SPY-S1, a blue 2-player game SPY-S1…), so card names,
colours and answers are plain strings here.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.games.spy.vocabulary import VOCABULARY
from referee.schemas.fields import List, Mode, Options, PlayerName, Players, Seats, Seed
from referee.schemas.vocabulary import action_schemas


def _strict_int(**kwargs) -> fields.Integer:
    return fields.Integer(strict=True, **kwargs)


class LayoutSchema(Schema):
    """An arranged base (SPY-S2): ``cards`` from the holder's left, Spy excluded (7 with 2
    players, 6 with 3–4; ``"unknown"`` allowed in table mode), the Spy's ``spy_gap`` (it sits
    just left of ``cards[spy_gap]``) and ``facing``."""

    cards = List(fields.String(), required=True)
    spy_gap = _strict_int(required=True)
    facing = fields.String(required=True, metadata={"description": "left or right"})


class SetupSchema(Schema):
    """``POST /v1/games/spy/setup``: 2–4 players in seat (clockwise) order, options (mirror,
    card_moves, top_secret_2_eliminates, first_player), mode, optional ``colours`` (default
    green, red, blue, yellow in seat order) and either ``bases`` for every player or a
    ``seed`` to deal them from."""

    players = Players(2, 4)
    options = Options()
    mode = Mode()
    seed = Seed()
    colours = Seats(fields.String())
    bases = Seats(fields.Nested(LayoutSchema))


class BaseSchema(LayoutSchema):
    """A base in play: the layout plus what is public about it."""

    exposed = List(_strict_int(), required=True,
                          metadata={"description": "positions, in exposure order (SPY-R3)"})
    lit = List(_strict_int(), required=True,
                      metadata={"description": "positions of lit bombs (SPY-R4)"})
    candidates = List(List(fields.String()), required=True, metadata={
        "description": "per position, the cards public facts still allow"})
    declared = List(_strict_int(allow_none=True), required=True, metadata={
        "description": "per position, the number declared moving off it while hidden (SPY-C3)"})


class PendingSchema(Schema):
    """A table-mode spy waiting for the defender's answer."""

    attacker = PlayerName(required=True)
    defender = PlayerName(required=True)
    position = _strict_int(required=True)


class TurnSchema(Schema):
    """The turn in progress: its player, the actions done (SPY-T1) and a pending spy."""

    player = PlayerName(required=True)
    done = List(fields.String(), required=True)
    pending = fields.Nested(PendingSchema, required=True, allow_none=True)


class StateSchema(Schema):
    """A Spy snapshot as returned by setup/apply (types only; ``check_snapshot`` decides whether
    it is possible — see ``referee/games/spy/snapshot.py``)."""

    game = fields.String(required=True, validate=validate.Equal("spy"))
    rules_version = fields.String(required=True)
    mode = Mode(required=True)
    seed = Seed(required=True, allow_none=True)
    options = fields.Dict(required=True)
    players = List(PlayerName(), required=True)
    colours = Seats(fields.String(), required=True)
    bases = Seats(fields.Nested(BaseSchema), required=True)
    eliminated = List(PlayerName(), required=True)
    winner = PlayerName(required=True, allow_none=True)
    turn = fields.Nested(TurnSchema, required=True, allow_none=True)
    log = List(fields.Dict(), required=True,
                      metadata={"description": "every public event so far"})


ACTION_SCHEMAS: dict[str, type[Schema]] = action_schemas(VOCABULARY, {})
"""One Schema per action declared in ``referee/games/spy/vocabulary.py``."""
