"""Information sets (issue 12; COUP-V1 before COUP-X1): two matches that differ only in cards
hidden from a reader, driven by the same actions, answer that reader byte for byte the same —
its view, events, legal actions, the refusals of its moves and the ETags — in both modes.

The case of the issue: a 4-seat table with the Inquisitor; A examines B, who shows a Duchess
(seen by A and B only); two Duchesses are later lost face up; C, challenged on a tax, must be
offered ``prove`` and have it accepted, exactly as when B had shown a Captain.  The host's view
records the contradiction with what the host knew as a dispute naming COUP-X1.
"""
from __future__ import annotations

import json

from referee.games.coup.rules import copies_per_character
from tests.coup.conftest import court_for


class Match:
    """One Coup match through the match API, answers normalised for comparison (the match's
    own id and dealing commitment, a hash of seed and id, differ between two matches; nothing
    else may)."""

    def __init__(self, client, **body):
        self.client = client
        response = client.post("/v1/matches", json={"game": "coup", **body})
        assert response.status_code == 201, response.get_json()
        self.created = response.get_json()
        self.url = f"/v1/matches/{self.created['id']}"

    def _headers(self, who: str) -> dict[str, str]:
        token = self.created["host_token"] if who == "host" else self.created["seats"][who]
        return {"Authorization": f"Bearer {token}"}

    def _answer(self, response) -> tuple[int, str | None, str]:
        text = response.get_data(as_text=True).replace(self.created["id"], "ID")
        text = text.replace(self.created["commitment"], "COMMITMENT")
        return response.status_code, response.headers.get("ETag"), text

    def act(self, who: str, kind: str, player: str, **fields):
        version = json.loads(self.read("host")[2])["version"]
        headers = {**self._headers(who), "If-Match": f'"{version}"'}
        response = self.client.post(self.url + "/actions", headers=headers,
                                    json={"action": {"type": kind, "player": player, **fields}})
        return self._answer(response)

    def read(self, who: str, path: str = ""):
        return self._answer(self.client.get(self.url + path, headers=self._headers(who)))

    def answers(self, who: str) -> dict[str, tuple]:
        """Everything ``who`` can read without moving."""
        return {path: self.read(who, path) for path in ("", "/events", "/legal-actions")}

    def host_view(self) -> dict:
        return json.loads(self.read("host")[2])["view"]


def _play(matches: list[Match], readers: list[str], steps: list[tuple]) -> None:
    """Play ``steps`` (``(who, kind, player, fields per match)``) on every match; after each
    one, each reader's answers (and the answer to the move itself, when a reader made it) are
    identical across the matches."""
    for who, kind, player, fields in steps:
        per_match = fields if isinstance(fields, list) else [fields] * len(matches)
        results = [m.act(who, kind, player, **f) for m, f in zip(matches, per_match)]
        assert results[0][0] == 200, results[0]
        if who in readers:
            assert len({r for r in results}) == 1, (kind, player, results)
        for reader in readers:
            seen = [m.answers(reader) for m in matches]
            assert seen[0] == seen[1], (reader, kind, player)


def _examine_then_two_duchesses_lost(shown: str) -> list[tuple]:
    """A examines B, who shows ``shown``; D and A then lose a Duchess face up each; C taxes
    and A challenges (COUP-A8b, C3, L1)."""
    return [("A", "examine", "A", {"target": "B"}),
            ("B", "pass", "B", {}), ("C", "pass", "C", {}), ("D", "pass", "D", {}),
            ("B", "show_card", "B", {"card": shown}),
            ("A", "examine_decide", "A", {"swap": False}),
            ("B", "income", "B", {}), ("C", "income", "C", {}),
            ("D", "tax", "D", {}), ("A", "challenge", "A", {}), ("D", "concede", "D", {}),
            ("D", "lose_influence", "D", {"card": "duchess"}),
            ("A", "tax", "A", {}), ("B", "challenge", "B", {}), ("A", "concede", "A", {}),
            ("A", "lose_influence", "A", {"card": "duchess"}),
            ("B", "income", "B", {}),
            ("C", "tax", "C", {}), ("A", "challenge", "A", {})]


def test_coup_v1_an_examined_card_c_never_saw_does_not_limit_c_at_a_table(client):
    """The issue's leak: B showed A a Duchess; two more are face up; C may still prove a
    Duchess (COUP-V1: C cannot know the third is B's) — C's legal actions, refusals, view and
    events equal those of the match where B showed a Captain."""
    body = {"players": ["A", "B", "C", "D"], "mode": "table", "seed": 4,
            "options": {"exchanger": "inquisitor"}}
    duchess, captain = Match(client, **body), Match(client, **body)
    steps = _examine_then_two_duchesses_lost("duchess")
    steps[4] = ("B", "show_card", "B", [{"card": "duchess"}, {"card": "captain"}])
    _play([duchess, captain], ["C", "D"], steps)
    legal = json.loads(duchess.read("C", "/legal-actions")[2])["actions"]
    assert {"type": "prove", "player": "C", "card": "duchess"} in legal
    wrong = [m.act("C", "prove", "C", card="captain") for m in (duchess, captain)]
    assert wrong[0] == wrong[1] and wrong[0][0] == 422          # C2: the wrong card, both
    _play([duchess, captain], ["C", "D"], [("C", "prove", "C", {"card": "duchess"})])
    # A and B (who saw B's Duchess) and the host knew all three: the host's view records
    # the dispute against each one's knowledge (COUP-X1) ...
    assert duchess.host_view()["disputes"] == [{
        "turn": 7, "player": "C", "action": "prove", "card": "duchess", "place": "C",
        "reader": reader, "rule": "COUP-X1", "known": 3, "copies": copies_per_character(4)}
        for reader in ("A", "B", "host")]
    assert captain.host_view()["disputes"] == []
    # ... and A, who saw B's Duchess, knows it: a fourth is refused to A on A's knowledge.
    view_a = json.loads(duchess.read("A")[2])["view"]
    assert {"card": "duchess", "places": ["B"]} in view_a["known"]


def test_coup_v1_hands_entered_at_setup_do_not_limit_the_other_seats(client):
    """Hands the host entered are the host's knowledge, not C's: C's lose_influence options and
    proofs are those of a match where those hands were not entered (COUP-V1, X1)."""
    entered = {"A": ["duchess", "unknown"], "B": ["duchess", "duchess"],
               "C": ["unknown", "unknown"], "D": ["unknown", "unknown"]}
    blank = {p: ["unknown", "unknown"] for p in entered}
    matches = [Match(client, players=list(hands), mode="table", seed=2,
                     deal={"hands": hands, "court": ["unknown"] * 7})
               for hands in (entered, blank)]
    steps = [("A", "income", "A", {}), ("B", "income", "B", {}),
             ("C", "tax", "C", {}), ("D", "challenge", "D", {})]
    _play(matches, ["C", "D"], steps)
    legal = json.loads(matches[0].read("C", "/legal-actions")[2])["actions"]
    assert legal == [{"type": "prove", "player": "C", "card": "duchess"},
                     {"type": "concede", "player": "C"}]
    _play(matches, ["C", "D"], [("C", "concede", "C", {})])
    options = {a["card"] for a in json.loads(matches[0].read("C", "/legal-actions")[2])[
        "actions"]}
    assert "duchess" in options                  # C2/L1: C may turn up a Duchess
    _play(matches, ["C", "D"], [("C", "lose_influence", "C", {"card": "duchess"})])
    assert [d["card"] for d in matches[0].host_view()["disputes"]] == ["duchess"]
    assert matches[1].host_view()["disputes"] == []


def test_coup_v1_digital_matches_differing_in_b_s_hand_answer_c_the_same(client):
    """Digital mode: B holds a Duchess in one match and a Captain (the Duchess in the court
    deck instead) in the other; C's answers are the same at every step (COUP-V1)."""
    def deal(b_card):
        hands = {"A": ["assassin", "countess"], "B": [b_card, "assassin"],
                 "C": ["captain", "countess"]}
        court = court_for(hands)
        return {"hands": hands, "court": court}
    matches = [Match(client, players=["A", "B", "C"], mode="digital", seed=3, deal=deal(card))
               for card in ("duchess", "captain")]
    steps = [("A", "income", "A", {}), ("B", "tax", "B", {}), ("C", "challenge", "C", {}),
             ("B", "concede", "B", {}), ("B", "lose_influence", "B", {"card": "assassin"}),
             ("C", "income", "C", {}), ("A", "foreign_aid", "A", {}),
             ("B", "pass", "B", {}), ("C", "pass", "C", {})]
    _play(matches, ["C"], steps)
    refused = [m.act("C", "prove", "C", card="duchess") for m in matches]
    assert refused[0] == refused[1] and refused[0][0] == 422
