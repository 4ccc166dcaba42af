"""The most specific rule (issue 13 item 4): a refusal names the rule that forbids the action
itself, not the generic turn or window rule ("not possible now")."""
from __future__ import annotations

from referee.games.coup.engine import ENGINE
from tests.coup.conftest import Game

HANDS = {"A": ["captain", "countess"], "B": ["assassin", "duchess"], "C": ["ambassador", "captain"]}


def _refusal(game, kind, player, **fields):
    [found] = ENGINE.violations(game.state, {"type": kind, "player": player, **fields})
    return found.rule, found.code


def test_challenging_foreign_aid_cites_coup_a2_not_the_window(new_game):
    """COUP-A2: foreign aid claims no character, so it cannot be challenged (its block window
    is open: W1 would only say "not now")."""
    game = new_game(HANDS).do("foreign_aid", "A")
    assert game.turn["stage"] == "block"
    assert _refusal(game, "challenge", "B") == ("COUP-A2", "coup.challenge.not_claimed")
    assert ENGINE.violations(game.state, {"type": "challenge", "player": "B"})[0].message == (
        "Foreign aid claims no character, so it cannot be challenged.")


def test_challenge_with_no_claim_made_cites_coup_c1(new_game):
    """COUP-C1: a challenge answers a claim; before any is made it is C1 that forbids it."""
    game = new_game(HANDS)
    assert _refusal(game, "challenge", "B") == ("COUP-C1", "coup.challenge.no_claim")


def test_prove_or_concede_without_a_challenge_cites_coup_c2(new_game):
    """COUP-C2: prove and concede answer a challenge; none was made."""
    game = new_game(HANDS).do("tax", "A")
    assert _refusal(game, "prove", "A", card="duchess") == ("COUP-C2", "coup.proof.no_challenge")
    assert _refusal(game, "concede", "A") == ("COUP-C2", "coup.proof.no_challenge")


def test_passing_on_ones_turn_cites_coup_t1_and_no_window_cites_coup_w1(new_game):
    """COUP-T1 "passing is not allowed" for the actor; W1 for a pass or close_window when no
    window is open."""
    game = new_game(HANDS)
    assert _refusal(game, "pass", "A") == ("COUP-T1", "coup.declare.no_pass")
    assert _refusal(game, "close_window", "host") == ("COUP-W1", "coup.window.none_open")


# --- issue 13 item 4: the rule of the action itself, whatever the moment ----------------------
def _first(game, kind, player, **fields):
    found = ENGINE.violations(game.state, {"type": kind, "player": player, **fields})
    return found[0].rule, found[0].code


def test_challenging_an_income_cites_coup_a1_even_after_it_resolved(new_game):
    """COUP-A1: income claims no character, so it cannot be challenged — not T1 or C1, though
    it resolved at once (the snapshot's last_turn says what it was)."""
    game = new_game(HANDS).do("income", "A")
    assert game.state["last_turn"] == {"player": "A", "action": {"type": "income"},
                                       "block": None}
    assert _first(game, "challenge", "C") == ("COUP-A1", "coup.challenge.not_claimed")
    assert ENGINE.violations(game.state, {"type": "challenge", "player": "C"})[0].message == (
        "Income claims no character, so it cannot be challenged.")
    assert _first(game, "block", "C", character="duchess") == ("COUP-A1",
                                                               "coup.block.not_blockable")


def test_challenging_a_coup_cites_coup_a3_before_the_pending_loss(new_game):
    """COUP-A3: a coup cannot be challenged or blocked; the target's pending loss (W2) is not
    what the objecting player would quote."""
    game = new_game(HANDS, coins={"A": 7}).do("coup", "A", target="B")
    assert game.state["loss"] == {"player": "B", "rule": "COUP-A3"}
    assert _first(game, "challenge", "B") == ("COUP-A3", "coup.challenge.not_claimed")
    assert _first(game, "block", "B", character="countess") == ("COUP-A3",
                                                                "coup.block.not_blockable")


def test_challenging_foreign_aid_after_it_resolved_cites_coup_a2(new_game):
    game = new_game(HANDS).do("foreign_aid", "A").do("pass", "B").do("pass", "C")
    assert game.turn["player"] == "B" and game.coins["A"] == 4
    assert _first(game, "challenge", "C") == ("COUP-A2", "coup.challenge.not_claimed")


def test_challenging_a_claim_after_its_window_closed_cites_coup_w1(new_game):
    """COUP-W1: the tax was a claim, but its window closed when everyone passed."""
    game = new_game(HANDS).do("tax", "A").do("pass", "B").do("pass", "C")
    assert _first(game, "challenge", "C") == ("COUP-W1", "coup.challenge.window_closed")
    assert ENGINE.violations(game.state, {"type": "challenge", "player": "C"})[0].message == (
        "A's tax can no longer be challenged: its challenge window has closed; "
        "B must declare this turn's action.")


def test_a_second_block_cites_coup_b2_during_the_loss_and_after_the_turn(new_game):
    """COUP-B2: only one block per action — while the failed blocker loses influence (not
    W2) and once foreign aid resolved (not T1)."""
    game = new_game(HANDS).do("foreign_aid", "A").do("block", "B", character="duchess")
    game.do("challenge", "A").do("concede", "B")
    assert game.state["loss"] == {"player": "B", "rule": "COUP-C3"}
    assert _first(game, "block", "C", character="duchess") == ("COUP-B2", "coup.block.only_one")
    game.do("lose_influence", "B", card="assassin")
    assert game.turn["player"] == "B" and game.coins["A"] == 4
    assert _first(game, "block", "C", character="duchess") == ("COUP-B2", "coup.block.only_one")


def test_a_character_not_in_the_game_cites_coup_b2_whatever_the_moment(new_game):
    """COUP-B2: a claim of the Inquisitor in an Ambassador game is illegal at any time."""
    game = new_game(HANDS).do("steal", "A", target="B")
    assert game.turn["stage"] == "action_challenge"                  # blocks come later (W1)
    assert _first(game, "block", "B", character="inquisitor") == (
        "COUP-B2", "coup.block.character_not_in_game")
    assert _first(game, "examine", "B", target="C") == (
        "COUP-B2", "coup.declare.examine_without_inquisitor")


def test_the_specific_rules_hold_at_a_table_too():
    """Table mode: the same rules (COUP-A1, B2) — nothing here depends on a hidden card."""
    body = {"players": ["A", "B", "C"], "mode": "table",
            "options": ENGINE.resolve_options({})}
    game = Game(ENGINE.setup(body, 5)).do("income", "A")
    assert _first(game, "challenge", "B") == ("COUP-A1", "coup.challenge.not_claimed")
    game.do("foreign_aid", "B").do("block", "C", character="duchess").do("pass", "A")
    assert _first(game, "block", "A", character="duchess") == ("COUP-B2", "coup.block.only_one")


def test_a_player_who_is_out_is_refused_by_coup_l2_whatever_they_send(new_game):
    """COUP-L2: out at once — no turns, no challenges or blocks: that, not "not your turn"
    (T1) or "income cannot be challenged" (A1), is what the table would say."""
    game = new_game(HANDS, coins={"A": 7, "B": 7}).do("coup", "A", target="C")
    game.do("lose_influence", "C", card="captain").do("coup", "B", target="C")
    assert game.hands["C"] == [] and game.turn["player"] == "A"
    for kind, fields in (("income", {}), ("challenge", {}), ("pass", {}),
                         ("block", {"character": "duchess"})):
        assert _first(game, kind, "C", **fields) == ("COUP-L2", "coup.window.player_out")
    game.do("tax", "A")
    assert _first(game, "challenge", "C") == ("COUP-L2", "coup.window.player_out")


# --- findings F4: a block in a steal's challenge window cites the rule of the block itself ---
def test_non_target_captain_block_in_steals_challenge_window_cites_coup_a6(new_game):
    """COUP-A6: only the target may block a steal — also while the steal's challenge window is
    open (W1's "too early" would invite a retry that A6 forbids anyway)."""
    game = new_game(HANDS).do("steal", "A", target="B")
    assert game.turn["stage"] == "action_challenge"
    [found] = ENGINE.violations(game.state, {"type": "block", "player": "C",
                                             "character": "captain"})
    assert (found.rule, found.code, found.field) == ("COUP-A6", "coup.block.only_target",
                                                     "action.player")
    assert found.message == "Only B, the target, may block a steal."


def test_duchess_block_of_a_steal_in_its_challenge_window_cites_coup_a6(new_game):
    """COUP-A6: a steal is blocked by the Captain or the Ambassador, never the Duchess — the
    same verdict before and after the challenge window closes."""
    game = new_game(HANDS).do("steal", "A", target="B")
    early = _first(game, "block", "B", character="duchess")
    late = _first(game.do("pass", "B").do("pass", "C"), "block", "B", character="duchess")
    assert early == late == ("COUP-A6", "coup.block.wrong_character")


def test_inquisitor_block_in_an_ambassador_games_steal_window_cites_coup_b2(new_game):
    """COUP-B2: the Inquisitor is not in an Ambassador game, whatever the window."""
    game = new_game(HANDS).do("steal", "A", target="B")
    assert _first(game, "block", "B", character="inquisitor") == (
        "COUP-B2", "coup.block.character_not_in_game")


def test_a_rightful_block_in_the_challenge_window_is_still_too_early_coup_w1(new_game):
    """COUP-W1: the target's Captain block is a legal block, only not yet (challenge first)."""
    game = new_game(HANDS).do("steal", "A", target="B")
    assert _first(game, "block", "B", character="captain") == ("COUP-W1", "coup.block.too_early")


def test_wrong_character_block_reads_or_and_burmese_names_the_duchess(new_game):
    """COUP-A6 in both languages (findings F5): the blocking characters are joined
    with "or", and the Duchess is named in Burmese like the Captain and the Ambassador."""
    from referee.i18n.verdicts import render
    game = new_game(HANDS).do("steal", "A", target="B")
    [found] = ENGINE.violations(game.state, {"type": "block", "player": "B",
                                             "character": "duchess"})
    assert found.params["characters"] == ["captain", "ambassador"]
    assert found.message == ("The Duchess cannot block a steal; only the Captain or the "
                             "Ambassador can.")
    assert render(found.code, found.params, "my") == (
        "မြို့စားကြီးကတော် သည် ခိုးယူခြင်း ကို တန်ပြန်၍ မရပါ; ကပ္ပတိန် သို့မဟုတ် သံအမတ် "
        "သာ တန်ပြန်နိုင်သည်။")


def test_captain_block_of_foreign_aid_cites_coup_a2_in_both_windows(new_game):
    """COUP-A2: foreign aid is blocked by claiming the Duchess (the rule the objecting player
    quotes), not B1's "a block is a claim"; the same for the Countess on a steal (A6) and the
    Captain on an assassination (A5)."""
    game = new_game(HANDS).do("foreign_aid", "A")
    assert game.turn["stage"] == "block"
    assert _refusal(game, "block", "B", character="captain") == (
        "COUP-A2", "coup.block.wrong_character")
    game = new_game(HANDS, coins={"A": 3}).do("assassinate", "A", target="B")
    assert _refusal(game, "block", "B", character="captain") == (  # challenge window open
        "COUP-A5", "coup.block.wrong_character")
    game.do("pass", "B").do("pass", "C")
    assert _refusal(game, "block", "B", character="captain") == (
        "COUP-A5", "coup.block.wrong_character")


def test_action_words_in_coup_sentences_are_burmese_terms_and_no_type_token(new_game):
    """Every Coup action type renders through the glossary (rulebook/glossary/coup.yaml): no
    raw 'block' in a Burmese sentence; the awaiting texts carry no '(choose_card)' token."""
    import re

    from referee.games.coup.vocabulary import VOCABULARY
    from referee.i18n.verdicts import render, term
    latin = re.compile(r"[a-z_]{3,}")
    for kind in VOCABULARY.types:
        assert not latin.search(term("action", "coup", kind, "my")), kind
        assert term("action", "coup", kind, "en")
    game = new_game(HANDS).do("tax", "A")
    [found] = ENGINE.violations(game.state, {"type": "prove", "player": "A", "card": "duchess"})
    text = render(found.code, found.params, "my")
    assert "prove" not in text and "သက်သေပြခြင်း" in text
    for code in ("coup.now.choose_card", "coup.now.examine_decide", "coup.now.exchange",
                 "coup.now.loss", "coup.now.show_card"):
        my = render(code, {"actor": "A", "player": "A", "target": "B"}, "my")
        assert not latin.search(my.replace("A", "").replace("B", "")), (code, my)
