"""The glossary (``referee/rulebook/glossary/*.yaml``, issue 24 item 1): every identifier a
player can see has its one Burmese word, the seed's word beside it and why they differ, and
it ships with the package."""
from __future__ import annotations

import tomllib

import pytest

from referee.games.allfours.snapshot import PHASES as AF_PHASES
from referee.games.base import MODES
from referee.games.common.cards import SUITS
from referee.games.coup.apply import STAGES
from referee.games.coup.rules import CHARACTERS
from referee.games.gnoming.rules import HAZARD, MULLIGAN
from referee.games.gnoming.snapshot import PHASES as GN_PHASES
from referee.games.spy.log import EVENT_FIELDS
from referee.games.spy.positions import FACINGS, MIRRORS
from referee.games.spy.rules import BASE_CARDS, COLOURS, SPY
from referee.games.spy.table import ANSWERS
from referee.i18n.glossary import FOLDER, GlossaryError, all_terms, lookup, parse
from referee.registry import GAMES
from tests.conftest import REPO

VISIBLE = [
    *(("coup", "character", c) for c in CHARACTERS),
    *(("coup", "stage", s) for s in STAGES),
    ("coup", "place", "court"),
    *(("all-fours", "rank", r) for r in "AKQJ"),
    *(("all-fours", "suit", s) for s in SUITS),
    *(("all-fours", "phase", p) for p in AF_PHASES),
    *(("all-fours", "beg", b) for b in ("stand", "begged", "give_one", "run_pack")),
    *(("spy", "card", c) for c in (SPY, *BASE_CARDS)),
    *(("spy", "answer", a) for a in ANSWERS),
    *(("spy", "event", e) for e in EVENT_FIELDS),
    *(("spy", "facing", f) for f in FACINGS),
    *(("spy", "colour", c) for c in COLOURS),
    *(("spy", "option_value", m) for m in MIRRORS),
    *(("gnoming", "card", c) for c in (MULLIGAN, HAZARD)),
    *(("gnoming", "phase", p) for p in GN_PHASES),
    *(("gnoming", "source", s) for s in ("draw_pile", "discard")),
    *((game, "mode", m) for game in GAMES for m in MODES),
    *((game, "game", game) for game in GAMES),
    *((game, "card", "unknown") for game in GAMES),
    *((game, "role", r) for game in GAMES for r in ("host", "referee", "seat")),
    *((game, "action", t) for game, entry in GAMES.items()
      for t in entry.engine.vocabulary.types),
    *((game, "option_value", str(c)) for game, entry in GAMES.items()
      for spec in entry.engine.options.values() for c in (spec.choices or ())),
]
"""Every identifier a player can see in an answer: cards, characters, actions, stages and
phases, places, answers, facings, colours, option values, modes, roles, the games' names."""


@pytest.mark.parametrize("game, kind, ident", VISIBLE)
def test_every_visible_identifier_has_its_burmese_word(game, kind, ident):
    term = lookup(game, kind, ident)
    assert term is not None, f"the glossary lacks {kind} {ident!r} of {game}"
    assert term.word("my") and term.word("en")


def test_one_concept_one_burmese_word_across_kinds():
    """An identifier filed under two kinds of one game for the same English term (Spy's
    ``move`` as an action and as a log event) has one Burmese word; a stage or phase is the
    time of an action (ဆွဲချိန်, "the time to draw"), not the action, and is left out."""
    seen: dict[tuple, set[str]] = {}
    for term in all_terms():
        if term.kind in ("stage", "phase"):
            continue
        seen.setdefault((term.game, term.id, term.word("en")), set()).add(term.word("my"))
    assert {k: v for k, v in seen.items() if len(v) > 1} == {}


def test_no_term_avoids_another_terms_word():
    """The spellings to avoid are not the word of some other term (they would fail the
    tests that keep every Burmese text on the glossary's words)."""
    words = {t.word("my") for t in all_terms()}
    assert [(t.id, a) for t in all_terms() for a in t.avoid if a in words] == []


def test_the_seed_machine_translation_errors_are_written_down():
    """Where the seed's word is a machine-translation error the glossary keeps the project's
    word and says why: dealer "sales agent", court deck "law court", deal "agreement", beg
    "apologise", Spy's Safe "safety" and exposure target "light-entry target"."""
    cases = {("all-fours", "concept", "dealer"): ("ဖဲဝေသူ", "အရောင်းကိုယ်စားလှယ်"),
             ("coup", "place", "court"): ("ဗဟိုကတ်ထုပ်", "တရားရုံး"),
             ("all-fours", "action", "deal"): ("ဖဲဝေခြင်း", "သဘောတူညီချက်"),
             ("all-fours", "action", "beg"): ("တောင်းခြင်း", "ကျွန်တော်တောင်းပန်ပါတယ်"),
             ("spy", "card_type", "safe"): ("မီးခံသေတ္တာ", "ဘေးကင်းမှု"),
             ("spy", "concept", "exposure target"): ("ဖော်ထုတ်ရမည့် ပစ်မှတ်",
                                                     "အလင်းဝင်ရန်ပစ်မှတ်")}
    for (game, kind, ident), (word, seed) in cases.items():
        term = lookup(game, kind, ident)
        assert (term.word("my"), term.seed) == (word, seed)
        assert "machine-translation error" in term.why or "safety" in term.why, term.why


def test_a_word_that_differs_from_the_seed_needs_a_why():
    """The loader refuses an entry whose Burmese is not the seed's word and says no why, a
    Burmese word without Myanmar script, or an unknown field (the checks can fail)."""
    entry = {"en": "dealer", "my": "ဖဲဝေသူ", "seed": "အရောင်းကိုယ်စားလှယ်"}
    with pytest.raises(GlossaryError, match="without a why"):
        parse("x", {"terms": {"concept": {"dealer": entry}}})
    with pytest.raises(GlossaryError, match="Myanmar"):
        parse("x", {"terms": {"concept": {"dealer": {"en": "dealer", "my": "dealer"}}}})
    with pytest.raises(GlossaryError, match="fields"):
        parse("x", {"terms": {"concept": {"dealer": {"en": "d", "my": "ဖဲ", "note": "x"}}}})
    assert parse("x", {"terms": {"concept": {"dealer": {**entry, "why": "sales agent"}}}})


def test_the_glossary_ships_with_the_package():
    """pyproject's package-data carries the glossary files (the service reads them)."""
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "rulebook/glossary/*.yaml" in data["package-data"]["referee"]
    assert {p.stem for p in FOLDER.glob("*.yaml")} == {"common", "allfours", "coup", "gnoming",
                                                      "spy"}
