"""The page's words: every id the page's modules name is in the ``table`` catalog of every
language, with the English placeholders; the Burmese is in Myanmar script with no Latin word
(but the short allow-list); every game, mode and action type the API lists has its word in the
glossary the API's verdicts use (the page keeps no copy of a game term), cards are named as a
verdict names them, and where a page text names a game term its Burmese is the glossary's
word (tests/i18n/test_no_english_in_burmese.py also checks the catalog: no English, none of the
glossary's `avoid` spellings, Western digits)."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from referee.api.table import STATIC, page_strings
from referee.i18n import LANGUAGES
from referee.i18n.catalogs import catalog, placeholders
from referee.i18n.glossary import STEMS, load, lookup
from referee.i18n.verdicts import card_name
from referee.registry import GAMES

LATIN_ALLOWED = {"QR"}
"""Latin-script words a Burmese page text may hold: the QR code's name."""
LITERAL_ID = re.compile(r"""\bt\(\s*["'](table\.[\w.-]+)["']""")
TEMPLATE_ID = re.compile(r"""\bt\(\s*`(table\.[\w.-]+)\.\$\{""")
ANY_ID = re.compile(r"""\bt\(\s*["'`]([a-z_]+\.[\w.-]*)""")

NAMED_TERMS = {
    "table.coup.court": ("coup", "concept", "court deck"),
    "table.coup.coins": ("coup", "concept", "coin"),
    "table.coup.influence": ("coup", "concept", "influence"),
    "table.coup.treasury": ("coup", "concept", "treasury"),
    "table.spy.target": ("spy", "concept", "exposure target"),
    "table.spy.base": ("spy", "concept", "base"),
    "table.af.trump": ("all-fours", "concept", "trump"),
    "table.score.trump": ("all-fours", "concept", "trump"),
    "table.af.kicks": ("all-fours", "concept", "kick"),
    "table.action.kick": ("all-fours", "concept", "kick"),
    "table.af.dealer": ("all-fours", "concept", "dealer"),
    "table.score.dealer": ("all-fours", "concept", "dealer"),
    "table.af.stock": ("all-fours", "concept", "stock"),
    "table.af.tap_to_play": ("all-fours", "action", "play"),
    "table.af.trick_now": ("all-fours", "concept", "trick"),
    "table.score.trick_n": ("all-fours", "concept", "trick"),
    "table.score.title": ("all-fours", "concept", "trick sheet"),
    "table.score.high": ("all-fours", "point", "high"),
    "table.score.low": ("all-fours", "point", "low"),
    "table.score.jack": ("all-fours", "point", "jack"),
    "table.score.game": ("all-fours", "point", "game"),
    "table.score.beg": ("all-fours", "phase", "beg"),
    "table.score.beg.give_one": ("all-fours", "action", "give_one"),
    "table.score.reneges": ("all-fours", "concept", "renege"),
    "table.score.no_renege": ("all-fours", "concept", "renege"),
    "table.score.intro": ("all-fours", "concept", "renege"),
    "table.gn.layout": ("gnoming", "concept", "layout"),
    "table.gn.round": ("gnoming", "concept", "round"),
    "table.gn.draw_pile": ("gnoming", "concept", "draw pile"),
    "table.gn.discards": ("gnoming", "concept", "discard pile"),
    "table.field.source.draw_pile": ("gnoming", "source", "draw_pile"),
    "table.field.source.discard": ("gnoming", "source", "discard"),
    "table.action.game_over": ("spy", "event", "game_over"),
    "table.host.options": (None, "concept", "option"),
    "table.host.intro": (None, "role", "host"),
    "table.no_token": (None, "role", "host"),
    "table.host.title": (None, "role", "referee"),
    "table.seat.title": (None, "role", "seat"),
    "table.rollback.title": (None, "concept", "rollback"),
    "table.rollback.propose": (None, "concept", "rollback"),
    "table.notice.rollback_pending": (None, "concept", "rollback"),
    "table.end.rematch": (None, "concept", "rematch"),
    "table.end.audit": (None, "concept", "audit"),
}
"""Page texts that name a game term -> the term (game, kind, id): their Burmese holds the
glossary's word for it (the one word per term the API's answers use; an action's word without
its noun ending ခြင်း where the text uses it as a verb)."""


def _table(lang: str) -> dict[str, str]:
    return {m.id: m.string for m in catalog(lang, "table") if m.id}


def _modules() -> str:
    return "\n".join(p.read_text() for p in sorted((STATIC / "js").glob("*.js")))


def test_both_languages_have_every_text_with_the_same_placeholders():
    english = _table("en")
    for lang in LANGUAGES:
        texts = _table(lang)
        assert set(texts) == set(english), lang
        for key, text in texts.items():
            assert text.strip(), (lang, key)
            assert Counter(placeholders(text)) == Counter(placeholders(english[key])), (lang, key)


def test_burmese_texts_are_myanmar_script_without_english_words():
    for key, text in _table("my").items():
        assert re.search("[\u1000-\u109f]", text), key
        words = set(re.findall(r"[A-Za-z]+", re.sub(r"\{\w+\}", "", text)))
        assert words <= LATIN_ALLOWED, (key, words)


def test_every_id_the_modules_name_is_in_the_catalog():
    used = set(LITERAL_ID.findall(_modules()))
    assert len(used) > 100
    assert used - set(_table("en")) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_mode_and_action_type_has_its_glossary_word(lang):
    """The page names games, modes and actions by the glossary's words (strings.js
    gameName, modeName, actionName): each one the API lists is served, and the page's own
    catalog keeps no copy of a game action's word (table.action.* holds only what is no game
    action: a rollback, a hand scored)."""
    texts = page_strings(lang)
    for name, entry in GAMES.items():
        assert texts[f"glossary.common.game.{name}"] == lookup(name, "game", name).word(lang)
        for action in entry.schemas.ACTION_SCHEMAS:
            assert texts[f"glossary.{name}.action.{action}"] == lookup(
                name, "action", action).word(lang), (name, action)
    actions = {a for stem in STEMS.values() for a in load(stem).get("action", {})}
    assert {k for k in _table(lang) if k.split(".")[-1] in actions
            and k.startswith("table.action.")} == set()
    for key in ("glossary.common.mode.digital", "glossary.common.mode.table",
                "table.mode_hint.digital", "table.mode_hint.table", "table.live.live",
                "table.live.reconnecting", "table.live.ended", "table.live.connecting",
                "table.rollback.approval.all", "table.rollback.approval.majority"):
        assert key in texts
    templates = set(TEMPLATE_ID.findall(_modules()))
    assert {"table.action", "table.mode_hint", "table.live"} <= templates


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cards_are_named_as_the_verdicts_name_them(lang):
    """Every card of every game (and the face-down 'unknown') is served with the name a
    verdict gives it; suits standing alone likewise."""
    texts = page_strings(lang)
    assert texts["card.all-fours.10H"] == card_name("all-fours", "10H", lang)
    assert texts["card.all-fours.10H"] == {"en": "the 10 of hearts", "my": "ဟတ် 10"}[lang]
    assert texts["card.coup.captain"] == {"en": "the Captain", "my": "ကပ္ပတိန်"}[lang]
    assert texts["card.spy.safe_1"] == {"en": "Safe 1", "my": "မီးခံသေတ္တာ 1"}[lang]
    assert texts["card.gnoming.M"] == card_name("gnoming", "M", lang)
    assert len([k for k in texts if k.startswith("card.all-fours.")]) == 53
    for game in GAMES:
        assert texts[f"card.{game}.unknown"] == card_name(game, "unknown", lang)
    assert texts["suit_name.S"] == {"en": "spades", "my": "စပိတ် ဝတ်စုံ"}[lang]
    assert texts["term.card.gnoming"]  # the phrase a Gnoming number is named in


def test_every_id_the_modules_name_is_served():
    """No module asks for a word the served strings lack (the term.* entries the page used
    before the glossary, `term.rank.A`, `term.spy.spy`…, are gone from the catalogs)."""
    served = set(page_strings("en"))
    literal = {i for i in ANY_ID.findall(_modules()) if not i.endswith(".")}
    assert len(literal) > 100
    assert literal - served == set()


@pytest.mark.parametrize("key", sorted(NAMED_TERMS))
def test_page_texts_name_game_terms_by_the_glossary_word(key):
    game, kind, ident = NAMED_TERMS[key]
    found = lookup(game or "", kind, ident)
    assert found is not None, (game, kind, ident)
    stem = found.word("my").removesuffix("ခြင်း")  # a verb's noun form: its stem in a sentence
    assert stem in _table("my")[key], (key, found.word("my"))


def test_the_checks_can_fail():
    """A Latin word, a renamed placeholder or another word for a term is what the checks
    above catch."""
    assert lookup("coup", "concept", "court deck").word("my") not in "တရားရုံး: {n}"
    assert set(re.findall(r"[A-Za-z]+", "rollback တစ်ခု")) - LATIN_ALLOWED == {"rollback"}
    assert Counter(placeholders("{player} ၏")) != Counter(placeholders("{name}'s seat"))
