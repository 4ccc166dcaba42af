"""The game registry: one entry per game, binding its engine to its marshmallow schemas.

Adding a game means adding its engine package ``referee/games/<game>/``, its schema module
``referee/schemas/<game>.py`` and one line in ``GAMES`` below.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from referee.games.base import Engine


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its pure ``engine`` and its ``schemas`` module, which exposes
    ``SetupSchema``, ``StateSchema`` and ``ACTION_SCHEMAS`` (``{action type: Schema class}``)."""

    engine: Engine
    schemas: ModuleType


def _entries() -> dict[str, GameEntry]:
    from referee.games.allfours.engine import ENGINE as ALLFOURS
    from referee.schemas import allfours as allfours_schemas
    from referee.games.gnoming.engine import ENGINE as GNOMING
    from referee.schemas import gnoming as gnoming_schemas
    from referee.games.coup.engine import ENGINE as COUP
    from referee.schemas import coup as coup_schemas
    from referee.games.spy.engine import ENGINE as SPY
    from referee.schemas import spy as spy_schemas

    entries = [GameEntry(ALLFOURS, allfours_schemas)]
    entries.append(GameEntry(GNOMING, gnoming_schemas))
    entries.append(GameEntry(COUP, coup_schemas))
    entries.append(GameEntry(SPY, spy_schemas))
    return {entry.engine.name: entry for entry in entries}


GAMES: dict[str, GameEntry] = _entries()
