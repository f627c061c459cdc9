"""The command that bounds what knowing the hidden cards is worth (benchmarks/hidden_cards.py).

Its knowing searches must deal exactly what they claim to know: the opponent's real hand
(the stock shuffled anew), or the real state itself; and every deal must still show the
searcher his own view, or the bound would measure something else.
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from tests.helpers import load_benchmark
from umtali.games.umtali.bots import ExpertBot
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terms import PILE_CARD, Phase
from umtali.games.umtali.view import PlayerView
from umtali.kernel.deck import seeded_deck


def bench() -> ModuleType:
    return load_benchmark("hidden_cards")


def midway(seed: int, turns: int) -> HandState:
    """A hand two experts have played until ``turns`` turns are over, stopped at a draw."""
    state = HandState(seeded_deck(f"hidden/{seed}"), dealer=seed % 2)
    expert, rng = ExpertBot(), random.Random(seed)
    while not (state.turn > turns and state.phase == Phase.DRAW):
        assert not state.is_over()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.push(legal[0])
        else:
            state.push(expert.choose(PlayerView.of(state, state.player), rng))
    return state


def unseen(state: HandState) -> list[int]:
    return sorted([*state.stock_cards(), *(entry & PILE_CARD for entry in state.pile)])


def seen_alike(world: HandState, real: HandState, player: int) -> None:
    again, view = PlayerView.of(world, player), PlayerView.of(real, player)
    assert (again.hand, again.tables, again.discard_pile) == (
        view.hand,
        view.tables,
        view.discard_pile,
    )
    assert (again.stock_size, again.opponent_hand_size) == (
        view.stock_size,
        view.opponent_hand_size,
    )
    assert again.legal == view.legal


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_his_hand_deals_his_real_cards_and_shuffles_the_stock(seed: int) -> None:
    real = midway(seed, 6)
    player = real.player
    bot = bench().KnowingSearch(whole=False)
    bot.truth = real
    deal = bot._deal(PlayerView.of(real, player))
    stocks = set()
    for i in range(8):
        world = deal(random.Random(i))
        assert world.hands == real.hands
        seen_alike(world, real, player)
        stocks.add(tuple(world.stock_cards()))
        # The rest of the unseen cards, shuffled: the stock and any face-down discard.
        assert unseen(world) == unseen(real)
    assert len(stocks) > 1  # the stock is not the real one every time


def test_the_whole_deal_is_the_real_state_every_time() -> None:
    real = midway(4, 8)
    bot = bench().KnowingSearch(whole=True)
    bot.truth = real
    deal = bot._deal(PlayerView.of(real, real.player))
    for i in range(3):
        world = deal(random.Random(i))
        assert world.hands == real.hands
        assert world.stock_cards() == real.stock_cards()
        assert world.pile == real.pile
    world.push(world.legal_actions()[0])  # a deal is a copy: playing it leaves the truth
    assert len(real.history) < len(world.history)


@pytest.mark.parametrize(
    "argv", [["--deals", "1"], ["--jobs", "0"], ["--playouts", "0"], ["--variants", "psychic"]]
)
def test_the_command_refuses_what_it_cannot_run(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench().main(argv)


def test_the_command_prints_each_variant_then_its_difference_on_fair(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A small budget keeps the test quick; the plumbing is the level's own.
    argv = ["--deals", "2", "--playouts", "12", "--variants", "whole-deal", "fair"]
    assert bench().main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "whole-deal",
        "fair",
        "whole-deal on fair, deal by deal",
    ]
    assert lines[0].endswith("a hand over 2 deals")
