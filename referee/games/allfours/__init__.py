"""All Fours (Trinidad rules): the rules of ``shared/rules/allfours.md``; the engine is
``referee.games.allfours.engine.ENGINE``.  The modules follow the layout of
``docs/adding-a-game.md``; besides it, ``sheet`` (the trick-sheet ``score`` endpoint's replay),
``consistency`` and ``record`` (more checks of a submitted snapshot)."""
