"""The gettext catalogs are complete: every text of the HTTP layer and every verdict code has
a Burmese text with the same placeholders, and every game term renders in both languages."""
from __future__ import annotations

from collections import Counter

import pytest
from babel.messages.pofile import read_po

from referee.games.common.cards import PACK, SUITS
from referee.games.coup.rules import CHARACTERS, TURN_ACTIONS
from referee.games.gnoming.rules import DECK_COUNTS
from referee.games.spy.rules import BASE_CARDS, SPY
from referee.i18n import LANGUAGES
from referee.i18n.catalogs import LOCALES, catalog, placeholders, po_path, translate
from referee.contract.messages import messages, pot_text
from referee.i18n.verdicts import UnknownMessage, card_name, render, term


def _ids(lang: str, domain: str) -> dict[str, str]:
    return {m.id: m.string for m in catalog(lang, domain) if m.id}


def test_messages_pot_is_the_code_s_texts():
    """locales/messages.pot lists exactly what the code can answer (`referee contract`)."""
    with (LOCALES / "messages.pot").open("rb") as fp:
        committed = sorted(m.id for m in read_po(fp) if m.id)
    assert committed == messages(), "run `referee contract` to regenerate messages.pot"
    assert (LOCALES / "messages.pot").read_text(encoding="utf-8") == pot_text()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_http_text_has_a_translation_with_the_same_placeholders(lang):
    texts = _ids(lang, "messages")
    missing = [m for m in messages() if not texts.get(m)]
    assert not missing, f"{lang} messages.po lacks: {missing}"
    differ = [m for m in messages() if Counter(placeholders(m)) != Counter(
        placeholders(texts[m]))]
    assert not differ, f"placeholders differ in {lang}: {differ}"
    assert all(any("\u1000" <= c <= "\u109f" for c in texts[m]) for m in messages()
               if lang == "my" and m.strip("{}01: ")), "a Burmese text without Myanmar script"


def test_every_verdict_code_has_every_language_with_the_same_parameters():
    """The verdicts domain: each code of the English catalog has a text in every language,
    with the same parameters, and no language has a code English lacks."""
    english = _ids("en", "verdicts")
    assert english and all(english.values())
    for lang in LANGUAGES:
        texts = _ids(lang, "verdicts")
        assert set(texts) == set(english), lang
        for code, text in texts.items():
            assert text, f"{code} has no {lang} text"
            assert Counter(placeholders(text)) == Counter(placeholders(english[code])), (
                lang, code)


def test_the_completeness_checks_can_fail(tmp_path):
    """A catalog missing a text, or with a placeholder renamed, is caught by the same
    comparisons the tests above make (proof the checks are not vacuous)."""
    assert Counter(placeholders("{player} holds {card}")) != Counter(placeholders(
        "{player} ကိုင် {kard}"))
    with pytest.raises(UnknownMessage):
        render("coup.no_such_code", {}, "my")
    assert po_path("my", "verdicts").is_file()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_and_term_renders(lang):
    """Every card of every deck, every suit, character and Coup action has a text."""
    for card in PACK:
        assert card_name("all-fours", card, lang)
    for suit in SUITS:
        assert term("suit", "all-fours", suit, lang)
    for character in CHARACTERS:
        assert card_name("coup", character, lang)
    for action in TURN_ACTIONS:
        assert term("action", "coup", action, lang)
    for card in (SPY, *BASE_CARDS):
        assert card_name("spy", card, lang)
    for card in DECK_COUNTS:
        assert card_name("gnoming", card, lang)


def test_card_names_and_terms_in_params_are_translated():
    """'the 2 of clubs' (AF card notation 2C) and its Burmese, inside a verdict (AF-P3)."""
    params = {"player": "ana", "suit": "D", "card": "2C"}
    assert render("allfours.play.must_follow", params, "en") == (
        "ana holds diamonds and must follow suit or trump; the 2 of clubs does neither.")
    assert render("allfours.play.must_follow", params, "my") == (
        "ana တွင် ဒိုင်းမွန် ဝတ်စုံ ရှိသဖြင့် ဝတ်စုံလိုက်ရမည် သို့မဟုတ် ဝှက်ဖဲချရမည်။ "
        "ကလပ် 2 သည် နှစ်မျိုးစလုံး မဟုတ်ပါ။")
    assert card_name("all-fours", "QH", "en") == "the queen of hearts"
    assert card_name("coup", "captain", "my") == "ကပ္ပတိန်"
    assert card_name("gnoming", "-2", "en") == "a -2"
    assert card_name("spy", "top_secret_2", "my") == "ထိပ်တန်းလျှို့ဝှက်ချက် 2"
    # COUP-A1: the example of issue 13, income claims no character
    assert render("coup.challenge.not_claimed", {"action": "income"}, "my").startswith("ဝင်ငွေ")
    assert term("card", "coup", ["duchess", "countess"], "en") == "the Duchess, the Countess"


def test_translate_finds_templates_and_leaves_unknown_text():
    assert translate("No game is called 'x'; known games: coup, spy.", "my") == (
        "'x' ဟု အမည်ရသော ဂိမ်း မရှိပါ။ သိထားသော ဂိမ်းများ: coup, spy။")
    assert translate("players: Length must be between 2 and 8.", "my") == (
        "players: အရှည်သည် 2 နှင့် 8 ကြား ဖြစ်ရမည်။")
    assert translate("Not found", "en") == "Not found"
    assert translate("no such text anywhere", "my") == "no such text anywhere"
