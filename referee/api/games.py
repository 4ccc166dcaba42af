"""Stateless endpoints, generic over every registered game.

The client carries the whole snapshot: ``setup`` returns it, ``apply`` returns the next one.
Every snapshot sent back is type-checked (the game's ``StateSchema``) and checked for
possibility (the engine's ``check_snapshot``) before any rule is applied.
"""
from __future__ import annotations


from flask import current_app, g
from flask.views import MethodView

from referee.api.errors import MAX_LISTED, PROBLEM_MIMETYPE, Problem, ProblemSchema
from referee.api.parsing import Blueprint, json_object
from referee.i18n.answers import localize_game, violation_answer
from referee.matches.loading import game_entry, load_setup, load_state, load_state_and_action
from referee.registry import GAMES
from referee.games.common.grouping import in_form
from referee.schemas.common import (ActionRequestSchema, ApplyResponseSchema, GameSchema,
                                    LegalActionsQuerySchema, LegalActionsRequestSchema,
                                    LegalActionsResponseSchema, ReshuffleRequestSchema,
                                    ReshuffleResponseSchema, SetupResponseSchema,
                                    ValidateResponseSchema)

blp = Blueprint("games", __name__, url_prefix="/v1/games",
                description="The registered games.  Each game's stateless endpoints (setup, "
                "legal actions, validate, apply, reshuffle) are listed under the game's own "
                "tag.")


@blp.url_value_preprocessor
def _known_game(endpoint, values) -> None:
    """``/v1/games/{game}/…`` of a game not registered is 404 ``unknown-game`` before its body
    is read, on every endpoint alike (a body's 422 would say less)."""
    if values and "game" in values:
        game_entry(values["game"])


def _snapshot(entry, body: dict):
    """The body's ``state``, checked once (:func:`referee.matches.loading.load_state`), told whether
    the request guard saw a NaN or an infinity in the body (then it is never remembered)."""
    return load_state(entry, body["state"], finite=not g.get("json_nonfinite"))


def _snapshot_and_action(entry, body: dict):
    """The body's ``state`` and ``action``, every wrong field of both named in one answer in
    the order the request sent them (:func:`referee.matches.loading.load_state_and_action`)."""
    return load_state_and_action(entry, body, finite=not g.get("json_nonfinite"),
                                 sent=g.get("json_body"))


def _written(answer: dict):
    """``answer`` written as it is by the app's JSON provider: the response schema of the view
    (``@blp.response``) would dump it unchanged (issue 11: the views build exactly its fields,
    types and order; ``tests/api/test_stateless_answers.py`` compares the two)."""
    return current_app.json.response(answer)


def _problems(description: str) -> dict:
    return {"description": description, "schema": ProblemSchema,
            "content_type": PROBLEM_MIMETYPE}


_SNAPSHOT = ("invalid-input (wrong types, naming each field) or impossible-state (a snapshot "
             "no legal game reaches, naming the field and rule)")
_ACTION = ("invalid-input (wrong types or an unknown action type: every wrong field of state "
           "and action in one answer, in the order the request holds them) or "
           "impossible-state (a snapshot of the right types that no legal game reaches, beside "
           "a valid action: naming the field and rule)")


def describe(name: str) -> dict:
    """A registry entry as shown by the API, its title and option descriptions in the
    negotiated language."""
    entry = game_entry(name)
    return {**localize_game(entry.engine.describe()),
            "actions": list(entry.schemas.ACTION_SCHEMAS)}


@blp.route("")
class Games(MethodView):
    """The list of registered games."""

    @blp.response(200, GameSchema(many=True))
    def get(self):
        """List the registered games: name, player counts, options with defaults, rules version."""
        return [describe(name) for name in GAMES]


@blp.route("/<game>")
class Game(MethodView):
    """One registered game."""

    @blp.response(200, GameSchema)
    @blp.alt_response(404, **_problems("unknown-game: no game is registered by this name"))
    def get(self, game):
        """Describe one game (404 ``unknown-game`` if it is not registered)."""
        return describe(game)


@blp.route("/<game>/setup", methods=["POST"])
@blp.response(200, SetupResponseSchema)
@blp.alt_response(422, **_problems("invalid-input (types) or invalid-setup (rule ID and field)"))
def setup(game):
    """Start a game: players, options, mode and a seed or an entered deal → the first snapshot
    and the events its deal made (All Fours: the deal, the kick and its points, AF-K1).

    Body: the game's setup schema (see ``GET /v1/games/{game}`` and the rules file's "Setup
    body").  Without ``seed`` the service draws a 256-bit seed (64 hex digits).
    Errors: 422 ``invalid-input`` (types), 422 ``invalid-setup`` (rule ID and field).
    """
    entry = game_entry(game)
    body, seed = load_setup(entry, json_object())
    state, events = entry.engine.opening(body, seed)
    return {"state": state, "events": events}


@blp.route("/<game>/legal-actions", methods=["POST"])
@blp.arguments(LegalActionsRequestSchema)
@blp.arguments(LegalActionsQuerySchema, location="query", as_kwargs=True)
@blp.response(200, LegalActionsResponseSchema)
@blp.alt_response(422, **_problems(_SNAPSHOT + "; a form other than flat or grouped, naming "
                                   "query.form"))
def legal_actions(body, game, form="flat"):
    """Every legal action now, of ``player`` or of every player (``{"state", "player"?}``):
    ``actions``, one entry each, and with ``?form=grouped`` also ``groups``, one per action
    type with each field's choices and the illegal combinations (for pickers:
    :mod:`referee.games.common.grouping`).

    ``player`` must be seated in the state (or one of the game's host actors, such as Coup's
    ``"host"`` who closes windows): 422 ``invalid-input`` naming ``player`` otherwise; a
    ``form`` other than ``flat`` or ``grouped``: 422 naming ``query.form``."""
    entry = game_entry(game)
    state = _snapshot(entry, body)
    player = body.get("player")
    if player is not None and player not in entry.host_actors and player not in state["players"]:
        raise Problem("invalid-input", f"{player!r} is not a player in this state.",
                      errors=[{"field": "player", "message": "not seated in this state"}])
    return _written(in_form({"actions": entry.engine.legal_actions(state, player),
                             "to_move": entry.engine.to_move(state)}, form))


@blp.route("/<game>/validate", methods=["POST"])
@blp.arguments(ActionRequestSchema)
@blp.response(200, ValidateResponseSchema)
@blp.alt_response(422, **_problems(_ACTION))
def validate(body, game):
    """Judge an action without applying it: ``legal`` and every rule broken (rule ID, the rule's
    title from the rulebook, sentence), in the negotiated language; the first 50,
    ``violation_count`` in all."""
    entry = game_entry(game)
    state, action = _snapshot_and_action(entry, body)
    found = entry.engine.violations(state, action)
    g.referee_verdict = [v.rule for v in found]  # counted by referee.ops.hooks
    return _written({"legal": not found,
                     "violations": [violation_answer(v) for v in found[:MAX_LISTED]],
                     "violation_count": len(found)})


@blp.route("/<game>/apply", methods=["POST"])
@blp.arguments(ActionRequestSchema)
@blp.response(200, ApplyResponseSchema)
@blp.alt_response(422, **_problems(_ACTION + "; illegal-action with violations when the "
                                  "rules forbid it"))
def apply(body, game):
    """Apply an action: the new snapshot, the events and the score.

    422 ``illegal-action`` with ``violations`` (rule ID + sentence each) when the rules forbid
    it; the state sent is then unchanged.
    """
    entry = game_entry(game)
    state, action = _snapshot_and_action(entry, body)
    new_state, events = entry.engine.apply(state, action)
    return _written({"state": new_state, "events": events,
                     "score": entry.engine.score(new_state),
                     "over": entry.engine.is_over(new_state)})


@blp.route("/<game>/reshuffle", methods=["POST"])
@blp.arguments(ReshuffleRequestSchema)
@blp.response(200, ReshuffleResponseSchema)
@blp.alt_response(422, **_problems(_SNAPSHOT.replace(" or ", ", ") + ", or invalid-input "
                                   "naming seed"))
def reshuffle(body, game):
    """A rollback's reshuffle, as a match's audit replays it (``{"version", "reshuffle"}``
    steps): the snapshot with every face-down order nobody may know — Coup's court deck, All
    Fours' stock, Gnoming's draw pile with the face-down layout cards — dealt afresh from
    ``seed``, which also drives the game's later shuffles; every seat's cards, every count and
    every public fact unchanged.  A table-mode snapshot (and Spy, which has no such order)
    comes back as it was.

    Errors: 422 ``invalid-input`` (types; a seed that is not a non-negative integer or a
    string of 1–128 characters), 422 ``impossible-state``."""
    entry = game_entry(game)
    state = _snapshot(entry, body)
    return _written({"state": entry.engine.reshuffle_hidden(state, body["seed"])})
