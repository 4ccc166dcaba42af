"""The most specific rule (issue 13 item 4): a refusal names the rule that forbids the action
itself, not the generic turn or window rule ("not possible now")."""
from __future__ import annotations

from referee.games.coup.engine import ENGINE

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
        "foreign aid claims no character, so it cannot be challenged.")


def test_challenge_with_no_claim_made_cites_coup_c1(new_game):
    """COUP-C1: a challenge answers a claim; before any is made it is C1 that forbids it."""
    game = new_game(HANDS)
    assert _refusal(game, "challenge", "B") == ("COUP-C1", "coup.challenge.no_claim")
    game.do("income", "A")                                  # income resolved: B to declare
    assert _refusal(game, "challenge", "C") == ("COUP-C1", "coup.challenge.no_claim")


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
