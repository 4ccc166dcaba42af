"""Building entered All Fours deals for tests."""
from __future__ import annotations

from referee.games.allfours.engine import ENGINE
from referee.games.common.cards import PACK
from tests.rule_checks import rules_broken as shared_rules_broken


def make_deal(hands: dict[str, list[str]], stock_at: dict[int, str] | None = None) -> dict:
    """An entered deal: ``hands`` as given, the stock holding ``stock_at`` cards at those
    indexes (0 = the first kick) and every other card in pack order."""
    stock_at = stock_at or {}
    used = {c for h in hands.values() for c in h} | set(stock_at.values())
    filler = iter(c for c in PACK if c not in used)
    size = 52 - sum(len(h) for h in hands.values())
    stock = [stock_at[i] if i in stock_at else next(filler) for i in range(size)]
    return {"hands": hands, "stock": stock}


def setup(players, dealer, hands, stock_at=None, **options):
    """An entered-deal digital game through the engine."""
    return ENGINE.setup({"players": players, "dealer": dealer, "mode": "digital",
                         "options": ENGINE.resolve_options(options),
                         "deal": make_deal(hands, stock_at)}, seed=7)


def act(state, **action):
    """Apply one action (must be legal) and return the new state."""
    new, _ = ENGINE.apply(state, action)
    return new


def rules_broken(state, **action):
    """Rule IDs ``action`` breaks in ``state`` (and apply refuses it when it breaks any)."""
    return shared_rules_broken(ENGINE, state, action)


def two_player_play():
    """A seeded 2-player digital game (ben deals) after ana stood: the first trick is due."""
    state = ENGINE.setup({"players": ["ana", "ben"], "dealer": "ben", "mode": "digital",
                          "options": ENGINE.resolve_options({})}, seed=42)
    return act(state, type="stand", player="ana")
