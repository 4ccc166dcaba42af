"""End to end: ``referee_client.RefereeClient`` against a real server on a loopback port
(tests/conftest.py starts it): the stateless endpoints, errors, versions and retries."""
from __future__ import annotations

import copy
import json

import pytest
import requests

from lossy import LosesFirstAnswer
from referee_client import RefereeClient, RefereeError

SHEET = {  # a hand recorded from real play (the server's case allfours/real-hand-1)
    "players": ["kiri", "tano", "lena", "omar"],
    "sides": {"X": ["kiri", "lena"], "Y": ["tano", "omar"]},
    "dealer": "kiri", "kicks": ["QD"], "beg": "give_one",
    "tricks": [
        {"leader": "tano", "cards": ["9S", "4C", "AS", "3H"]},
        {"leader": "omar", "cards": ["JC", "10C", "QC", "AC"]},
        {"leader": "lena", "cards": ["7C", "9C", "5H", "4D"]},
        {"leader": "tano", "cards": ["JH", "7D", "6H", "10H"]},
        {"leader": "lena", "cards": ["QH", "8D", "7H", "4H"]},
        {"leader": "omar", "cards": ["JS", "2D", "8H", "JD"]},
    ],
}


@pytest.fixture
def referee(base_url):
    return RefereeClient(base_url, timeout=10)


def test_scores_the_real_hand_trick_sheet(referee):
    result = referee.score_trick_sheet(SHEET)
    assert result["points"] == {"X": 4, "Y": 1}
    assert result["high"] == {"card": "JD", "player": "lena"}
    assert result["low"] == {"card": "2D", "player": "kiri"}
    assert result["game"]["totals"] == {"X": 30, "Y": 6}


def test_an_inconsistent_sheet_raises_with_the_problem_body(referee):
    with pytest.raises(RefereeError) as caught:
        referee.score_trick_sheet(_duplicate_queen())
    error = caught.value
    assert error.status == 422 and error.type == "inconsistent-sheet"
    assert error.problem["status"] == 422 and error.problem["errors"]
    assert all(e["rule"] == "AF-X1" for e in error.problem["errors"])
    assert error.errors == error.problem["errors"] and error.violations == []


def _duplicate_queen():
    """The sheet with the queen of clubs played twice (tricks 2 and 3): AF-X1."""
    sheet = copy.deepcopy(SHEET)
    sheet["tricks"][2]["cards"][1] = "QC"
    return sheet


def test_unknown_game_is_a_404_problem(referee):
    with pytest.raises(RefereeError) as caught:
        referee.game("chess")
    assert (caught.value.status, caught.value.type) == (404, "unknown-game")
    assert {"all-fours", "coup", "gnoming", "spy"} <= {g["name"] for g in referee.games()}


def test_plays_all_fours_through_the_stateless_endpoints(referee):
    state = referee.setup("all-fours", ["ana", "ben"], dealer="ben", seed=42)
    first = referee.legal_actions("all-fours", state)
    assert first["to_move"] == ["ana"]
    assert first["actions"] == [{"type": "stand", "player": "ana"},
                                {"type": "beg", "player": "ana"}]
    verdict = referee.validate("all-fours", state, {"type": "beg", "player": "ben"})
    assert verdict["legal"] is False and [v["rule"] for v in verdict["violations"]] == ["AF-B1"]
    with pytest.raises(RefereeError) as caught:
        referee.apply("all-fours", state, {"type": "beg", "player": "ben"})
    assert caught.value.type == "illegal-action"
    assert [v["rule"] for v in caught.value.violations] == ["AF-B1"]
    plays = 0
    while state["phase"] not in ("hand_over", "game_over"):
        action = referee.legal_actions("all-fours", state)["actions"][0]
        answer = referee.apply("all-fours", state, action)
        state, plays = answer["state"], plays + (action["type"] == "play")
        assert plays <= 12
    assert plays == 12 and len(state["tricks"]) == 6
    assert sum(answer["score"]["points"].values()) >= 1


def test_a_match_with_versions_and_a_retried_action(base_url):
    session = LosesFirstAnswer()
    referee = RefereeClient(base_url, session=session)
    created = referee.create_match("all-fours", ["ana", "ben"], dealer="ana", seed=42)
    assert created["version"] == 1 and set(created["seats"]) == {"ana", "ben"}
    ben, ana = created["seats"]["ben"], created["seats"]["ana"]
    assert referee.match_legal_actions(created["id"], ben)["actions"] == [
        {"type": "stand", "player": "ben"}, {"type": "beg", "player": "ben"}]

    acted = referee.act(created["id"], ben, {"type": "stand", "player": "ben"})
    assert acted["version"] == 2  # applied once, though the first answer was lost
    (key1, match1, replay1), (key2, match2, replay2) = session.sent
    assert key1 == key2 and match1 == match2 == '"1"'
    assert (replay1, replay2) == (None, "true")
    assert [(e["type"], e["version"]) for e in referee.events(created["id"])["events"]] == [
        ("deal", 1), ("kick", 1), ("stand", 2)]  # the first deal's at version 1 (AF-K1)

    with pytest.raises(RefereeError) as caught:  # chosen at version 1: too late
        referee.act(created["id"], ana, {"type": "beg", "player": "ana"}, expected_version=1)
    assert caught.value.status == 409 and caught.value.problem["current_version"] == 2
    view = referee.match(created["id"], ben)
    assert view["version"] == 2 and view["seat"] == "ben"
    with pytest.raises(RefereeError) as caught:
        referee.audit(created["id"])
    assert caught.value.type == "forbidden"
    referee.delete_match(created["id"], created["host_token"])
    with pytest.raises(RefereeError) as caught:
        referee.match(created["id"])
    assert caught.value.status == 404


@pytest.mark.parametrize("suffix", ["/rollback", "/rollback/votes"])
def test_a_rollback_step_whose_answer_was_lost_is_retried_with_its_key_and_made_once(
        base_url, suffix):
    # A dispute (issue 14): the host proposes taking back ben's stand (version 2 -> 1), every
    # seat must approve; a lost answer to the proposal or to the deciding vote is retried with
    # the same Idempotency-Key and the server answers the first response again.
    session = LosesFirstAnswer(suffix)
    referee = RefereeClient(base_url, session=session)
    created = referee.create_match("all-fours", ["ana", "ben"], dealer="ana", seed=42)
    host, ben, ana = created["host_token"], created["seats"]["ben"], created["seats"]["ana"]
    referee.act(created["id"], ben, {"type": "stand", "player": "ben"})
    proposed = referee.propose_rollback(created["id"], host, 1, "ben meant to beg")
    assert proposed["status"] == "pending"
    proposal = proposed["rollback"]["proposal"]
    assert referee.vote_rollback(created["id"], ana, proposal)["status"] == "pending"
    decided = referee.vote_rollback(created["id"], ben, proposal)
    assert decided["status"] == "applied" and decided["version"] == 5  # stand 2, proposal 3, ana 4, ben applies 5
    (key1, _, replay1), (key2, _, replay2) = session.sent[:2]
    assert key1 == key2 and (replay1, replay2) == (None, "true")
    assert referee.match(created["id"], ben)["view"]["to_move"] == ["ben"]


class StoreDownOnce(requests.Session):
    """A session whose first request gets a 503 ``store-unavailable`` (Retry-After: 1) without
    reaching the server."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def request(self, method, url, **kwargs):
        self.calls += 1
        if self.calls == 1:
            answer = requests.Response()
            answer.status_code, answer.url = 503, url
            answer.headers.update({"Retry-After": "1",
                                   "Content-Type": "application/problem+json"})
            answer._content = json.dumps({"type": "/problems/store-unavailable", "status": 503,
                                          "title": "Match store unavailable"}).encode()
            return answer
        return super().request(method, url, **kwargs)


def test_a_503_is_retried_after_retry_after_and_errors_carry_the_problem(base_url):
    referee = RefereeClient(base_url, session=StoreDownOnce())
    waits = []
    referee.sleep = waits.append
    assert referee.game("spy")["name"] == "spy"
    assert waits == [1.0] and referee.session.calls == 2
    stubborn = RefereeClient(base_url, session=StoreDownOnce(), retries=0)
    with pytest.raises(RefereeError) as caught:
        stubborn.game("spy")
    assert (caught.value.status, caught.value.type) == (503, "store-unavailable")
    assert str(caught.value) == "503 Match store unavailable"


def test_answers_come_in_the_clients_language_with_the_same_codes(base_url):
    english, burmese = RefereeClient(base_url), RefereeClient(base_url, language="my")
    state = english.setup("all-fours", ["ana", "ben"], dealer="ben", seed=42)
    found = []
    for referee in (english, burmese):
        with pytest.raises(RefereeError) as caught:
            referee.apply("all-fours", state, {"type": "beg", "player": "ben"})
        found.append(caught.value.violations)
    assert [v["code"] for v in found[0]] == [v["code"] for v in found[1]]
    burmese_script = [any("\u1000" <= ch <= "\u109f" for ch in v["message"]) for v in found[1]]
    assert burmese_script == [True] * len(found[1])
    assert not any("\u1000" <= ch <= "\u109f" for v in found[0] for ch in v["message"])
    assert burmese.rules("all-fours")["language"] == "my"


def _expand(groups):
    """The flat actions a grouped answer stands for: every combination of each group's
    choices (one value per field) except its ``illegal`` ones (README 'Legal actions for
    pickers')."""
    import itertools
    out = []
    for group in groups:
        fields = list(group["choices"])
        illegal = [json.dumps(c, sort_keys=True) for c in group["illegal"]]
        for values in itertools.product(*(group["choices"][f] for f in fields)):
            combo = dict(zip(fields, values))
            if json.dumps(combo, sort_keys=True) not in illegal:
                out.append({"type": group["type"], "player": group["player"], **combo})
    return sorted(json.dumps(a, sort_keys=True) for a in out)


def test_grouped_legal_actions_expand_to_the_flat_list_af_table_mode(referee):
    """Table-mode All Fours after ana stands (AF-B1): her hand is unknown, so every one of the
    51 cards not seen (52 less the kicked QD, AF-K1) may be played: one `play` group."""
    state = referee.setup("all-fours", ["ana", "ben"], dealer="ben", mode="table", kick="QD")
    state = referee.apply("all-fours", state, {"type": "stand", "player": "ana"})["state"]
    grouped = referee.legal_actions("all-fours", state, "ana", form="grouped")
    assert [(g["type"], len(g["choices"]["card"])) for g in grouped["groups"]] == [("play", 51)]
    assert "QD" not in grouped["groups"][0]["choices"]["card"]
    assert _expand(grouped["groups"]) == sorted(
        json.dumps(a, sort_keys=True) for a in referee.legal_actions("all-fours", state, "ana")["actions"])


def test_a_match_s_grouped_legal_actions_expand_to_its_flat_list(referee):
    """Coup's first turn (COUP-A1..A7 with 2 coins each): the grouped form names the same
    actions as the flat one; a bad form is 422 naming query.form."""
    created = referee.create_match("coup", ["ana", "ben", "cy"], seed=3)
    ana = created["seats"]["ana"]
    grouped = referee.match_legal_actions(created["id"], ana, form="grouped")
    flat = referee.match_legal_actions(created["id"], ana)
    assert _expand(grouped["groups"]) == sorted(json.dumps(a, sort_keys=True)
                                                for a in flat["actions"])
    assert {g["type"] for g in grouped["groups"]} >= {"income", "foreign_aid", "tax"}
    with pytest.raises(RefereeError) as refused:
        referee.match_legal_actions(created["id"], ana, form="stacked")
    assert refused.value.status == 422
    assert refused.value.problem["errors"][0]["field"] == "query.form"
