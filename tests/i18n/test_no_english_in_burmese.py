"""No English inside a Burmese text, and one word per term (issue 24 item 2).

Every Burmese message of every catalog, rendered with sample parameters of each kind (every
card, character, action, stage, phase, answer… of every game), every rule and the glossary hold
no Latin-script word outside the allow-list (tests/i18n/burmese_text.py); the other spellings
the glossary lists (`avoid`) appear nowhere; numerals are Western digits throughout; Coup's
`awaiting` sentences name the action to send by its glossary word in both languages; and the
served answers — ``GET /v1/games/{game}/rules``, the games' descriptions and the verdicts of
illegal actions sent to /validate — say the same under ``Accept-Language: my``.  The table page's own catalog
(``table.po``, referee/table/static) is held to the same rules."""
from __future__ import annotations

import re

import pytest

from referee.i18n.catalogs import _format, catalog, placeholders
from referee.i18n.glossary import all_terms, lookup
from referee.i18n.verdicts import GAME_OF_PREFIX, render
from referee.registry import GAMES
from referee.rulebook import FILES, book
from tests.i18n.burmese_text import PLAYER_PARAMS, english_words, samples

MY = {"Accept-Language": "my"}
BURMESE_DIGIT = re.compile("[\u1040-\u1049]")


def _english_verdicts() -> dict[str, str]:
    return {m.id: m.string for m in catalog("en", "verdicts") if m.id}


def _burmese_texts() -> dict[str, str]:
    """Every Burmese text the service can answer with, before parameters are filled in."""
    texts = {f"verdicts {m.id}": m.string for m in catalog("my", "verdicts") if m.id}
    texts.update({f"messages {m.id}": m.string for m in catalog("my", "messages") if m.id})
    texts.update({f"table {m.id}": m.string for m in catalog("my", "table") if m.id})
    for game in FILES:
        rules = book(game)
        texts[f"{game} title"] = rules.title["my"]
        texts.update({f"{game} section {k}": v["my"] for k, v in rules.sections.items()})
        for rule in rules.rules.values():
            texts[f"{rule.id} title"], texts[rule.id] = rule.title["my"], rule.text["my"]
            if rule.beyond_seed:
                texts[f"{rule.id} beyond_seed"] = rule.beyond_seed["my"]
    return texts


@pytest.mark.parametrize("part", ["allfours", "coup", "gnoming", "spy", "term", "game",
                                  "options"])
def test_every_burmese_verdict_with_every_term_holds_no_english(part):
    """Each verdict code of the catalog part, rendered in Burmese with every identifier its
    term parameters can hold and sample names, numbers, paths and quoted values."""
    found = {}
    for code, english in _english_verdicts().items():
        if code.split(".")[0] != part:
            continue
        game = GAME_OF_PREFIX.get(part, "")
        for params in samples(code, english, game):
            bad = english_words(render(code, params, "my"))
            if bad:
                found.setdefault(code, set()).update(bad)
    assert found == {}


def test_every_burmese_http_text_holds_no_english():
    """The HTTP layer's texts (messages.po), with numbers in their fields."""
    found = {}
    for message in catalog("my", "messages"):
        if message.id:
            text = _format(message.string, {n: "3" for n in placeholders(message.id)})
            if english_words(text):
                found[message.id] = english_words(text)
    assert found == {}


def test_every_burmese_text_of_the_table_page_holds_no_english():
    """The table page's words (table.po), with a player's name and numbers filled in."""
    found = {}
    for message in catalog("my", "table"):
        if message.id:
            text = _format(message.string, {n: "ana" if n in PLAYER_PARAMS else "3"
                                            for n in placeholders(message.string)})
            if english_words(text):
                found[message.id] = english_words(text)
    assert len(catalog("my", "table")) > 100
    assert found == {}


def test_the_rulebook_and_the_glossary_hold_no_english_in_burmese():
    rules = {key: english_words(text) for key, text in _burmese_texts().items()
             if not key.startswith(("verdicts ", "messages ", "table "))}
    glossary = {(t.kind, t.id): english_words(t.word("my")) for t in all_terms()}
    assert {k: v for k, v in rules.items() if v} == {}
    assert {k: v for k, v in glossary.items() if v} == {}


def test_the_english_check_finds_english_and_passes_the_allow_list():
    """The check can fail: English words are found; rule IDs, player names, JSON names, card
    notation and protocol names pass."""
    assert english_words("ana ၏ မှောက်ထားသော captain မရှိပါ") == ["captain"]
    assert english_words("digital mode တွင်") == ["digital"]  # mode: a JSON name
    assert english_words("'fly' ဟူသော fly", sent={"fly"}) == ["fly"]  # echoed if quoted
    assert english_words("Safe နှင့် lit_bomb") == ["Safe", "lit_bomb"]
    assert english_words("ana၊ state.turn.stage၊ COUP-A8b၊ 10H၊ If-Match၊ null၊ "
                         "deal.hands[0] (POST /v1/matches/{id}/rollback) U+FEFF") == []


def test_the_other_spellings_of_the_issue_are_gone_from_rules_and_messages():
    """Issue 24: influence was also သြဇာ, the host ပွဲကြီးမှူး, block တားဆီးမှု, the
    discard pile စွန့်ပုံ, clockwise နာရီလက်တံအတိုင်း, the court deck the seed's "law court",
    and "digital mode" stayed English.  The glossary lists every such spelling under
    `avoid`; none appears in any Burmese text."""
    avoided = {a: t for t in all_terms() for a in t.avoid}
    for spelling in ("သြဇာ", "ပွဲကြီးမှူး", "တားဆီးမှု", "စွန့်ပုံ", "နာရီလက်တံအတိုင်း",
                     "digital mode", "တရားရုံး", "အရောင်းကိုယ်စားလှယ်", "Renege", "Safe",
                     "Top Secret", "Bomb", "Exposure Target", "ဘေးကင်းမှု"):
        assert spelling in avoided, spelling
    found = [(a, key) for key, text in _burmese_texts().items() for a in avoided if a in text]
    assert found == []


def test_one_numeral_style_western_digits():
    """docs/translating.md: Burmese texts write numbers in Western digits (as the seeds,
    the cards and every number a message fills in do); no Burmese digit anywhere."""
    texts = {**_burmese_texts(), **{f"glossary {t.id}": t.word("my") for t in all_terms()}}
    assert [k for k, v in texts.items() if BURMESE_DIGIT.search(v)] == []


def test_awaiting_sentences_name_the_action_by_its_glossary_word_in_both_languages():
    """A person reads the `awaiting` sentences (the envelope's, and inside Coup's refusals):
    where one names the action to send (Coup's five hints), English says the glossary's word
    for it, the name on the table page's button ("(lose influence)"), never the API's
    identifier ("(lose_influence)"); the Burmese says the same term's Burmese word.  No
    `awaiting` sentence of any of the four games holds an identifier of the API."""
    identifier = re.compile(r"\b[a-z]+_[a-z_]+\b")
    hints = {}
    for code, english in _english_verdicts().items():
        if ".now." not in code:
            continue
        assert not identifier.search(re.sub(r"\{\w+\}", "", english)), (code, english)
        hint = re.search(r"\(([^()]+)\)\.$", english)
        if hint:
            game = GAME_OF_PREFIX[code.split(".")[0]]
            [term] = [t for t in all_terms() if t.game == game and t.kind == "action"
                      and t.word("en") == hint.group(1)]
            assert f"({term.word('my')})" in catalog("my", "verdicts")[code].string, code
            hints[code] = term.id
    assert hints == {"coup.now.choose_card": "choose_card",
                     "coup.now.examine_decide": "examine_decide",
                     "coup.now.exchange": "return_cards", "coup.now.loss": "lose_influence",
                     "coup.now.show_card": "show_card"}


# --- served answers under Accept-Language: my -----------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_and_game_descriptions_in_burmese_hold_no_english(client, game):
    rules = client.get(f"/v1/games/{game}/rules", headers=MY).get_json()
    assert rules["language"] == "my"
    texts = [rules["title"], *(r[k] for r in rules["rules"] for k in ("title", "text",
                                                                      "section_title"))]
    texts += [r["beyond_seed"] for r in rules["rules"] if r["beyond_seed"]]
    described = client.get(f"/v1/games/{game}", headers=MY).get_json()
    texts += [described["title"], *(o["description"] for o in described["options"].values())]
    assert [(t, english_words(t)) for t in texts if english_words(t)] == []


SETUPS = {
    "all-fours": [{"players": ["ana", "ben"], "dealer": "ben", "seed": 42},
                  {"players": ["ana", "ben", "cy", "dee"], "dealer": "dee", "mode": "table"}],
    "coup": [{"players": ["ana", "ben", "cy"], "seed": 2},
             {"players": ["ana", "ben"], "seed": 5, "options": {"exchanger": "inquisitor"}},
             {"players": ["ana", "ben", "cy"], "mode": "table"}],
    "spy": [{"players": ["ana", "ben"], "seed": 1}, {"players": ["ana", "ben", "cy"],
                                                      "seed": 4}],
    "gnoming": [{"players": ["ana", "ben", "cy"], "seed": 3}],
}
FIELDS = [{}, {"card": "unknown"}, {"target": "ben"}, {"steps": 1}, {"character": "duchess"},
          {"cards": ["captain"]}, {"position": [0, 0]}, {"source": "discard", "pile": 0},
          {"answer": "tsss"}, {"card": "QH"}, {"swap": True}, {"nonsense": 1}]


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_verdicts_of_illegal_actions_in_burmese_hold_no_english(client, game):
    """Every action type of the game, sent by every seat (and the host) with a spread of
    fields, through /validate under Accept-Language: my: every violation's title and
    message hold no English word (a sample of hundreds of refusals per game)."""
    messages, sent = set(), set()
    for body in SETUPS[game]:
        state = client.post(f"/v1/games/{game}/setup", json=body).get_json()["state"]
        for kind in (*GAMES[game].engine.vocabulary.types, "fly"):
            for player in (*body["players"], "host", "zed"):
                for fields in FIELDS:
                    action = {"type": kind, "player": player, **fields}
                    sent.update(v for v in (kind, player, *fields.values())
                                if isinstance(v, str))
                    answer = client.post(f"/v1/games/{game}/validate", headers=MY,
                                         json={"state": state, "action": action})
                    for v in answer.get_json().get("violations", []):
                        messages.update((v.get("title", ""), v["message"]))
    assert len(messages) > 10
    assert {m: english_words(m, sent) for m in messages if english_words(m, sent)} == {}


def test_http_problems_name_the_identifiers_a_field_takes_in_burmese(client):
    """A marshmallow choice ("Must be one of: digital, table") and a match's unknown action
    type list the identifiers a client may send: in Burmese by their glossary words."""
    bad_mode = client.post("/v1/games/spy/setup", headers=MY,
                           json={"players": ["ana", "ben"], "mode": "air"}).get_json()
    assert "ဒစ်ဂျစ်တယ်မုဒ်၊ စားပွဲမုဒ်" in bad_mode["detail"]
    assert english_words(bad_mode["detail"]) == []
    match = client.post("/v1/matches", json={"game": "coup", "players": ["ana", "ben"]})
    match = match.get_json()
    fly = client.post(f"/v1/matches/{match['id']}/actions", json={
        "action": {"type": "fly", "player": "ana"}}, headers={
        **MY, "Authorization": f"Bearer {match['seats']['ana']}", "If-Match": '"1"'})
    detail = fly.get_json()["detail"]
    assert lookup("coup", "action", "lose_influence").word("my") in detail
    assert english_words(detail, {"fly"}) == []
