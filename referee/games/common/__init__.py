"""Pieces shared by several games: cards and card sets, seats and their rotation, seeded
shuffles, options, verdicts (:class:`Violation`), quoting a value inside a message.

May import: the standard library and ``referee.games.common`` (as all of ``referee.games``).
"""
