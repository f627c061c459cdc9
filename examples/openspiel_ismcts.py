"""OpenSpiel's own IS-MCTS bot playing Umtali against one of our computer players.

The game is :mod:`umtali.rl.openspiel` (``pyspiel.load_game("python_umtali")``); the
search is OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``) with
random rollouts, dealing the unseen cards again at each simulation through the state's
``resample_from_infostate``. Our bot sees only its :class:`~umtali.games.umtali.view.PlayerView`.

Deals are duplicate: each deck is played twice, the search in seat 0 and then in seat 1,
the dealer unchanged, so luck of the cards cancels within a deal. The figure printed is
the search's mean hand margin (its score less the other's) per deal, with a 95% normal
interval over the deals, and its share of hands won.

    python examples/openspiel_ismcts.py --quick          # a few seconds
    python examples/openspiel_ismcts.py --deals 20 --simulations 100 --opponent greedy
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.algorithms import (  # type: ignore[import-untyped, unused-ignore]
    ismcts,
    mcts,
)

from umtali.games.umtali.bots import BOTS, make_bot
from umtali.games.umtali.view import PlayerView
from umtali.kernel.deck import shuffled_deck
from umtali.rl.actions import index_of
from umtali.rl.openspiel import GAME_NAME, UmtaliState
from umtali.sim.stats import mean_interval, wilson_interval


@dataclass(frozen=True)
class HandResult:
    """One hand: the deal, the search's seat and its margin."""

    deal: int
    search_seat: int
    margin: float


def play_hand(
    game: pyspiel.Game,
    deck: tuple[int, ...],
    search_seat: int,
    opponent: str,
    simulations: int,
    seed: int,
) -> float:
    """One hand from ``deck`` (its cards are the chance outcomes, in order): the
    search's margin. The search and the bot draw from RNGs of ``seed``."""
    search = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
        uct_c=30.0,  # about one typical hand margin: returns are points, not 0..1
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    # The worlds the search samples are dealt from a seeded RNG of ours (OpenSpiel's
    # default sampler is seeded afresh each time), so a run replays exactly.
    worlds = random.Random(f"{seed}/worlds")
    search.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
    bot = make_bot(opponent, reproducible=True)
    rng = random.Random(seed)
    state: UmtaliState = game.new_initial_state()
    cards = iter(deck)
    while not state.is_terminal():
        if state.is_chance_node():
            # The deck's next card: both seatings of a deal see the same cards.
            state.apply_action(next(cards))
        elif state.current_player() == search_seat:
            state.apply_action(int(search.step(state)))
        else:
            hand = state.hand.state
            assert hand is not None
            move = bot.choose(PlayerView.of(hand, hand.player), rng)
            state.apply_action(index_of(move))
    return float(state.returns()[search_seat])


def play_deals(deals: int, simulations: int, opponent: str, seed: int = 0) -> list[HandResult]:
    """Both seatings of each deal (the dealer is seat ``deal % 2``)."""
    results = []
    for deal in range(deals):
        game = pyspiel.load_game(GAME_NAME, {"dealer": deal % 2})
        deck = shuffled_deck(random.Random(f"{seed}/{deal}"))
        for seat in (0, 1):
            margin = play_hand(game, deck, seat, opponent, simulations, seed * 1000 + deal)
            results.append(HandResult(deal, seat, margin))
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10, help="duplicate deals (2 hands each)")
    parser.add_argument("--simulations", type=int, default=50, help="IS-MCTS simulations a move")
    parser.add_argument("--opponent", choices=list(BOTS), default="expert")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="1 deal, 10 simulations")
    args = parser.parse_args(argv)
    deals, simulations = (1, 10) if args.quick else (args.deals, args.simulations)
    start = time.perf_counter()
    results = play_deals(deals, simulations, args.opponent, args.seed)
    seconds = time.perf_counter() - start
    per_deal = [sum(r.margin for r in results if r.deal == d) / 2 for d in range(deals)]
    mean, low, high = mean_interval(per_deal)
    won = sum(1.0 if r.margin > 0 else 0.5 if r.margin == 0 else 0.0 for r in results)
    won_low, won_high = wilson_interval(won, len(results))
    print(
        f"IS-MCTS ({simulations} simulations a move) vs {args.opponent}:"
        f" {deals} deals, {len(results)} hands, {seconds:.1f} s"
    )
    print(f"margin per hand: {mean:+.1f} points (95% CI {low:+.1f} to {high:+.1f})")
    print(
        f"hands won: {won:g} of {len(results)}, {won / len(results):.0%}"
        f" (95% Wilson {won_low:.0%} to {won_high:.0%}; a drawn hand counts half)"
    )


if __name__ == "__main__":
    main()
