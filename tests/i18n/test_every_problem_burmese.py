"""Every problem the HTTP layer answers, driven through the API under ``Accept-Language: my``:
its title, detail and each field message hold Myanmar script (issue 13 item 3), the machine
parts (type, status, field names) are those of the English answer.  Covers the match paths
(tokens, versions, idempotency keys, rollbacks, tickets, rematch, audit), the body and query
guards, seat names, limits, /metrics and a store that does not answer."""
from __future__ import annotations

import re

import pytest

from referee.serving.app import create_app

MYANMAR = re.compile("[\u1000-\u109f]")
MY = {"Accept-Language": "my"}


def untranslated(problem: dict) -> list[str]:
    texts = [problem["title"], problem["detail"],
             *(e["message"] for e in problem.get("errors", []))]
    return [t for t in texts if not MYANMAR.search(t)]


class Both:
    """Send each request in English and in Burmese; keep the pairs."""

    def __init__(self, client):
        self.client, self.pairs = client, []

    def send(self, method, path, headers=None, **kwargs):
        answers = []
        for extra in ({}, MY):
            answers.append(getattr(self.client, method)(
                path, headers={**(headers or {}), **extra}, **kwargs))
        self.pairs.append((method, path, *answers))
        return answers[0]

    def check(self):
        bad = []
        for method, path, en, my in self.pairs:
            assert en.status_code == my.status_code >= 400, (method, path, en.data)
            assert my.mimetype == "application/problem+json", (method, path)
            e, m = en.get_json(), my.get_json()
            assert (e["type"], e["status"]) == (m["type"], m["status"])
            assert [x["field"] for x in e.get("errors", [])] == [
                x["field"] for x in m.get("errors", [])]
            bad += [(method, path, text) for text in untranslated(m)]
        assert not bad, "\n".join(map(repr, bad))


def _match(client, **extra):
    body = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ben", "seed": 5,
            **extra}
    return client.post("/v1/matches", json=body).get_json()


def test_match_problems_are_burmese(client):
    both = Both(client)
    m = _match(client)
    mid, ana, ben, host = m["id"], m["seats"]["ana"], m["seats"]["ben"], m["host_token"]
    auth = lambda t: {"Authorization": f"Bearer {t}"}  # noqa: E731
    act = f"/v1/matches/{mid}/actions"
    stand = {"action": {"type": "stand", "player": "ana"}}
    both.send("post", act, json=stand)  # 401 no token
    both.send("post", act, headers=auth("nope"), json=stand)  # 401 unknown token
    both.send("post", act, headers=auth(ben), json=stand)  # 403 another seat
    both.send("post", act, headers=auth(ana), json=stand)  # 428 no version
    both.send("post", act, headers={**auth(ana), "If-Match": '"9"'}, json=stand)  # 409
    both.send("post", act, headers={**auth(ana), "If-Match": "x"}, json=stand)
    both.send("post", act, headers={**auth(ana), "If-Match": '"1"'},  # AF-B1 illegal
              json={"action": {"type": "beg", "player": "ben"}})
    both.send("post", act, headers={**auth(ana), "If-Match": '"1"', "Idempotency-Key": "é"},
              json=stand)
    key = {**auth(ana), "If-Match": '"1"', "Idempotency-Key": "k-1"}
    assert client.post(act, headers=key, json=stand).status_code == 200
    both.send("post", act, headers=key, json={"action": {"type": "beg", "player": "ana"}})
    both.send("post", act, headers={**auth(ana), "If-Match": '"2"'}, json={"action": 5})
    both.send("post", act, headers={**auth(ana), "If-Match": '"2"'}, json={})
    both.send("delete", f"/v1/matches/{mid}", headers=auth(ana))  # 403 not the host
    both.send("get", f"/v1/matches/{mid}/audit")  # 403 before the end
    both.send("post", f"/v1/matches/{mid}/rematch", headers=auth(host))  # 409 before the end
    both.send("get", f"/v1/matches/{mid}/legal-actions")  # 401
    both.send("post", f"/v1/matches/{mid}/stream-tickets")  # 401
    both.send("get", f"/v1/matches/{mid}/events?ticket=nope")
    both.send("get", f"/v1/matches/{mid}/events?ticket=t", headers=auth(ana))
    both.send("get", f"/v1/matches/{mid}/events?after=-1")
    both.send("get", f"/v1/matches/{mid}/events?after=\uff11")  # full-width digit
    both.send("post", act, headers={**auth(ana), "If-Match": 'W/"2"'}, json=stand)  # weak
    both.send("post", act, headers={**auth(ana), "If-Match": '"1' + "0" * 30 + '"'}, json=stand)
    both.send("get", f"/v1/matches/{mid}/events?after=1&after=2")
    both.send("get", f"/v1/matches/{mid}/stream", headers={"Last-Event-ID": "x"})
    rollback = f"/v1/matches/{mid}/rollback"
    both.send("post", rollback, headers=auth(ana), json={"to_version": 1, "reason": "x"})
    both.send("post", rollback, headers=auth(host), json={"to_version": 1, "reason": "x"})
    both.send("post", rollback, headers={**auth(host), "If-Match": '"2"'},
              json={"to_version": 5, "reason": "mistake"})
    both.send("post", rollback, headers={**auth(host), "If-Match": '"2"'},
              json={"to_version": 1, "reason": "mis\u202etake"})  # a bidi control
    both.send("delete", rollback, headers=auth(host))  # 409 none pending
    both.send("post", f"{rollback}/votes", headers=auth(ana),
              json={"proposal": 1, "approve": True})
    both.send("post", f"{rollback}/votes", headers=auth(host),
              json={"proposal": 1, "approve": True})
    both.send("get", "/v1/matches/m-nope")
    both.send("post", "/v1/matches", json={"game": "nope", "players": ["a", "b"]})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["ana", "ANA"]})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["ana", "b\u3164"]})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["ana", "\u0301"]})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["ana", " b"]})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["ana", "b\u202e"]})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["ana", "host"]})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["ana", "b"],
                                           "mode": "air"})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["ana", "b"],
                                           "seed": -1})
    both.check()


def test_guard_problems_are_burmese(client):
    both = Both(client)
    json_type = {"Content-Type": "application/json"}
    both.send("post", "/v1/matches", data='{"game": "spy", "game": "coup"}', headers=json_type)
    both.send("post", "/v1/matches", data="[" * 100 + "]" * 100, headers=json_type)
    both.send("post", "/v1/matches", data='{"players": ["\\ud800"]}', headers=json_type)
    both.send("post", "/v1/matches", data='{"seed": ' + "9" * 5000 + "}", headers=json_type)
    both.send("post", "/v1/matches", data='{"p": [' + ",".join(["1"] * 5000) + "]}",
              headers=json_type)
    both.send("post", "/v1/matches", data="{", headers=json_type)
    both.send("post", "/v1/matches", data=b"\xef\xbb\xbf{}", headers=json_type)  # a BOM
    both.send("post", "/v1/matches", data="{}".encode("utf-16"), headers=json_type)
    both.send("post", "/v1/matches", data="{}",
              headers={"Content-Type": "application/json; charset=latin-1"})
    both.send("post", "/v1/matches", data="x", headers={"Content-Type": "text/plain"})
    both.send("post", "/v1/matches", data=b"{" + b" " * 300000 + b"}", headers=json_type)
    both.send("put", "/v1/matches")
    both.send("get", "/v1/games?page=2")
    both.send("get", "/nowhere")
    both.send("get", "/docs/nothing.js")
    both.send("get", "/v1/games/coup/rules/COUP-Z9")
    both.send("post", "/v1/games/coup/setup", json={"players": ["a"], "seed": -1})
    both.send("post", "/v1/games/coup/validate", json={"state": {}, "action": {"type": "x"}})
    both.send("post", "/v1/games/all-fours/score", json={"sheet": {"players": 3}})
    both.send("post", "/v1/games/gnoming/score-round", json={"round": {"layouts": 5}})
    both.check()


def test_metrics_limits_and_an_unanswering_store_are_burmese():
    app = create_app({"TESTING": True, "REDIS_URL": None, "METRICS_TOKEN": "t" * 20,
                      "LIMIT_CREATE": "1/minute", "RATE_LIMITS_ENABLED": True})
    both = Both(app.test_client())
    both.send("get", "/metrics", headers={"Authorization": "Bearer wrong"})
    app.test_client().post("/v1/matches", json={"game": "spy", "players": ["a", "b"]})
    both.send("post", "/v1/matches", json={"game": "spy", "players": ["a", "b"]})  # 429
    down = create_app({"TESTING": True, "REDIS_URL": "redis://127.0.0.1:1/0"})
    both.client = down.test_client()
    both.send("get", "/v1/matches/aaaaaaaaaaaaaaaaaaaaaa")  # 503 store-unavailable
    both.send("get", "/readyz")
    both.check()


def test_the_check_can_fail():
    assert untranslated({"title": "Invalid input", "detail": "ကစား",
                         "errors": [{"field": "x", "message": "ကစား"}]}) == ["Invalid input"]


# --- engine texts that are not problems: also Burmese under `my` (issue 13) ---------------
LATIN_WORD = re.compile(r"\b[a-z]+_[a-z_]+\b|\([a-z_]+\)")
"""An API token left in a sentence: an action type such as lose_influence or '(choose_card)'."""


def test_games_titles_and_option_descriptions_are_burmese(client):
    """GET /v1/games and /v1/games/{game}: the title and every option description."""
    from referee.matches.loading import game_entry
    listed = client.get("/v1/games", headers=MY).get_json()
    assert listed
    for game in listed:
        one = client.get(f"/v1/games/{game['name']}", headers=MY).get_json()
        english = client.get(f"/v1/games/{game['name']}").get_json()
        assert one == game
        assert english["title"] == game_entry(game["name"]).engine.title
        assert MYANMAR.search(game["title"]), game["name"]
        for key, spec in game["options"].items():
            assert MYANMAR.search(spec["description"]), (game["name"], key)
            # the English catalog repeats the engine's own text (they cannot drift apart)
            from referee.i18n.verdicts import text
            assert text(f"game.{game['name']}.option.{key}", "en") == english["options"][
                key]["description"]


def test_all_fours_game_over_reason_is_burmese_with_its_message_af_s6(client):
    """AF-S6 with target 1: the given point (AF-B2) ends the game; the event's reason is a
    Burmese sentence under `my`, "1 point" in English (not "1 points")."""
    m = _match(client, options={"target": 1})
    mid, ana, ben = m["id"], m["seats"]["ana"], m["seats"]["ben"]
    act = f"/v1/matches/{mid}/actions"
    beg = client.post(act, headers={"Authorization": f"Bearer {ana}", "If-Match": '"1"'},
                      json={"action": {"type": "beg", "player": "ana"}})
    assert beg.status_code == 200, beg.get_json()
    given = client.post(act, headers={"Authorization": f"Bearer {ben}", "If-Match": '"2"',
                                      **MY},
                        json={"action": {"type": "give_one", "player": "ben"}}).get_json()
    over, = [e for e in given["events"] if e["type"] == "game_over"]
    assert MYANMAR.search(over["reason"]) and "points" not in over["reason"]
    assert over["reason_message"]["code"] == "allfours.game_over.target"
    english = client.get(f"/v1/matches/{mid}/events").get_json()["events"]
    over, = [e for e in english if e["type"] == "game_over"]
    assert over["reason"].endswith("reached 1 point: the game is won (AF-S6).")
    mine = client.get(f"/v1/matches/{mid}/events", headers=MY).get_json()["events"]
    assert all(MYANMAR.search(e["reason"]) for e in mine if "reason" in e)


def test_engine_refusals_carry_no_api_tokens_or_python_reprs_in_burmese(client):
    """Coup: an action type in a Burmese sentence is a term (not 'block ကို'); Spy SPY-C3:
    a value quoted in a card_moves message is JSON, never a Python repr, in both languages."""
    coup = client.post("/v1/games/coup/setup", json={"players": ["a", "b", "c"], "seed": 2})
    state = coup.get_json()["state"]
    for action in ({"type": "prove", "player": "a", "card": "duchess"},
                   {"type": "block", "player": "b", "character": "duchess"},
                   {"type": "pass", "player": state["turn"]["player"]}):
        answer = client.post("/v1/games/coup/validate", headers=MY,
                             json={"state": state, "action": action}).get_json()
        assert answer["violations"], action
        for v in answer["violations"]:
            assert MYANMAR.search(v["message"]) and not LATIN_WORD.search(v["message"]), v
    for lang in ({}, MY):
        bad = client.post("/v1/games/spy/setup", headers=lang, json={
            "players": ["a", "b"], "seed": 1,
            "options": {"card_moves": {"safe_1": ["a", "b"], "bomb_1": {"k": True}}}})
        messages = [e["message"] for e in bad.get_json()["errors"]]
        assert len(messages) == 2 and all("['a'" not in t and "True" not in t
                                          for t in messages), messages
        assert any('["a", "b"]' in t for t in messages) and any(
            '{"k": true}' in t for t in messages)


def test_the_token_check_can_fail():
    assert LATIN_WORD.search("{player} သည် မှောက်ထားသောကတ်ကို လှန်ရမည် (lose_influence)။")
    assert LATIN_WORD.search("ယခု choose_card မလုပ်နိုင်ပါ")
    assert not LATIN_WORD.search("ယခု တန်ပြန်ခြင်း မလုပ်နိုင်ပါ")
