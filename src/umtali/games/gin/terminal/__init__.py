"""Gin Rummy at the terminal (layer 7): :data:`SCREEN`, what its spec's ``terminal``
hook names and ``umtali`` asks for (:class:`umtali.cli.hook.GameTerminal`).

* :mod:`~umtali.games.gin.terminal.play`: the screen of a game for two.
* :mod:`~umtali.games.gin.terminal.party`: the screen of three- and four-hand play, each
  hand played on the screen of two.
* :mod:`~umtali.games.gin.terminal.render`: the boards, a hand's end, the score sheet,
  and a replay's board and hand's end as plain text.

Gin Rummy has no lessons or quiz: its ``help`` and ``rules`` at the prompt are all it
teaches at the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from umtali.cli.hook import GameTerminal, Screen
from umtali.cli.terminal import Terminal
from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.replay import GinBoard
from umtali.games.gin.terminal.party import PartyPlay
from umtali.games.gin.terminal.play import GIN_HELP_FILE, GinGame
from umtali.games.gin.terminal.render import gin_replay_board, gin_summary_lines
from umtali.kernel.players import player_name
from umtali.session.kept import KeptGame

__all__ = ["GIN_HELP_FILE", "SCREEN"]


def _screen(term: Terminal, kept: KeptGame) -> Screen:
    """The screen of a game of two, or of three- or four-hand play."""
    if isinstance(kept.session, GinPartySession):
        return PartyPlay(term, kept)
    return GinGame(term, kept)


def _board(board: GinBoard, names: Sequence[str] | None) -> str:
    """A replay's board, the players called ``names`` at a hand of three- or four-hand
    play, else by seat."""
    labels = (player_name(0), player_name(1)) if names is None else (names[0], names[1])
    return gin_replay_board(board, labels)


SCREEN: Final = GameTerminal(
    screen=_screen,
    board=_board,
    summary=gin_summary_lines,
    variants={
        "standard": "to 100",
        "oklahoma": "the first upcard sets the knock limit, a spade doubles, to 150",
    },
)
"""Gin Rummy at the terminal (its spec's ``terminal`` hook)."""
