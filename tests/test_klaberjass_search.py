"""Klaberjass's ``search`` level and the worlds it plays out: every world agrees with
what the seat has seen, the search chooses from its view alone, its exact endgame agrees
with the engine played to the end, and it plays legally under every preset."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from umtali.games.klaberjass.bots import BOTS, ExpertKlaberjass
from umtali.games.klaberjass.bots.search import EXACT_CARDS, SearchKlaberjass, _solved
from umtali.games.klaberjass.bots.worlds import deal_world, unplayable
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.rules import KLABERJASS_PRESETS, KlaberjassRules
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.cards import cards_of, mask_of, parse_cards
from umtali.kernel.deck import seeded_deck

PRESETS = tuple(KLABERJASS_PRESETS.values())


def positions(hands: int, seed: int = 0) -> Iterator[tuple[KlaberjassMatch, KlaberjassView]]:
    """Every position of ``hands`` hands under each preset in turn, as its player to
    move sees it; the moves mostly the expert's, now and then any legal move."""
    rng = random.Random(seed)
    expert = ExpertKlaberjass()
    for number in range(hands):
        rules = PRESETS[number % len(PRESETS)]
        match = KlaberjassMatch(rules, first_dealer=number % 2)
        hand = match.new_hand(seeded_deck(seed * 10_000 + number, DECK))
        while not hand.is_over():
            seat = hand.to_move()
            assert seat is not None
            view = KlaberjassView.of(match, seat)
            yield match, view
            legal = view.legal
            hand.push(expert.choose(view, rng) if rng.random() < 0.8 else rng.choice(legal))


def seen_in(world: KlaberjassHand, view: KlaberjassView) -> KlaberjassView:
    """What ``view``'s seat would see of ``world`` (the match's totals left as they are)."""
    match = KlaberjassMatch(world.rules, first_dealer=world.dealer)
    match.hands.append(world)
    seen = KlaberjassView.of(match, view.seat)
    return dataclasses.replace(seen, totals=view.totals, pot=view.pot)


def test_a_world_shows_the_seat_what_it_has_seen() -> None:
    # Every card the seat knows where it is, every move and the phase are always as
    # seen; the sequences' scores, which the deal cannot always be made to honour in
    # a few tries, agree in all but a handful of positions in thousands.
    differing = 0
    count = 0
    for _, view in positions(100):
        world = deal_world(view, random.Random(count))
        count += 1
        seen = seen_in(world, view)
        sequences = ("sequence_points", "sequence_cards", "outcome")
        assert (
            dataclasses.replace(seen, **{name: getattr(view, name) for name in sequences}) == view
        ), (count, view.phase)
        differing += seen != view
    assert count > 1_500
    assert differing <= count // 200, (differing, count)


def test_a_world_honours_the_suits_the_other_cannot_hold() -> None:
    tested = 0
    for _, view in positions(80, seed=1):
        ruled_out = unplayable(view)
        if not ruled_out:
            continue
        world = deal_world(view, random.Random(tested))
        assert not world.hands[view.other] & ruled_out
        tested += 1
    assert tested > 200


def test_unplayable_never_rules_out_a_card_the_other_holds() -> None:
    # What the play tells of the other hand is sound: the real hand never holds a card
    # unplayable() rules out, and a failure to follow is read whenever one happened.
    read = 0
    for match, view in positions(200, seed=3):
        ruled_out = unplayable(view)
        assert not match.hands[-1].hands[view.other] & ruled_out
        read += ruled_out != 0
    assert read > 500


def test_the_exact_endgame_agrees_with_the_engine_played_out() -> None:
    # With six cards or fewer left, the search's minimax on bitmasks gives the same
    # margin as a minimax that pushes and pops the engine's moves and asks it the score.
    def engine_minimax(hand: KlaberjassHand, me: int) -> float:
        if hand.is_over():
            score = hand.outcome()
            assert score is not None
            return float(score.scores[me] - score.scores[1 - me])
        values = []
        for action in hand.legal_actions():
            hand.push(action)
            values.append(engine_minimax(hand, me))
            hand.pop()
        return max(values) if hand.to_move() == me else min(values)

    checked = 0
    rng = random.Random(4)
    for number in range(400):
        rules = PRESETS[number % len(PRESETS)]
        hand = KlaberjassHand(seeded_deck(50_000 + number, DECK), number % 2, rules)
        while not hand.is_over():
            left = hand.hands[0].bit_count() + hand.hands[1].bit_count()
            if hand.phase == "play" and not hand.trick and left <= EXACT_CARDS:
                me = rng.randrange(2)
                assert _solved(hand, me) == engine_minimax(hand, me), number
                checked += 1
                break
            hand.push(rng.choice(hand.legal_actions()))
    assert checked > 300


def test_the_search_chooses_from_its_view_alone() -> None:
    # A second deal that looks the same to the seat (another world of its view) gets the
    # same choice from the same random numbers: nothing but the view reaches the search.
    search = SearchKlaberjass(worlds=3)
    compared = 0
    for _match, view in positions(8, seed=2):
        if len(view.legal) < 2:
            continue
        twin = seen_in(deal_world(view, random.Random(compared)), view)
        if twin != view:
            continue
        assert search.choose(view, random.Random(compared)) == search.choose(
            twin, random.Random(compared)
        )
        compared += 1
    assert compared > 25


@pytest.mark.parametrize("rules", PRESETS, ids=lambda rules: rules.name)
def test_the_search_plays_a_legal_move_everywhere(rules: KlaberjassRules) -> None:
    search = BOTS["search"]()
    assert isinstance(search, SearchKlaberjass)
    search.worlds = 3  # legality, not strength
    rng = random.Random(rules.name)
    for seed in range(15):
        match = KlaberjassMatch(rules, first_dealer=seed % 2)
        hand = match.new_hand(seeded_deck(70_000 + seed, DECK))
        while not hand.is_over():
            seat = hand.to_move()
            assert seat is not None
            view = KlaberjassView.of(match, seat)
            move = search.choose(view, rng)
            assert move in view.legal
            hand.push(move)


def deck_dealing(elder: str, dealer: str, turned: str) -> list[int]:
    """A deck that deals ``elder`` and ``dealer`` these six cards each and turns up
    ``turned`` (the dealer is player 1), the rest in a fixed order."""
    first, second = parse_cards(elder), parse_cards(dealer)
    placed = {**dict(zip((0, 1, 2, 6, 7, 8), first, strict=True))}
    placed |= dict(zip((3, 4, 5, 9, 10, 11), second, strict=True))
    placed[12] = parse_cards(turned)[0]
    rest = iter(card for card in cards_of(DECK) if card not in placed.values())
    return [placed[place] if place in placed else next(rest) for place in range(32)]


@pytest.mark.parametrize(
    ("elder", "expected"),
    [
        ("Jh 9h Ah 10h As Ac", "take"),  # the top four trumps and two side aces
        ("7c 8d 9s 10c Qd 7s", "pass"),  # no heart, nothing high
    ],
)
def test_the_search_bids_on_what_the_hand_is_worth(elder: str, expected: str) -> None:
    # Hearts turned up (the K♥); the elder bids first.
    deck = deck_dealing(elder, "8c 8s Jc Jd Kd Ks", "Kh")
    match = KlaberjassMatch(first_dealer=1)
    match.new_hand(deck)
    view = KlaberjassView.of(match, 0)
    assert view.hand == mask_of(parse_cards(elder))
    assert SearchKlaberjass(worlds=16).choose(view, random.Random(0)).text() == expected
    with pytest.raises(ValueError, match="at least one world"):
        SearchKlaberjass(worlds=0)


def test_a_search_without_a_move_says_so() -> None:
    match = KlaberjassMatch(first_dealer=1)
    match.new_hand(seeded_deck(3, DECK))
    with pytest.raises(ValueError, match="no legal move"):
        SearchKlaberjass().choose(KlaberjassView.of(match, 1), random.Random(0))
