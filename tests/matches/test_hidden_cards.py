"""No seat view, public view or event log of a match ever carries a card its reader may not
see — for every registered game (All Fours hands dealt by AF-D3, COUP-V1, SPY-S2, GN-V1).

Each engine declares the *places* in a full state that a reader may not see
(``Engine.hidden_places``: another seat's hand, the stock or court deck, face-down cards…),
written from the rules' view sections, each with the pool of places its card could be swapped
with (Spy: its base); a game added to the registry is covered without a line here.
At every step of a random match played through the API:

- **views**: the view the API serves a reader must equal the game's view of a *scramble* of
  the state: the cards in the places hidden from that reader dealt around those places again
  so that every place holds another card wherever the cards allow it.  A view that held, or
  depended on, a hidden card would change.  The same holds for the view in the action
  response.  (The scramble keeps every card count, so engines that check the state first
  still accept it.)
- **event logs**: each seat's log is exactly the logged events that are public or list that
  seat in ``visible_to``; the public log has only public events; the public twin of a
  restricted event (``base.event``: the same event without the secret) lacks the fields the
  restricted one adds.  In All Fours, where every card is
  unique, no event a reader may see names a card still hidden from that reader.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from referee.i18n.answers import localize_event, localize_view
from referee.registry import GAMES
from tests.conformance_checks import _get, scrambled

Path = tuple

TABLES = [(game, ["ana", "ben", "cy", "dee", "eli"][:count])
          for game, entry in sorted(GAMES.items())
          for count in sorted({entry.player_counts()[0],
                               entry.player_counts()[len(entry.player_counts()) // 2]})]
"""Every registered game at its smallest table and a middle one (Coup 2 and 5, Spy 2 and 3):
the places hidden from each reader are the engine's own declaration (``hidden_places``)."""

STEPS = 120
"""Actions per match (fewer when it ends first): enough for several turns of every kind."""


def expected_view(game: str, state: dict, viewer: str | None) -> tuple[dict, int]:
    """What the API must serve ``viewer`` (the game's view of the scrambled state, without
    the seed), and how many hidden places the scramble changed."""
    other, changed = scrambled(GAMES[game].engine, state, viewer)
    view = GAMES[game].engine.view(other, viewer)
    return localize_view({key: value for key, value in view.items() if key != "seed"},
                         "en"), changed


def leaves(data: Any) -> Iterator[Any]:
    """Every scalar inside ``data``."""
    if isinstance(data, dict):
        for value in data.values():
            yield from leaves(value)
    elif isinstance(data, list):
        for value in data:
            yield from leaves(value)
    else:
        yield data


def check_events(match, readers: list[str | None]) -> None:
    """Each reader's log is the logged events it may see, each happening once: a public event
    followed by its restricted twin reaches a reader of the twin as the twin alone (COUP-V1);
    public twins hide the secret."""
    logged = match.client.application.extensions["referee.store"].events(match.id)
    for reader in readers + ["host"]:
        viewer = "__referee__" if reader == "host" else reader
        served = match.events(reader)
        expected = []
        for i, ev in enumerate(logged):
            following = logged[i + 1] if i + 1 < len(logged) else {}
            if "visible_to" in ev and viewer != "__referee__" and viewer not in ev["visible_to"]:
                continue  # not this reader's to see
            if ("visible_to" not in ev and following.get("type") == ev["type"]
                    and "visible_to" in following
                    and (viewer == "__referee__" or viewer in following["visible_to"])):
                continue  # this reader gets the twin, with the secret, instead
            expected.append(localize_event(ev, "en"))  # a reason message as its sentence
        assert served == expected, reader
    for i, secret in enumerate(logged):
        twin = logged[i - 1] if i else {}
        if "visible_to" not in secret or twin.get("type") != secret["type"]:
            continue
        # A restricted event follows its public twin (base.event): the twin is the same
        # event without the secret part, and the secret part is really missing from it.
        assert "visible_to" not in twin, (twin, secret)
        assert all(secret.get(key) == value for key, value in twin.items()
                   if key != "seq"), (twin, secret)
        assert set(secret) - set(twin) - {"visible_to"}, (twin, secret)


@pytest.mark.parametrize("game, players", TABLES)
def test_no_view_or_event_log_shows_a_hidden_card(client, table, game, players):
    if game not in GAMES:
        pytest.skip(f"{game} is not registered in this build")
    match = table.create(client, game=game, players=players, seed=11)
    readers: list[str | None] = [*players, None]
    rng = random.Random(11)
    store = client.application.extensions["referee.store"]
    changed = 0
    for _ in range(STEPS):
        state = store.load(match.id)["state"]
        for reader in readers:
            expected, moved = expected_view(game, state, reader)
            assert match.read(reader)["view"] == expected, reader
            changed += moved
        acted = match.step(rng)
        if acted is None:
            break
        if match.last_actor != "host":
            after = store.load(match.id)["state"]
            assert acted["view"] == expected_view(game, after, match.last_actor)[0]
        if game == "all-fours":
            _check_allfours_events(match, readers, acted["version"])
    check_events(match, readers)
    assert changed > 100  # the scrambles did move many hidden cards


def _check_allfours_events(match, readers, version) -> None:
    """AF: cards are unique, so no event of this action a reader sees may name a card still
    in another player's hand or in the stock afterwards."""
    state = match.read("host")["view"]
    for reader in readers:
        hidden = {_get(state, path) for _, path in
                  GAMES["all-fours"].engine.hidden_places(state, reader)}
        events = match.events(reader)
        for ev in (ev for ev in events if ev["version"] == version):
            assert not hidden & set(leaves(ev)), (reader, ev)


def test_the_referee_view_is_the_whole_state_but_the_seed(client, table):
    match = table.create(client, game="all-fours", players=["ana", "ben"], seed=5)
    state = GAMES["all-fours"].engine.setup(
        {"players": ["ana", "ben"], "mode": "digital",
         "options": GAMES["all-fours"].engine.resolve_options({})}, 5)
    assert match.read("host")["view"] == {k: v for k, v in state.items() if k != "seed"}
