"""The toy game's bodies (types only; the engine decides what is legal)."""
from __future__ import annotations

from marshmallow import Schema, fields

from referee.schemas.fields import Mode, Options, PlayerName, Players, Seed, action_schema


class SetupSchema(Schema):
    """``POST /v1/games/toy/setup``: 2–3 players, mode, seed."""

    players = Players(2, 3)
    options = Options()
    mode = Mode()
    seed = Seed()


class StateSchema(Schema):
    """A toy snapshot."""

    game = fields.String(required=True)
    mode = Mode(required=True)
    seed = Seed(required=True, allow_none=True)
    options = fields.Dict(required=True)
    players = fields.List(PlayerName(), required=True)
    hands = fields.Dict(keys=PlayerName(), values=fields.List(fields.String()), required=True)
    deck = fields.List(fields.String(), required=True)
    played = fields.Dict(keys=PlayerName(), values=fields.List(fields.String()), required=True)
    turn = PlayerName(required=True, allow_none=True)


ACTION_SCHEMAS: dict[str, type[Schema]] = {
    "play": action_schema("play", "Play a card face up (TOY-P1).",
                          card=fields.String(required=True)),
    "draw": action_schema("draw", "Draw the top card of the deck (TOY-D1)."),
}
