"""Klaberjass at a table: what may be taken back. As in Umtali and Gin Rummy, a move is
taken back only when it told its player nothing and kept the turn his: in Klaberjass, a
card that won the trick it answered."""

from __future__ import annotations

import random

from umtali.games.api import Accepted, Refused
from umtali.games.klaberjass.session import SESSIONS, KlaberjassSession


def hotseat(seed: int) -> KlaberjassSession:
    session = SESSIONS.new(seed=seed, humans={0, 1})
    session.deal()
    return session


def play_until(session: KlaberjassSession, wanted: str, rng: random.Random) -> int | None:
    """Play random legal moves until the last move is ``wanted`` (``won``: a card that won
    the trick it answered; ``lead``, ``lost``, ``make`` trump, ``pass``); the seat that
    made it, or ``None`` if the hand ended first."""
    hand = session.hand
    assert hand is not None
    while not hand.is_over():
        seat = session.to_move()
        assert seat is not None
        tricks = sum(hand.tricks_won)
        move = rng.choice(session.view(seat).legal)
        assert isinstance(session.submit(seat, move), Accepted)
        if hand.is_over():
            return None
        kind = move.text().split()[0]
        answered = sum(hand.tricks_won) > tricks
        if wanted == "won" and answered and session.to_move() == seat:
            return seat
        if wanted == "lost" and answered and session.to_move() != seat:
            return seat
        if wanted == "lead" and kind == "play" and hand.trick:
            return seat
        if wanted == "make" and kind in ("take", "name"):
            return seat
        if wanted == kind == "pass":
            return seat
    return None


def test_a_card_that_won_its_trick_is_taken_back_and_the_hand_is_as_before() -> None:
    taken_back = 0
    for seed in range(40):
        session = hotseat(seed)
        rng = random.Random(seed)
        hand = session.hand
        assert hand is not None
        seat = play_until(session, "won", rng)
        if seat is None:
            continue
        before = (list(hand.hands), list(hand.points), list(hand.tricks_won), hand.history[:-1])
        answer = session.undo(seat)
        assert isinstance(answer, Accepted), answer
        assert answer.move.text().startswith("play ")
        assert (list(hand.hands)[1 - seat], hand.history) == (before[0][1 - seat], before[3])
        assert len(hand.trick) == 1  # the other's lead, to be answered again
        assert session.to_move() == seat
        assert session.undo(seat) == Refused("there is no move of yours to take back in this turn")
        taken_back += 1
    assert taken_back > 30


def test_a_lead_a_lost_trick_and_a_bid_stand() -> None:
    passed = "your turn has passed to the other player: that move stands"
    refusals = {
        "lead": passed,
        "lost": passed,
        "pass": passed,
        "make": "you have seen the three more cards dealt once trump was made: that stands",
    }
    for wanted, expected in refusals.items():
        for seed in range(10):
            session = hotseat(seed)
            seat = play_until(session, wanted, random.Random(seed))
            if seat is None:
                continue
            answer = session.undo(seat)
            assert isinstance(answer, Refused), (wanted, seed)
            assert answer.reason == expected
            break
        else:
            raise AssertionError(f"no {wanted} found")


def test_the_computer_s_moves_and_a_finished_hand_stand() -> None:
    session = SESSIONS.new(seed=4, humans={0}, level="random")
    session.deal()
    assert session.undo(1) == Refused("only a player at the keyboard takes back his moves")
    played = hotseat(5)
    assert play_until(played, "never", random.Random(5)) is None  # to the hand's end
    assert played.undo(0) == Refused("there is no move of yours to take back in this turn")
