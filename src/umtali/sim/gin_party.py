"""Three- and four-hand Gin Rummy played out between computer players, for the arena and
the tests.

Every seat is filled by a bot of :func:`umtali.games.gin.bots.make_gin_bot`, which sees only
the :class:`~umtali.games.gin.view.GinView` of its seat in the hand it plays. One RNG drives
everything, in order: the draw for places (three-hand) or the team that deals first
(four-hand), then each hand's deck and the bots' choices, so a seed replays a game.

>>> game = play_three_hand(("greedy", "greedy", "expert"), random.Random(4))
>>> game.is_over(), max(game.totals()) >= 100
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from umtali.games.gin.bots import GinBot, make_gin_bot
from umtali.games.gin.party import FourHandGame, Table, ThreeHandGame
from umtali.games.gin.rules import GIN, GinRules
from umtali.games.gin.state import GinHand
from umtali.games.gin.view import GinView
from umtali.kernel.deck import shuffled_deck

__all__ = ["play_four_hand", "play_table", "play_three_hand"]


def play_table(
    table: Table,
    bots: Sequence[GinBot],
    deck: Sequence[int],
    rules: GinRules,
    rng: random.Random,
) -> GinHand:
    """Deal a hand at ``table`` from ``deck`` and let ``bots`` (one per player of the
    party, by number) play it out; the finished hand is returned."""
    hand = table.deal(deck, rules)
    while (seat := hand.to_move()) is not None:
        bot = bots[table.player_at(seat)]
        hand.push(bot.choose(GinView.of(hand, seat), rng))
    return hand


def _bots(levels: Sequence[str], count: int, game: str) -> list[GinBot]:
    if isinstance(levels, str) or len(levels) != count:
        raise ValueError(
            f"{game} Gin Rummy has {count} players: give {count} bot levels, one per"
            f" player, not {levels!r}"
        )
    return [make_gin_bot(level) for level in levels]


def play_three_hand(
    levels: Sequence[str], rng: random.Random, rules: GinRules = GIN
) -> ThreeHandGame:
    """A whole game of three-hand between bots of ``levels`` (players 0, 1, 2), played
    to the end; its :meth:`~umtali.games.gin.party.ThreeHandGame.result` tells who won."""
    bots = _bots(levels, 3, "three-hand")
    game = ThreeHandGame.drawn_from(rng, rules)
    while not game.is_over():
        seats = game.next_seats()
        game.record(seats, play_table(seats.table, bots, shuffled_deck(rng), rules, rng))
    return game


def play_four_hand(
    levels: Sequence[str], rng: random.Random, rules: GinRules = GIN
) -> FourHandGame:
    """A whole game of four-hand between bots of ``levels`` (players 0 to 3; players 0
    and 2 are a team, 1 and 3 the other), played to the end.

    >>> game = play_four_hand(("expert", "greedy", "expert", "greedy"), random.Random(2))
    >>> game.is_over(), game.result().winner in (0, 1)
    (True, True)
    """
    bots = _bots(levels, 4, "four-hand")
    game = FourHandGame(rules, first_dealers=rng.randrange(2))
    while not game.is_over():
        seats = game.next_seats()
        # The two tables play at once; each has its own deck.
        hands = [play_table(table, bots, shuffled_deck(rng), rules, rng) for table in seats.tables]
        game.record(seats, hands)
    return game
