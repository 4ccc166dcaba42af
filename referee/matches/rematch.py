"""A rematch: the next match of a finished one, the same table dealt afresh
(``POST /v1/matches/{id}/rematch``)."""
from __future__ import annotations

from typing import Any

from referee.matches.callers import Caller
from referee.matches.loading import game_entry, load_setup
from referee.matches.service import MatchService, public
from referee.refusals import Forbidden, InvalidInput, Refusal, StaleVersion
from referee.registry import GameEntry


def rematch(svc: MatchService, record: dict[str, Any], caller: Caller,
            body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """Start the next match of a finished one: the same game, setup and seats (every seat
    and host token, and the recovery code, stays valid; a seat still open stays open, with
    no invite: the host makes new ones), a fresh seed; the setup's facts of the old deal
    (``engine.dealt_fields``) are not copied: ``body`` may enter the new deal's, and
    ``dealer`` (:func:`rematch_setup`).  Returns ``(201, the new match)``, or ``(200, the
    same)`` when the rematch already exists (409 ``rematch-started`` if ``body`` enters
    another deal than it has).  403 ``forbidden`` without the host token;
    409 ``match-not-over`` before the end (a state conflict: the same request succeeds
    once the match ends); 422 ``invalid-input`` for a field the game does not deal, 422
    ``invalid-setup`` naming a field the new deal needs (Spy table ``bases``, SPY-S2)."""
    if not caller.host:
        raise Forbidden("Only the host token starts a rematch.")
    entry = game_entry(record["game"])
    if not entry.engine.is_over(record["state"]):
        raise Refusal("match-not-over", "A rematch starts once the match is over; this "
                      "one is still being played.", errors=[
                          {"field": "path", "message": "the match is not over"}])
    if record.get("rematch"):
        started = svc.load(record["rematch"])
        differs = sorted(k for k, v in (body or {}).items() if started["setup"].get(k) != v)
        if differs:  # the deal was already entered otherwise: say so, do not ignore it
            raise Refusal("rematch-started", f"The rematch {started['id']} has already "
                          "started with another deal; it is not dealt again.",
                          errors=[{"field": key, "message": "differs from the rematch "
                                   "already started"} for key in differs])
        return 200, _public_body(svc, started)
    setup, seed = load_setup(entry, rematch_setup(entry, record["setup"], body or {}))
    new = svc.deal(entry, setup, seed, record["seats"], record["host"],
                    rematch_of=record["id"], recovery=record.get("recovery"),
                    recovery_match=record.get("recovery_match", record["id"]))
    try:
        svc.commit(record, {"rematch": new["id"]},
                    [{"type": "rematch_started", "match": new["id"]}],
                    {"rematch": new["id"]})
    except StaleVersion:  # another rematch won: keep that one
        svc.store.delete(new["id"])
        again = svc.load(record["id"])
        if not again.get("rematch"):
            raise
        return 200, _public_body(svc, svc.load(again["rematch"]))
    return 201, _public_body(svc, new)

def _public_body(svc: MatchService, record: dict[str, Any]) -> dict[str, Any]:
    """The rematch answer: the new match's public fields, ``rematch_of`` and ``ttl``."""
    return {**public(record), "rematch_of": record.get("rematch_of"), "ttl": svc.ttl}


def rematch_setup(entry: GameEntry, setup: dict[str, Any], body: dict[str, Any]
                  ) -> dict[str, Any]:
    """The rematch's setup body: ``setup`` without the game's ``dealt_fields`` (an entered
    deal, All Fours' kick, Spy's bases: facts of the old deal), then ``body``'s, which may
    name only those fields and ``dealer`` (games with one).  422 ``invalid-input`` naming any
    other field."""
    dealt = entry.engine.dealt_fields
    allowed = dealt + (("dealer",) if "dealer" in entry.schemas.SetupSchema().fields else ())
    for key in body:
        if key not in allowed:
            raise InvalidInput(f"A rematch body enters only the new deal: {', '.join(allowed)}.",
                               errors=[{"field": key, "message": "not a fact of the new deal"}])
    return {**{k: v for k, v in setup.items() if k not in dealt}, **body}
