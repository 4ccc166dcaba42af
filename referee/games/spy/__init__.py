"""Spy (Perplext): search the opponents' spy bases with your Spy card; rules of shared/rules/spy.md.

The modules follow the layout of ``docs/adding-a-game.md``: ``rules`` (the deck, exposure order,
movement numbers), ``setup``, ``judge`` (who may act, violations, legal actions), ``apply`` (the
working copy, playing an action and the end of the turn), ``table`` (what is publicly known
about hidden cards, table-mode consistency), ``snapshot`` (checks of a submitted state),
``views``, ``vocabulary`` and ``engine`` (the :class:`Engine`); besides it, ``positions`` (the
cyclic position model), ``answers`` (spying and its answers), ``log`` (the log's events)
and ``replay`` (the log replayed move by move against the state).
"""
