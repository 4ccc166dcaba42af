"""The rulebook's answers (``GET /v1/games/{game}/rules`` and ``.../rules/{rule_id}``)."""
from __future__ import annotations

from marshmallow import Schema, fields


class RuleSchema(Schema):
    """One rule of the rulebook, in the negotiated language."""

    id = fields.String(required=True, metadata={"description": "rule ID, e.g. COUP-A2"})
    title = fields.String(required=True)
    text = fields.String(required=True, metadata={"description": "the rule in full"})
    section = fields.String(required=True, metadata={"description": "section key, e.g. "
                                                     "actions"})
    section_title = fields.String(required=True)
    source = fields.String(required=True, metadata={
        "description": "seed (the Burmese seed document says it), official (the publisher's "
        "or standard rules) or decision (the project's reading)",
        "enum": ["seed", "official", "decision"]})
    also = fields.List(fields.String(), required=True, metadata={
        "description": "further source tags of parts of the rule"})
    options = fields.List(fields.String(), required=True, metadata={
        "description": "the setup options that switch this rule (GET /v1/games/{game})"})
    beyond_seed = fields.String(required=True, allow_none=True, metadata={
        "description": "where the rule goes beyond its Burmese seed document (a decision or "
        "the publisher's rule, not a translation), or null"})


class OneRuleSchema(RuleSchema):
    """One rule, with its game and the language of its texts."""

    game = fields.String(required=True)
    language = fields.String(required=True, metadata={"description": "en or my (also the "
                                                      "Content-Language header)"})


class RulebookSchema(Schema):
    """A game's whole rulebook, in the negotiated language."""

    game = fields.String(required=True)
    title = fields.String(required=True)
    language = fields.String(required=True, metadata={"description": "en or my (also the "
                                                      "Content-Language header)"})
    rules = fields.List(fields.Nested(RuleSchema), required=True)
