"""The rules of each game, pure: ``<game>/`` (``allfours``, ``coup``, ``gnoming``, ``spy``) one
package per game (vocabulary, rules, setup, judge, apply, table, snapshot, views, engine),
``base`` the engine interface every game implements, ``common`` what several games share
(cards, seats, seeded shuffles, verdicts, quoting a value in a message).

Layer 0, the lowest.  May import: the standard library, ``referee.games`` itself and orjson
(a deep copy of plain JSON data) — no Flask, no Redis, no schema library, no I/O, no
randomness that is not passed in (``tests/test_layers.py``).
"""
