"""Card knowledge: what each reader knows of the face-down cards, and what an ``"unknown"``
card may still be (COUP-X1, judged by what the reader may know: COUP-V1).

In digital mode every card is known and matching a named card is an exact match.  In table
mode a named character matches a known copy of the pool first; failing that, an unknown card,
provided the copies of that character the *reader* knows to be elsewhere are fewer than the
game has.  What a reader knows (:func:`accounted`):

- every face-up card (public);
- the named cards it may see: a seat its own hand, its own 2-player pile and its own
  exchange's draw; the host (``"host"``, the referee) every named card of the state;
- its *knowledge records* ``state["knowledge"][reader]``: ``{"card", "places"}``, one copy of
  ``card`` that is in one of ``places`` (player names or ``"court"``), each record a card
  distinct from the named cards the reader sees.  They keep what a shuffle would otherwise
  forget: a proven card (public, COUP-C4) or an examined card swapped (Inquisitor and owner,
  COUP-A8b) is in the court deck or with whoever drew from it since; an examined card given
  back is in its owner's hand (Inquisitor, COUP-A8b); a card an exchanger returned is in the
  court deck (the exchanger, COUP-A7/A8a); a court deck entered at setup stays known to the
  host after it is shuffled.

A seat's move is judged by that seat's knowledge only: what it was never shown cannot refuse
it (a refusal would tell it the hidden card).  A move the host's fuller knowledge contradicts
is accepted and recorded in ``state["disputes"]`` (host view only; the host may roll it back):
``{"turn", "player", "action", "card", "place", "reader", "rule": "COUP-X1", "known",
"copies"}`` — ``reader`` is whose knowledge it contradicts: the host's, or a seat's that saw
the card named but could not have refused the move.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from referee.games.base import UNKNOWN
from referee.games.coup.rules import HOST, characters_in_game, copies_per_character

COURT = "court"
"""The place of the court deck in knowledge records."""


def card_locations(state: dict[str, Any]) -> Iterable[list[str]]:
    """Yield every list of cards of the state: hands, face-up cards, the court deck, the
    2-player piles and an exchange's draw (each card lives in exactly one of them)."""
    yield from state["hands"].values()
    yield from state["revealed"].values()
    yield state["court"]
    yield from state["piles"].values()
    yield state["turn"]["drawn"]


def readers(state: dict[str, Any]) -> list[str]:
    """Who holds knowledge records: every seat and the host (COUP-X1)."""
    return [*state["players"], HOST]


def _seen_named(state: dict[str, Any], reader: str) -> Iterable[list[str]]:
    """The card lists whose named cards ``reader`` may see (COUP-V1)."""
    if reader == HOST:
        yield from card_locations(state)
        return
    yield from state["revealed"].values()
    yield state["hands"][reader]
    yield state["piles"].get(reader, [])
    if state["turn"]["player"] == reader:
        yield state["turn"]["drawn"]


def accounted(state: dict[str, Any], reader: str, place: str) -> Counter:
    """The copies of each character ``reader`` knows cannot be an unknown card of ``place``
    (a player's hand, ``"court"`` or ``"pile"``): the named cards it sees and its records of
    cards elsewhere (COUP-X1)."""
    counts: Counter = Counter()
    for cards in _seen_named(state, reader):
        counts.update(c for c in cards if c != UNKNOWN)
    for record in state["knowledge"].get(reader, ()):
        if place not in record["places"]:
            counts[record["card"]] += 1
    return counts


def possible_characters(state: dict[str, Any], reader: str, place: str) -> list[str]:
    """The characters an unknown card of ``place`` may still be, to ``reader``."""
    copies = copies_per_character(len(state["players"]))
    known = accounted(state, reader, place)
    return [c for c in characters_in_game(state["options"]["exchanger"]) if known[c] < copies]


def take_cards(state: dict[str, Any], pool: list[str], named: list[str], reader: str,
               place: str) -> tuple[list[str], list[str], list[str]] | None:
    """Take the ``named`` cards out of ``pool`` (the cards of ``place``), as ``reader`` judges
    it (COUP-X1).

    Returns ``(rest of the pool, cards taken, the named characters taken from unknown
    cards)`` or ``None`` when, to ``reader``, the pool cannot hold them.  ``"unknown"`` names
    an unknown card."""
    rest = list(pool)
    taken: list[str] = []
    by_unknown = []
    for card in named:
        if card != UNKNOWN and card in rest:
            rest.remove(card)
            taken.append(card)
        else:
            by_unknown.append(card)
    copies = copies_per_character(len(state["players"]))
    known = accounted(state, reader, place) if by_unknown else Counter()
    allowed = set(characters_in_game(state["options"]["exchanger"])) | {UNKNOWN}
    from_unknown = []
    for card in by_unknown:
        if UNKNOWN not in rest or card not in allowed:
            return None
        if card != UNKNOWN:
            if known[card] >= copies:
                return None
            known[card] += 1
            from_unknown.append(card)
        rest.remove(UNKNOWN)
        taken.append(card)
    return rest, taken, from_unknown


def can_take(state: dict[str, Any], pool: list[str], named: list[str], reader: str,
             place: str) -> bool:
    """True when :func:`take_cards` can take ``named`` out of ``pool``, to ``reader``."""
    return take_cards(state, pool, named, reader, place) is not None


def nameable_cards(state: dict[str, Any], pool: list[str], reader: str, place: str) -> list[str]:
    """Return, sorted, every card name one card of ``pool`` may be given, to ``reader``: its
    known cards and, for an unknown card, every still possible character (COUP-X1)."""
    names = {c for c in pool if c != UNKNOWN}
    if UNKNOWN in pool:
        names.update(possible_characters(state, reader, place))
    return sorted(names)


def take(state: dict[str, Any], pool: list[str], named: list[str], mover: str, place: str,
         action: str, seen_by: tuple[str, ...] | None = None
         ) -> tuple[list[str], list[str], list[str]]:
    """Take the cards of a legal move by ``mover`` (judged by its knowledge, see
    :func:`take_cards`).  Each named card that a reader who sees it named (``seen_by``, all
    readers when ``None``; the host always) knows cannot be in ``place`` is recorded in
    ``state["disputes"]``, naming that reader (COUP-X1)."""
    result = take_cards(state, pool, named, mover, place)
    assert result is not None, "a legal move takes cards its mover may hold"
    if state["mode"] == "table":
        copies = copies_per_character(len(state["players"]))
        witnesses = readers(state) if seen_by is None else [*seen_by, HOST]
        for reader in witnesses:
            if reader == mover:
                continue
            # the host sees the mover's named cards; any other seat sees every card named
            cards = result[2] if reader == HOST else [c for c in named if c != UNKNOWN]
            known = accounted(state, reader, place) if cards else Counter()
            for card in cards:
                if known[card] >= copies:
                    state["disputes"].append({
                        "turn": state["turn"]["number"], "player": mover, "action": action,
                        "card": card, "place": place, "reader": reader, "rule": "COUP-X1",
                        "known": known[card], "copies": copies})
                known[card] += 1
    return result


# --- keeping the records (table mode only) ---------------------------------------------------
def _records(state: dict[str, Any], reader: str) -> list[dict[str, Any]] | None:
    return state["knowledge"].get(reader) if state["mode"] == "table" else None


def learn(state: dict[str, Any], reader: str, card: str, places: list[str]) -> None:
    """``reader`` knows one more copy of ``card`` in one of ``places``."""
    records = _records(state, reader)
    if records is not None:
        records.append({"card": card, "places": sorted(places)})


def forget_one(state: dict[str, Any], reader: str, card: str, place: str) -> None:
    """A copy of ``card`` came out of ``place`` in ``reader``'s sight: drop the record it may
    be (the one with the fewest places, the most telling: what remains is the least)."""
    records = _records(state, reader)
    if not records:
        return
    fits = [r for r in records if r["card"] == card and place in r["places"]]
    if fits:
        records.remove(min(fits, key=lambda r: len(r["places"])))


def revealed_publicly(state: dict[str, Any], place: str, card: str, from_unknown: bool) -> None:
    """Everyone saw ``card`` come out of ``place`` face up (a proof, C4; a loss, L1).  The host
    and the owner drop a record only when the card was unknown to them (a named card is not
    one of their records)."""
    for reader in readers(state):
        if reader in (HOST, place) and not from_unknown:
            continue
        forget_one(state, reader, card, place)


def named_privately(state: dict[str, Any], place: str, cards: list[str],
                    also: tuple[str, ...] = ()) -> None:
    """The owner of ``place`` named unknown ``cards`` (now known to the host and the owner, and
    to the seats ``also`` who were shown them)."""
    for card in cards:
        for reader in (HOST, place, *also):
            forget_one(state, reader, card, place)


def spread(state: dict[str, Any], source: str, target: str) -> None:
    """Cards of ``source`` may now be in ``target`` (a draw from the court deck, an exchange's
    return): every record with ``source`` among its places gains ``target``."""
    if state["mode"] != "table":
        return
    for records in state["knowledge"].values():
        for record in records:
            if source in record["places"] and target not in record["places"]:
                record["places"] = sorted([*record["places"], target])


def drop_place(state: dict[str, Any], place: str) -> None:
    """``place`` holds no face-down card any more (COUP-L2): no record can be there."""
    if state["mode"] != "table":
        return
    for reader, records in state["knowledge"].items():
        kept = []
        for record in records:
            places = [p for p in record["places"] if p != place]
            if places:
                kept.append({"card": record["card"], "places": places})
        state["knowledge"][reader] = kept


def forget_court_order(state: dict[str, Any]) -> None:
    """A shuffle at a table: nobody knows the order; the host keeps each named card of the
    court deck as a record (COUP-X1)."""
    for card in state["court"]:
        if card != UNKNOWN:
            learn(state, HOST, card, [COURT])
    state["court"] = [UNKNOWN] * len(state["court"])


def empty_knowledge(players: list[str], mode: str) -> dict[str, list]:
    """The knowledge records of a new game: none (``{}`` in digital mode, where every card is
    known)."""
    return {r: [] for r in [*players, HOST]} if mode == "table" else {}
