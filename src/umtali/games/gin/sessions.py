"""How the registry makes Gin Rummy's sessions (layer 5): a game of two is a
:class:`~umtali.games.gin.session.GinPlaySession`, a game of three or four a
:class:`~umtali.games.gin.party_session.GinPartySession` that plays each hand through
one; both answer as :class:`~umtali.games.api.Session` asks, so a front end plays every
seat count of Gin Rummy the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from typing import Final

from umtali.games.api import Guard
from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.match import GinMatch, GinPartyMatch
from umtali.games.gin.party_session import GinPartySession, seats_of
from umtali.games.gin.rules import GinRules
from umtali.games.gin.session import DEFAULT_GIN_BOT, GinPlaySession, rules_named
from umtali.kernel.seeds import Seed
from umtali.session.shared import Seats

__all__ = ["SESSIONS", "GinSessions"]

GinSession = GinPlaySession | GinPartySession


def _rules(variant: str | None, length: str | None) -> GinRules:
    if length not in (None, "game"):
        raise ValueError(
            "a game of Gin Rummy already runs over many hands to its target score (100, or"
            " 150 in Oklahoma): it is played as one game, not as a hand or a session"
        )
    return rules_named(variant or "standard")


class GinSessions:
    """Gin Rummy's :class:`~umtali.games.api.SessionMaker`, for two, three or four."""

    def new(
        self,
        *,
        seed: int,
        humans: Iterable[int],
        seats: int = 2,
        level: str | None = None,
        variant: str | None = None,
        length: str | None = None,
        guard: Guard | None = None,
    ) -> GinSession:
        rules = _rules(variant, length)
        bot = level or DEFAULT_GIN_BOT
        if seats == 2:
            return GinPlaySession.new(
                seed=seed, humans=humans, bot=bot, rules=rules, guard=guard or nullcontext
            )
        return GinPartySession.new(
            players=seats,
            seed=seed,
            humans=humans,
            bot=bot,
            rules=rules,
            guard=guard or nullcontext,
        )

    def between_bots(
        self,
        levels: Sequence[str],
        seed: Seed,
        *,
        variant: str | None = None,
        length: str | None = None,
        players: Sequence[str] | None = None,
    ) -> GinSession:
        # The arena may also measure two levels over single hands, without bonuses.
        rules = _rules(variant, None if length == "hand" and len(levels) == 2 else length)
        if len(levels) == 2:
            named = None if players is None else (players[0], players[1])
            return GinPlaySession.between_bots(
                (levels[0], levels[1]),
                seed,
                players=named,
                rules=rules,
                hand_limit=1 if length == "hand" else None,
            )
        return GinPartySession.between_bots(tuple(levels), seed, rules=rules, players=players)

    def of_record(
        self, match: GinMatch | GinPartyMatch, *, guard: Guard | None = None
    ) -> GinSession:
        if isinstance(match, GinPartyMatch):
            return GinPartySession.of_match(match, guard=guard or nullcontext)
        return GinPlaySession.of_match(match, guard=guard or nullcontext)

    def stored(
        self,
        match: GinMatch | GinPartyMatch,
        *,
        handed_over: frozenset[int] = frozenset(),
        hint_level: str | None = None,
    ) -> GinSession:
        # The server's hint level may be another game's: Gin Rummy's strongest then.
        hints = hint_level if hint_level in GIN_BOTS else DEFAULT_GIN_BOT
        if isinstance(match, GinPartyMatch):
            return GinPartySession.of_stored(match, hint_level=hints, handed_over=handed_over)
        # Dealt from the server's shuffle, not from the seed: built as it stands.
        seats = Seats.of(match.meta, GIN_BOTS)
        return GinPlaySession(match, seats.seed, seats.levels(handed_over), hint_level=hints)

    def persons(self, match: GinMatch | GinPartyMatch) -> frozenset[int]:
        if isinstance(match, GinPartyMatch):
            return seats_of(match.meta, match.size)[1]
        return Seats.of(match.meta, GIN_BOTS).humans


SESSIONS: Final = GinSessions()
"""How Gin Rummy's sessions are made (the registry's ``sessions`` hook)."""
