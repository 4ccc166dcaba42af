"""The Burmese says what the English says (issue 24, "meaning checked rule by rule"): one test
per finding of the rule-by-rule and message-by-message read of the Burmese against the English,
each asserting that the wrong reading is gone and the right words are there."""
from __future__ import annotations

from referee.i18n.verdicts import render, text
from referee.rulebook import book


def _rule(game: str, rule_id: str) -> str:
    return book(game).rule(rule_id).text["my"]


def test_coup_b1_the_bracket_names_what_is_blocked_not_what_can_be_challenged():
    """COUP-B1 (contradicted COUP-A2): the Burmese tied "(foreign aid, assassination or steal)"
    to "can challenge", reading "foreign aid can be challenged".  The bracket now says which
    actions a block answers, and what can be challenged is the block's claim."""
    my = _rule("coup", "COUP-B1")
    assert "ခိုးယူခြင်းကို) စိန်ခေါ်" not in my
    assert "(နိုင်ငံခြားအကူအညီ၊ လုပ်ကြံသတ်ဖြတ်ခြင်း သို့မဟုတ် ခိုးယူခြင်းကို တန်ပြန်ရာတွင်)" in my
    assert "ထိုကြေညာချက်ကို စိန်ခေါ်နိုင်သည်" in my
    # COUP-A2 still says foreign aid cannot be challenged
    assert "စိန်ခေါ်၍ မရပါ" in _rule("coup", "COUP-A2")


def test_coup_exchange_not_in_pool_says_not_all_rather_than_none():
    """coup.exchange.not_in_pool: the English says "they are not all among…", the Burmese said
    "all of them are not among…" (none).  It now says some of them are not there."""
    code = "coup.exchange.not_in_pool"
    assert "not all among" in text(code, "en")
    my = text(code, "my")
    assert "၎င်းတို့အားလုံး" not in my and "၎င်းတို့ထဲမှ အချို့သည်" in my
    assert render(code, {"player": "ana", "names": "captain"}, "my").startswith("ana သည်")


def test_spy_declared_candidates_says_not_every_card_rather_than_no_card():
    """spy.snapshot.declared_candidates: "which not every card still possible there does" was
    rendered as "every card possible there does not" — the same slip as not_in_pool."""
    my = text("spy.snapshot.declared_candidates", "my")
    assert "ကတ်တိုင်းက ထိုမျှ မရွှေ့ပါ" not in my and "ကတ်အချို့သည်" in my


def test_gnoming_card_total_does_not_say_only():
    """gnoming.snapshot.card_total: the count may be above the deck size, so the Burmese may
    not say "only {count} cards" (ကတ်သာ)."""
    my = text("gnoming.snapshot.card_total", "my")
    assert "{count} ကတ်သာ" not in my and "ကတ် {count} ကတ် ရှိသည်" in my
    assert render("gnoming.snapshot.card_total", {"count": 112, "deck_size": 110},
                  "my").startswith("အဝိုင်းတွင် ကတ် 112 ကတ် ရှိသည်၊ ကတ်ထုပ်၏ 110 ကတ် မဟုတ်ပါ")


def test_coup_court_size_counts_the_drawn_cards_besides_the_court_deck():
    """coup.snapshot.court_size: "(and {drawn} drawn)" are cards besides those in the court
    deck; the Burmese "(ဆွဲထားသည့် {drawn} ကတ်)" read as if they were among them."""
    my = text("coup.snapshot.court_size", "my")
    assert "(ထို့ပြင် ဆွဲထားသောကတ် {drawn} ကတ်)" in my


def test_spy_t1_says_a_player_may_move_spy_both_or_neither():
    """SPY-T1: the Burmese read "may stay without moving, spying, both or any", i.e. only the
    option of doing nothing; it now lists the four choices."""
    my = _rule("spy", "SPY-T1")
    assert "ရွှေ့နိုင်သည်၊ စူးစမ်းနိုင်သည်၊ နှစ်ခုလုံး လုပ်နိုင်သည် သို့မဟုတ် ဘာမျှ" in my


def test_spy_m1_moves_that_many_spaces():
    """SPY-M1: "exactly as many spaces as the number" — the Burmese lacked the spaces."""
    assert "နံပါတ်အရေအတွက် နေရာကို အတိအကျ" in _rule("spy", "SPY-M1")


def test_af_i1_renege_points_count_after_the_game_point_not_after_the_game():
    """AF-I1: "1 point each, counted after Game" (the Game point, AF-S6's order); the Burmese
    said ဂိမ်းပြီးနောက် ("after the game is over")."""
    my = _rule("all-fours", "AF-I1")
    assert "ဂိမ်းပြီးနောက်" not in my and "(ဂိမ်းအမှတ်ပြီးနောက် တွက်)" in my
