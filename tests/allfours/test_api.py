"""All Fours through the HTTP API: bad input of every kind gets a 4xx problem naming the field;
impossible snapshots and inconsistent trick sheets are refused with the rule that decides."""
import copy
import json

import pytest

from referee.games.allfours.rules import default_sides
from referee.games.allfours.sheet import sheet_problems
from tests.allfours.deals import act, setup
from tests.conftest import CASES_DIR

PROBLEM = "application/problem+json"


def _sheet(name="real-hand-1"):
    return json.loads((CASES_DIR / "allfours" / f"{name}.json").read_text())["sheet"]


def _problem(response, status, slug):
    assert response.status_code == status, response.get_json()
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["type"] == f"/problems/{slug}" and body["status"] == status
    assert body["title"] and body["detail"]
    return body


def _fields(body):
    return {e["field"] for e in body.get("errors", [])}


def _setup(client, **body):
    body.setdefault("players", ["ana", "ben"])
    response = client.post("/v1/games/all-fours/setup", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["state"]


def test_games_listing_shows_player_counts_options_and_rules_version(client):
    games = client.get("/v1/games").get_json()
    allfours = next(g for g in games if g["name"] == "all-fours")
    assert allfours["players"]["counts"] == [2, 4]
    assert allfours["options"]["target"]["default"] == 14  # AF-S6
    assert allfours["options"]["hang_jack"]["default"] == 3  # AF-S3
    assert "play" in allfours["actions"]
    assert client.get("/v1/games/all-fours").get_json()["name"] == "all-fours"


def test_unknown_game_is_404_problem(client):
    body = _problem(client.get("/v1/games/bridge"), 404, "unknown-game")
    assert _fields(body) == {"game"}
    _problem(client.post("/v1/games/bridge/setup", json={}), 404, "unknown-game")


def test_malformed_json_is_400_problem(client):
    response = client.post("/v1/games/all-fours/score", data="{\"sheet\": ",
                           content_type="application/json")
    _problem(response, 400, "malformed-json")
    _problem(client.post("/v1/games/all-fours/setup", data="[1,", content_type="application/json"),
             400, "malformed-json")


def test_non_json_body_is_415_problem(client):
    _problem(client.post("/v1/games/all-fours/setup", data="players=a",
                         content_type="application/x-www-form-urlencoded"),
             415, "unsupported-media-type")


def test_body_over_the_limit_is_413_problem(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 1000
    _problem(client.post("/v1/games/all-fours/score", data="x" * 2000,
                         content_type="application/json"), 413, "payload-too-large")


def test_unknown_card_in_a_sheet_names_the_field(client):
    sheet = _sheet()
    sheet["tricks"][2]["cards"][1] = "1X"
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}), 422,
                    "invalid-input")
    assert "sheet.tricks[2].cards[1]" in _fields(body)


def test_wrong_types_name_the_field(client):
    sheet = _sheet()
    sheet["dealer"] = 7
    sheet["tricks"] = "many"
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}), 422,
                    "invalid-input")
    assert {"sheet.dealer", "sheet.tricks"} <= _fields(body)


def test_unknown_or_ill_typed_options_are_refused(client):
    body = _problem(client.post("/v1/games/all-fours/score",
                                json={"sheet": _sheet(), "options": {"trumps": 2}}),
                    422, "invalid-setup")
    assert _fields(body) == {"options.trumps"}
    body = _problem(client.post("/v1/games/all-fours/setup",
                                json={"players": ["a", "b"], "options": {"target": "14"}}),
                    422, "invalid-setup")
    assert _fields(body) == {"options.target"}
    body = _problem(client.post("/v1/games/all-fours/setup",
                                json={"players": ["a", "b"], "options": {"game_tie": "coin"}}),
                    422, "invalid-setup")
    assert body["errors"][0]["rule"] == "AF-S4"


def test_af_d1_three_players_cannot_play(client):
    body = _problem(client.post("/v1/games/all-fours/setup", json={"players": ["a", "b", "c"]}),
                    422, "invalid-setup")
    assert body["errors"][0]["rule"] == "AF-D1"


def test_af_x1_every_sheet_problem_is_listed_at_once(client):
    sheet = _sheet()
    sheet["tricks"][2]["cards"][1] = "QC"  # QC twice (trick 2 has it)
    sheet["tricks"][5]["cards"][0] = "QD"  # the kicked card played
    sheet["tricks"][3]["leader"] = "omar"  # not the winner of trick 3 (lena won it)
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}), 422,
                    "inconsistent-sheet")
    messages = " ".join(e["message"] for e in body["errors"])
    assert "queen of clubs appears 2 times" in messages
    assert "queen of diamonds appears 2 times" in messages and "kicked" in messages
    assert all(e["rule"] in ("AF-X1", "AF-D1") for e in body["errors"])


def test_af_x1_leader_and_trick_count_checks(client):
    sheet = _sheet()
    sheet["tricks"][1]["leader"] = "kiri"  # tano won trick 1 (AS)
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}), 422,
                    "inconsistent-sheet")
    assert "sheet.tricks[1].leader" in _fields(body)
    short = _sheet()
    short["tricks"] = short["tricks"][:5]
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": short}), 422,
                    "inconsistent-sheet")
    assert "sheet.tricks" in _fields(body)


def test_af_x1_a_card_twice_hides_no_other_problem(client):
    # AF-X1 / README "inconsistent-sheet (422, every AF-X1 problem)": 7C twice, 3 tricks where
    # one kick deals 6, and every leader wrong (b is on a's right; b won trick 1 with AH over
    # JH in hearts; 7C vs 7C: the first played, a, wins trick 2)
    sheet = {"players": ["a", "b"], "dealer": "a", "kicks": ["5H"], "beg": "stand",
             "tricks": [{"leader": "a", "cards": ["JH", "AH"]},
                        {"leader": "a", "cards": ["7C", "7C"]},
                        {"leader": "b", "cards": ["8C", "3C"]}]}
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}), 422,
                    "inconsistent-sheet")
    assert body["error_count"] == 5
    assert [(e["field"], e["message"]) for e in body["errors"]] == [
        ("sheet.tricks[1].cards[1]", "On this sheet the 7 of clubs appears 2 times "
         "(sheet.tricks[1].cards[0], sheet.tricks[1].cards[1]); every card is played once."),
        ("sheet.tricks", "With 1 kick(s) every player was dealt 6 cards, so the hand has 6 "
         "tricks, not 3."),
        ("sheet.tricks[0].leader", "Trick 1 must be led by the player on the dealer's right, "
         "b, not a."),
        ("sheet.tricks[1].leader", "Trick 2 must be led by the winner of the last trick, b, "
         "not a."),
        ("sheet.tricks[2].leader", "Trick 3 must be led by the winner of the last trick, a, "
         "not b.")]
    # a leader who is not a player leaves who won each trick unknown: no leader check after it
    sheet["tricks"][1]["leader"] = "kiri"
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}), 422,
                    "inconsistent-sheet")
    assert [e["field"] for e in body["errors"]] == [
        "sheet.tricks[1].leader", "sheet.tricks[1].cards[1]", "sheet.tricks"]
    # a value that is not a card (the schema refuses it first; the engine check stands alone)
    # leaves the trump and the winners unknown: only that is reported (AF-D1)
    sheet["tricks"][1]["leader"], sheet["tricks"][2]["cards"][1] = "a", "ZZ"
    assert [(v.rule, v.field) for v in sheet_problems(sheet, default_sides(["a", "b"]), 11)] \
        == [("AF-D1", "sheet.tricks[2].cards[1]"), ("AF-X1", "sheet.tricks[1].cards[1]")]


def test_af_x1_kicks_must_match_the_beg(client):
    sheet = _sheet()
    sheet["beg"] = "run_pack"  # one kick only
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}), 422,
                    "inconsistent-sheet")
    assert "sheet.kicks" in _fields(body)


def test_impossible_snapshot_card_twice_is_refused(client):
    state = _setup(client, seed=3)
    bad = copy.deepcopy(state)
    bad["hands"]["ana"][0] = bad["hands"]["ben"][0]
    body = _problem(client.post("/v1/games/all-fours/validate",
                                json={"state": bad, "action": {"type": "stand",
                                                               "player": "ben"}}),
                    422, "impossible-state")
    assert any(f.startswith("state.hands") for f in _fields(body))


def test_impossible_snapshot_kicked_card_in_a_hand_and_wrong_hand_size(client):
    state = _setup(client, seed=3)
    bad = copy.deepcopy(state)
    bad["hands"]["ana"][0] = bad["kicks"][0]
    body = _problem(client.post("/v1/games/all-fours/legal-actions", json={"state": bad}),
                    422, "impossible-state")
    assert any(e["rule"] == "AF-D1" and "appears 2 times" in e["message"] and
               "state.kicks" in e["message"] for e in body["errors"]), body
    short = copy.deepcopy(state)
    short["stock"].append(short["hands"]["ben"].pop())
    body = _problem(client.post("/v1/games/all-fours/legal-actions", json={"state": short}),
                    422, "impossible-state")
    assert "state.hands.ben" in _fields(body)


def test_snapshot_with_wrong_types_is_invalid_input(client):
    state = _setup(client, seed=3)
    state["score"] = {"ana": "lots"}
    state["hands"]["ana"] = "AS"
    body = _problem(client.post("/v1/games/all-fours/legal-actions", json={"state": state}),
                    422, "invalid-input")
    assert {"state.hands.ana", "state.score.ana.value"} & _fields(body)


def test_illegal_action_returns_rule_and_sentence_and_changes_nothing(client):
    state = _setup(client, seed=11, dealer="ana")
    body = _problem(client.post("/v1/games/all-fours/apply",
                                json={"state": state, "action": {"type": "stand",
                                                                 "player": "ana"}}),
                    422, "illegal-action")
    assert body["violations"] == [{"rule": "AF-B1", "title": "Stand or beg",
                                   "code": "allfours.beg.not_eldest",
                                   "message": "Only the player on the "
                                   "dealer's right (ben) may stand or beg.",
                                   "field": "action.player"}]


def test_af_p3_refusal_in_burmese_has_the_same_rule_and_code_as_in_english(client):
    """Issue 13: an illegal play (AF-P3: ana holds the 2 of clubs, clubs are led, she plays a
    diamond) answered with Accept-Language: my is Myanmar script naming the cards in Burmese,
    with the same rule and code as in English."""
    state = setup(["ana", "ben"], "ana", {"ana": ["2C", "3D", "4D", "5D", "6D", "7D"],
                                          "ben": ["KC", "8D", "9D", "10D", "JD", "QD"]},
                  stock_at={0: "2H"})  # the kick: trump is hearts
    state = act(act(state, type="stand", player="ben"), type="play", player="ben", card="KC")
    bodies = {}
    for lang in ("en", "my"):
        res = client.post("/v1/games/all-fours/validate", headers={"Accept-Language": lang},
                          json={"state": state, "action": {"type": "play", "player": "ana",
                                                           "card": "3D"}})
        assert res.headers["Content-Language"] == lang
        bodies[lang] = res.get_json()["violations"]
    en, my = bodies["en"], bodies["my"]
    assert [(v["rule"], v["code"]) for v in en] == [(v["rule"], v["code"]) for v in my] == [
        ("AF-P3", "allfours.play.must_follow")]
    assert en[0]["message"] == ("ana holds clubs and must follow suit or trump; the 3 of "
                                "diamonds does neither.")
    assert "ဒိုင်းမွန် 3" in my[0]["message"] and "ကလပ်" in my[0]["message"], my


def test_unknown_action_type_and_player_are_refused(client):
    state = _setup(client, seed=11)
    body = _problem(client.post("/v1/games/all-fours/validate",
                                json={"state": state, "action": {"type": "fold",
                                                                 "player": "ana"}}),
                    422, "invalid-input")
    assert _fields(body) == {"action.type"}
    verdict = client.post("/v1/games/all-fours/validate",
                          json={"state": state, "action": {"type": "stand", "player": "zed"}})
    assert verdict.get_json()["violations"][0]["rule"] == "AF-D1"


def test_seeded_setup_is_reproducible_and_unseeded_is_not_fixed(client):
    assert _setup(client, seed=99)["hands"] == _setup(client, seed=99)["hands"]
    assert _setup(client, seed=99)["hands"] != _setup(client, seed=100)["hands"]


@pytest.mark.parametrize("path", ["/v1/games/all-fours/setup", "/livez"])
def test_wrong_method_is_405_problem(client, path):
    method = client.get if path.endswith("setup") else client.delete
    _problem(method(path), 405, "method-not-allowed")


def test_unknown_path_is_404_problem(client):
    _problem(client.get("/nope"), 404, "not-found")


def test_json_nested_too_deeply_is_400_problem_not_500(client):
    deep = "[" * 50000 + "]" * 50000
    _problem(client.post("/v1/games/all-fours/score", data=deep,
                         content_type="application/json"), 400, "malformed-json")
    # brackets inside strings do not count
    body = {"sheet": {"players": ["[" * 200, "b"]}}
    assert client.post("/v1/games/all-fours/score", json=body).status_code == 422


EARLY_END = {"players": ["ana", "ben"], "dealer": "ana", "kicks": ["AH"], "beg": "stand",
             "tricks": [{"leader": "ben", "cards": ["2H", "3S"]},
                        {"leader": "ben", "cards": ["4S", "KH"]},
                        {"leader": "ana", "cards": ["5S", "7S"]},
                        {"leader": "ben", "cards": ["8S", "9S"]},
                        {"leader": "ana", "cards": ["10S", "JS"]},
                        {"leader": "ben", "cards": ["QS", "KS"]}]}


def test_af_x1_reneges_are_listed_even_when_the_game_ended_earlier(client):
    # AF-K1 + AF-S6: the kicked ace takes ana from 13 to 14 before a card is played, so she
    # wins; the sheet still proves her renege (AF-I1: she failed the 2H trump lead in trick 1
    # and played the KH in trick 2), and AF-X1 says every proven renege is flagged.
    sheet = {**EARLY_END, "score_before": {"ana": 13, "ben": 0}}
    result = client.post("/v1/games/all-fours/score", json={"sheet": sheet}).get_json()
    assert result["winner"] == "ana" and result["points"] == {"ana": 1, "ben": 0}
    assert [(r["player"], r["trick"], r["loses_game"]) for r in result["reneges"]] == \
        [("ana", 1, True)]
    # without the race, the same renege loses ana the game at once (AF-I1)
    result = client.post("/v1/games/all-fours/score", json={"sheet": EARLY_END}).get_json()
    assert result["winner"] == "ben" and result["points"] == {"ana": 1, "ben": 0}


def test_af_s6_score_before_must_be_a_whole_number_below_the_target(client):
    for bad in (12.99, "13", True):
        sheet = {**EARLY_END, "score_before": {"ana": bad, "ben": 0}}
        body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}),
                        422, "invalid-input")
        assert any(f.startswith("sheet.score_before.ana") for f in _fields(body))
    sheet = {**EARLY_END, "score_before": {"ana": 14, "ben": 0}}
    body = _problem(client.post("/v1/games/all-fours/score", json={"sheet": sheet}),
                    422, "inconsistent-sheet")
    assert body["errors"][0]["rule"] == "AF-S6"


def test_json_null_or_an_array_body_is_422_naming_the_body(client):
    for raw in ("null", "[]", "3"):
        body = _problem(client.post("/v1/games/all-fours/setup", data=raw,
                                    content_type="application/json"), 422, "invalid-input")
        assert _fields(body) == {"body"}


def test_a_number_too_long_to_convert_is_422_not_malformed(client):
    raw = '{"players": ["a", "b"], "seed": ' + "9" * 5000 + "}"
    _problem(client.post("/v1/games/all-fours/setup", data=raw,
                         content_type="application/json"), 422, "invalid-input")


def test_every_problem_names_a_field(client):
    assert _fields(_problem(client.get("/nope"), 404, "not-found")) == {"path"}
    assert _fields(_problem(client.get("/v1/games/all-fours/setup"), 405,
                            "method-not-allowed")) == {"method"}


def test_legal_actions_of_a_player_not_in_the_state_is_422(client):
    state = _setup(client, seed=1)
    body = _problem(client.post("/v1/games/all-fours/legal-actions",
                                json={"state": state, "player": "zed"}), 422, "invalid-input")
    assert _fields(body) == {"player"}


@pytest.mark.parametrize("name", ["__referee__", "host"])
def test_reserved_names_cannot_be_players_so_no_seat_gets_the_referee_view(client, name):
    # a seat named like the referee viewer would be served every hand (hidden cards)
    for path, body in (("/v1/games/all-fours/setup", {"players": [name, "ben"]}),
                       ("/v1/matches", {"game": "all-fours", "players": [name, "ben"]})):
        problem = _problem(client.post(path, json=body), 422, "invalid-input")
        assert _fields(problem) == {"players"}
