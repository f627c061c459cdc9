"""The arena's figures: one game's record, told from bot A's and bot B's side, and the
figures of a run worked out from its records alone (so they are reproducible).

A game has one seat for bot A and every other for bot B (:mod:`umtali.sim.arena`): with
two seats, one each. What is A's is his seat's; what is B's is the best of the seats
that play against A (not his partners'), so that a figure of A's is set against the
strongest of the field, and with two seats simply against the other player.

>>> record = GameRecord(0, 1, 0, ((30, 12), (4, 40)), ("B", "A"), ("out", "out"), (20, 21))
>>> record.totals, record.winner, record.a_score
((34, 52), 'B', 0.0)
>>> summarize([record]).hand_rate
0.5
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from umtali.sim.hooks import Book
from umtali.sim.stats import Z95, mean_interval, quantile, sample_sd, wilson_interval

__all__ = ["ArenaError", "GameRecord", "HighHand", "Label", "PointStats", "Summary", "summarize"]

Label = Literal["A", "B"]
"""Which bot: A or B."""


class ArenaError(Exception):
    """An arena that cannot run, a bot that failed (raised, or chose an illegal move),
    or records that give no figures."""


@dataclass(frozen=True)
class GameRecord:
    """One game of a duplicate deal, told from bot A's and bot B's side (not by seat).

    Attributes:
        deal: the deal number, 0-based.
        a_seat: bot A's seat: 0 (Player 1), 1 (Player 2), ...; B has every other.
        first_dealer: the seat that dealt the first hand (the same in every game of a
            deal).
        hands: (A's score, B's score) of each hand A played: B's is the best score of
            the players he met there (with two seats, the other player's).
        dealers: who dealt each of those hands, "A" or "B".
        ends: how each of those hands ended, in the game's words (Umtali's
            terminations, such as ``out``).
        moves: (A's decisions, B's decisions) in the game.
        bonuses: (A's, B's) points of the final scores beside those of ``hands``: a
            game's bonuses (none in Umtali); with more than two seats also what a
            player scored in the hands he sat out.
        seats: how many seats the game had.
    """

    deal: int
    a_seat: int
    first_dealer: int
    hands: tuple[tuple[int, int], ...]
    dealers: tuple[str, ...]
    ends: tuple[str, ...]
    moves: tuple[int, int]
    bonuses: tuple[int, int] = (0, 0)
    seats: int = 2

    @property
    def totals(self) -> tuple[int, int]:
        """The game's final scores, A's and B's: the hands' points and any bonuses."""
        return (
            sum(a for a, _ in self.hands) + self.bonuses[0],
            sum(b for _, b in self.hands) + self.bonuses[1],
        )

    @property
    def winner(self) -> Label | None:
        """The winner, "A" or "B", or ``None`` for a drawn game."""
        a, b = self.totals
        return None if a == b else ("A" if a > b else "B")

    @property
    def a_score(self) -> float:
        """A's game score: 1 for a win, ½ for a draw, 0 for a loss."""
        return {"A": 1.0, None: 0.5, "B": 0.0}[self.winner]

    def to_dict(self) -> dict[str, Any]:
        data = {
            "deal": self.deal,
            "a_seat": self.a_seat,
            "first_dealer": self.first_dealer,
            "hands": [list(h) for h in self.hands],
            "dealers": list(self.dealers),
            "ends": list(self.ends),
            "moves": list(self.moves),
            "totals": list(self.totals),
            "winner": self.winner,
        }
        if self.bonuses != (0, 0):  # Umtali's records stay as they were
            data["bonuses"] = list(self.bonuses)
        if self.seats != 2:  # and so do those of every game of two
            data["seats"] = self.seats
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        bonuses = data.get("bonuses", (0, 0))
        return cls(
            deal=int(data["deal"]),
            a_seat=int(data["a_seat"]),
            first_dealer=int(data["first_dealer"]),
            hands=tuple((int(a), int(b)) for a, b in data["hands"]),
            dealers=tuple(str(d) for d in data["dealers"]),
            ends=tuple(str(e) for e in data["ends"]),
            moves=(int(data["moves"][0]), int(data["moves"][1])),
            bonuses=(int(bonuses[0]), int(bonuses[1])),
            seats=int(data.get("seats", 2)),
        )


@dataclass(frozen=True)
class PointStats:
    """One bot's points per hand."""

    hands: int
    mean: float
    sd: float
    minimum: int
    maximum: int
    quantiles: dict[str, float]
    histogram: dict[int, int]

    @classmethod
    def of(cls, points: Sequence[int]) -> PointStats:
        return cls(
            hands=len(points),
            mean=math.fsum(points) / len(points),
            sd=sample_sd(points),
            minimum=min(points),
            maximum=max(points),
            quantiles={
                f"p{round(100 * q)}": quantile(points, q) for q in (0.1, 0.25, 0.5, 0.75, 0.9)
            },
            histogram=dict(sorted(Counter(points).items())),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "mean": round(self.mean, 4),
            "sd": round(self.sd, 4),
            "min": self.minimum,
            "max": self.maximum,
            "quantiles": {k: round(v, 4) for k, v in self.quantiles.items()},
            "histogram": {str(k): v for k, v in self.histogram.items()},
        }


@dataclass(frozen=True)
class HighHand:
    """The highest hand score seen, and where."""

    points: int
    bot: Label
    deal: int
    a_seat: int
    hand: int  # the hand's number among A's hands of its game, from 1
    seats: int = 2

    def where(self, levels: dict[str, str]) -> str:
        """Which bot scored it, where: his seat, when only two play."""
        hand = f"hand {self.hand} of deal {self.deal}"
        if self.bot == "A" or self.seats == 2:
            seat = self.a_seat if self.bot == "A" else 1 - self.a_seat
            return f"{self.bot} {levels[self.bot]} as Player {seat + 1}, {hand}"
        return f"B {levels['B']} against A as Player {self.a_seat + 1}, {hand}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "bot": self.bot,
            "deal": self.deal,
            "a_seat": self.a_seat,
            "hand_number": self.hand,
        }


@dataclass(frozen=True)
class Summary:
    """The figures of a run, from its game records alone (so they are reproducible).

    Game and hand rates are bot A's: wins plus half the draws, over the games (hands).
    """

    deals: int
    games: int
    a_wins: int
    b_wins: int
    draws: int
    game_rate: float
    game_ci: tuple[float, float]
    a_wins_by_seat: tuple[int, ...]
    """A's wins as Player 1, as Player 2, ..."""
    b_wins_by_seat: tuple[int, ...]
    """With two seats, B's wins as Player 1, as Player 2; with more, B's wins when A
    was Player 1, Player 2, ..."""
    deal_outcomes: dict[str, int]  # A won every game of the deal / split / B won every one
    deal_rate: float
    deal_ci: tuple[float, float]
    margin: float  # A's points minus B's, per game, averaged over deals
    margin_ci: tuple[float, float]
    hands: int
    a_hand_wins: int
    b_hand_wins: int
    hand_draws: int
    hand_rate: float
    hand_ci: tuple[float, float]
    ends: dict[str, int]
    points_a: PointStats
    points_b: PointStats
    points_both: PointStats
    highest: HighHand
    book: Book | None = None
    """The published figures the run is set against, if the game has any."""

    @property
    def seats(self) -> int:
        """How many seats each game had."""
        return len(self.a_wins_by_seat)

    @property
    def book_mean_gap(self) -> float:
        """Mean points per hand of both bots, minus the book's average."""
        return self.points_both.mean - self._book().mean_points

    @property
    def book_highest_gap(self) -> int:
        """The highest hand seen, minus the book's highest."""
        return self.highest.points - self._book().highest_hand

    def _book(self) -> Book:
        if self.book is None:
            raise ArenaError("this run is set against no book")
        return self.book

    def to_dict(self) -> dict[str, Any]:
        def r(x: float) -> float:
            return round(x, 6)

        by_seat = "B_wins_as_player" if self.seats == 2 else "B_wins_with_A_as_player"
        data: dict[str, Any] = {
            "games": {
                "deals": self.deals,
                "games": self.games,
                "A_wins": self.a_wins,
                "B_wins": self.b_wins,
                "draws": self.draws,
                "A_rate": r(self.game_rate),
                "A_rate_ci95": [r(x) for x in self.game_ci],
                "A_wins_as_player": list(self.a_wins_by_seat),
                by_seat: list(self.b_wins_by_seat),
            },
            "deals": {
                "A_won_both": self.deal_outcomes["A"],
                "split": self.deal_outcomes["split"],
                "B_won_both": self.deal_outcomes["B"],
                "A_rate": r(self.deal_rate),
                "A_rate_ci95": [r(x) for x in self.deal_ci],
                "A_margin_per_game": r(self.margin),
                "A_margin_ci95": [r(x) for x in self.margin_ci],
            },
            "hands": {
                "hands": self.hands,
                "A_wins": self.a_hand_wins,
                "B_wins": self.b_hand_wins,
                "draws": self.hand_draws,
                "A_rate": r(self.hand_rate),
                "A_rate_ci95": [r(x) for x in self.hand_ci],
                "ends": self.ends,
            },
            "points_per_hand": {
                "A": self.points_a.to_dict(),
                "B": self.points_b.to_dict(),
                "both": self.points_both.to_dict(),
            },
            "highest_hand": self.highest.to_dict(),
        }
        if self.book is not None:
            data["book"] = {
                "mean_points_per_hand": self.book.mean_points,
                "highest_hand": self.book.highest_hand,
                "mean_gap": r(self.book_mean_gap),
                "highest_gap": self.book_highest_gap,
            }
        return data


def summarize(records: Sequence[GameRecord], book: Book | None = None) -> Summary:
    """The figures of a set of game records (every game of each deal, in any order),
    set against ``book`` if given."""
    if not records:
        raise ArenaError("no games to summarise")
    seats = max(r.seats for r in records)
    games = len(records)
    winners = Counter(r.winner for r in records)
    a_wins, b_wins, draws = winners["A"], winners["B"], winners[None]
    game_score = a_wins + draws / 2

    by_deal: dict[int, list[GameRecord]] = {}
    for record in records:
        by_deal.setdefault(record.deal, []).append(record)
    deal_scores = [sum(r.a_score for r in rs) / len(rs) for rs in by_deal.values()]
    deal_outcomes = {"A": 0, "split": 0, "B": 0}
    for rs in by_deal.values():
        ws = {r.winner for r in rs}
        deal_outcomes["A" if ws == {"A"} else "B" if ws == {"B"} else "split"] += 1
    margins = [sum(r.totals[0] - r.totals[1] for r in rs) / len(rs) for rs in by_deal.values()]
    deal_rate, deal_lo, deal_hi = mean_interval(deal_scores, Z95)
    margin, margin_lo, margin_hi = mean_interval(margins, Z95)

    hand_scores = [h for r in records for h in r.hands]
    if not hand_scores:
        raise ArenaError("bot A played no hand in these games")
    a_hand = sum(1 for a, b in hand_scores if a > b)
    b_hand = sum(1 for a, b in hand_scores if b > a)
    hand_draws = len(hand_scores) - a_hand - b_hand
    hand_score = a_hand + hand_draws / 2

    highest: HighHand | None = None
    for record in records:
        for index, (a, b) in enumerate(record.hands, start=1):
            pair: tuple[tuple[Label, int], ...] = (("A", a), ("B", b))
            for bot, points in pair:
                if highest is None or points > highest.points:
                    highest = HighHand(points, bot, record.deal, record.a_seat, index, seats)
    assert highest is not None

    def wins(label: Label, seat_of_a: int) -> int:
        return sum(1 for r in records if r.a_seat == seat_of_a and r.winner == label)

    # With two seats B's seat is the one A does not hold; with more, B holds many.
    b_seats = (1, 0) if seats == 2 else range(seats)
    return Summary(
        deals=len(by_deal),
        games=games,
        a_wins=a_wins,
        b_wins=b_wins,
        draws=draws,
        game_rate=game_score / games,
        game_ci=wilson_interval(game_score, games),
        a_wins_by_seat=tuple(wins("A", seat) for seat in range(seats)),
        b_wins_by_seat=tuple(wins("B", seat) for seat in b_seats),
        deal_outcomes=deal_outcomes,
        deal_rate=deal_rate,
        deal_ci=(max(0.0, deal_lo), min(1.0, deal_hi)),
        margin=margin,
        margin_ci=(margin_lo, margin_hi),
        hands=len(hand_scores),
        a_hand_wins=a_hand,
        b_hand_wins=b_hand,
        hand_draws=hand_draws,
        hand_rate=hand_score / len(hand_scores),
        hand_ci=wilson_interval(hand_score, len(hand_scores)),
        ends=dict(sorted(Counter(e for r in records for e in r.ends).items())),
        points_a=PointStats.of([a for a, _ in hand_scores]),
        points_b=PointStats.of([b for _, b in hand_scores]),
        points_both=PointStats.of([p for h in hand_scores for p in h]),
        highest=highest,
        book=book,
    )
