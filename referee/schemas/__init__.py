"""marshmallow schemas: the HTTP contract of every request and response body.

``common`` holds the shared envelopes and fields; ``<game>.py`` each game's setup, state and
action schemas (exposed to the API through ``referee.registry``); ``fastcheck`` the compiled
loaders that stand in for them where they are certain to agree.

Layer 1.  May import: ``referee.games``, and its own layer: ``referee.store``, ``referee.i18n``,
``referee.rulebook``, ``referee.schemas``, ``referee.registry``, ``referee.ops``,
``referee.refusals``, ``referee.json_digits``; never ``referee.matches``, ``referee.api`` or
``referee.serving`` (``tests/test_layers.py``).
"""
