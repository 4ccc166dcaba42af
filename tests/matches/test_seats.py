"""Seats that join and rejoin (issue 22 item 2), through the API on the in-process store and on
Redis (every topology of REFEREE_TEST_TOPOLOGIES): open seats and their invite codes, claims
(once each: used, expired and wrong codes refused), the host's new invites and re-issued
tokens (the old token stops at once: requests, tickets, streams), host recovery, what the
event log and the audit keep (never a secret), and what a claimed seat may see.

All Fours, 2 players, dealer ana, seed 42: ben (on her right) stands or begs (AF-B1); his
hand is QS AC 4D 5S 5D KS, the kick 9S (README worked example)."""
from __future__ import annotations

import json
import random
import re
import threading

import pytest

from referee.serving.app import create_app
from tests.matches.conftest import Table, bearer
from tests.test_ops import delta, samples

OPEN = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42,
        "options": {"target": 1}, "open_seats": ["ben"]}
CODE = re.compile(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}")
SEAT_EVENTS = ("seat_invited", "seat_claimed", "seat_reissued", "host_reissued")



def claim(client, match: Table, code: str, player: str | None = "ben", **headers):
    path = f"/seats/{player}/claim" if player else "/claim"
    return client.post(match.url + path, json={"code": code}, headers=headers)


def host(match: Table) -> dict[str, str]:
    return bearer(match.created["host_token"])


def seat_events(match: Table) -> list[dict]:
    """The public log's seat events (without ``seq``)."""
    logged = match.client.get(match.url + "/events").get_json()["events"]
    return [{k: v for k, v in ev.items() if k != "seq"}
            for ev in logged if ev["type"] in SEAT_EVENTS]


def test_open_seats_get_invite_codes_and_no_token(clients):
    client, _ = clients
    match = Table.create(client, **OPEN)
    created = match.created
    assert set(created["seats"]) == {"ana"} and created["open_seats"] == ["ben"]
    invite = created["invites"]["ben"]
    assert CODE.fullmatch(invite["code"]) and invite["expires_in"] == 3600
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}",
                        created["recovery_code"])
    assert match.read(None)["open_seats"] == ["ben"]
    stored = json.dumps(client.application.extensions["referee.store"].load(match.id))
    for secret in (invite["code"], created["recovery_code"], created["host_token"],
                   created["seats"]["ana"]):
        assert secret not in stored and secret.replace("-", "") not in stored
    # without open_seats nothing changes: a token per seat, no invite
    plain = Table.create(client, **{k: v for k, v in OPEN.items() if k != "open_seats"})
    assert set(plain.created["seats"]) == {"ana", "ben"} and plain.created["invites"] == {}
    assert plain.created["open_seats"] == [] and plain.read(None)["open_seats"] == []


def test_a_claim_trades_the_code_for_the_seat_s_token_once(clients):
    one, two = clients
    match = Table.create(one, **OPEN)
    code = match.created["invites"]["ben"]["code"]
    typed = code.lower().replace("-", " ").replace("0", "o").replace("1", "l")
    claimed = claim(two, match, typed)  # case, spaces, O for 0, L for 1: the same code
    assert claimed.status_code == 200, claimed.get_json()
    body = claimed.get_json()
    assert body["player"] == "ben" and body["version"] == 2 and claimed.headers["ETag"] == '"2"'
    match.created["seats"]["ben"] = body["token"]
    ben = match.read("ben")
    assert ben["seat"] == "ben" and ben["view"]["hand"] == ["QS", "AC", "4D", "5S", "5D", "KS"]
    assert ben["open_seats"] == [] and ben["version"] == 2
    again = claim(one, match, code)
    assert again.status_code == 409 and again.get_json()["type"] == "/problems/invite-used"
    assert again.get_json()["errors"][0]["field"] == "code"
    assert seat_events(match) == [{"type": "seat_claimed", "player": "ben", "version": 2}]
    # ben acts at the new version with his claimed token (AF-B1: he stands or begs)
    assert match.act("ben", {"type": "stand", "player": "ben"}, 2).status_code == 200


def test_the_claim_without_the_seat_finds_the_seat_and_refuses_wrong_codes(clients):
    client, _ = clients
    match = Table.create(client, **{**OPEN, "open_seats": ["ana", "ben"]})
    code = match.created["invites"]["ana"]["code"]
    wrong = claim(client, match, code, "ben")  # ana's code is no code of ben's seat
    assert wrong.status_code == 403 and wrong.get_json()["type"] == "/problems/invite-invalid"
    unknown = claim(client, match, "ZZZZ-ZZZZ-ZZZZ", None)
    assert unknown.status_code == 403
    for text in ("ABCD-EFGH", "ABCD-EFGH-IJKU", "", "x" * 65):
        bad = claim(client, match, text, None)
        assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "code"
    assert claim(client, match, code, "zed").status_code == 404
    found = claim(client, match, code, None)
    assert found.status_code == 200 and found.get_json()["player"] == "ana"
    assert match.read(None)["open_seats"] == ["ben"]


def test_an_expired_code_is_410():
    client = create_app({"TESTING": True, "REDIS_URL": None, "INVITE_SECONDS": 0}).test_client()
    match = Table.create(client, **OPEN)
    gone = claim(client, match, match.created["invites"]["ben"]["code"])
    assert gone.status_code == 410 and gone.get_json()["type"] == "/problems/invite-expired"
    assert match.read(None)["open_seats"] == ["ben"] and match.read(None)["version"] == 1


def test_a_new_invite_replaces_the_old_code_and_rejoins_a_taken_seat(clients):
    client, _ = clients
    match = Table.create(client, **{k: v for k, v in OPEN.items() if k != "open_seats"})
    old_token = match.created["seats"]["ben"]
    assert client.post(match.url + "/seats/ben/invite",
                       headers=bearer(old_token)).status_code == 403
    first = client.post(match.url + "/seats/ben/invite", headers=host(match))
    second = client.post(match.url + "/seats/ben/invite", headers=host(match))
    assert first.status_code == second.status_code == 201
    assert second.get_json()["version"] == 3 and CODE.fullmatch(second.get_json()["code"])
    assert claim(client, match, first.get_json()["code"]).status_code == 403  # replaced
    rejoined = claim(client, match, second.get_json()["code"])
    assert rejoined.status_code == 200 and rejoined.get_json()["version"] == 4
    assert client.get(match.url, headers=bearer(old_token)).status_code == 401
    assert client.get(match.url, headers=bearer(rejoined.get_json()["token"])
                      ).get_json()["seat"] == "ben"
    assert [e["type"] for e in seat_events(match)] == ["seat_invited", "seat_invited",
                                                       "seat_claimed"]


def test_a_re_issued_token_replaces_the_old_one_at_once_and_nothing_else(clients):
    one, two = clients
    match = Table.create(one, **{k: v for k, v in OPEN.items() if k != "open_seats"})
    before = match.read("host")
    old = match.created["seats"]["ben"]
    ticket = one.post(match.url + "/stream-tickets", headers=bearer(old)).get_json()["ticket"]
    assert two.post(match.url + "/seats/ben/token", headers=bearer(old)).status_code == 403
    answer = two.post(match.url + "/seats/ben/token", headers=host(match))
    assert answer.status_code == 200 and answer.get_json()["version"] == 2
    new = answer.get_json()["token"]
    assert new != old and answer.get_json()["player"] == "ben"
    for url in (match.url, match.url + "/legal-actions"):
        assert one.get(url, headers=bearer(old)).status_code == 401
    assert one.get(f"{match.url}/events?ticket={ticket}").status_code == 401
    stale = match.act("ben", {"type": "stand", "player": "ben"}, 1)
    assert stale.status_code == 401
    after = match.read("host")
    assert after["view"] == before["view"] and after["to_move"] == ["ben"]
    assert after["version"] == 2
    assert seat_events(match) == [{"type": "seat_reissued", "player": "ben", "version": 2}]
    match.created["seats"]["ben"] = new
    moved = match.act("ben", {"type": "stand", "player": "ben"}, 1)
    assert moved.status_code == 409 and moved.get_json()["current_version"] == 2
    assert match.act("ben", {"type": "stand", "player": "ben"}, 2).status_code == 200


def test_the_recovery_code_makes_a_new_host_token_and_stays_valid(clients):
    client, _ = clients
    match = Table.create(client, **OPEN)
    old = match.created["host_token"]
    code = match.created["recovery_code"]
    other = Table.create(client, **OPEN).created["recovery_code"]
    refused = client.post(match.url + "/host/token", json={"recovery_code": other})
    assert refused.status_code == 403 and refused.get_json()["errors"][0]["field"] == \
        "recovery_code"
    assert client.post(match.url + "/host/token",
                       json={"recovery_code": "short"}).status_code == 422
    first = client.post(match.url + "/host/token", json={"recovery_code": code.lower()})
    assert first.status_code == 200 and first.get_json()["version"] == 2
    stale = client.get(match.url, headers=bearer(old))
    assert stale.status_code == 401  # worded for the host too, not "no seat" (black-box review)
    assert stale.get_json()["errors"][0]["message"] == (
        "This token is no seat's or host's token of this match (a re-issued token stops "
        "working at once).")
    new = first.get_json()["host_token"]
    assert client.get(match.url, headers=bearer(new)).get_json()["role"] == "host"
    second = client.post(match.url + "/host/token", json={"recovery_code": code})
    assert second.status_code == 200  # the code stays valid: a lost answer is not fatal
    assert client.get(match.url, headers=bearer(new)).status_code == 401
    assert [e["type"] for e in seat_events(match)] == ["host_reissued", "host_reissued"]


def test_a_claim_with_an_idempotency_key_is_replayed_with_the_same_token(clients):
    one, two = clients
    match = Table.create(one, **OPEN)
    code = match.created["invites"]["ben"]["code"]
    key = {"Idempotency-Key": "ben-phone-claim-1"}
    first = claim(one, match, code, **key)
    again = claim(two, match, code, None, **key)  # the same code and key, either path
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    other_key = claim(one, match, code, **{"Idempotency-Key": "someone-else"})
    assert other_key.status_code == 409  # the key and the code together replay, nothing less
    assert match.read(None)["version"] == 2
    stored = json.dumps(one.application.extensions["referee.store"].recorded(
        match.id, next(iter(_idem(one, match)))))
    assert first.get_json()["token"] not in stored  # kept sealed


def _idem(client, match):
    store = client.application.extensions["referee.store"]
    if hasattr(store, "_matches"):
        return list(store._matches[match.id].recorded)
    return list(store.client.hkeys(store.keys(match.id)[3]))


def test_two_claims_of_one_code_racing_one_wins(clients):
    one, two = clients
    for _ in range(5):
        match = Table.create(one, **OPEN)
        code = match.created["invites"]["ben"]["code"]
        statuses = []
        barrier = threading.Barrier(2)

        def go(client):
            barrier.wait()
            statuses.append(claim(client, match, code).status_code)
        threads = [threading.Thread(target=go, args=(c,)) for c in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [200, 409]
        assert match.read(None)["version"] == 2


def test_the_audit_keeps_seat_changes_and_no_secret(clients):
    client, _ = clients
    match = Table.create(client, **OPEN)
    token = claim(client, match, match.created["invites"]["ben"]["code"]).get_json()["token"]
    match.created["seats"]["ben"] = token
    reissued = client.post(match.url + "/seats/ana/token", headers=host(match)).get_json()
    match.created["seats"]["ana"] = reissued["token"]
    match.play_out(random.Random(7))
    audit = client.get(match.url + "/audit").get_json()
    steps = [e for e in audit["history"] if "seat" in e]
    assert steps == [{"version": 2, "seat": {"step": "claimed", "player": "ben"}},
                     {"version": 3, "seat": {"step": "reissued", "player": "ana"}}]
    text = json.dumps(audit)
    for secret in (token, reissued["token"], match.created["invites"]["ben"]["code"],
                   match.created["recovery_code"], match.created["host_token"]):
        assert secret not in text
    assert all("seat" not in a for a in audit["actions"])  # the replay list holds actions only
    rematch = client.post(match.url + "/rematch", headers=host(match))
    assert rematch.status_code == 201
    again = f"/v1/matches/{rematch.get_json()['id']}"
    assert client.get(again, headers=bearer(token)).get_json()["seat"] == "ben"  # seats kept
    recovered = client.post(again + "/host/token",
                            json={"recovery_code": match.created["recovery_code"]})
    assert recovered.status_code == 200  # and the recovery code


@pytest.mark.parametrize("seeds", [(42, 7)])
def test_seat_changes_answer_alike_whatever_the_hidden_cards(clients, seeds):
    """A pair: two matches dealt differently (hidden hands differ) answer every seat change
    and log every seat event identically but for ids, tokens and codes; the claimed seat sees
    its own hand only."""
    client, _ = clients
    seen = []
    for seed in seeds:
        match = Table.create(client, **{**OPEN, "seed": seed})
        public_before = match.read(None)
        body = claim(client, match, match.created["invites"]["ben"]["code"]).get_json()
        match.created["seats"]["ben"] = body["token"]
        reissued = client.post(match.url + "/seats/ben/token", headers=host(match)).get_json()
        public_after = match.read(None)
        assert public_after["view"] == public_before["view"]  # nothing public was revealed
        ben = client.get(match.url, headers=bearer(reissued["token"])).get_json()
        hands = match.read("host")["view"]["hands"]
        assert ben["view"]["hand"] == hands["ben"] and "hands" not in ben["view"]
        seen.append(([sorted(b) for b in (body, reissued)], seat_events(match)))
    assert seen[0] == seen[1]


def test_a_re_issue_ends_the_old_token_s_open_stream(live_client, stream):
    match = Table.create(live_client, **{k: v for k, v in OPEN.items() if k != "open_seats"})
    ben = stream(live_client, match.url + "/stream", bearer(match.created["seats"]["ben"]))
    public = stream(live_client, match.url + "/stream")
    ben.until("view")
    public.until("view")
    assert live_client.post(match.url + "/seats/ben/token",
                            headers=host(match)).status_code == 200
    end = ben.until("end")
    assert end[-1]["data"] == {"version": 1, "reason": "revoked"}
    assert all(m["event"] != "event" for m in end)  # nothing after the re-issue reached it
    told = public.until("view")
    assert [m["data"]["type"] for m in told if m["event"] == "event"] == ["seat_reissued"]
    ben.close()
    public.close()


def test_a_re_issue_ends_the_old_token_s_long_poll_with_401(live_client):
    match = Table.create(live_client, **{k: v for k, v in OPEN.items() if k != "open_seats"})
    old = bearer(match.created["seats"]["ben"])
    answers = []
    waiting = threading.Thread(target=lambda: answers.append(
        live_client.get(match.url + "/events?after=2&wait=20", headers=old)))
    waiting.start()
    while not match.client.application.extensions["referee.store"].feed._watches.get(
            match.id):  # the long-poll waits on the match's feed
        threading.Event().wait(0.01)
    assert live_client.post(match.url + "/seats/ben/token",
                            headers=host(match)).status_code == 200
    waiting.join(timeout=10)
    assert answers[0].status_code == 401  # not the seat_reissued event: it reads no more


def test_seat_calls_spend_the_claim_budget_and_are_counted():
    client = create_app({"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": True,
                         "LIMIT_CLAIM": "3/minute"}).test_client()
    match = Table.create(client, **OPEN)
    before = samples(client)
    statuses = [claim(client, match, "ZZZZ-ZZZZ-ZZZZ").status_code for _ in range(3)]
    spent = claim(client, match, match.created["invites"]["ben"]["code"])
    assert statuses == [403] * 3 and spent.status_code == 429
    assert spent.headers["RateLimit-Policy"] == '"claim";q=3;w=60'
    recovery = client.post(match.url + "/host/token",
                           json={"recovery_code": match.created["recovery_code"]})
    assert recovery.status_code == 429  # the recovery code is guessed against the same budget
    assert client.post(match.url + "/seats/ben/invite",
                       headers=host(match)).status_code == 201  # the host's calls are not
    after = samples(client)
    changes = {change: delta(before, after, "referee_seat_changes_total", change=change)
               for change in ("claim_refused", "claimed", "invited", "host_reissued")}
    assert changes == {"claim_refused": 3, "claimed": 0, "invited": 1, "host_reissued": 0}
    assert delta(before, after, "referee_http_requests_total", method="POST", status="429",
                 endpoint="/v1/matches/<match_id>/seats/<player>/claim") == 1
