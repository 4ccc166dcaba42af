"""All Fours (Trinidad rules): the engine registered as ``all-fours``.

State (a JSON-compatible dict; see ``snapshot.py`` for the checks a submitted one passes):
``players`` (play order, anticlockwise), ``sides``, ``options``, ``mode``, ``seed``,
``dealer``, ``hand_number``, ``redeals``, ``phase`` (``beg`` → ``answer`` → ``play`` →
``hand_over`` → (``deal``) … ``game_over``), ``hands``, ``dealt``, ``stock`` (top first),
``kicks``, ``trump``, ``beg``, ``tricks`` (completed: ``leader``, ``cards``, ``players``,
``winner``), ``trick`` (current), ``exposed``, ``claims`` and ``reneges`` (table mode),
``score`` (match), ``hand_points``, ``last_hand``, ``scored_hands`` (the score sheet: one
line per scored hand, :func:`referee.games.allfours.apply.end_hand`; optional in a submitted
snapshot, from which it is continued), ``next_dealer``, ``winner``.
"""
from __future__ import annotations

from typing import Any

from referee.games.allfours import apply, judge, setup, snapshot, summary, views
from referee.games.allfours.rules import next_to_play, player_right_of
from referee.games.base import UNKNOWN, Engine, OptionSpec, each_card, violation
from referee.games.common.cards import PACK, suit_of
from referee.games.common.jsoncopy import json_copy
from referee.games.common.shuffle import redealt

SHARED_LINES = frozenset({"tricks", "scored_hands"})
"""State lists whose items never change once added: a working copy copies the list, not them."""


class AllFours(Engine):
    """All Fours for 2 players or 4 in partnerships (``shared/rules/allfours.md``)."""

    name = "all-fours"
    title = "All Fours (Trinidad rules)"
    min_players = 2
    max_players = 4
    player_counts = (2, 4)
    rules_version = "1"
    vocabulary, dispatch = judge.VOCABULARY, judge.CHECKS
    dealt_fields = ("deal", "kick")
    # In table mode every hand is dealt face down as "unknown" cards (AF-D3): a seat so named
    # would read as one.  Card codes ("AS", "JD") are not reserved: no field takes a card or a
    # seat alike, and a code is how many people write their initials.
    reserved_names = {UNKNOWN: violation("AF-D3", "allfours.setup.unknown_reserved")}
    options = {
        "target": OptionSpec(14, "int", "AF-S6", "Points that win the game.", minimum=1,
                             maximum=1000),
        "hang_jack": OptionSpec(3, "int", "AF-S3", "Points for hanging the jack.", minimum=0,
                                maximum=100),
        "game_value": OptionSpec(1, "int", "AF-S4", "Points for Game.", minimum=0, maximum=100),
        "game_tie": OptionSpec("none", "choice", "AF-S4", "Who scores Game on a tie.",
                               choices=("none", "non_dealer", "dealer")),
        "low": OptionSpec("dealt", "choice", "AF-S2", "Low to the side dealt it, or to the "
                          "side that wins its trick.", choices=("dealt", "taker")),
        "undertrump": OptionSpec(True, "bool", "AF-P4", "Whether undertrumping is allowed."),
    }

    def _setup(self, body: dict[str, Any], seed: int | str) -> dict[str, Any]:
        """Start a game (AF-D1…D3, AF-K1).  ``body``: ``players`` (2 or 4, play order),
        ``dealer`` (default the first player), ``options``, ``mode``, ``sides`` (optional),
        and either ``deal`` (``hands`` of 6 and ``stock`` top first, digital) or nothing (the
        seeded shuffle); in table mode an optional ``kick``.  Raises :class:`InvalidSetup`."""
        return self._opening(body, seed)[0]

    def _opening(self, body: dict[str, Any], seed: int | str) -> tuple[dict[str, Any], list]:
        """The first state and its deal's events: ``deal``, ``kick`` and, when the kick
        scores, ``points`` (award ``kick``) and maybe ``game_over`` (AF-K1, AF-S6)."""
        return setup.new_game(body, seed, self.name, self.resolve_options)

    def _check_snapshot(self, state: dict[str, Any]) -> None:
        """Raise ``ImpossibleState`` for a snapshot no legal game reaches (``snapshot.py``)."""
        snapshot.check(self, state)

    def _legal_actions(self, state: dict[str, Any], player: str | None) -> list[dict]:
        """Every legal action now, of ``player`` or of everyone."""
        who = [player] if player is not None else state["players"]
        out = []
        for p in who:
            for action in self._candidates(state, p):
                if not judge.violations(state, action):
                    out.append(action)
        return out

    def _candidates(self, state, player) -> list[dict]:
        phase = state["phase"]
        if phase in ("hand_over", "deal"):
            if state["mode"] == "table":
                return [{"type": "deal", "player": player, "kick": c} for c in PACK]
            return [{"type": "deal", "player": player}]
        if phase == "beg":
            return [{"type": t, "player": player} for t in ("stand", "beg")] + (
                [{"type": "misdeal", "player": player}] if state["mode"] == "table" else [])
        if phase == "answer":
            if state["mode"] == "digital":
                runs = [{"type": "run_pack", "player": player}]
            else:  # table: one action per possible new kick of another suit (single run)
                runs = [{"type": "run_pack", "player": player, "kicks": [c]} for c in PACK
                        if suit_of(c) != state["trump"] and c not in state["kicks"]]
            return [{"type": "give_one", "player": player}] + runs
        if phase != "play":
            return []
        hand = state["hands"][player] + state["exposed"][player]
        cards = PACK if UNKNOWN in hand else sorted(set(hand) - {UNKNOWN})
        out = [{"type": "play", "player": player, "card": c} for c in cards]
        for owner in state["players"]:
            out += [{"type": "call", "player": player, "card": c}
                    for c in state["exposed"][owner]]
        return out

    def _working_copy(self, state: dict[str, Any]) -> dict[str, Any]:
        """The copy ``apply`` changes: every container new but the completed tricks and the
        score sheet's lines, which are shared (a trick is never changed once complete, only
        appended to ``tricks``; a hand's line is never changed once scored, the sheet only
        grows by one at the end of a hand): the copy's cost does not grow with the match."""
        return {key: list(value) if key in SHARED_LINES else json_copy(value)
                for key, value in state.items()}

    def _violations(self, state, action):
        """Every rule ``action`` breaks (``judge.py``); empty when legal."""
        return judge.violations(state, action)

    def _play(self, state: dict[str, Any], action: dict[str, Any]) -> list[dict]:
        """Apply a legal action in place; return the events (``apply.py``)."""
        return apply.play(state, action)

    def _reshuffle_hidden(self, state: dict[str, Any], seed: int | str) -> None:
        """A rollback's reshuffle (digital mode): the stock, face down and in an order nobody
        may know though running the pack deals from it and turns up its kicks (AF-B3), dealt
        afresh from ``seed``, which then deals every later hand (AF-D3, AF-B4).  Hands stay:
        each is known to its holder."""
        state["stock"] = redealt(state["stock"], seed, "rollback", "stock")
        state["seed"] = seed

    def _score(self, state: dict[str, Any]) -> dict[str, Any]:
        """``{"points": this hand's points per side, "totals": the match score, "winner",
        "last_hand": High/Low/Jack/Game of the last scored hand or null}``."""
        return {"points": dict(state["hand_points"]), "totals": dict(state["score"]),
                "winner": state["winner"], "target": state["options"]["target"],
                "last_hand": state.get("last_hand")}

    def _is_over(self, state):
        """True once a side has won (AF-S6, AF-I1)."""
        return state["phase"] == "game_over"

    def _to_move(self, state):
        """Players who may act now."""
        phase = state["phase"]
        if phase == "game_over":
            return []
        if phase in ("hand_over", "deal"):
            return [state["next_dealer"]]
        if phase == "beg":
            return [player_right_of(state["players"], state["dealer"])]
        if phase == "answer":
            return [state["dealer"]]
        return [next_to_play(state)]

    def _view(self, state, viewer):
        """Seat, public or referee view (``views.py``)."""
        return views.view(self, state, viewer)

    def _summary(self, state, viewer):
        """Phase, awaiting, score per side and outcome (``summary.py``): public, the same for
        every viewer."""
        return summary.summarize(state, self._to_move(state))

    def hidden_places(self, state: dict[str, Any], viewer: str | None):
        """Other players' hands and the stock (AF views show other hands only as counts)."""
        for player, hand in state["hands"].items():
            if player != viewer:
                yield from each_card(hand, "hands", player)
        yield from each_card(state["stock"], "stock")

    def conserved(self, state: dict[str, Any]) -> dict[str, Any]:
        """Digital mode: the 52 cards of the pack (AF-D1), wherever they are — hands, exposed,
        stock, kicks, tricks — through every action, redeals included; table mode knows only
        the cards seen, so nothing is declared."""
        if state["mode"] != "digital":
            return {}
        cards = [c for p in state["players"] for c in state["hands"][p] + state["exposed"][p]]
        cards += state["stock"] + state["kicks"] + state["trick"]["cards"]
        cards += [c for trick in state["tricks"] for c in trick["cards"]]
        return {"cards": sorted(cards)}

    def repair_hidden(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        """Keep ``dealt`` (never shown until the hand is scored) consistent with exchanged
        hands: each player was dealt what they now hold plus what they played (AF-S1).  Table
        mode keeps in ``dealt`` only the cards played, which no exchange touches."""
        if after["mode"] != "digital":
            return
        for player, hand in after["hands"].items():
            played = [c for c in before["dealt"][player] if c not in before["hands"][player]]
            after["dealt"][player] = list(hand) + played


ENGINE = AllFours()
