"""Information sets through the API (issue 12 item 2; AF views, GN-V1, SPY-S2): two matches
that differ only in cards hidden from a reader, driven by the same actions, give that reader
byte-identical answers — the match and its ``ETag``, the event log, its legal actions and the
problem body of every refused action it might try — in both modes of All Fours, Gnoming and
Spy.

The pair: a state reached by random play (0–12 actions from a seeded setup; Spy table mode with
every base entered, so the service knows cards the readers do not), and the same state with
the cards hidden from the reader dealt round again (``conformance_checks.scrambled``), each
written into a fresh match as its snapshot.  Both are then driven by the same actions; the
comparison stops when an action's public events differ (a visible move told the table
something) or an action the first match took is refused by the second (its mover knew
something the reader does not).  What necessarily differs between two matches — the match id
and the seed's commitment — is replaced by a placeholder before comparing.

Table-mode All Fours and Gnoming hold no card the service does not know publicly (face-down
cards are ``unknown``): there the pair is two matches with different seeds and the same
snapshot, so the answers must not depend on anything but the public record.
"""
from __future__ import annotations

import json
import random

import pytest

from referee.games.common.cards import PACK
from referee.registry import GAMES
from referee.games.base import ImpossibleState
from referee.games.common.jsoncopy import json_copy
from tests.conformance_checks import NAMES, _get, _set, scrambled

GAMES_HERE = ("all-fours", "gnoming", "spy")
STEPS = 20
"""Actions compared per pair at most (fewer when the matches part or the game ends)."""
PROBES = 8
"""Refused actions of the reader posted per step (a seeded sample of ``probes``)."""


def probes(game: str, state: dict, reader: str) -> list[dict]:
    """Action shapes ``reader`` might send now: every action listed for anyone, as the
    reader's, and each action type of the game with every card or place."""
    out = [{**a, "player": reader} for a in GAMES[game].engine.legal_actions(state)]
    if game == "all-fours":
        out += [{"type": t, "player": reader} for t in ("deal", "stand", "beg", "give_one",
                                                        "run_pack", "misdeal")]
        out += [{"type": t, "player": reader, "card": c} for t in ("play", "call", "expose")
                for c in PACK]
    elif game == "gnoming":
        cells = [[r, c] for r in range(3) for c in range(3)]
        out += [{"type": t, "player": reader, "position": p} for t in ("flip", "place")
                for p in cells]
        out += [{"type": "draw", "player": reader, "source": "draw_pile"},
                {"type": "discard", "player": reader}]
        out += [{"type": t, "player": reader, "source": "discard", "pile": i}
                for t in ("draw",) for i in (0, 1)]
        out += [{"type": "discard", "player": reader, "pile": i} for i in (0, 1)]
    else:
        from tests.spy.test_spy_information_sets import probes as spy_probes
        out += spy_probes(state, reader)
    unique = {json.dumps(a, sort_keys=True): a for a in out}
    return [unique[k] for k in sorted(unique)]


def _setup_body(game: str, mode: str, count: int, seed: int) -> dict:
    engine = GAMES[game].engine
    body = {"players": NAMES[:count], "mode": mode, "options": engine.resolve_options({})}
    if game == "spy" and mode == "table":  # every base entered: the defenders' truth
        dealt = engine.setup({**body, "mode": "digital"}, seed)
        body["bases"] = {p: {"cards": b["cards"], "spy_gap": b["spy_gap"],
                             "facing": b["facing"]} for p, b in dealt["bases"].items()}
    return body


def _random_state(game: str, mode: str, count: int, rng: random.Random) -> dict:
    """A state after a few random legal actions of a seeded setup."""
    engine = GAMES[game].engine
    state = engine.setup(_setup_body(game, mode, count, rng.randrange(1000)), rng.randrange(99))
    for _ in range(rng.randrange(13)):
        if engine.is_over(state):
            break
        state, _ = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return state


def one_swap(game: str, state: dict, reader: str, rng: random.Random) -> tuple[dict, int]:
    """``state`` with two cards hidden from ``reader`` exchanged (within one pool of
    ``hidden_places``, the state check still passing), and how many places changed (0 when no
    exchange passes): a pair that stays alike longer than a whole scramble."""
    engine = GAMES[game].engine
    pools: dict = {}
    for pool, path in engine.hidden_places(state, reader):
        pools.setdefault(pool, []).append(path)
    pairs = [(a, b) for paths in pools.values() for i, a in enumerate(paths)
             for b in paths[i + 1:] if _get(state, a) != _get(state, b)]
    for a, b in rng.sample(pairs, min(20, len(pairs))):
        other = json_copy(state)
        _set(other, a, _get(state, b))
        _set(other, b, _get(state, a))
        engine.repair_hidden(state, other)
        try:
            engine.check_snapshot(other)
        except ImpossibleState:
            continue
        return other, 2
    return json_copy(state), 0


def _match_with(client, table, game: str, state: dict, seed: int):
    """A new match of ``game`` whose state is ``state`` (written as its version 2)."""
    body = _setup_body(game, state["mode"], len(state["players"]), seed)
    match = table.create(client, game=game, seed=seed, **{
        k: v for k, v in body.items() if k != "options"})
    store = client.application.extensions["referee.store"]
    record = store.load(match.id)
    store.commit(match.id, 1, {**record, "state": state, "version": 2},
                 {"type": "snapshot"}, [], 3600)
    return match


def _text(match, response) -> str:
    """The answer as one text, the match's own id and commitment replaced."""
    body = response.get_data(as_text=True)
    for own in (match.id, match.created["commitment"]):
        body = body.replace(own, "<own>")
    return f"{response.status_code} {response.headers.get('ETag')} {body}"


def answers(match, reader: str, tried: list[dict], version: int) -> list[str]:
    """Everything ``reader`` can learn without moving: the match, events, legal actions and
    the answers to ``tried`` (actions the rules refuse, so nothing moves)."""
    out = [_text(match, match.get(reader)), _text(match, match.get(reader, "/events")),
           _text(match, match.get(reader, "/legal-actions"))]
    out += [_text(match, match.act(reader, action, version)) for action in tried]
    return out


def _public_events(response) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "seq"}
            for e in response.get_json()["events"] if "visible_to" not in e]


def compare_pair(client, table, game: str, first: dict, second: dict, reader: str,
                 rng: random.Random) -> int:
    """Drive matches of ``first`` and ``second`` with the same actions; assert ``reader``'s
    answers are identical at each step; return how many steps were compared."""
    engine = GAMES[game].engine
    one, two = (_match_with(client, table, game, s, seed) for s, seed in
                ((first, 3), (second, 3)))  # one deal: the version-1 events alike
    state, compared = engine.accept(first), 0
    for version in range(2, 2 + STEPS):
        shapes = [a for a in probes(game, state, reader) if engine.violations(state, a)]
        tried = rng.sample(shapes, min(PROBES, len(shapes)))
        assert answers(one, reader, tried, version) == answers(two, reader, tried, version), (
            game, state["mode"], reader, version)
        compared += 1
        if engine.is_over(state):
            break
        action = rng.choice(engine.legal_actions(state))
        actor = action["player"] if action["player"] in one.created["seats"] else "host"
        seen = len(one.get("host", "/events").get_json()["events"])
        done = one.act(actor, action, version)
        assert done.status_code == 200, done.get_json()
        if two.act(actor, action, version).status_code != 200:
            break  # the mover knew a card the reader does not: the matches part here
        after = f"/events?after={seen}"
        if _public_events(one.get(None, after)) != _public_events(two.get(None, after)):
            break  # a visible move told everyone something the two matches differ in
        state = engine.accept(client.application.extensions["referee.store"].load(
            one.id)["state"])
    return compared


CASES = [(game, mode, count) for game in GAMES_HERE for mode in ("digital", "table")
         for count in sorted({GAMES[game].player_counts()[0],
                              GAMES[game].player_counts()[-1]})]


@pytest.mark.parametrize("game, mode, count", CASES)
def test_a_reader_cannot_tell_two_matches_apart_by_cards_hidden_from_it(client, table, game,
                                                                         mode, count):
    rng = random.Random(f"{game}:{mode}:{count}")
    compared = moved = 0
    for i in range(4):
        first = _random_state(game, mode, count, rng)
        reader = rng.choice(first["players"])
        second, changed = (scrambled(GAMES[game].engine, first, reader) if i == 0 else
                           one_swap(game, first, reader, rng))
        moved += changed
        compared += compare_pair(client, table, game, first, second, reader, rng)
    assert compared >= 10, compared
    if mode == "digital" or game == "spy":  # the pairs really differed in hidden cards
        assert moved > 0


def test_the_pair_comparison_catches_a_refusal_that_names_a_hidden_card(client, table,
                                                                         monkeypatch):
    """Proof the comparison can fail: an All Fours refusal that says who holds the card
    (an injected leak, as ``card_known_elsewhere`` would in digital mode) is caught."""
    from referee.games.allfours import judge
    real = judge._holding

    def leaky(state, player, card):
        holder = next((p for p in state["players"] if card in state["hands"][p]), None)
        found = real(state, player, card)
        return [judge.violation(v.rule, v.code, v.field, **{**v.params, "player": holder})
                for v in found]
    monkeypatch.setattr(judge, "_holding", leaky)
    monkeypatch.setitem(globals(), "PROBES", 40)  # most refusals of a step tried
    with pytest.raises(AssertionError, match=r"\('all-fours', 'digital'"):
        test_a_reader_cannot_tell_two_matches_apart_by_cards_hidden_from_it(
            client, table, "all-fours", "digital", 2)
