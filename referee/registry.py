"""The game registry: the only wiring.  One :class:`GameEntry` per game carries everything the
game adds; the app (blueprints), the stateless and match endpoints (host-only actors), the
contract generator (schemas, examples) and the test suites (conformance, hidden cards) loop
over :data:`GAMES`.

Adding a game means its engine package ``referee/games/<game>/``, its schema module
``referee/schemas/<game>.py`` and one entry in ``_entries`` below (docs/adding-a-game.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from referee.games.base import Engine


@dataclass(frozen=True)
class GameEntry:
    """A registered game.

    Attributes:
        engine: the pure engine (the protocol of :class:`referee.games.base.Engine`, whose
            ``hidden_places`` declares what each seat may not see).
        schemas: module exposing ``SetupSchema``, ``StateSchema`` and ``ACTION_SCHEMAS``
            (``{action type: Schema class}``).
        blueprint: ``"module:attribute"`` of a flask-smorest blueprint with the game's own
            endpoints (All Fours' trick-sheet ``score``), registered by ``create_app``; or
            ``None``.
        host_actors: ``player`` names of host-only actions (Coup's ``"host"`` closing a
            window): accepted as ``player`` by legal-actions, acted for by the host token.
        tables: player counts the suites play (default: every allowed count).
        example_setup: a setup body for documentation and smoke tests (players at least).
    """

    engine: Engine
    schemas: ModuleType
    blueprint: str | None = None
    host_actors: tuple[str, ...] = ()
    tables: tuple[int, ...] = ()
    example_setup: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The registry name (``"all-fours"``)."""
        return self.engine.name

    def player_counts(self) -> tuple[int, ...]:
        """The player counts the suites play: ``tables`` or every count the engine allows."""
        engine = self.engine
        return self.tables or engine.player_counts or tuple(
            range(engine.min_players, engine.max_players + 1))


def _entries() -> list[GameEntry]:
    from referee.games.allfours.engine import ENGINE as ALLFOURS
    from referee.games.coup.engine import ENGINE as COUP
    from referee.games.gnoming.engine import ENGINE as GNOMING
    from referee.games.spy.engine import ENGINE as SPY
    from referee.schemas import allfours, coup, gnoming, spy

    return [
        GameEntry(ALLFOURS, allfours, blueprint="referee.api.allfours:blp",
                  example_setup={"players": ["ana", "ben"], "dealer": "ana"}),
        GameEntry(GNOMING, gnoming, blueprint="referee.api.gnoming:blp",
                  example_setup={"players": ["ana", "ben", "cy"]}),
        GameEntry(COUP, coup, host_actors=COUP.vocabulary.host_actors,
                  example_setup={"players": ["ana", "ben", "cy"]}),
        GameEntry(SPY, spy, example_setup={"players": ["ana", "ben", "cy"]}),
    ]


def register(entry: GameEntry) -> GameEntry:
    """Add ``entry`` to :data:`GAMES` (a game is wired by this alone); returns it."""
    GAMES[entry.name] = entry
    return entry


GAMES: dict[str, GameEntry] = {}
for _entry in _entries():
    register(_entry)
