"""OpenSpiel's simple Gin Rummy bot (``pyspiel.make_simple_gin_rummy_bot``) as a player
of our Gin Rummy: the ``openspiel`` level, an opponent for the arena, never offered to a
person. It needs OpenSpiel (``pip install -e '.[bench]'``).

Like every level it sees only its view. At each decision it deals a world that shows it
exactly that view (:func:`umtali.games.gin.bots.worlds.deal_world`; OpenSpiel's bot reads
only its own player's observation, its hand, the pile, the stock's size and the knock
card, so which world does not matter), replays the hand move for move in OpenSpiel's
``gin_rummy`` (the same deal, the same draws), asks the bot, and plays its answer:
``draw upcard`` is a take, ``draw stock`` a draw, ``pass`` a pass, a card a discard, and
``knock`` followed by the card it then throws a knock. Where the rules differ
(docs/RULES.md, Part 7, and ``tests/test_gin_openspiel.py``) and OpenSpiel's answer is
not ours to play (it may throw the card it just took from the pile; it ends a hand after
50 draws from the pile), the level plays ``greedy``'s move instead, which is what the
simple bot's rules come to: :attr:`OpenSpielGinBot.stand_ins` counts those moves.
"""

from __future__ import annotations

import random
from typing import Any, Final

from umtali.games.api import Deadline
from umtali.games.gin.bots import GinGreedyBot
from umtali.games.gin.bots.worlds import deal_world
from umtali.games.gin.rules import GinRules
from umtali.games.gin.state import DRAW, FIRST_STOCK_INDEX, PASS, TAKE, GinHand, GinMove
from umtali.games.gin.view import GinView
from umtali.kernel.cards import rank_of, suit_of

__all__ = ["INSTALL_HINT", "OpenSpielGinBot", "openspiel_missing", "os_card", "our_card"]

INSTALL_HINT: Final = (
    "the openspiel level is OpenSpiel's simple Gin Rummy bot, and OpenSpiel is not"
    " installed: install it with pip install -e '.[bench]'"
)

DRAW_UPCARD, DRAW_STOCK, OS_PASS, OS_KNOCK = 52, 53, 54, 55
"""OpenSpiel's gin_rummy actions beside the cards (0-51) and the melds (56 on)."""


def openspiel_missing() -> str | None:
    """:data:`INSTALL_HINT` when OpenSpiel cannot be imported, else ``None``."""
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]  # noqa: F401
    except ImportError:
        return INSTALL_HINT
    return None


def os_card(card: int) -> int:
    """OpenSpiel's id of our card: its suits run spades, clubs, diamonds, hearts."""
    return (suit_of(card) + 1) % 4 * 13 + rank_of(card) - 1


def our_card(os_id: int) -> int:
    """Our id of OpenSpiel's card."""
    return (os_id // 13 + 3) % 4 * 13 + os_id % 13


_GAMES: dict[GinRules, Any] = {}


def _game(rules: GinRules) -> Any:
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

    if rules not in _GAMES:
        _GAMES[rules] = pyspiel.load_game(
            "gin_rummy",
            {
                "oklahoma": rules.oklahoma,
                "knock_card": rules.knock_limit,
                "gin_bonus": rules.gin_bonus,
                "undercut_bonus": rules.undercut_bonus,
            },
        )
    return _GAMES[rules]


def in_openspiel(hand: GinHand) -> Any:
    """OpenSpiel's state of ``hand``: the same deal (ten cards to its player 0, our
    non-dealer, ten to its player 1, then the upcard), the same moves and draws."""
    state = _game(hand.rules).new_initial_state()
    deck = hand.deck
    for card in [*deck[0:20:2], *deck[1:20:2], deck[20]]:
        state.apply_action(os_card(card))
    drawn = FIRST_STOCK_INDEX
    for _, action in hand.history:
        if action == PASS:
            state.apply_action(OS_PASS)
        elif action == TAKE:
            state.apply_action(DRAW_UPCARD)
        elif action == DRAW:
            state.apply_action(DRAW_STOCK)
            state.apply_action(os_card(deck[drawn]))
            drawn += 1
        else:  # a discard: a knock ends the hand, and no decision follows it
            state.apply_action(os_card(action % 52))
    return state


class OpenSpielGinBot:
    """OpenSpiel's simple Gin Rummy bot, playing from our view; see the module."""

    name = "openspiel"

    def __init__(self) -> None:
        missing = openspiel_missing()
        if missing is not None:
            raise ValueError(missing)
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

        self._make = pyspiel.make_simple_gin_rummy_bot
        self.stand_in = GinGreedyBot()
        self.stand_ins = 0
        """Moves played by ``greedy`` where OpenSpiel's answer was not ours to play."""

    def choose(
        self, view: GinView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> GinMove:
        if not view.legal:
            raise ValueError("the openspiel bot was asked to move when it has no legal move")
        move = self._answer(view)
        if move is None or move not in view.legal:
            self.stand_ins += 1
            return self.stand_in.choose(view, rng)
        return move

    def _answer(self, view: GinView) -> GinMove | None:
        """OpenSpiel's bot's move in a world of ``view``, or ``None`` where it has none
        of ours."""
        world = deal_world(view, random.Random(0), infer=False)
        state = in_openspiel(world)
        player = 0 if view.seat != view.dealer else 1
        if state.is_terminal() or state.current_player() != player:
            return None  # OpenSpiel ended the hand (50 draws from the pile)
        bot = self._make(state.get_game().get_parameters(), player)
        action = bot.step(state)
        if action == DRAW_UPCARD:
            return GinMove("take")
        if action == DRAW_STOCK:
            return GinMove("draw")
        if action == OS_PASS:
            return GinMove("pass")
        if action == OS_KNOCK:
            state.apply_action(action)
            return GinMove("knock", our_card(bot.step(state)))
        if action < 52:
            return GinMove("discard", our_card(action))
        return None
