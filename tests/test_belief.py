"""The belief over the opponent's hidden cards (issue 26), and the search that deals from it."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator

import pytest

from tests.helpers import load_benchmark
from umtali.games.api import Deadline
from umtali.games.umtali.bots import ExpertBot, SearchBot
from umtali.games.umtali.bots.belief import Belief, candidates, connectors
from umtali.games.umtali.bots.discard_model import TEMPERATURE, DiscardModel
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import MoveKind
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import cards_of, parse_card
from umtali.kernel.deck import seeded_deck


def positions(seed: int, hands: int = 2) -> Iterator[tuple[HandState, PlayerView]]:
    """Every position of a few hands between two experts, with the mover's view."""
    expert = ExpertBot()
    match = Match(kind="game", first_dealer=seed % 2)
    for h in range(hands):
        hand = match.new_hand(seeded_deck(f"belief/{seed}/{h}"))
        while not hand.is_over():
            view = match.view(hand.player)
            yield hand, view
            hand.push(expert.choose(view, random.Random(0)))


def test_connectors_are_the_cards_that_meld_with_a_card() -> None:
    same, near, far = connectors(parse_card("5h"))
    assert set(cards_of(same)) == {parse_card(t) for t in ("5c", "5d", "5s")}
    assert set(cards_of(near)) == {parse_card("4h"), parse_card("6h")}
    assert set(cards_of(far)) == {parse_card("3h"), parse_card("7h")}
    assert connectors(parse_card("Jc"))[0] == 0  # a Jack melds with nothing
    assert cards_of(connectors(parse_card("Qs"))[1]) == [parse_card("Ks")]  # a marriage
    assert connectors(parse_card("Ad"))[1] == 1 << parse_card("2d")  # no wrap past the ace


def test_a_sampled_hand_agrees_with_the_view() -> None:
    checked = 0
    for seed in range(3):
        for _state, view in positions(seed):
            if view.phase.name != "PLAY" and view.phase.name != "DRAW":
                continue
            belief = Belief.of(view)
            rng = random.Random(checked)
            for _ in range(5):
                world = belief.determinize(view, rng)
                opponent = world.hands[1 - view.player]
                # The right size, the cards he is known to hold, none seen elsewhere, none
                # he cannot hold; and the viewer's side of the world is the view.
                assert opponent.bit_count() == view.opponent_hand_size
                assert opponent & view.opponent_known.mask == view.opponent_known.mask
                assert not opponent & ~(view.unseen().mask | view.opponent_known.mask)
                assert not opponent & view.opponent_excluded.mask
                assert world.hands[view.player] == view.hand.mask
                assert world.stock_size() == view.stock_size
                picked = belief.pick(rng)
                assert picked.bit_count() == belief.size
                assert not picked & ~sum(1 << c for c in belief.cards)
            checked += 1
    assert checked > 100


def test_the_belief_of_uniform_weights_is_uniform_dealing() -> None:
    for _, view in positions(5, hands=1):
        if view.turn < 3:
            continue
        belief = Belief.of(view, uniform=True)
        hand = belief.pick(random.Random(3))
        expected = -math.log(math.comb(len(belief.cards), belief.size))
        assert belief.log_likelihood(hand) == pytest.approx(expected)
        # A hand with a card the belief cannot deal has no chance at all.
        outside = next(c for c in range(52) if c not in belief.cards)
        assert belief.log_likelihood(hand | 1 << outside) == -math.inf


def test_the_chances_of_all_hands_add_up_to_one() -> None:
    # Small enough to list every hand: the weights' model is a distribution.
    for _, view in positions(2, hands=1):
        belief = Belief.of(view)
        if view.turn >= 4 and len(belief.cards) <= 22 and 1 <= belief.size <= 4:
            from itertools import combinations

            total = sum(
                math.exp(belief.log_likelihood(sum(1 << c for c in hand)))
                for hand in combinations(belief.cards, belief.size)
            )
            assert total == pytest.approx(1.0)
            return
    pytest.skip("no small enough position in this hand")  # pragma: no cover


def test_a_discard_makes_the_cards_that_meld_with_it_less_likely() -> None:
    for _, view in positions(1):
        discards = [
            t for actor, t in view.history if actor != view.player and t.startswith("discard ")
        ]
        if not discards or view.to_move != view.player:
            continue
        belief = Belief.of(view)
        card = parse_card(discards[-1].split()[1])
        same = connectors(card)[0]
        weights = dict(zip(belief.cards, belief.weights, strict=True))
        lower = [weights[c] for c in cards_of(same) if c in weights]
        if lower:
            assert max(lower) < max(belief.weights)
            return
    pytest.fail("no discard with a card of its rank unseen")  # pragma: no cover


def test_the_discard_model_fits_the_expert_s_real_hand_and_rules_out_others() -> None:
    """Between two experts, the hand the opponent really holds fits his last discard as
    the expert judges it (no loss) nearly always, while hands drawn from the belief
    often would have thrown another card: the model reads more than the belief."""
    fits = models = 0
    kept: list[float] = []
    rng = random.Random(0)
    for seed in range(4):
        for state, view in positions(seed):
            model = DiscardModel.of(view)
            his = [text for actor, text in view.history if actor != view.player]
            # A reading when, and only when, his last move was a face-up discard.
            readable = bool(his) and his[-1].startswith("discard") and "face down" not in his[-1]
            assert (model is not None) == (readable and view.went_out is None), his[-1:]
            if model is None:
                continue
            opponent = state.hands[1 - view.player]
            assert model.loss(opponent) >= 0.0
            fits += model.loss(opponent) == 0.0
            models += 1
            belief = Belief.of(view)
            known = view.opponent_known.mask
            kept.extend(model.chance(belief.pick(rng) | known) for _ in range(20))
    assert models > 100
    assert fits / models > 0.95
    # Hands from the belief are kept four times in five or less: a real cut.
    assert sum(kept) / len(kept) < 0.85


def test_the_search_refuses_a_negative_reading_temperature() -> None:
    with pytest.raises(ValueError, match="negative temperature"):
        SearchBot(reading=-1.0)


def dealt_with(
    view: PlayerView,
    card: int,
    chance: Callable[[int], float] | None,
    tries: int = 8,
    deals: int = 400,
) -> int:
    """In how many of ``deals`` worlds dealt from the belief of ``view`` (with ``chance``
    reading more) the opponent holds ``card``."""
    belief = Belief.of(view)
    known = view.opponent_known.mask
    rng = random.Random(5)
    total = 0
    for _ in range(deals):
        opponent = belief.determinize(view, rng, chance=chance, tries=tries).hands[1 - view.player]
        assert opponent & known == known
        total += opponent >> card & 1
    return total


def test_a_hand_the_chance_rules_out_is_dealt_rarely_never_never() -> None:
    for _, view in positions(3, hands=1):
        if view.turn < 4 or view.to_move != view.player:
            continue
        card = Belief.of(view).cards[0]
        plain = dealt_with(view, card, None)
        if plain >= 40:
            break
    else:
        pytest.fail("no position with a card the belief deals often")  # pragma: no cover

    def without(hand: int) -> float:
        return 0.0 if hand >> card & 1 else 1.0

    # The card is dealt only when every draw holds it: with eight draws, rarely; with
    # two, about as often as the belief deals it squared, rarer but still possible;
    # with one, as often as the belief alone deals it.
    assert dealt_with(view, card, without) < plain / 4
    assert 0 < dealt_with(view, card, without, tries=2, deals=4000) < 10 * plain
    assert dealt_with(view, card, without, tries=1) == plain


def swapped(state: HandState, seat: int) -> HandState | None:
    """``state`` with one of ``seat``'s opponent's hidden cards swapped with a stock
    card: another deal that looks the same from ``seat``."""
    opponent = 1 - seat
    known = state.ever_taken[opponent]
    hidden = cards_of(state.hands[opponent] & ~known)
    stock = state.stock_cards()
    if not hidden or not stock:
        return None
    a, b = hidden[0], stock[-1]
    other = state.clone()
    hands = list(other.hands)
    hands[opponent] = hands[opponent] & ~(1 << a) | 1 << b
    other.hands = (hands[0], hands[1])
    other.stock = tuple(a if c == b else c for c in other.stock)
    return other


def test_the_belief_and_the_search_read_the_view_alone() -> None:
    """Change the opponent's hidden cards: the view, the belief and the search's choice
    stay the same (the secrecy of the bots' inputs)."""
    checked = 0
    search = SearchBot(playouts=24, max_ms=float("inf"))
    reading = SearchBot(playouts=24, max_ms=float("inf"), reading=TEMPERATURE)
    for state, view in positions(4, hands=1):
        other = swapped(state, view.player)
        if other is None or view.turn < 2:
            continue
        view2 = PlayerView.of(other, view.player, view.game_scores, view.hands_left)
        assert view2 == view
        assert Belief.of(view2) == Belief.of(view)
        assert candidates(view2) == candidates(view)
        assert DiscardModel.of(view2) == DiscardModel.of(view)
        if checked < 6 and len(view.legal) > 1:
            for bot in (search, reading):
                chosen = bot.choose(view, random.Random(checked))
                assert chosen in view.legal
                assert bot.choose(view2, random.Random(checked)) == chosen
        checked += 1
    assert checked > 20


def test_the_belief_is_the_same_from_the_view_s_json() -> None:
    for _, view in positions(6, hands=1):
        if view.turn >= 2:
            again = PlayerView.from_dict(view.to_dict())
            assert Belief.of(again) == Belief.of(view)


class Countdown:
    """A fake clock whose deadline passes after a few readings (no real time)."""

    def __init__(self, readings: int) -> None:
        self.left = readings

    def __call__(self) -> float:
        self.left -= 1
        return 0.0 if self.left > 0 else 1.0


def test_a_tiny_budget_stops_the_search_with_a_legal_move() -> None:
    search = SearchBot(max_ms=float("inf"))
    calls = 0
    for _, view in positions(7, hands=1):
        if len(view.legal) < 2:
            continue
        clock = Countdown(3)
        move = search.choose(view, random.Random(calls), deadline=Deadline(at=0.5, clock=clock))
        assert move in view.legal
        # Not looked at (the expert's choice stands: nothing to search), or looked at
        # until it passed, and not once more.
        assert clock.left in (3, 0)
        calls += clock.left == 0
    assert calls > 5


def test_the_search_weighs_meld_phase_choices() -> None:
    """Where the meld phase can end in different hands, the search plays its plays
    out; a play that only reorders the same end is left to the expert."""
    search = SearchBot(playouts=24, max_ms=float("inf"))
    seen = 0
    for seed in range(12):
        for _, view in positions(seed, hands=1):
            if not {m.kind for m in view.legal} & {MoveKind.MELD, MoveKind.SOLO}:
                continue
            options = search._play_candidates(view, random.Random(0))
            assert options[0] == ExpertBot().choose(view, random.Random(0))
            assert all(m in view.legal for m in options)
            if len(options) > 1:
                assert search.choose(view, random.Random(1)) in options
                seen += 1
    assert seen > 0


def test_the_log_likelihood_command_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_benchmark("belief")
    assert module.main(["--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "belief" in out
    assert "uniform" in out
    assert "gain" in out
    assert "his last discard read as the expert's" in out
    with pytest.raises(SystemExit):
        module.main(["--games", "0"])
    with pytest.raises(SystemExit):
        module.main(["--levels", "genius", "expert"])
