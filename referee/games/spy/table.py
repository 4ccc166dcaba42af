"""What is publicly known about the hidden cards of a base, and whether it still adds up.

Each base keeps, besides its cards, two lists built from public facts only:

- ``candidates[i]``: the cards position ``i`` may still hold given every answer, exposure, shown
  bomb and (when numbers are known) declared move so far.  Public: every seat may see it.
- ``declared[i]``: the movement number declared when the holder's Spy moved off position ``i``
  while that card was hidden (``None`` if never), SPY-C3: the same hidden card is always declared
  with the same number.

A base is *consistent* when its cards can be arranged so that every position holds one of its
candidates and, where the card is known, that card: a perfect matching of positions to the
base's cards (each card once).  Table mode rejects any answer or declared number after which
no such arrangement exists (spy.md, "Table mode").
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from referee.games.base import UNKNOWN
from referee.games.common.card_sets import distinct_in
from referee.games.spy.rules import BOMBS, CARD_TYPE, EXPOSURE_ORDER, SAFE, TOP_SECRET

ANSWERS = ("safe", "top_secret", "exposed", "tsss", "lit_bomb", "already_exposed")
"""The defender's answers (spy.md, Vocabulary); ``exposed`` and ``lit_bomb`` name the card."""
CARD_ANSWERS = ("exposed", "lit_bomb")


def initial_knowledge(deck: Sequence[str]) -> dict[str, list]:
    """Return ``{"candidates", "declared"}`` of a base nobody has learnt anything about."""
    return {"candidates": [list(deck) for _ in deck], "declared": [None for _ in deck]}


def exposure_target(base: Mapping[str, Any]) -> str | None:
    """Return the defender's current exposure target, ``None`` once all four are exposed
    (SPY-R1: Safe 1 → Safe 2 → Top Secret 1 → Top Secret 2, the same for every attacker)."""
    count = len(base["exposed"])
    return EXPOSURE_ORDER[count] if count < len(EXPOSURE_ORDER) else None


def answer_allows(answer: str, target: str | None, card: str | None) -> set[str]:
    """Return the cards a hidden, unexposed position may hold after ``answer`` (SPY-R2…R5).

    ``safe``/``top_secret``: a card of that type that is not the current target (the target
    would have been exposed, SPY-R3).  ``tsss``: a bomb (SPY-R4).  ``exposed``/``lit_bomb``: the
    named ``card``.  ``already_exposed`` teaches nothing.
    """
    if answer in (SAFE, TOP_SECRET):
        return {c for c, kind in CARD_TYPE.items() if kind == answer and c != target}
    if answer == "tsss":
        return set(BOMBS)
    if answer in CARD_ANSWERS:
        return {card} if card else set()
    return set(CARD_TYPE)


def steps_allow(steps: int, numbers: Mapping[str, int]) -> set[str]:
    """Return the cards whose movement number may be ``steps`` (unknown numbers allow any)."""
    return {card for card in CARD_TYPE if numbers.get(card, steps) == steps}


def domains(base: Mapping[str, Any]) -> list[set[str]]:
    """Return, per position, the cards it may hold: its candidates, cut to the known card."""
    out = []
    for card, cands in zip(base["cards"], base["candidates"]):
        allowed = set(cands)
        if card != UNKNOWN:
            allowed &= {card}
        out.append(allowed)
    return out


def has_arrangement(position_domains: Sequence[Iterable[str]], deck: Sequence[str]) -> bool:
    """True when every position can get a different card of ``deck`` from its domain."""
    doms = [[c for c in deck if c in d] for d in map(set, position_domains)]
    if len(doms) != len(deck):
        return False
    if all(len(d) == 1 for d in doms):  # every card known: they must all differ
        return len({d[0] for d in doms}) == len(doms)
    return _arrangement(doms) is not None


def base_has_arrangement(base: Mapping[str, Any], deck: Sequence[str]) -> bool:
    """``has_arrangement(domains(base), deck)``, answered at once when every card of the base
    is known, once each, a card of ``deck`` among its position's candidates (digital mode):
    the one arrangement is then the cards themselves, and it fits.  Any other base is worked
    out by :func:`has_arrangement` (``tests/spy/test_arrangement_fast.py`` compares both)."""
    cards, cands = base["cards"], base["candidates"]
    if (len(cards) == len(deck) == len(cands) and distinct_in(cards, frozenset(deck), False)
            and all(card in options for card, options in zip(cards, cands))):
        return True
    return has_arrangement(domains(base), deck)


def _arrangement(doms: Sequence[Sequence[str]]) -> dict[int, str] | None:
    """One arrangement ``{position: card}`` (each card once, from each domain), or ``None``.

    Kuhn's augmenting-path matching; a base has at most 7 positions.
    """
    owner: dict[str, int] = {}

    def place(pos: int, seen: set[str]) -> bool:
        for card in doms[pos]:
            if card in seen:
                continue
            seen.add(card)
            if card not in owner or place(owner[card], seen):
                owner[card] = pos
                return True
        return False

    if not all(place(pos, set()) for pos in range(len(doms))):
        return None
    return {pos: card for card, pos in owner.items()}


def narrowed(base: Mapping[str, Any], position: int, allowed: Iterable[str],
             deck: Sequence[str]) -> list[list[str]]:
    """Return the base's candidates with position ``position`` cut to ``allowed``, then every
    position cut to the cards some arrangement fitting all candidates gives it (from public
    facts only: the base's hidden cards are not consulted).

    A card stays at a position when the position holds it in one arrangement found, or when
    giving it there leaves an arrangement of the rest: with one arrangement known, that is
    when the card leads back to the position through an alternating path (from the card to
    the position holding it in the arrangement, from there to another of that position's
    candidates, and so on), the classical test of an edge in some perfect matching."""
    allowed = set(allowed)
    cands = [[c for c in deck if c in set(cs)] for cs in base["candidates"]]
    cands[position] = [c for c in cands[position] if c in allowed]
    found = _arrangement(cands) if len(cands) == len(deck) else None
    if found is None:
        return cands
    reach = _reachable(cands, found)
    return [cs if len(cs) == 1 else [c for c in cs if c == found[pos] or pos in reach[c]]
            for pos, cs in enumerate(cands)]


def _reachable(cands: Sequence[Sequence[str]], found: Mapping[int, str]
               ) -> dict[str, set[int]]:
    """Per card, the positions an alternating path reaches from it: the card's position in
    ``found``, then any position holding in ``found`` another candidate of a position reached."""
    holder = {card: pos for pos, card in found.items()}
    out: dict[str, set[int]] = {}
    for card in holder:
        seen: set[int] = set()
        todo = [holder[card]]
        while todo:
            pos = todo.pop()
            if pos in seen:
                continue
            seen.add(pos)
            todo += [holder[c] for c in cands[pos] if c != found[pos]]
        out[card] = seen
    return out


def stays_consistent(base: Mapping[str, Any], position: int, allowed: Iterable[str],
                     deck: Sequence[str]) -> bool:
    """True when the base still has an arrangement after cutting ``position`` to ``allowed``."""
    allowed = set(allowed)
    trial = domains(base)
    trial[position] &= allowed
    return has_arrangement(trial, deck)
