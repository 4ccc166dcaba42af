"""The rulebook served: every rule of a game, or one, in the negotiated language.

Texts come from ``referee/rulebook/<game>.yaml`` (read once per process); ``Accept-Language:
my`` answers Burmese, anything else English (``Content-Language`` says which).
"""
from __future__ import annotations

from referee.api.errors import PROBLEM_MIMETYPE, Problem, ProblemSchema
from referee.api.parsing import Blueprint
from referee.i18n.negotiation import language
from referee.matches.loading import game_entry
from referee.rulebook import FILES, Book, book
from referee.schemas.rules import OneRuleSchema, RulebookSchema

LANGUAGE_DOC = {"parameters": [{
    "in": "header", "name": "Accept-Language", "required": False, "schema": {"type": "string"},
    "description": "en (default) or my (Burmese); quality values honoured, e.g. "
                   "'my;q=0.9, en;q=0.5'; anything else answers English"}]}
LANGUAGE_HEADERS = {"Content-Language": {"description": "the language of the texts: en or my",
                                         "schema": {"type": "string", "enum": ["en", "my"]}}}

blp = Blueprint("rules", __name__, url_prefix="/v1/games",
                description="The rulebook of each game (every rule ID with its title, text, "
                "source tag and switching options), in English or Burmese (Accept-Language).")


@blp.route("/<game>/rules")
@blp.doc(**LANGUAGE_DOC)
@blp.response(200, RulebookSchema, headers=LANGUAGE_HEADERS)
@blp.alt_response(404, description="unknown-game: no game is registered by this name",
                  schema=ProblemSchema, content_type=PROBLEM_MIMETYPE)
def rules(game):
    """Every rule of ``game``, in file order, in the negotiated language.

    Answer: ``{"game", "title", "language", "rules": [{"id", "title", "text", "section",
    "section_title", "source", "also", "options"}]}``.  Errors: 404 ``unknown-game``; 404
    ``not-found`` for a game registered without a rulebook."""
    return _book(game).answer(language())


@blp.route("/<game>/rules/<rule_id>")
@blp.doc(**LANGUAGE_DOC)
@blp.response(200, OneRuleSchema, headers=LANGUAGE_HEADERS)
@blp.alt_response(404, description="unknown-game, or not-found naming rule_id when the game's "
                  "rulebook has no such rule", schema=ProblemSchema, content_type=PROBLEM_MIMETYPE)
def rule(game, rule_id):
    """One rule of ``game`` by its exact ID (e.g. ``COUP-A8b``), in the negotiated language.

    Answer: the rule's fields plus ``game`` and ``language``.  Errors: 404 ``unknown-game``;
    404 ``not-found`` naming ``rule_id`` when the rulebook has no such rule."""
    game_book = _book(game)
    found = game_book.rule(rule_id)
    if found is None:
        raise Problem("not-found", f"The {game} rulebook has no rule {rule_id!r}.",
                      errors=[{"field": "rule_id", "message": f"no rule {rule_id!r} in this "
                               "game"}])
    lang = language()
    return {**found.to_dict(lang, game_book.sections[found.section][lang]), "game": game,
            "language": lang}


def _book(game: str) -> Book:
    game_entry(game)
    if game not in FILES:
        raise Problem("not-found", f"The game {game!r} has no rulebook in this build.",
                      errors=[{"field": "game", "message": "no rulebook"}])
    return book(game)
