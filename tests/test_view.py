"""What one player may see (:mod:`umtali.games.umtali.view`), against the true state: the cards
hidden from him are worked out here on their own, from the hand's history, and no view
may show one. The browser server's secrecy scan (tests/test_web_api.py) uses the same
reckoning."""

from __future__ import annotations

import random

from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terms import FACE_DOWN, PILE_CARD
from umtali.games.umtali.view import PlayerView, determinize
from umtali.kernel.cards import card_ascii, cards_of


def hidden_from(hand: HandState, seat: int) -> set[int]:
    """The cards ``seat`` may not know in ``hand``, worked out from the true state: the
    other player's cards that he did not take from the discard pile, the stock, and
    the discards the other player laid face down (unless taken from the pile before)."""
    other = 1 - seat
    public = hand.ever_taken[other]
    hidden = set(cards_of(hand.hands[other] & ~public)) | set(hand.stock_cards())
    for actor, action in hand.history:
        move = Move.from_action(action)
        if actor == other and move.face_down:
            card = move.discard if move.kind is MoveKind.PAIR else move.cards[0]
            assert card is not None
            if not public >> card & 1:
                hidden.add(card)
    return hidden


def test_a_face_down_discard_stays_hidden_under_a_later_one() -> None:
    """Found by the scan above: the player who goes out may lay his discard face down,
    and the other then plays his last turn and discards on top of it. The face-down
    card must stay hidden from him, whoever laid the pile's top card."""
    covered = 0
    for seed in range(1500):
        rng = random.Random(seed)
        hand = HandState.from_seed(seed, dealer=seed % 2)
        while not hand.is_over():
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
        for seat in (0, 1):
            hidden = hidden_from(hand, seat)
            shown = PlayerView.of(hand, seat).discard_pile
            for (card, face_down), seen in zip(hand.discard_pile(), shown, strict=True):
                if face_down and card in hidden:
                    assert seen is None, f"seed {seed}: {card_ascii(card)} shown to seat {seat}"
                    covered += bool(hand.pile[-1] & 63 != card)
    assert covered > 10  # face-down cards under a later discard were met


def test_a_world_dealt_from_a_view_keeps_the_viewers_own_face_down_discard_face_down() -> None:
    """Found by the rl work: the viewer sees the face of the card he laid face down going
    out, and the world determinize deals him must still hold it face down: the other
    player sees only its back, and may not take it (R5)."""
    met = 0
    for seed in range(400):
        rng = random.Random(seed)
        hand = HandState.from_seed(seed, dealer=seed % 2)
        while not hand.is_over():
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
            if not any(e & FACE_DOWN for e in hand.pile) or hand.is_over():
                continue
            for seat in (0, 1):
                view = PlayerView.of(hand, seat, with_history=False)
                world = determinize(view, rng)
                # Face down or up, entry by entry, as anyone at the table sees the pile.
                assert [e & FACE_DOWN for e in world.pile] == [e & FACE_DOWN for e in hand.pile]
                # And the cards the viewer sees there lie where he sees them.
                assert [
                    e & PILE_CARD if c is not None else None
                    for e, c in zip(world.pile, view.discard_pile, strict=True)
                ] == list(view.discard_pile)
                assert view.laid_face_down.mask == sum(
                    1 << (e & PILE_CARD)
                    for e in hand.pile
                    if e & FACE_DOWN and (e & PILE_CARD) in view.discard_pile
                )
                met += bool(view.laid_face_down)
    assert met > 20  # the viewer's own face-down discard, dealt again, was met
