"""Each game's scoreboard on the page shows what the service scored (issue 23 item 5): the All
Fours score sheet hand by hand (High, Low, Jack, Game, each hand's points and the score after
it, AF-S1…S4, AF-S6), Gnoming round by round (each round's scores and the totals after it,
GN-W1); every value read back from the match envelope's ``score``."""
from __future__ import annotations

import random

import requests

from tests.table.conftest import needs_browser
from tests.table.test_games import play_one_all_fours_hand

pytestmark = needs_browser


def _sheet_rows(page, key: str) -> dict[str, list[str]]:
    """The score sheet's body rows by their ``data-<key>`` (hand or round number): each
    row's cells' text, its white space made single spaces (the row's head first)."""
    rows = page.locator(f'[data-key="score-sheet"] tbody tr[data-{key}]')
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.get_attribute(f"data-{key}")] = [
            " ".join(row.locator("th, td").nth(j).inner_text().split())
            for j in range(row.locator("th, td").count())]
    return out


def test_af_s1_s4_the_score_sheet_shows_each_award_and_the_hand_s_points(server, phone):
    host, match_id = play_one_all_fours_hand(server, phone)
    host.locator('[data-key="score-sheet"] tbody tr[data-hand="1"]').wait_for()
    match = requests.get(f"{server}/v1/matches/{match_id}", timeout=10).json()
    score = match["score"]
    line = score["breakdown"]["hands"][0]
    assert line["hand"] == 1 and sum(line["points"].values()) >= 1  # at least Game (AF-S4)
    rows = _sheet_rows(host, "hand")
    assert list(rows) == ["1"]
    cells = rows["1"]
    assert cells[0] == "1"
    # the columns: Hand, Kick and beg, High, Low, Jack, Game, then each side (ana, ben)
    deal = [f"{side} +{n}" for side, n in line["deal_points"].items() if n]
    assert cells[1] == (", ".join(deal) or "—")
    for column, kind in enumerate(("high", "low", "jack", "game"), start=2):
        won = [a for a in line["awards"] if a["award"] == kind]
        expected = ", ".join(a["side"] if a["points"] == 1 else f"{a['side']} +{a['points']}"
                             for a in won) or "—"
        assert cells[column] == expected, (kind, line["awards"])
    for column, side in enumerate(("ana", "ben"), start=6):
        assert cells[column] == f"+{line['points'][side]} total {line['score'][side]}"
        total = host.locator(f'[data-key="score-sheet"] tfoot [data-total="{side}"]')
        assert total.inner_text() == str(score["totals"][side])


def _play_round_by_api(server: str, made: dict, rng: random.Random) -> dict:
    """Play random legal actions (each with its seat's token) until the first round has been
    scored; return the match as the host reads it then."""
    url = f"{server}/v1/matches/{made['id']}"
    host = {"Authorization": f"Bearer {made['host_token']}"}
    for _ in range(600):
        match = requests.get(url, headers=host, timeout=10).json()
        if match["score"]["breakdown"]["round_scores"]:
            return match
        choices = [(who, a) for who in match["to_move"] for a in requests.get(
            f"{url}/legal-actions", headers={"Authorization": f"Bearer {made['seats'][who]}"},
            timeout=10).json()["actions"]]
        who, action = rng.choice(choices)
        done = requests.post(f"{url}/actions", json={"action": action}, timeout=10, headers={
            "Authorization": f"Bearer {made['seats'][who]}", "If-Match": f'"{match["version"]}"'})
        assert done.status_code == 200, done.text
    raise AssertionError("the first round did not end in 600 actions")


def test_gn_w1_the_score_sheet_shows_each_round_and_the_totals(server, phone):
    made = requests.post(f"{server}/v1/matches", timeout=10, json={
        "game": "gnoming", "players": ["ana", "ben", "cy"], "seed": 12,
        "options": {"rounds": 2}}).json()
    match = _play_round_by_api(server, made, random.Random(4))
    b = match["score"]["breakdown"]
    seat = phone()
    seat.goto(f"{server}/table/#match={made['id']}&token={made['seats']['ben']}")
    seat.locator('[data-key="score-sheet"]').wait_for()
    rows = _sheet_rows(seat, "round")
    first, running = b["round_scores"][0], b["running_totals"][0]
    assert rows == {"1": ["1", *(f"{first[p]} total {running[p]}" for p in ("ana", "ben", "cy"))]}
    for player in ("ana", "ben", "cy"):  # GN-W1: after one round the totals are its scores
        total = seat.locator(f'[data-key="score-sheet"] tfoot [data-total="{player}"]')
        assert total.inner_text() == str(match["score"]["totals"][player]) == str(first[player])
    assert seat.problems == []
