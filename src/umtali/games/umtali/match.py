"""Games and sessions: hands in a row, dealer rotation (R1), totals and winners (R10).

A :class:`Match` is a single hand, a game (four hands) or a session (first to win two
games). Each hand is dealt from a deck the caller supplies (explicit chance), so a
match replays exactly from its decks and moves.

>>> from umtali.games.umtali.lessons import LESSONS
>>> game = Match(kind="game", first_dealer=1)
>>> for lesson in LESSONS:
...     _ = lesson.replay(game.new_hand(lesson.deck()))
>>> game.game_totals(0), game.is_over(), game.game_winners()
((159, 110), True, [0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from umtali.games.umtali.rules import STANDARD, InvalidRulesError, RuleSet
from umtali.games.umtali.state import HandOutcome, HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import quoted
from umtali.kernel.players import MatchError, check_name

__all__ = ["MATCH_KINDS", "Match", "MatchKind"]

MatchKind = Literal["hand", "game", "session"]
MATCH_KINDS: Final = ("hand", "game", "session")


@dataclass(frozen=True)
class GameResult:
    """A finished game: its hands' scores, the totals, the winner (``None`` if drawn)."""

    hand_scores: tuple[tuple[int, int], ...]
    totals: tuple[int, int]

    @property
    def winner(self) -> int | None:
        a, b = self.totals
        return None if a == b else (0 if a > b else 1)


class Match:
    """A hand, a game or a session between player 0 and player 1."""

    def __init__(
        self,
        rules: RuleSet = STANDARD,
        *,
        kind: MatchKind = "game",
        first_dealer: int = 0,
        players: Sequence[str] = ("Player 1", "Player 2"),
        meta: dict[str, Any] | None = None,
    ) -> None:
        if kind not in MATCH_KINDS:
            raise MatchError(f"a match is one of {', '.join(MATCH_KINDS)}, not {quoted(kind)}")
        if type(first_dealer) is not int or first_dealer not in (0, 1):
            raise MatchError(f"the first dealer is player 0 or 1, not {quoted(first_dealer)}")
        if not isinstance(rules, RuleSet):
            raise InvalidRulesError(f"rules are a RuleSet (such as STANDARD), not {quoted(rules)}")
        if meta is not None and not isinstance(meta, dict):
            raise MatchError(f"meta is a dict of facts to keep, not {quoted(meta)}")
        if isinstance(players, str) or len(players) != 2:
            raise MatchError("a match has two players: give two names, like ('Ann', 'Bob')")
        for seat, name in enumerate(players):
            check_name(seat, name)
        self.rules = rules
        self.kind: MatchKind = kind
        self.first_dealer = first_dealer
        self.players = (players[0], players[1])
        self.hands: list[HandState] = []
        self.meta: dict[str, Any] = dict(meta or {})
        """Free-form facts an interface keeps with the record (seats, seed); not rules."""

    # -- progress ------------------------------------------------------------------------
    @property
    def current(self) -> HandState | None:
        """The hand being played, if one is under way."""
        if self.hands and not self.hands[-1].is_over():
            return self.hands[-1]
        return None

    def next_dealer(self) -> int:
        """Who deals the next hand: the winner of the last hand; after a draw, the same
        dealer again (R1), across game boundaries too."""
        if not self.hands:
            return self.first_dealer
        last = self.hands[-1]
        outcome = last.outcome()
        if outcome is None:
            raise MatchError("the current hand has not ended")
        return last.dealer if outcome.winner is None else outcome.winner

    def new_hand(self, deck: Sequence[int]) -> HandState:
        """Deal the next hand from ``deck`` and return it."""
        if self.is_over():
            raise MatchError("the match is over: no more hands are dealt")
        if self.current is not None:
            raise MatchError("the current hand has not ended")
        hand = HandState(deck, self.next_dealer(), self.rules)
        self.hands.append(hand)
        return hand

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see of the current hand, with the game's scores so far and
        the hands still to come (what a bot weighs near the end of a game)."""
        hand = self.current
        if hand is None:
            raise MatchError("no hand is being played")
        if self.kind == "hand":  # a single hand is the whole match
            return PlayerView.of(hand, player, (0, 0), 0)
        per = self.rules.hands_per_game
        finished = len(self.finished_outcomes())
        in_game = finished % per
        totals = self.game_totals() if in_game else (0, 0)
        return PlayerView.of(hand, player, totals, per - in_game - 1)

    def finished_outcomes(self) -> list[HandOutcome]:
        """The outcomes of the hands that have ended, in order."""
        out = []
        for h in self.hands:
            o = h.outcome()
            if o is not None:
                out.append(o)
        return out

    # -- games ---------------------------------------------------------------------------
    def games(self) -> list[list[HandOutcome]]:
        """Finished hands grouped into games (the last group may be a game under way)."""
        per = self.rules.hands_per_game
        outcomes = self.finished_outcomes()
        return [outcomes[i : i + per] for i in range(0, len(outcomes), per)] or [[]]

    def game_totals(self, game: int = -1) -> tuple[int, int]:
        """Cumulative scores of a game (the current one by default); :class:`MatchError`
        for a game not played."""
        games = self.games()
        if type(game) is not int or not -len(games) <= game < len(games):
            raise MatchError(f"no game {quoted(game)}: {len(games)} so far, counted from 0")
        hands = games[game]
        return (sum(o.scores[0] for o in hands), sum(o.scores[1] for o in hands))

    def game_results(self) -> list[GameResult]:
        """The finished games."""
        per = self.rules.hands_per_game
        return [
            GameResult(tuple(o.scores for o in g), self._totals(g))
            for g in self.games()
            if len(g) == per
        ]

    @staticmethod
    def _totals(hands: list[HandOutcome]) -> tuple[int, int]:
        return (sum(o.scores[0] for o in hands), sum(o.scores[1] for o in hands))

    def game_winners(self) -> list[int | None]:
        """The winner of each finished game (``None`` for a drawn game)."""
        return [g.winner for g in self.game_results()]

    def games_won(self) -> tuple[int, int]:
        winners = self.game_winners()
        return (winners.count(0), winners.count(1))

    def is_over(self) -> bool:
        """Whether the match has ended."""
        if self.current is not None:
            return False
        if self.kind == "hand":
            return len(self.hands) == 1
        if self.kind == "game":
            return len(self.game_results()) == 1
        return max(self.games_won()) >= self.rules.games_to_win_session

    def winner(self) -> int | None:
        """The winner of a finished match (``None`` if drawn or not over)."""
        if not self.is_over():
            return None
        if self.kind == "hand":
            outcome = self.hands[0].outcome()
            return None if outcome is None else outcome.winner
        if self.kind == "game":
            return self.game_winners()[0]
        won = self.games_won()
        return 0 if won[0] > won[1] else 1

    def __repr__(self) -> str:
        return (
            f"<Match {self.kind}: {len(self.hands)} hand{'' if len(self.hands) == 1 else 's'},"
            f" games won {self.games_won()},"
            f" {'over' if self.is_over() else 'in play'}>"
        )
