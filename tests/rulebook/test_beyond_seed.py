"""Where a rule goes beyond its Burmese seed document, the rulebook says so (issue 24 item 4),
so that a reader of the seed knows that part is a decision or the publisher's rule and not a
translation: GN-M1's Mulligans already in the layout, SPY-R7's Top Secret 2 elimination,
COUP-A5's "only the target blocks", and the other readings the rules README lists."""
from __future__ import annotations

import pytest

from referee.rulebook import RulebookError, book, parse

NOTED = {"gnoming": ["GN-M1"], "spy": ["SPY-R7"],
         "coup": ["COUP-T2", "COUP-A5", "COUP-A6", "COUP-C1", "COUP-C4"],
         "all-fours": ["AF-P6"]}


@pytest.mark.parametrize("game, rule_id", [(g, r) for g, ids in NOTED.items() for r in ids])
def test_the_rules_that_go_beyond_the_seed_say_so_in_both_languages(client, game, rule_id):
    en = client.get(f"/v1/games/{game}/rules/{rule_id}").get_json()
    my = client.get(f"/v1/games/{game}/rules/{rule_id}",
                    headers={"Accept-Language": "my"}).get_json()
    assert en["beyond_seed"].startswith("The seed")
    assert "မူရင်းစာတမ်း" in my["beyond_seed"]  # the glossary's word for the seed document


def test_the_named_decisions_are_what_the_notes_say():
    """GN-M1 names the Mulligans already face up, SPY-R7 the Top Secret 2, COUP-A5 the
    target as the only blocker."""
    assert "already face up" in book("gnoming").rule("GN-M1").beyond_seed["en"]
    assert "Top Secret 2" in book("spy").rule("SPY-R7").beyond_seed["en"]
    assert "only the target" in book("coup").rule("COUP-A5").beyond_seed["en"]
    assert "ပစ်မှတ်တစ်ဦးတည်းသာ" in book("coup").rule("COUP-A5").beyond_seed["my"]


def test_other_rules_have_no_note_and_a_note_needs_every_language(client):
    assert client.get("/v1/games/coup/rules/COUP-A1").get_json()["beyond_seed"] is None
    rule = {"id": "GN-C1", "section": "cards", "source": "seed", "title": {"en": "t", "my": "က"},
            "text": {"en": "t", "my": "က"}, "beyond_seed": {"en": "only English"}}
    with pytest.raises(RulebookError, match="beyond_seed"):
        parse("gnoming", {"game": "gnoming", "title": {"en": "t", "my": "က"},
                          "sections": {"cards": {"en": "t", "my": "က"}}, "rules": [rule]})
