"""``umtali replay FILE`` and ``umtali demo``: a record of any game told turn by turn,
every card shown.

The record is told in the one vocabulary of replays (:func:`umtali.replaying.events`);
this module prints each event, and asks the game's terminal
(:class:`umtali.cli.hook.GameTerminal`) to draw what only the game knows: a board, and a
hand's end where the game sums it up.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

from umtali import games, replaying
from umtali.cli.choosing import game_named, variant_chosen
from umtali.cli.hook import GameTerminal, NoScreenError, terminal_of
from umtali.cli.terminal import QUIT_WORDS, QuitRequested, Terminal, printable
from umtali.cli.usage import UsageError
from umtali.games import events
from umtali.games.api import GameSpec, Session
from umtali.kernel.files import SavePathError, check_save_path
from umtali.kernel.players import player_name
from umtali.kernel.record import RecordError, load_any_file, save_file

__all__ = ["cmd_demo", "cmd_replay", "print_events"]


def print_events(
    replay: Iterable[events.Event],
    screen: GameTerminal,
    out: TextIO,
    pause: Callable[[], bool] | None = None,
) -> bool:
    """Print a replay's events, the boards and hands' ends drawn by the game's
    ``screen``. ``pause`` is called after each turn, and after a hand that others
    follow; when it returns False the replay stops (and this returns False)."""
    names: Sequence[str] | None = None  # the players at the hand's seats, if not by seat
    for event in replay:
        if isinstance(event, events.HandBegins):
            print(f"\n== {event.title} ==", file=out)
            names = event.names
        elif isinstance(event, events.Heading):
            print(event.text, file=out)
        elif isinstance(event, events.TurnBegins):
            print(event.title, file=out)
        elif isinstance(event, events.Moved):
            print(f"    {event.sentence}", file=out)
        elif isinstance(event, events.TurnEnds):
            print(screen.board(event.board, names), file=out)
            if pause is not None and not pause():
                return False
        elif isinstance(event, events.HandEnds):
            print(screen.board(event.board, names), file=out)
            if event.summary is None or screen.summary is None:
                print(f"\n{event.result}", file=out)
            else:
                print("", *screen.summary(event.summary), sep="\n", file=out)
            if event.more and pause is not None and not pause():
                return False
        elif isinstance(event, events.HandStops):
            print("  (the hand is unfinished)", file=out)
            print(screen.board(event.board, names), file=out)
        elif isinstance(event, events.Totals | events.GameEnds):
            print(f"\n  {event.text}", file=out)
        else:
            assert isinstance(event, events.MatchEnds)
            print(f"\n{event.text}", file=out)
    return True


def _stepper(out: TextIO) -> Callable[[], bool]:
    """A pause between turns: Enter goes on, q stops."""
    term = Terminal(out)

    def pause() -> bool:
        while True:
            try:
                answer = term.ask("[Enter] next turn, q to stop> ").lower()
            except QuitRequested:
                return False
            if answer in ("", "n", "next"):
                return True
            if answer in QUIT_WORDS or answer == "stop":
                return False
            term.say("Press Enter for the next turn, or type q to stop.")

    return pause


def _screen_of(spec: GameSpec) -> GameTerminal:
    try:
        return terminal_of(spec)
    except NoScreenError as e:
        raise UsageError(str(e)) from None


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    """``umtali replay FILE``: the record told turn by turn, whichever game it is of."""
    try:
        match = load_any_file(args.file)
    except RecordError as e:
        raise UsageError(f"cannot replay {args.file}: {e}") from None
    screen = _screen_of(games.spec_of(match))
    # A record's names are checked when it is read; shown escaped all the same, so that
    # no record can send control sequences to the terminal.
    names = tuple(printable(name) for name in match.players)
    pause = _stepper(out) if args.step else None
    if not print_events(replaying.events(match, names), screen, out, pause):
        print("Replay stopped.", file=out)
    return 0


def _one_deal(session: Session) -> None:
    """Deal, and let the computers play every hand of that deal to its end."""
    session.deal()
    while session.computer_to_move() is not None:
        session.bot_move()


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    """``umtali demo``: a hand between two of the game's weakest computers, told as
    ``umtali replay`` tells its record (saved first, with ``--save``)."""
    spec = game_named(args.game)
    variant = variant_chosen(spec, args.variant, args.rules)
    screen = _screen_of(spec)
    if args.save:
        try:
            check_save_path(
                Path(args.save),
                force=args.force,
                overwrite_note="saving would write over it; give another file name, or add"
                " --force to replace it",
            )
        except SavePathError as e:
            raise UsageError(str(e)) from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    seats = spec.seat_counts[0]
    level = spec.levels[0]
    # A match of one hand where the game has one, else the game's first hand of its
    # match. The record names the players as the screen does, so its replay reads the same.
    session = spec.maker().between_bots(
        [level] * seats,
        seed,
        variant=variant,
        length="hand" if "hand" in spec.lengths else None,
        players=[player_name(seat) for seat in range(seats)],
    )
    of_game = "" if spec.name == games.DEFAULT_GAME else f" of {spec.title}"
    rules = "" if variant in (None, spec.variants[0]) else f", {variant} rules"
    players = "two" if seats == 2 else str(seats)
    print(f"A demo hand{of_game} between {players} {level} players (seed {seed}{rules}).", file=out)
    _one_deal(session)
    if args.save:
        # Saved before it is shown: the hand is whole already, and the last line shown
        # is then who won it, even when --step is stopped half-way.
        try:
            save_file(session.match, args.save)
        except OSError as e:
            raise UsageError(f"cannot save the record to {args.save}: {e.strerror}") from None
        print(f"Record saved to {args.save} (replay it with: umtali replay {args.save})", file=out)
    pause = _stepper(out) if args.step else None
    if not print_events(replaying.events(session.match), screen, out, pause):
        print("Demo stopped.", file=out)
    return 0
