"""Spy (Perplext): search the opponents' spy bases with your Spy card; rules of shared/rules/spy.md.

Modules: ``cards`` (the deck, exposure order, movement numbers), ``positions`` (the cyclic
position model), ``knowledge`` (what is publicly known about hidden cards, table-mode
consistency), ``setup``, ``snapshot`` (checks of a submitted state), ``answers`` (spying and its
answers), ``turn`` (a turn's actions), ``views`` and ``engine`` (the :class:`Engine`).
"""
