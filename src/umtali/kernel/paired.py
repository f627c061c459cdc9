"""Paired comparisons, as the games' searches make them.

A search plays its policy's choice and each runner-up out on the same deals, so that the
luck of a deal cancels: what it keeps of a runner-up is the runner-up's margin *minus*
the choice's on each deal. :class:`PairedMargins` gathers those differences and says
when one is settled: clearly below a line (the runner-up is worse, or plays out the
same) or clearly above it, by a number of standard errors.

>>> runner_up = PairedMargins()
>>> for difference in (4.0, 6.0, 5.0, 5.0):
...     runner_up.add(difference)
>>> runner_up.mean_and_error()
(5.0, 0.408...)
>>> runner_up.clearly_above(0.0, sigmas=3.0), runner_up.clearly_below(0.0, sigmas=2.0)
(True, False)
>>> same = PairedMargins()
>>> same.add(0.0); same.add(0.0)
>>> same.clearly_below(0.0, sigmas=2.0)
True
"""

from __future__ import annotations

__all__ = ["PairedMargins"]


class PairedMargins:
    """The differences a runner-up scored over the policy's choice, deal by deal.

    Attributes:
        deals: how many deals it was played on.
        total: the sum of its differences.
        squares: the sum of their squares.
    """

    __slots__ = ("deals", "squares", "total")

    def __init__(self) -> None:
        self.deals = 0
        self.total = 0.0
        self.squares = 0.0

    def __repr__(self) -> str:
        return f"<PairedMargins {self.deals} deals, total {self.total:+g}>"

    def add(self, difference: float) -> None:
        """One more deal: the runner-up's margin minus the choice's on it."""
        self.deals += 1
        self.total += difference
        self.squares += difference * difference

    def mean_and_error(self) -> tuple[float, float]:
        """The mean difference and its standard error; two deals at least.

        :class:`ValueError` with fewer, when no error can be told."""
        n = self.deals
        if n < 2:
            raise ValueError(f"a standard error needs two deals or more, not {n}")
        mean = self.total / n
        variance = max(0.0, self.squares / n - mean * mean) * n / (n - 1)
        return mean, (variance / n) ** 0.5

    def clearly_below(self, line: float, sigmas: float) -> bool:
        """Whether the mean lies ``sigmas`` standard errors or more at or below ``line``:
        a runner-up that cannot beat the choice by more than ``line`` (or that plays out
        exactly as the choice does, with no error at all)."""
        mean, error = self.mean_and_error()
        return mean + sigmas * error <= line

    def clearly_above(self, line: float, sigmas: float) -> bool:
        """Whether the mean lies more than ``sigmas`` standard errors above ``line``."""
        mean, error = self.mean_and_error()
        return mean - sigmas * error > line
