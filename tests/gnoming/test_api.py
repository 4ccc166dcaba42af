"""Gnoming A Round through the HTTP API: the generic endpoints and the scoring endpoints
(``score-round``, ``score-game``) with the request shapes of shared/cases/README.md."""
import pytest

from tests.gnoming.deals import grid, make_deal
from tests.gnoming.test_turns import LAYOUTS

ROUND = {"layouts": {"ana": grid("5 5 5 / 3 -2 8 / M 7 4"), "ben": grid("M 4 4 / 6 3 5 / 6 8 -1"),
                     "cy": grid("3 6 8 / 6 6 6 / 4 6 5")}, "went_out": "cy"}


def post(client, path, body, status=200):
    response = client.post(f"/v1/games/gnoming/{path}", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_gn_p1_p7_score_round_gives_scores_sets_and_mulligan_values(client):
    result = post(client, "score-round", {"round": ROUND})
    # ana 15 (worked example); ben -4 - 6 + 3 + 5 + 8 - 1 = 5; cy 8 (worked example), out
    # first but not the lowest (ben's 5 is): 8 + 5 = 13
    assert result["scores"] == {"ana": 15, "ben": 5, "cy": 13}
    ben = result["breakdown"]["ben"]
    assert ben["mulligans"] == [{"position": [0, 0], "row": 4, "column": 6}]
    assert [(s["line"], s["index"], s["points"]) for s in ben["sets"]] == \
        [("row", 0, -4), ("column", 0, -6)]
    assert result["breakdown"]["cy"]["base"] == 8 and result["breakdown"]["cy"]["out_first"] == 5


def test_gn_p7_score_round_option_out_first_tie(client):
    tied = {"layouts": {"ana": grid("4 4 4 / 3 3 3 / 5 -1 6"),
                        "ben": grid("4 4 4 / 3 3 3 / 6 -1 5"),
                        "cy": grid("8 8 7 / 6 6 5 / 4 3 3")}, "went_out": "ana"}
    assert post(client, "score-round", {"round": tied})["scores"]["ana"] == -2
    body = {"round": tied, "options": {"out_first_tie": "not_lowest"}}
    assert post(client, "score-round", body)["scores"]["ana"] == 8
    bad = post(client, "score-round", {"round": tied, "options": {"out_first_tie": "x"}}, 422)
    assert bad["type"] == "/problems/invalid-setup"
    assert bad["errors"][0]["field"] == "options.out_first_tie"


@pytest.mark.parametrize("change, rule, field", [
    ({"ana": grid("H H 5 / 6 7 8 / 3 4 5"), "cy": grid("H H 8 / 6 6 6 / 4 6 5")},
     "GN-C1", "round.layouts"),  # a fourth Hazard
    ({"ana": grid("3 3 3 / 3 3 3 / 3 3 3"), "ben": grid("3 3 3 / 3 3 3 / 4 4 4")},
     "GN-C1", "round.layouts"),  # 9 + 6 + 1 = sixteen 3s
    ({"ana": [["5", "5", "5", "5"], ["3", "-2", "8", "4"], ["M", "7", "4", "4"]]},
     "GN-S1", "round.layouts.ana[0]"),  # a 3×4 layout
    ({"ben": grid("M 4 4 / 6 9 5 / 6 8 -1")}, "GN-C1", "round.layouts.ben[1][1]"),  # card "9"
])
def test_gn_c1_s1_score_round_rejects_layouts_the_deck_cannot_produce(client, change, rule, field):
    body = {"round": {**ROUND, "layouts": {**ROUND["layouts"], **change}}}
    problem = post(client, "score-round", body, 422)
    assert problem["type"] == "/problems/impossible-state"
    assert {"rule": rule, "field": field} in [{"rule": e["rule"], "field": e["field"]}
                                              for e in problem["errors"]]


def test_gn_c2_score_round_rejects_two_players_without_the_option(client):
    two = {"layouts": {"ana": ROUND["layouts"]["ana"], "ben": ROUND["layouts"]["ben"]}}
    problem = post(client, "score-round", {"round": two}, 422)
    assert problem["errors"][0]["rule"] == "GN-C2"
    ok = post(client, "score-round", {"round": two, "options": {"allow_two_players": True}})
    assert ok["scores"] == {"ana": 15, "ben": 5}


def test_score_round_rejects_wrong_types_naming_the_field(client):
    problem = post(client, "score-round", {"round": {"layouts": {"ana": "5 5 5"}}}, 422)
    assert problem["type"] == "/problems/invalid-input"
    assert any(e["field"].startswith("round.layouts") for e in problem["errors"])
    assert post(client, "score-round", {"rounds": []}, 422)["type"] == "/problems/invalid-input"


def test_gn_c3_w1_score_game_needs_options_rounds_rounds(client):
    problem = post(client, "score-game", {"rounds": [ROUND, ROUND]}, 422)
    assert problem["errors"] == [{"field": "rounds", "rule": "GN-C3", "message":
                                  "A game is 3 rounds (options.rounds); 2 rounds given."}]
    result = post(client, "score-game", {"rounds": [ROUND, ROUND], "options": {"rounds": 2}})
    assert result["round_scores"] == [{"ana": 15, "ben": 5, "cy": 13}] * 2
    assert result["totals"] == {"ana": 30, "ben": 10, "cy": 26} and result["winners"] == ["ben"]


# --- the generic endpoints --------------------------------------------------------------------
def deal_setup(client, **extra):
    body = {"players": list(LAYOUTS), "deal": make_deal(LAYOUTS, draw_top=("H",)), **extra}
    return post(client, "setup", body)["state"]


def test_gn_s2_d1_d2_a_hazard_played_through_the_api(client):
    state = deal_setup(client)
    for player in LAYOUTS:
        for position in ([0, 0], [0, 2]):
            action = {"type": "flip", "player": player, "position": position}
            state = post(client, "apply", {"state": state, "action": action})["state"]
    legal = post(client, "legal-actions", {"state": state})
    assert legal["to_move"] == ["ana"]
    assert {"type": "draw", "player": "ana", "source": "draw_pile"} in legal["actions"]
    action = {"type": "draw", "player": "ana", "source": "draw_pile"}
    answer = post(client, "apply", {"state": state, "action": action})
    state = answer["state"]
    assert answer["score"]["points"] == {"ana": 9, "ben": 10, "cy": 9}  # face-up cards only
    verdict = post(client, "validate", {"state": state, "action": {
        "type": "discard", "player": "ana", "pile": 0}})
    assert verdict["legal"] is False and verdict["violations"][0]["rule"] == "GN-D2"
    refused = post(client, "apply", {"state": state, "action": {
        "type": "discard", "player": "ana", "pile": 0}}, 422)
    assert refused["type"] == "/problems/illegal-action"
    assert refused["violations"][0]["rule"] == "GN-D2"
    answer = post(client, "apply", {"state": state,
                                    "action": {"type": "discard", "player": "ana"}})
    assert answer["state"]["phase"] == "hazard" and answer["state"]["removed"] == ["H"]
    assert post(client, "legal-actions", {"state": answer["state"]})["to_move"] == ["ben", "cy"]


def test_gn_c1_an_entered_deal_with_a_fourth_hazard_is_an_invalid_setup(client):
    deal = make_deal(LAYOUTS)
    deal["draw_pile"][0] = "H"  # in place of a 3: the deal holds 4 Hazards (and 13 3s)
    problem = post(client, "setup", {"players": list(LAYOUTS), "deal": deal}, 422)
    assert problem["type"] == "/problems/invalid-setup"
    assert {(e["rule"], e["field"]) for e in problem["errors"]} == {("GN-C1", "deal")}
    assert "4 cards 'H'" in problem["detail"] and "missing 1×'3'" in problem["detail"]


def test_gn_c2_setup_player_count(client):
    problem = post(client, "setup", {"players": ["ana", "ben"]}, 422)
    assert problem["errors"][0]["rule"] == "GN-C2" and problem["errors"][0]["field"] == "players"
    state = post(client, "setup", {"players": ["ana", "ben"], "seed": 3,
                                   "options": {"allow_two_players": True}})["state"]
    assert list(state["layouts"]) == ["ana", "ben"]
    post(client, "setup", {"players": [f"p{i}" for i in range(8)]}, 422)


def test_gn_c1_a_submitted_state_with_fifteen_threes_is_impossible(client):
    state = deal_setup(client)
    index = next(i for i, c in enumerate(state["draw_pile"]) if c != "3")
    state["draw_pile"][index] = "3"
    problem = post(client, "legal-actions", {"state": state}, 422)
    assert problem["type"] == "/problems/impossible-state"
    assert {(e["rule"], e["field"]) for e in problem["errors"]} == {("GN-C1", "state")}
    assert "15 cards '3'" in problem["detail"]


def test_a_submitted_state_with_a_wrong_type_inside_names_the_field(client):
    state = deal_setup(client)
    state["layouts"]["ben"][1][2] = {"card": 7, "up": False}
    problem = post(client, "validate", {"state": state, "action": {
        "type": "flip", "player": "ben", "position": [0, 0]}}, 422)
    assert problem["type"] == "/problems/impossible-state"
    assert problem["errors"][0]["field"] == "state.layouts.ben[1][2]"


def test_gn_c2_an_unknown_player_is_a_violation_not_an_error(client):
    state = deal_setup(client)
    verdict = post(client, "validate", {"state": state, "action": {
        "type": "flip", "player": "zed", "position": [0, 0]}})
    assert verdict == {"legal": False, "violations": [{
        "rule": "GN-C2", "title": "Players", "field": "action.player",
        "code": "gnoming.action.not_a_player", "message": "'zed' is not a player of this game (ana, ben, cy)."}], "violation_count": 1}


def test_gn_s2_an_illegal_action_answers_burmese_with_the_same_rule_and_code(client):
    """Issue 13: a draw during the GN-S2 setup flips is refused in the reader's language; the
    rule, code and field do not depend on the language; the action term is translated too."""
    state = deal_setup(client)
    body = {"state": state, "action": {"type": "draw", "player": "ana", "source": "draw_pile"}}
    answers = {}
    for lang in ("en", "my"):
        response = client.post("/v1/games/gnoming/validate", json=body,
                               headers={"Accept-Language": lang})
        assert response.status_code == 200 and response.headers["Content-Language"] == lang
        answers[lang] = response.get_json()["violations"]
    en, my = answers["en"], answers["my"]
    assert [(v["rule"], v["code"]) for v in en] == [("GN-S2", "gnoming.turn.waits.setup")]
    assert [(v["rule"], v["code"], v.get("field")) for v in my] == \
        [(v["rule"], v["code"], v.get("field")) for v in en]
    assert en[0]["message"] == ("ana cannot draw now: the game waits for the players turning "
                                "up their two cards before play.")
    assert my[0]["message"].startswith("ana ယခု ဆွဲခြင်း မပြုနိုင်ပါ")
    assert all("\u1000" <= ch <= "\u109f" for ch in my[0]["message"] if ch.isalpha()
               and ch not in "ana")
