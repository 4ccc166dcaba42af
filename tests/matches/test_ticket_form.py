"""A stream ticket has one form (issue 21 item 6): the text ``POST …/stream-tickets`` issued,
``<role>.<expiry>.<mac>``; any rewording that would decode to the same role and expiry — a
leading zero, a sign, non-ASCII digits, another case of the MAC, spacing — is 401 naming the
field ``ticket`` (``referee.matches.live.ticket_caller``)."""
from __future__ import annotations

import pytest

from referee.matches.live import TICKET_SECONDS, issue_ticket, ticket_caller
from referee.matches.callers import Caller
from referee.refusals import Refusal
from tests.matches.conftest import bearer

TARGET_ONE = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42,
              "options": {"target": 1}}

FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def rewordings(ticket: str) -> list[str]:
    role, expiry, mac = ticket.split(".")
    seat = role[1:]
    return [f"{role}.0{expiry}.{mac}",  # the finding: a leading zero in the expiry
            f"{role}.000{expiry}.{mac}", f"{role}.+{expiry}.{mac}",
            f"{role}.{expiry.translate(FULL_WIDTH)}.{mac}",
            f"{role}.{expiry.translate(ARABIC_INDIC)}.{mac}",
            f"{role}.{expiry}.{mac.upper()}", f"{role}.{expiry}.{mac} ",
            f" {ticket}", f"{ticket}.", f"{role}.{expiry}..{mac}",
            *([f"s0{seat}.{expiry}.{mac}", f"S{seat}.{expiry}.{mac}",
               f"s{seat.translate(FULL_WIDTH)}.{expiry}.{mac}"] if role != "h" else
              [f"H.{expiry}.{mac}"])]


def test_the_issued_ticket_is_the_only_form_accepted(live_client, table):
    game = table.create(live_client, **TARGET_ONE)
    for who in ("ben", "host"):
        ticket = live_client.post(game.url + "/stream-tickets",
                                  headers=bearer(game.token(who))).get_json()["ticket"]
        assert live_client.get(f"{game.url}/events?ticket={ticket}").status_code == 200
        for reworded in rewordings(ticket):
            refused = live_client.get(f"{game.url}/events", query_string={"ticket": reworded})
            assert refused.status_code == 401, (who, reworded)
            assert refused.get_json()["errors"] == [{
                "field": "ticket", "message": "This is not a stream ticket of this match."}]


def test_every_rewording_decodes_to_the_issued_content_yet_is_refused():
    """The rewordings are the same role and expiry (what a lenient parser would read), so
    the refusal is the form's; the issued text itself passes, and expires on time."""
    record = {"id": "m1", "players": ["ana", "ben"], "host": "h" * 64,
              "seats": {"ana": "a" * 64, "ben": "b" * 64}}
    issued = issue_ticket(record, Caller(seat="ben"), now=1_700_000_000)
    assert issued == {"ticket": issued["ticket"], "expires_in": TICKET_SECONDS}
    ticket = issued["ticket"]
    role, expiry, _ = ticket.split(".")
    assert (role, expiry) == ("s1", str(1_700_000_000 + TICKET_SECONDS))
    assert ticket_caller(record, ticket, now=1_700_000_000) == Caller(seat="ben", credential="b" * 64)
    for reworded in rewordings(ticket):
        parts = reworded.strip().split(".")
        if len(parts) == 3 and parts[1].lstrip("+").isdigit():
            assert int(parts[1].lstrip("+")) == int(expiry)  # the same content, reworded
        with pytest.raises(Refusal):
            ticket_caller(record, reworded, now=1_700_000_000)
    with pytest.raises(Refusal, match="expired"):
        ticket_caller(record, ticket, now=1_700_000_000 + TICKET_SECONDS + 1)
