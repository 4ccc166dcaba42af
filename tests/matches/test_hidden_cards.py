"""No seat view, public view or event log of a match ever carries a card its reader may not
see — for every registered game (All Fours hands dealt by AF-D3, COUP-V1, SPY-S2, GN-V1).

Each game has an adapter below naming the *places* in a full state that a reader may not see
(another seat's hand, the stock or court deck, face-down cards…), written from the rules'
view sections, each with the pool of places its card could be swapped with (Spy: its base).
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

import copy
import random
from typing import Any, Callable, Iterator

import pytest

from referee.games.base import ImpossibleState
from referee.registry import GAMES

Path = tuple


def _each(seq: list, *prefix) -> Iterator[tuple[str, Path]]:
    return (("cards", (*prefix, i)) for i in range(len(seq)))


def allfours_hidden(state: dict, viewer: str | None) -> Iterator[Path]:
    """Other players' hands and the stock (AF views: other hands only as counts)."""
    for player, hand in state["hands"].items():
        if player != viewer:
            yield from _each(hand, "hands", player)
    yield from _each(state["stock"], "stock")


def allfours_repair(before: dict, after: dict) -> None:
    """Keep ``dealt`` (never shown until the hand is scored) consistent with scrambled hands:
    each player was dealt what they now hold plus what they played (AF-S1's state check)."""
    for player, hand in after["hands"].items():
        played = [c for c in before["dealt"][player] if c not in before["hands"][player]]
        after["dealt"][player] = list(hand) + played


def coup_hidden(state: dict, viewer: str | None) -> Iterator[Path]:
    """COUP-V1: other players' face-down influence, the court deck, other seats' 2-player
    piles, an exchange's draw (but to the exchanger), an examined card (but to the Inquisitor
    and its owner)."""
    for player, hand in state["hands"].items():
        if player != viewer:
            yield from _each(hand, "hands", player)
    yield from _each(state["court"], "court")
    for player, pile in state["piles"].items():
        if player != viewer:
            yield from _each(pile, "piles", player)
    turn = state["turn"]
    if viewer != turn["player"]:
        yield from _each(turn["drawn"], "turn", "drawn")
    target = (turn["action"] or {}).get("target")
    if turn["shown"] is not None and viewer not in (turn["player"], target):
        yield "cards", ("turn", "shown")


def spy_hidden(state: dict, viewer: str | None) -> Iterator[Path]:
    """SPY-S2: every unexposed card of another player's base."""
    for player, base in state["bases"].items():
        if player != viewer:
            for position in range(len(base["cards"])):
                if position not in base["exposed"]:
                    yield player, ("bases", player, "cards", position)


def gnoming_hidden(state: dict, viewer: str | None) -> Iterator[Path]:
    """GN-V1: face-down layout cards (from everyone, owner included), the draw pile, the
    discard piles but their tops, and a card drawn from the draw pile (but to its drawer)
    until it is placed."""
    for player, grid in state["layouts"].items():
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if not cell["up"]:
                    yield "cards", ("layouts", player, r, c, "card")
    yield from _each(state["draw_pile"], "draw_pile")
    for j, pile in enumerate(state["discard_piles"]):
        yield from _each(pile[:-1], "discard_piles", j)
    turn = state["turn"]
    if (turn["holding"] is not None and turn["source"] == "draw_pile" and not turn["filled"]
            and viewer != turn["player"]):
        yield "cards", ("turn", "holding")


HIDDEN: dict[str, Callable[[dict, str | None], Iterator[tuple[Any, Path]]]] = {
    "all-fours": allfours_hidden, "coup": coup_hidden, "spy": spy_hidden,
    "gnoming": gnoming_hidden}

REPAIR: dict[str, Callable[[dict, dict], None]] = {"all-fours": allfours_repair}
"""Per game: bring state the scramble does not touch (and no view shows) into line."""

TABLES = [("all-fours", ["ana", "ben", "cy", "dee"]), ("coup", ["ana", "ben"]),
          ("coup", ["ana", "ben", "cy", "dee"]), ("spy", ["ana", "ben", "cy"]),
          ("gnoming", ["ana", "ben", "cy"])]

STEPS = 120
"""Actions per match (fewer when it ends first): enough for several turns of every kind."""



def _get(state: Any, path: Path) -> Any:
    for key in path:
        state = state[key]
    return state


def _set(state: Any, path: Path, value: Any) -> None:
    _get(state, path[:-1])[path[-1]] = value


def scrambled(game: str, state: dict, viewer: str | None) -> tuple[dict, int]:
    """``state`` with the cards in the places hidden from ``viewer`` moved round those places
    (within each pool the adapter names), and how many places now hold another card.

    First try: within each pool, sort the places by card and shift by the largest number of
    equal cards, which gives each place another card whenever the cards allow.  A game may
    refuse that (Spy: a card must fit everything its base's answers told), so then pairs of
    places are swapped one by one, each swap kept when the game's state check accepts it."""
    pools: dict[Any, list[Path]] = {}
    for pool, path in HIDDEN[game](state, viewer):
        pools.setdefault(pool, []).append(path)
    out = copy.deepcopy(state)
    for paths in pools.values():
        cards = [_get(state, path) for path in paths]
        order = sorted(range(len(paths)), key=lambda i: str(cards[i]))
        shift = max(cards.count(c) for c in cards)
        for i, place in enumerate(order):
            _set(out, paths[place], cards[order[(i + shift) % len(order)]])
    if not _accepted(game, state, out):
        out = copy.deepcopy(state)
        for paths in pools.values():
            for i, first in enumerate(paths):
                for second in paths[i + 1:]:
                    a, b = _get(out, first), _get(out, second)
                    if a == b or a != _get(state, first) or b != _get(state, second):
                        continue
                    _set(out, first, b)
                    _set(out, second, a)
                    if not _accepted(game, state, out):
                        _set(out, first, a)
                        _set(out, second, b)
        _accepted(game, state, out)
    return out, sum(_get(out, p) != _get(state, p) for ps in pools.values() for p in ps)


def _accepted(game: str, before: dict, after: dict) -> bool:
    """Repair what no view shows, then ask the game's state check."""
    REPAIR.get(game, lambda _before, _after: None)(before, after)
    try:
        GAMES[game].engine.check_snapshot(after)
    except ImpossibleState:
        return False
    return True


def expected_view(game: str, state: dict, viewer: str | None) -> tuple[dict, int]:
    """What the API must serve ``viewer`` (the game's view of the scrambled state, without
    the seed), and how many hidden places the scramble changed."""
    other, changed = scrambled(game, state, viewer)
    view = GAMES[game].engine.view(other, viewer)
    return {key: value for key, value in view.items() if key != "seed"}, changed


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
    """Each reader's log is the logged events it may see; public twins hide the secret."""
    logged = match.get("host", "/events").get_json()["events"]
    for reader in readers:
        served = match.get(reader, "/events").get_json()["events"]
        assert served == [ev for ev in logged if "visible_to" not in ev or
                          (reader is not None and reader in ev["visible_to"])], reader
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
        hidden = {_get(state, path) for _, path in allfours_hidden(state, reader)}
        events = match.get(reader, "/events").get_json()["events"]
        for ev in (ev for ev in events if ev["version"] == version):
            assert not hidden & set(leaves(ev)), (reader, ev)


def test_the_referee_view_is_the_whole_state_but_the_seed(client, table):
    match = table.create(client, game="all-fours", players=["ana", "ben"], seed=5)
    state = GAMES["all-fours"].engine.setup(
        {"players": ["ana", "ben"], "mode": "digital",
         "options": GAMES["all-fours"].engine.resolve_options({})}, 5)
    assert match.read("host")["view"] == {k: v for k, v in state.items() if k != "seed"}
