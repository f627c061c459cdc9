"""A game review (layer 5): each of a player's decisions in a finished hand weighed by
playouts from what he could see, whatever the game.

A game hands the engine one :class:`Choice` a decision: the alternatives he had (the
move he made among them), how to deal the cards he could not see at random in
agreement with what he saw, and how to play a hand out from one alternative to its end
(both players then play as the game's computer does). :func:`weigh` plays every
alternative out on the same deals (a paired comparison cancels the luck of the deal) and
returns each one's expected points: the player's score minus his opponent's at the
hand's end, on average. A decision's **loss** is what the best alternative is expected
to win more than the move made; a loss of :data:`INACCURACY` points or more is an
inaccuracy, :data:`MISTAKE` or more a mistake, marked only when it is clear of the
playouts' noise (at least :data:`CLEAR` standard errors). A hand's **accuracy** is the
mean over its decisions of ``100 * 2 ** (-loss / HALF_LIFE)``: 100 when every move was
the best found, half for each :data:`HALF_LIFE` points lost.

Everything is deterministic given the seed: the deals of decision ``m`` of hand ``h``
come from ``random.Random(f"{seed}/review/{h}/{m}/{deal}")``. The work is bounded by
:attr:`Settings.playouts` a decision (over all its alternatives) and, where a server
asks for it, :attr:`Settings.seconds` a decision.

>>> from umtali.learn.review import accuracy_of, mark_of
>>> accuracy_of([0.0, 3.0]), mark_of(6.0, 1.0), mark_of(6.0, 4.0), mark_of(2.5, 0.5)
(75.0, 'mistake', '', 'inaccuracy')
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

__all__ = [
    "CLEAR",
    "HALF_LIFE",
    "INACCURACY",
    "MISTAKE",
    "Alternative",
    "Choice",
    "Decision",
    "Hand",
    "HandReview",
    "ReviewError",
    "Reviewer",
    "Settings",
    "accuracy_of",
    "mark_of",
    "play_to_end",
    "weigh",
]

INACCURACY: Final = 2.0
"""Points lost from which a decision is marked an inaccuracy."""
MISTAKE: Final = 5.0
"""Points lost from which a decision is marked a mistake."""
CLEAR: Final = 2.0
"""Standard errors by which a loss must stand clear of the playouts' noise to be marked."""
HALF_LIFE: Final = 3.0
"""Points lost that halve a decision's accuracy."""

MOST_PLAYOUTS: Final = 20_000
"""The most playouts a decision :class:`Settings` accepts."""


class ReviewError(ValueError):
    """A review that cannot be made: a sentence for the player says why."""


@dataclass(frozen=True)
class Settings:
    """How hard a review looks.

    Attributes:
        playouts: playouts a decision, over all its alternatives (at least 8 deals each).
        seed: the seed every deal is drawn from.
        seconds: the most time a decision may take (``None``: no limit, the same
            result on any machine).
        alternatives: the most discards (or like choices) weighed a decision, the
            computer's likeliest first; the move made is always among them.
    """

    playouts: int = 400
    seed: int = 0
    seconds: float | None = None
    alternatives: int = 8

    def __post_init__(self) -> None:
        if type(self.playouts) is not int or not 1 <= self.playouts <= MOST_PLAYOUTS:
            raise ReviewError(f"playouts are a whole number from 1 to {MOST_PLAYOUTS}")
        if type(self.seed) is not int or self.seed < 0:
            raise ReviewError("the seed is a whole number, 0 or more")
        if self.seconds is not None and not self.seconds > 0:
            raise ReviewError("the time for a decision is a number of seconds above 0")
        if type(self.alternatives) is not int or self.alternatives < 2:
            raise ReviewError("a review weighs at least two alternatives a decision")


class Choice(Protocol):
    """One decision as a game hands it to :func:`weigh`, built from the player's own view
    alone (never the hidden cards of the record).

    ``moves``: the alternatives, each as the player reads it; ``played``: the index of
    the move he made. :meth:`deal` makes a world consistent with his view;
    :meth:`play_out` plays alternative ``index`` in a copy of ``world`` and the rest of
    the hand by the computer's policy, and returns his score minus his opponent's;
    :meth:`line` is what he would go on to do in his turn after that alternative (the
    "show me")."""

    @property
    def moves(self) -> tuple[str, ...]: ...

    @property
    def played(self) -> int: ...

    @property
    def lead(self) -> float | None:
        """In the hand that ends a game, the player's lead in the game before it (his
        chance to win the game is then weighed too); else ``None``."""

    def deal(self, rng: random.Random) -> Any: ...

    def play_out(self, world: Any, index: int, rng: random.Random) -> float: ...

    def line(self, index: int, rng: random.Random) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Alternative:
    """One move the player could make: what it is expected to win (``expected``, his
    points minus his opponent's at the hand's end), how much less than the best
    (``loss``) with that figure's standard error, and the line that follows it in his
    turn."""

    move: str
    expected: float
    loss: float
    error: float
    line: tuple[str, ...] = ()
    wins: float | None = None
    """In the hand that ends a game: the share of playouts in which he wins the game."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "expected": round(self.expected, 2),
            "loss": round(self.loss, 2),
            "error": round(self.error, 2),
            "line": list(self.line),
            "wins": None if self.wins is None else round(self.wins, 3),
        }


@dataclass(frozen=True)
class Decision:
    """One decision of the player: where it stood (``turn``, ``move_index`` in the
    hand, ``where`` in words), what he played, the alternatives best first, and the
    playouts spent."""

    move_index: int
    turn: int
    where: str
    played: str
    alternatives: tuple[Alternative, ...]
    playouts: int

    @property
    def made(self) -> Alternative:
        """The move he made, as weighed."""
        return next(a for a in self.alternatives if a.move == self.played)

    @property
    def best(self) -> Alternative:
        return self.alternatives[0]

    @property
    def loss(self) -> float:
        return self.made.loss

    @property
    def mark(self) -> str:
        """``"mistake"``, ``"inaccuracy"`` or ``""``."""
        return mark_of(self.made.loss, self.made.error)

    def to_dict(self) -> dict[str, Any]:
        return {
            "move_index": self.move_index,
            "turn": self.turn,
            "where": self.where,
            "played": self.played,
            "loss": round(self.loss, 2),
            "mark": self.mark,
            "playouts": self.playouts,
            "alternatives": [a.to_dict() for a in self.alternatives],
        }


@dataclass(frozen=True)
class HandReview:
    """A player's hand reviewed: its decisions, their accuracy, and the settings used."""

    game: str
    hand_index: int
    seat: int
    player: str
    result: str
    decisions: tuple[Decision, ...]
    settings: Settings = field(default_factory=Settings)

    @property
    def accuracy(self) -> float:
        return accuracy_of([d.loss for d in self.decisions])

    @property
    def lost(self) -> float:
        """Points lost in the decisions marked."""
        return sum(d.loss for d in self.decisions if d.mark)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "hand_index": self.hand_index,
            "seat": self.seat,
            "player": self.player,
            "result": self.result,
            "accuracy": round(self.accuracy, 1),
            "lost": round(self.lost, 2),
            "playouts": self.settings.playouts,
            "seed": self.settings.seed,
            "marks": {"inaccuracy": INACCURACY, "mistake": MISTAKE},
            "decisions": [d.to_dict() for d in self.decisions],
        }


class Hand(Protocol):
    """A hand as a playout sees it: whether it is over, its legal moves, a move played."""

    def is_over(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...

    def push(self, move: Any) -> None: ...


def play_to_end(state: Hand, choose: Callable[[Any], Any]) -> None:
    """Play ``state`` to the hand's end: a lone legal move at once, else ``choose(state)``
    (the computer's policy, from the view of the player to move)."""
    while not state.is_over():
        actions = state.legal_actions()
        state.push(actions[0] if len(actions) == 1 else choose(state))


class Reviewer(Protocol):
    """A game's review (its spec's ``review`` hook)."""

    def hands(self, match: Any) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The finished hands of ``match`` that can be reviewed: each hand's index and
        the seats (the match's players) that played it."""

    def review(self, match: Any, hand_index: int, seat: int, settings: Settings) -> HandReview:
        """Hand ``hand_index`` of ``match`` reviewed for ``seat`` (:class:`ReviewError`
        for a hand that is not finished or a seat that did not play it)."""


def mark_of(loss: float, error: float) -> str:
    """The mark a decision earns: a loss at or over :data:`MISTAKE` or
    :data:`INACCURACY`, standing :data:`CLEAR` standard errors above nothing."""
    if loss < INACCURACY or loss < CLEAR * error:
        return ""
    return "mistake" if loss >= MISTAKE else "inaccuracy"


def accuracy_of(losses: Sequence[float]) -> float:
    """A hand's accuracy from its decisions' losses (100 with none)."""
    if not losses:
        return 100.0
    kept = [100.0 * float(2.0 ** (-max(0.0, x) / HALF_LIFE)) for x in losses]
    return sum(kept) / len(kept)


def weigh(
    choice: Choice,
    settings: Settings,
    key: str,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[tuple[Alternative, ...], int]:
    """Every alternative of ``choice`` played out on the same deals, best first, and the
    playouts spent. ``key`` names the decision in the seed scheme (``"hand/move"``)."""
    moves = choice.moves
    n = len(moves)
    deals = max(8, settings.playouts // n)
    due = None if settings.seconds is None else clock() + settings.seconds
    sums = [0.0] * n
    values: list[list[float]] = [[] for _ in range(n)]
    played = 0
    for d in range(deals):
        if due is not None and d >= 2 and clock() >= due:
            break
        world = choice.deal(random.Random(f"{settings.seed}/review/{key}/{d}"))
        for i in range(n):
            v = choice.play_out(world, i, random.Random(f"{settings.seed}/review/{key}/{d}/p"))
            values[i].append(v)
            sums[i] += v
        played += 1
    means = [s / played for s in sums]
    best = max(range(n), key=lambda i: (means[i], i == choice.played))
    lead = choice.lead
    out = []
    for i in range(n):
        wins = None
        if lead is not None:
            wins = sum((v + lead > 0) + (v + lead == 0) / 2 for v in values[i]) / played
        diffs = [b - v for b, v in zip(values[best], values[i], strict=True)]
        out.append(
            Alternative(
                moves[i],
                means[i],
                means[best] - means[i],
                _error(diffs),
                choice.line(i, random.Random(f"{settings.seed}/review/{key}/line")),
                wins,
            )
        )
    out.sort(key=lambda a: (-a.expected, a.move != moves[choice.played]))
    return tuple(out), played * n


def _error(diffs: Sequence[float]) -> float:
    """The standard error of the mean of ``diffs``."""
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    variance = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return float((variance / n) ** 0.5)
