"""A message parameter that holds a game term is rendered through the glossary in the answer's
language, in one place (referee.i18n.verdicts.render; issue 24 item 1): the Burmese answer names
the card, character, action, stage, phase or answer by its glossary word, never by the raw
identifier, and the English answer stays what it was."""
from __future__ import annotations

import pytest

from referee.i18n.glossary import lookup
from referee.i18n.term_params import kind_of
from referee.i18n.verdicts import render, term


def _my(game: str, kind: str, ident: str) -> str:
    return lookup(game, kind, ident).word("my")


def test_issue_examples_coup_card_names_and_exchanged_cards():
    """"…မှောက်ထားသော captain မရှိပါ" and "assassin, countess ကို ပြန်မပေးနိုင်ပါ" (COUP-L1,
    COUP-A7): the characters are named in Burmese; English keeps its words."""
    lose = render("coup.lose.no_such_card", {"player": "ana", "card_name": "captain"}, "my")
    assert "captain" not in lose and _my("coup", "character", "captain") in lose
    assert render("coup.lose.no_such_card", {"player": "ana", "card_name": "captain"},
                  "en") == "ana has no face-down captain to turn up."
    back = render("coup.exchange.not_in_pool", {"player": "ana", "names": "assassin, countess"},
                  "my")
    assert back.startswith("ana သည် လုပ်ကြံသူ၊ နယ်စားကတော် ကို")
    unknown = render("coup.setup.not_a_card", {"place": "deal.court", "i": 0, "name": "'x'",
                                               "names": "duchess, unknown"}, "my")
    assert "မြို့စားကြီးကတော်၊ မသိသောကတ်" in unknown and "'x'" in unknown


def test_issue_examples_spy_turn_order_names_the_actions():
    """"move ကို": spy.turn.order's {kind} and {last} are Spy actions (SPY-T1)."""
    params = {"kind": "move", "last": "spy"}
    my = render("spy.turn.order", params, "my")
    assert "move" not in my and "spy" not in my
    assert _my("spy", "action", "move") in my and _my("spy", "action", "spy") in my
    assert render("spy.turn.order", params, "en") == (
        "A turn goes turn round, move, turn round, spy: no move after spy.")


def test_quoted_identifiers_are_named_and_other_quoted_values_stay_as_sent():
    """Spy answers quoted as the request sent them ('tsss') are named in Burmese (SPY-R4);
    a value that is no identifier stays quoted as sent, in both languages."""
    assert render("spy.answer.card_extra", {"answer": "'tsss'"}, "my").startswith(
        f"အဖြေ {_my('spy', 'answer', 'tsss')} ")
    assert render("spy.answer.card_extra", {"answer": "'tsss'"}, "en").startswith(
        "The answer 'tsss' shows")
    assert "'boom, bang'" in render("spy.answer.unknown", {"choices": "safe, tsss",
                                                           "given": "'boom, bang'"}, "my")


@pytest.mark.parametrize("code, params, words", [
    ("coup.snapshot.bad_stage", {"stages": "declare, block"},
     [("coup", "stage", "declare"), ("coup", "stage", "block")]),
    ("gnoming.snapshot.phase", {"phases": "setup, draw"},
     [("gnoming", "phase", "setup"), ("gnoming", "phase", "draw")]),
    ("allfours.snapshot.phase", {"phases": "deal, beg"},
     [("all-fours", "phase", "deal"), ("all-fours", "phase", "beg")]),
    ("gnoming.turn.waits.draw", {"player": "ana", "doing": "flip", "turn_player": "ben"},
     [("gnoming", "action", "flip")]),
    ("gnoming.snapshot.turn_pile", {"source": "draw_pile"}, [("gnoming", "source",
                                                               "draw_pile")]),
    ("spy.snapshot.log_facing", {"index": 2, "player": "ana", "facing": "left"},
     [("spy", "facing", "left")]),
    ("coup.action.unknown_type", {"kind": "'fly'", "known": "income, tax"},
     [("coup", "action", "income"), ("coup", "action", "tax")]),
    ("coup.action.field_type", {"action": "steal", "key": "target", "types": "str or list"},
     [("coup", "action", "steal"), ("common", "json", "str"), ("common", "json", "list")]),
    ("options.not_a_choice", {"option": "low", "choices": "dealt, taker"},
     [("all-fours", "option_value", "dealt"), ("all-fours", "option_value", "taker")]),
    ("options.unknown", {"option": "x", "game": "coup", "known": "first_player"},
     [("common", "game", "coup")]),
    ("allfours.sheet.one_kick", {"beg": "give_one", "count": 2},
     [("all-fours", "beg", "give_one")]),
    ("coup.snapshot.records_too_many", {"reader": "ana", "count": 2, "place": "court",
                                        "room": 1}, [("coup", "place", "court")]),
])
def test_term_parameters_take_the_glossary_word_in_burmese(code, params, words):
    my = render(code, params, "my")
    for game, kind, ident in words:
        assert lookup(game if game != "common" else "coup", kind, ident).word("my") in my, (
            code, my)
    english = render(code, params, "en")
    for name, value in params.items():  # English prints these identifiers as they are
        if kind_of(code, name) and str(kind_of(code, name)).endswith("_id"):
            assert str(value) in english


def test_a_value_no_glossary_knows_goes_in_as_it_is():
    """A player name or a value the request sent is no term: the renderer leaves it (and the
    check can fail: a known identifier is replaced)."""
    assert term("stage_id", "coup", "'nowhere'", "my") == "'nowhere'"
    assert term("stage_id", "coup", "declare", "my") != "declare"
    assert term("action", "coup", "assassinate", "en") == "an assassination"
