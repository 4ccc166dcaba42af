"""What follows a judged Coup action: the turn as a state machine — stages, windows, resolution,
losses, the end (coup.md "The flow of a turn"; COUP-W1, W2, R1, L1, L2, E1, C4, S7).

``state["turn"]`` holds the turn in progress::

    {"number": 1, "player": actor, "stage": <stage>,
     "action": null | {"type", "target"?},      # the declared action
     "passed": [players who passed in the open window],
     "challenger": null | player,               # while the claimant must prove or concede
     "block": null | {"player", "character"},   # the block, once made
     "drawn": [cards],                          # an exchange's draw (exchanger only)
     "shown": null | card}                      # the examined card (Inquisitor and owner only)

Stages where somebody acts: ``choose_card`` (COUP-S5), ``declare``, the three windows
``action_challenge``, ``block``, ``block_challenge`` (W1), ``action_proof`` and ``block_proof``
(C2), ``exchange`` (A7, A8a), ``show_card`` and ``examine_decide`` (A8b), and ``over`` (E1).
``open_block``, ``resolve`` and ``end`` are what comes next once ``state["loss"]`` (``{"player",
"rule"}``, the influence someone must lose now, W2) is taken.

``state["last_turn"]`` is ``null`` or the turn just finished, ``{"player", "action", "block"}``
(so a challenge of an income that resolved at once can still be answered by COUP-A1).

Every function here works on a state the caller already copied, appending to ``events``.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import event
from referee.games.common.seats import next_seat
from referee.games.common.shuffle import shuffled
from referee.games.coup.rules import (COSTS, EXCHANGE_DRAW, GAINS, STEAL_MAX,
                                      blocking_characters, claimed_character,
                                      only_target_blocks)
from referee.games.coup.table import (COURT, drop_place, forget_court_order, learn, readers,
                                      revealed_publicly, spread, take)

CHOOSE, DECLARE, OVER = "choose_card", "declare", "over"
ACTION_CHALLENGE, BLOCK, BLOCK_CHALLENGE = "action_challenge", "block", "block_challenge"
ACTION_PROOF, BLOCK_PROOF = "action_proof", "block_proof"
EXCHANGE, SHOW, DECIDE = "exchange", "show_card", "examine_decide"
OPEN_BLOCK, RESOLVE, END = "open_block", "resolve", "end"

WINDOWS = (ACTION_CHALLENGE, BLOCK, BLOCK_CHALLENGE)
PROOFS = (ACTION_PROOF, BLOCK_PROOF)
CONTINUATIONS = (OPEN_BLOCK, RESOLVE, END)
STAGES = (CHOOSE, DECLARE, *WINDOWS, *PROOFS, EXCHANGE, SHOW, DECIDE, *CONTINUATIONS, OVER)


def new_turn(player: str, number: int, stage: str = DECLARE) -> dict[str, Any]:
    """Return a fresh turn record for ``player`` (see the module docstring)."""
    return {"number": number, "player": player, "stage": stage, "action": None, "passed": [],
            "challenger": None, "block": None, "drawn": [], "shown": None}


# --- who is in, who may act ----------------------------------------------------------------
def living(state: dict[str, Any]) -> list[str]:
    """Players with a face-down card, in seat order (COUP-L2)."""
    return [p for p in state["players"] if state["hands"][p]]


def claimant(state: dict[str, Any]) -> str:
    """The player whose claim is being challenged: the blocker in a block stage, else the actor."""
    turn = state["turn"]
    if turn["stage"] in (BLOCK_CHALLENGE, BLOCK_PROOF):
        return turn["block"]["player"]
    return turn["player"]


def claimed(state: dict[str, Any]) -> str | None:
    """The character under challenge: the block's, or the declared action's."""
    turn = state["turn"]
    if turn["stage"] in (BLOCK_CHALLENGE, BLOCK_PROOF):
        return turn["block"]["character"]
    return claimed_character(turn["action"]["type"], state["options"]["exchanger"])


def eligible_blockers(state: dict[str, Any]) -> list[str]:
    """Who may block the declared action: the living target of an assassination or a steal
    (COUP-A5, A6), any other living player for foreign aid (A2); nobody otherwise."""
    turn = state["turn"]
    kind = turn["action"]["type"]
    if not blocking_characters(kind, state["options"]["exchanger"]):
        return []
    alive = living(state)
    if only_target_blocks(kind):
        return [turn["action"]["target"]] if turn["action"]["target"] in alive else []
    return [p for p in alive if p != turn["player"]]


def window_candidates(state: dict[str, Any]) -> list[str]:
    """Every living player the open window is open to, passed or not (COUP-W1, C1)."""
    stage = state["turn"]["stage"]
    if stage == BLOCK:
        return eligible_blockers(state)
    if stage in (ACTION_CHALLENGE, BLOCK_CHALLENGE):
        return [p for p in living(state) if p != claimant(state)]
    return []


def window_waiting(state: dict[str, Any]) -> list[str]:
    """Players who may still act in the open window: candidates who have not passed (W1)."""
    return [p for p in window_candidates(state) if p not in state["turn"]["passed"]]


# --- coins and court -----------------------------------------------------------------------
def gain(state: dict[str, Any], player: str, amount: int) -> int:
    """Move up to ``amount`` coins from the treasury to ``player``; return how many (COUP-S7)."""
    amount = min(amount, state["treasury"])
    state["treasury"] -= amount
    state["coins"][player] += amount
    return amount


def shuffle_court(state: dict[str, Any]) -> None:
    """Shuffle the court deck (COUP-A7, C4): the seeded shuffle with purpose ``("court", n)``;
    at a physical table the referee no longer knows the order (COUP-X1)."""
    state["shuffles"] += 1
    if state["mode"] == "table":
        forget_court_order(state)
    else:
        state["court"] = shuffled(state["court"], state["seed"], "court", state["shuffles"])


def draw(state: dict[str, Any], drawer: str) -> str:
    """``drawer`` takes the top card of the court deck (at a table a card known to be in the
    court deck may now be the drawer's, COUP-X1)."""
    spread(state, COURT, drawer)
    return state["court"].pop(0)


def emit_secret(events: list, kind: str, seats: list[str], secret: dict[str, Any],
                **public: Any) -> None:
    """Append a public event without ``secret`` and the same event with it for ``seats`` only
    (COUP-V1)."""
    events.append(event(kind, **public))
    events.append(event(kind, visible_to=seats, **public, **secret))


def replace_card(state: dict[str, Any], player: str, card: str, events: list) -> None:
    """COUP-C4: the proven ``card`` goes into the court deck, which is shuffled, and ``player``
    draws a replacement (seen by them alone)."""
    hand, taken, unknown = take(state, state["hands"][player], [card], player, player, "prove")
    revealed_publicly(state, player, card, bool(unknown))
    state["court"].append(taken[0])
    for seat in readers(state)[:-1]:  # everyone saw it go into the court deck (not the host:
        learn(state, seat, card, [COURT])  # it knows the named card, see shuffle_court)
    shuffle_court(state)
    hand.append(draw(state, player))
    state["hands"][player] = hand
    events.append(event("card_revealed", player=player, card=card, rule="COUP-C4"))
    emit_secret(events, "replacement_drawn", [player], {"card": hand[-1]}, player=player)


# --- losses and the end --------------------------------------------------------------------
def turn_up(state: dict[str, Any], player: str, card: str, rule: str, events: list) -> None:
    """COUP-L1: ``player`` turns ``card`` face up for good; out at once with none left (L2)."""
    hand, taken, unknown = take(state, state["hands"][player], [card], player, player,
                                "lose_influence")
    revealed_publicly(state, player, card, bool(unknown))
    state["hands"][player] = hand
    state["revealed"][player].append(taken[0])
    state["loss"] = None
    events.append(event("influence_lost", player=player, card=taken[0], rule=rule))
    if not hand:
        _eliminate(state, player, events)


def _eliminate(state: dict[str, Any], player: str, events: list) -> None:
    """COUP-L2: out at once, coins back to the treasury; COUP-E1: the last one left wins."""
    drop_place(state, player)
    coins = state["coins"][player]
    state["treasury"] += coins
    state["coins"][player] = 0
    events.append(event("player_out", player=player, coins_returned=coins, rule="COUP-L2"))
    alive = living(state)
    if len(alive) == 1:
        state["winner"] = alive[0]
        turn = state["turn"]
        turn.update(stage=OVER, passed=[], challenger=None, drawn=[], shown=None)
        events.append(event("game_over", winner=alive[0], rule="COUP-E1"))


def advance(state: dict[str, Any], events: list) -> None:
    """Run every step that needs nobody's decision: a digital one-card loss (COUP-L1), a
    window everyone passed (W1), the block window's opening (B1), resolution (R1) and the
    next turn; stop where a player must act or the game is over (E1)."""
    while state["winner"] is None:
        loss = state["loss"]
        if loss is not None:
            hand = state["hands"][loss["player"]]
            if state["mode"] == "digital" and len(hand) == 1:
                turn_up(state, loss["player"], hand[0], loss["rule"], events)
                continue
            return
        stage = state["turn"]["stage"]
        if stage == OPEN_BLOCK:
            state["turn"]["stage"] = BLOCK if eligible_blockers(state) else RESOLVE
        elif stage == RESOLVE:
            _resolve(state, events)
        elif stage == END:
            _next_turn(state, events)
            return
        elif stage in WINDOWS and not window_waiting(state):
            _close_window(state, events)
        else:
            return


def _close_window(state: dict[str, Any], events: list) -> None:
    """COUP-W1: everyone eligible passed; B1: an unchallenged block stands."""
    turn = state["turn"]
    stage = turn["stage"]
    turn["passed"] = []
    events.append(event("window_closed", window=stage, rule="COUP-W1"))
    if stage == ACTION_CHALLENGE:
        blockable = blocking_characters(turn["action"]["type"], state["options"]["exchanger"])
        turn["stage"] = OPEN_BLOCK if blockable else RESOLVE
    elif stage == BLOCK:
        turn["stage"] = RESOLVE
    else:
        events.append(event("action_blocked", player=turn["player"], rule="COUP-B1",
                            blocker=turn["block"]["player"]))
        turn["stage"] = END


def _resolve(state: dict[str, Any], events: list) -> None:
    """Carry out the declared action (COUP-A1–A8); R1: a target already out makes it void."""
    turn = state["turn"]
    actor, action = turn["player"], turn["action"]
    kind, target = action["type"], action.get("target")
    turn["stage"] = END
    if not state["hands"][actor]:
        return
    if target is not None and not state["hands"][target]:
        events.append(event("action_void", player=actor, target=target, rule="COUP-R1"))
        return
    if kind in GAINS:
        taken = gain(state, actor, GAINS[kind])
        events.append(event("coins_taken", player=actor, coins=taken, action=kind))
    elif kind == "steal":
        amount = min(STEAL_MAX, state["coins"][target])
        state["coins"][target] -= amount
        state["coins"][actor] += amount
        events.append(event("coins_stolen", player=actor, target=target, coins=amount,
                            rule="COUP-A6"))
    elif kind in COSTS:
        state["loss"] = {"player": target, "rule": "COUP-A3" if kind == "coup" else "COUP-A5"}
    elif kind == "exchange":
        count = EXCHANGE_DRAW[state["options"]["exchanger"]]
        turn["drawn"] = [draw(state, actor) for _ in range(min(count, len(state["court"])))]
        emit_secret(events, "exchange_drawn", [actor], {"cards": list(turn["drawn"])},
                    player=actor, count=len(turn["drawn"]))
        turn["stage"] = EXCHANGE
    elif kind == "examine":
        turn["stage"] = SHOW


def _next_turn(state: dict[str, Any], events: list) -> None:
    """Flow step 6: the next living player clockwise takes a new turn (COUP-S1, L2)."""
    turn = state["turn"]
    out = [p for p in state["players"] if not state["hands"][p]]
    player = next_seat(state["players"], turn["player"], out)
    state["last_turn"] = {"player": turn["player"], "action": turn["action"],
                          "block": turn["block"]}
    state["turn"] = new_turn(player, turn["number"] + 1)
    events.append(event("turn_started", player=player, number=turn["number"] + 1))
