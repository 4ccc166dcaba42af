"""The page's words: every id the page's modules name is in the ``table`` catalog of every
language, with the English placeholders; the Burmese is in Myanmar script with no Latin word
(but the short allow-list); every game, mode and action type the API lists has its words."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from referee.api.table import STATIC, page_strings
from referee.i18n import LANGUAGES
from referee.i18n.catalogs import catalog, placeholders
from referee.registry import GAMES

LATIN_ALLOWED = {"QR"}
"""Latin-script words a Burmese page text may hold: the QR code's name."""
LITERAL_ID = re.compile(r"""\bt\(\s*["'](table\.[\w.-]+)["']""")
TEMPLATE_ID = re.compile(r"""\bt\(\s*`(table\.[\w.-]+)\.\$\{""")


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
def test_every_game_mode_and_action_type_has_its_words(lang):
    texts = page_strings(lang)
    for name, entry in GAMES.items():
        assert f"table.game.{name}" in texts
        for action in entry.schemas.ACTION_SCHEMAS:
            assert f"table.action.{action}" in texts, (name, action)
    for key in ("table.mode.digital", "table.mode.table", "table.live.live",
                "table.live.reconnecting", "table.live.ended", "table.live.connecting",
                "table.rollback.approval.all", "table.rollback.approval.majority"):
        assert key in texts
    templates = set(TEMPLATE_ID.findall(_modules()))
    assert {"table.action", "table.game", "table.mode", "table.live"} <= templates


def test_the_checks_can_fail():
    """A Latin word or a renamed placeholder is what the checks above catch."""
    assert set(re.findall(r"[A-Za-z]+", "rollback တစ်ခု")) - LATIN_ALLOWED == {"rollback"}
    assert Counter(placeholders("{player} ၏")) != Counter(placeholders("{name}'s seat"))
