"""``umtali review FILE``: a player's finished hands in a record, each decision weighed
by playouts from what he could see (:mod:`umtali.learn.review`), whichever game it is of
(the game's ``review`` hook does the weighing)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from umtali import games
from umtali.cli.terminal import printable
from umtali.cli.usage import UsageError
from umtali.games.api import GameSpec, HookError
from umtali.kernel.record import RecordError, load_any_file
from umtali.learn.review import INACCURACY, MISTAKE, HandReview, Reviewer, ReviewError, Settings

__all__ = ["cmd_review", "review_lines"]

_MARKS = {"mistake": "??", "inaccuracy": "?!", "": "  "}


def cmd_review(args: argparse.Namespace, out: TextIO) -> int:
    """``umtali review FILE``: every finished hand (or ``--hand``) reviewed for one player."""
    try:
        match = load_any_file(args.file)
    except RecordError as e:
        raise UsageError(f"cannot review {args.file}: {e}") from None
    spec = games.spec_of(match)
    try:
        reviewer: Reviewer = spec.hook("review")
    except HookError:
        raise UsageError(f"{spec.title} has no game review yet") from None
    try:
        hands = reviewer.hands(match)
    except ReviewError as e:
        raise UsageError(str(e)) from None
    if not hands:
        raise UsageError(f"{args.file} holds no finished hand to review")
    if args.hand is not None:
        hands = tuple(h for h in hands if h[0] == args.hand - 1)
        if not hands:
            raise UsageError(f"hand {args.hand} of {args.file} is not a finished hand")
    seat = _seat(args, _persons(spec, match), match.players)
    try:
        settings = Settings(playouts=args.playouts, seed=args.seed, seconds=args.seconds)
        reviews = [
            reviewer.review(match, index, seat, settings) for index, seats in hands if seat in seats
        ]
    except ReviewError as e:
        raise UsageError(str(e)) from None
    if not reviews:
        raise UsageError(f"{printable(match.players[seat])} played none of these hands")
    for line in review_lines(reviews, spec.title):
        print(line, file=out)
    return 0


def _persons(spec: GameSpec, match: Any) -> frozenset[int]:
    """The seats people played, as the record's ``meta`` says (none when it does not)."""
    try:
        return spec.maker().persons(match)
    except ValueError:  # a record not kept by 'umtali play' names no seats
        return frozenset()


def _seat(args: argparse.Namespace, persons: Iterable[int], players: Any) -> int:
    """The seat reviewed: ``--player`` (its number), else the first person's."""
    if args.player is not None:
        if not 1 <= args.player <= len(players):
            raise UsageError(f"the record has {len(players)} players: --player 1 to {len(players)}")
        return int(args.player) - 1
    return min(persons, default=0)


def review_lines(reviews: list[HandReview], title: str) -> Iterator[str]:
    """The reviews as the terminal prints them."""
    first = reviews[0]
    name = printable(first.player)
    yield (
        f"Review of {name}'s play ({title}): {first.settings.playouts} playouts a decision,"
        f" seed {first.settings.seed}."
    )
    yield (
        "Points: your score minus your opponent's at the hand's end, on average, had the"
        " hand gone on as the computer plays."
    )
    yield f"?! an inaccuracy ({INACCURACY:g} points or more lost), ?? a mistake ({MISTAKE:g} or more)."
    for review in reviews:
        yield ""
        yield f"== Hand {review.hand_index + 1} == {printable(review.result)}"
        for d in review.decisions:
            yield f"Turn {d.turn}. {d.where}"
            for alt in d.alternatives:
                you = "you " if alt.move == d.played else "    "
                mark = _MARKS[d.mark] if alt.move == d.played else "  "
                less = f"  ({alt.loss:.1f} less)" if alt.loss >= 0.05 else "  (best)"
                won = "" if alt.wins is None else f"  game won {alt.wins:.0%}"
                yield f"  {mark} {you}{alt.move:<34} {alt.expected:+7.1f}{less}{won}"
            if d.mark:
                lost = f"{d.loss:.1f} points lost"
                yield f"  {d.mark.capitalize()}: {lost}. Show me: {' / '.join(d.best.line)}"
        marked = sum(1 for d in review.decisions if d.mark)
        yield (
            f"Accuracy {review.accuracy:.0f}% over {len(review.decisions)} decisions;"
            f" {marked} marked, {review.lost:.1f} points lost in them."
        )
