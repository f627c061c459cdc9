"""Gin Rummy in the arena (layer 6): what the arena and ``umtali bench --peers`` add for
it, the registry's ``arena`` hook (:data:`ARENA`, an
:class:`~umtali.sim.hooks.ArenaHook`).

* How each hand ended (``gin``, ``knock``, ``undercut``, ``dead``) and the final scores
  with the line and game bonuses and a shutout's doubling, read from the match, for two,
  three or four players; four-hand's partners score as one (:data:`TEAMS`).
* The report's own lines (the bonuses per game, which the game margin counts and the
  points per hand do not) and the plot's title (the game's target). Gin Rummy has no
  book's figures to set a run against.
* Its levels (:data:`~umtali.games.gin.bots.GIN_ARENA_BOTS`: every level, and OpenSpiel's
  simple bot as ``openspiel`` where OpenSpiel is installed) and, in the peer race, its
  engine and other programs' Gin Rummy (:mod:`umtali.games.gin.arena.peers`).

>>> ARENA.book is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from umtali.games.api import Session
from umtali.games.gin.bots import GIN_ARENA_BOTS
from umtali.games.gin.match import GinMatch
from umtali.games.gin.party import TEAMS, FourHandGame
from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.rules import GIN_PRESETS
from umtali.games.gin.state import GinHand
from umtali.sim.hooks import ArenaHook, GameOutcome, HandPlayed

if TYPE_CHECKING:
    from umtali.sim.arena import ArenaResult
    from umtali.sim.peers import Engine, OptionalEngine

__all__ = ["ARENA", "GinArena"]


def _how(hand: GinHand) -> str:
    assert hand.outcome is not None, "the arena reads a finished game"
    return hand.outcome.how


class GinArena(ArenaHook):
    """Gin Rummy's arena hook (see the module)."""

    levels = GIN_ARENA_BOTS

    def unavailable(self, level: str) -> str | None:
        """The ``openspiel`` level needs OpenSpiel (the ``bench`` extra)."""
        if level != "openspiel":
            return None
        from umtali.games.gin.bots.openspiel import openspiel_missing

        return openspiel_missing()

    def outcome(self, session: Session, hands: Sequence[HandPlayed]) -> GameOutcome:
        """Each hand's end, and the final scores with their bonuses: by player, or in
        four-hand by team, each partner given his team's."""
        if isinstance(session, GinPartySession):
            ends = tuple(_how(hand.session.match.hands[0]) for hand in session.hands)
            game = session.party_game
            if isinstance(game, FourHandGame):
                final = game.result().final
                return GameOutcome(ends, tuple(final[seat % 2] for seat in range(4)), TEAMS)
            return GameOutcome(ends, game.result().final)
        match: GinMatch = session.match
        result = match.result()
        assert result is not None, "the arena reads a finished game"
        return GameOutcome(tuple(_how(hand) for hand in match.hands), result.final)

    def notes(self, result: ArenaResult) -> list[str]:
        """The bonuses per game, and the highest hand (there is no book to set it
        against)."""
        summary = result.summary()
        levels = {"A": result.bot_a, "B": result.bot_b}
        bonuses = [sum(r.bonuses[i] for r in result.records) / summary.games for i in (0, 1)]
        what = "bonuses (line, game, shutout)" if result.seats == 2 else "bonuses and hands sat out"
        return [
            f"{what} per game: A {bonuses[0]:.1f}, B {bonuses[1]:.1f};"
            " the game margin counts them, the points per hand do not",
            f"highest hand: {summary.highest.points} ({summary.highest.where(levels)})",
        ]

    def plot_title(self, result: ArenaResult) -> str:
        summary = result.summary()
        target = GIN_PRESETS[result.variant].game_target
        return (
            f"Gin Rummy arena ({result.variant}): A {result.bot_a} vs B {result.bot_b},"
            f" {summary.games} games to {target} ({summary.hands} hands), seed {result.seed}"
        )

    def engines(self) -> list[Engine]:
        from umtali.games.gin.arena.peers import UmtaliGin

        return [UmtaliGin()]

    def peers(self, seed: int) -> list[OptionalEngine]:
        from umtali.games.gin.arena.peers import OpenSpielGin, RLCardGin

        return [(OpenSpielGin, "open-spiel", "bench"), (lambda: RLCardGin(seed), "rlcard", "bench")]


ARENA: Final = GinArena()
"""Gin Rummy's arena hook, as its spec names it."""
