"""The match service: a whole table plays one game through it, and the store keeps the match.

A move goes *guard → load → engine → store → feed*: :mod:`.callers` (whose token, what they
may see and do) and :mod:`.idempotency` (a retried request applied once) guard it,
:mod:`.loading` parses and checks the body (:mod:`.checked_memo`: snapshots already passed),
:mod:`.service` (:class:`~referee.matches.service.MatchService`) applies it with the game's
engine and commits it to the store at the version it was chosen at, with its events
(:mod:`.history`: one entry per commit); :mod:`.live` then pushes it to every stream and
long-poll waiting on the match, each reader getting what it may see (:mod:`.reading`).
:mod:`.disputes` takes moves back (rollbacks approved by the table).  :mod:`.creation` makes
new matches (open seats, idempotent creation), :mod:`.seating` lets seats join and rejoin
(invite codes from :mod:`.codes`, claims, re-issued tokens, host recovery) and :mod:`.sealed`
encrypts the kept answers that hold tokens.

Layer 2.  May import: ``referee.games``, ``referee.store``, ``referee.i18n``,
``referee.rulebook``, ``referee.schemas``, ``referee.registry``, ``referee.ops``,
``referee.refusals``, ``referee.json_digits``; never ``referee.api`` or ``referee.serving``:
no Flask request here (``tests/test_layers.py``).
"""
