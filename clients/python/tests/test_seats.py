"""Seats that join and rejoin through ``referee_client`` on both stores (in-process; Redis with
two workers, where each request may land in either process): a match created with open seats
and an idempotency key (a retry, and a create whose answer was lost, give the same match),
each seat claimed with its invite code (by seat, and by the code alone; a claim whose answer
was lost gets the same token again), followed live and played to its end; a re-issued token
refused at once (its open stream ends ``revoked``); a phone that rejoins with a new code; the
host token recovered with the recovery code.

All Fours, 2 players, dealer ana, seed 42, to 1 point (AF-S6): ben (on the dealer's right)
stands or begs first (AF-B1); his hand is QS AC 4D 5S 5D KS (the README's worked example)."""
from __future__ import annotations

import re
import uuid

import pytest

from lossy import LosesFirstAnswer
from playing import assert_followed_whole, follow_in_thread, play, wait_until
from referee_client import RefereeClient, RefereeError

OPEN = {"dealer": "ana", "seed": 42, "options": {"target": 1}, "open_seats": ["ana", "ben"]}
BEN_HAND = ["QS", "AC", "4D", "5S", "5D", "KS"]
CODE = re.compile(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}")


def refusal(call, *args, **kwargs) -> tuple[int, str]:
    """``(status, problem slug)`` of the ``RefereeError`` the call raises."""
    with pytest.raises(RefereeError) as raised:
        call(*args, **kwargs)
    return raised.value.status, raised.value.type


def seat_events(referee: RefereeClient, match_id: str) -> list[tuple[str, str | None, int]]:
    """The match's public seat events, as ``(type, player, version)``."""
    return [(e["type"], e.get("player"), e["version"]) for e in referee.events(match_id)["events"]
            if e["type"].startswith("seat_") or e["type"] == "host_reissued"]


def test_join_flow_open_seats_a_retried_create_claims_followed_and_played_to_the_end(
        store_url):
    referee = RefereeClient(store_url)
    key = str(uuid.uuid4())
    created = referee.create_match("all-fours", ["ana", "ben"], idempotency_key=key, **OPEN)
    assert (created["version"], created["seats"], created["open_seats"]) == \
        (1, {}, ["ana", "ben"])
    for player in ("ana", "ben"):
        assert CODE.fullmatch(created["invites"][player]["code"])
        assert created["invites"][player]["expires_in"] == 3600
    # the same request with the same key: the first answer again, the same match and codes
    assert referee.create_match("all-fours", ["ana", "ben"], idempotency_key=key,
                                **OPEN) == created
    assert refusal(referee.create_match, "all-fours", ["ana", "ben"], idempotency_key=key,
                   **{**OPEN, "seed": 7}) == (422, "idempotency-key-reused")

    # ana claims her seat by name; ben's link carries only the code (the server finds his seat)
    codes = {player: created["invites"][player]["code"] for player in ("ana", "ben")}
    ana = referee.claim_seat(created["id"], "ana", codes["ana"])
    assert (ana["id"], ana["player"], ana["version"]) == (created["id"], "ana", 2)
    ben = referee.claim(created["id"], codes["ben"])
    assert (ben["player"], ben["version"]) == ("ben", 3)
    assert refusal(referee.claim, created["id"], codes["ben"]) == (409, "invite-used")
    assert refusal(referee.claim_seat, created["id"], "ana", codes["ben"]) == \
        (403, "invite-invalid")
    seen = referee.match(created["id"], ben["token"])
    assert (seen["seat"], seen["open_seats"], seen["view"]["hand"]) == ("ben", [], BEN_HAND)

    match = {"id": created["id"], "host_token": created["host_token"],
             "seats": {"ana": ana["token"], "ben": ben["token"]}}
    ben_thread, ben_saw = follow_in_thread(referee, match["id"], ben["token"])
    public_thread, public_saw = follow_in_thread(referee, match["id"], None)
    for messages in (ben_saw, public_saw):
        wait_until(lambda: any(m["event"] == "view" for m in messages), "a first view")
    moves = play(referee, match)
    final = referee.match(match["id"])
    assert (final["over"], final["version"]) == (True, 3 + moves)
    for thread in (ben_thread, public_thread):
        thread.join(timeout=30)
        assert not thread.is_alive()
    assert_followed_whole(referee, match, ben["token"], ben_saw, final["version"])
    assert_followed_whole(referee, match, None, public_saw, final["version"])
    assert [m["data"]["type"] for m in ben_saw if m["event"] == "event"][:4] == \
        ["deal", "kick", "seat_claimed", "seat_claimed"]
    assert seat_events(referee, match["id"]) == [("seat_claimed", "ana", 2),
                                                 ("seat_claimed", "ben", 3)]


def test_a_create_and_a_claim_whose_answers_were_lost_are_retried_once_each(store_url):
    session = LosesFirstAnswer("/v1/matches")
    created = RefereeClient(store_url, session=session).create_match(
        "all-fours", ["ana", "ben"], idempotency_key=str(uuid.uuid4()), **OPEN)
    (key1, _, replay1), (key2, _, replay2) = session.sent
    assert key1 == key2 and (replay1, replay2) == (None, "true")
    assert session.answers[0] == session.answers[1]  # the match the lost answer made
    assert created["invites"]["ben"]["code"] in session.answers[0]

    claims = LosesFirstAnswer("/claim")
    ben = RefereeClient(store_url, session=claims).claim_seat(
        created["id"], "ben", created["invites"]["ben"]["code"])
    (key1, _, replay1), (key2, _, replay2) = claims.sent
    assert key1 == key2 and (replay1, replay2) == (None, "true")
    assert ben["token"] in claims.answers[0]  # the same token again
    assert (ben["player"], ben["version"]) == ("ben", 2)
    referee = RefereeClient(store_url)
    assert referee.match(created["id"], ben["token"])["seat"] == "ben"
    assert seat_events(referee, created["id"]) == [("seat_claimed", "ben", 2)]


def test_a_re_issued_token_stops_at_once_and_its_stream_ends_revoked(store_url):
    referee = RefereeClient(store_url)
    created = referee.create_match("all-fours", ["ana", "ben"], dealer="ana", seed=42)
    old = created["seats"]["ben"]
    thread, messages = follow_in_thread(referee, created["id"], old)
    wait_until(lambda: any(m["event"] == "view" for m in messages), "ben's first view")
    assert refusal(referee.reissue_seat_token, created["id"], old, "ben") == (403, "forbidden")
    assert refusal(referee.reissue_seat_token, created["id"], created["host_token"], "zed") == \
        (404, "not-found")

    reissued = referee.reissue_seat_token(created["id"], created["host_token"], "ben")
    assert (reissued["player"], reissued["version"]) == ("ben", 2)
    assert reissued["token"] != old
    assert refusal(referee.match, created["id"], old) == (401, "unauthorized")
    assert refusal(referee.act, created["id"], old, {"type": "stand", "player": "ben"},
                   expected_version=2) == (401, "unauthorized")
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert messages[-1] == {"event": "end", "id": None,
                            "data": {"version": 1, "reason": "revoked"}}
    assert all(m["data"].get("type") != "seat_reissued" for m in messages)

    view = referee.match(created["id"], reissued["token"])  # nothing else changed
    assert (view["seat"], view["version"], view["view"]["hand"]) == ("ben", 2, BEN_HAND)
    moved = referee.act(created["id"], reissued["token"], {"type": "stand", "player": "ben"})
    assert moved["version"] == 3
    assert seat_events(referee, created["id"]) == [("seat_reissued", "ben", 2)]


def test_a_phone_that_lost_its_token_rejoins_with_the_host_s_new_code(store_url):
    referee = RefereeClient(store_url)
    created = referee.create_match("all-fours", ["ana", "ben"], **OPEN)
    first = referee.claim_seat(created["id"], "ben", created["invites"]["ben"]["code"])
    invite = referee.invite_seat(created["id"], created["host_token"], "ben")
    assert (invite["player"], invite["version"], invite["expires_in"]) == ("ben", 3, 3600)
    assert CODE.fullmatch(invite["code"])
    assert refusal(referee.invite_seat, created["id"], first["token"], "ben") == \
        (403, "forbidden")
    replaced = referee.invite_seat(created["id"], created["host_token"], "ben")
    assert refusal(referee.claim_seat, created["id"], "ben", invite["code"]) == \
        (403, "invite-invalid")
    again = referee.claim(created["id"], replaced["code"].lower().replace("-", " "))
    assert (again["player"], again["version"]) == ("ben", 5)
    assert refusal(referee.match, created["id"], first["token"]) == (401, "unauthorized")
    assert referee.match(created["id"], again["token"])["seat"] == "ben"
    assert seat_events(referee, created["id"]) == [
        ("seat_claimed", "ben", 2), ("seat_invited", "ben", 3), ("seat_invited", "ben", 4),
        ("seat_claimed", "ben", 5)]


def test_the_host_token_is_recovered_with_the_recovery_code(store_url):
    referee = RefereeClient(store_url)
    created = referee.create_match("all-fours", ["ana", "ben"], **OPEN)
    assert refusal(referee.recover_host, created["id"], "ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ") == \
        (403, "forbidden")
    assert refusal(referee.recover_host, created["id"], "not a code") == (422, "invalid-input")
    recovered = referee.recover_host(created["id"], created["recovery_code"])
    assert (recovered["id"], recovered["version"]) == (created["id"], 2)
    assert refusal(referee.invite_seat, created["id"], created["host_token"], "ana") == \
        (401, "unauthorized")
    assert referee.invite_seat(created["id"], recovered["host_token"], "ana")["version"] == 3
    twice = referee.recover_host(created["id"], created["recovery_code"])  # still valid
    assert twice["version"] == 4
    assert refusal(referee.match, created["id"], recovered["host_token"]) == \
        (401, "unauthorized")
    assert seat_events(referee, created["id"]) == [
        ("host_reissued", None, 2), ("seat_invited", "ana", 3), ("host_reissued", None, 4)]
