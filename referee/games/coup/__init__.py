"""Coup (French edition "Complots"): the rules of ``shared/rules/coup.md``; the engine is
``referee.games.coup.engine.ENGINE``."""
