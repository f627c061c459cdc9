"""``umtali play``: a game of any registered game against the computer, or people
hot-seat, saved whatever way the program stops.

The game is a session its spec makes (:meth:`umtali.games.api.GameSpec.maker`), kept in a
file (locked while it is played) as a :class:`umtali.session.kept.KeptGame`, and shown on
the screen its terminal hook gives (:class:`umtali.cli.hook.GameTerminal`). This module
checks the options against the spec, starts or resumes the game, plays it until it ends
or is stopped, saves it on the way out, and offers another game; it names no game.
"""

from __future__ import annotations

import argparse
import random
import shlex
import signal
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import partial
from pathlib import Path
from typing import Final, TextIO

from umtali import games
from umtali.cli.choosing import (
    game_named,
    length_chosen,
    level_chosen,
    seats_chosen,
    variant_chosen,
)
from umtali.cli.hook import NoScreenError, Screen, terminal_of
from umtali.cli.terminal import (
    QuitRequested,
    Stopped,
    Terminal,
    interrupts_deferred,
    stop_signals_raised,
)
from umtali.cli.usage import UsageError
from umtali.kernel.files import FileInUseError, SaveLock, SavePathError, check_save_path
from umtali.session.kept import KeptGame, KeptSession, ResumeError

__all__ = ["PlayError", "PlayOptions", "cmd_play", "run_play"]

YES: Final = frozenset({"y", "yes"})


@dataclass(frozen=True)
class PlayOptions:
    """What ``umtali play`` was asked for; ``None`` (or false): not given."""

    bot: str | None = None
    """The computer's level, one of the game's (its default when not given)."""
    seed: int | None = None
    session: bool = False
    """A match of several games, where the game has one (the length ``"session"``)."""
    hotseat: bool = False
    save: str | None = None
    resume: str | None = None
    force: bool = False
    game: str | None = None
    """A registered game's name; ``None``: the default game, or with ``--resume`` the
    record's game."""
    variant: str | None = None
    """One of the game's variants (its first when not given)."""
    players: int | None = None
    """How many play (the game's usual number when not given)."""
    rules: str | None = None
    """``--rules``, the other name of ``--variant``."""


class PlayError(UsageError):
    """A play option or saved game that cannot be used."""


def _status_of(signum: int | None) -> int:
    """The exit status of a game stopped by signal ``signum`` (Ctrl-C is SIGINT), as
    shells report a program the signal ended: 128 + its number; 0 for ``quit`` or the
    end of input (``signum`` ``None``)."""
    return 0 if signum is None else 128 + signum


# -- starting, resuming, and stopping -----------------------------------------------------------


def _new_session(options: PlayOptions) -> KeptSession:
    """The new game ``options`` ask for, each option checked against the game's spec."""
    if options.hotseat and options.bot is not None:
        raise PlayError(
            "--hotseat puts a person in every seat, with no computer to play, so --bot"
            " cannot be used with it; leave it out"
        )
    spec = game_named(options.game)
    players = seats_chosen(spec, options.players)
    variant = variant_chosen(spec, options.variant, options.rules)
    level = level_chosen(spec, options.bot)
    length = length_chosen(spec, "session" if options.session else None, "--session")
    # The seed stays in the record (a resumed game deals on from it) but is never shown
    # unless the player gave it: it would reveal the deal.
    seed = options.seed if options.seed is not None else _new_seed()
    try:
        return spec.maker().new(
            seed=seed,
            humans=range(players) if options.hotseat else (0,),
            seats=players,
            level=level,
            variant=variant,
            length=length,
            guard=interrupts_deferred,
        )
    except ValueError as e:
        raise PlayError(str(e)) from None


def _screen(term: Terminal, kept: KeptGame) -> Screen:
    """The screen of the game ``kept`` holds, whichever game it is: its terminal's."""
    try:
        return terminal_of(games.spec_of(kept.session.match)).screen(term, kept)
    except NoScreenError as e:
        kept.close()
        raise PlayError(str(e)) from None


def _new_seed() -> int:
    return random.SystemRandom().randrange(10**9)


def _refuse_options_with_resume(options: PlayOptions) -> None:
    given = [
        flag
        for flag, value in (
            ("--bot", options.bot is not None),
            ("--seed", options.seed is not None),
            ("--session", options.session),
            ("--hotseat", options.hotseat),
            ("--game", options.game is not None),
            ("--variant", options.variant is not None),
            ("--players", options.players is not None),
            ("--rules", options.rules is not None),
        )
        if value
    ]
    if given:
        raise PlayError(
            f"--resume continues the saved game as it was: its game, its rules, its deal, its"
            f" seats and the computer's level come from the record, so {' and '.join(given)}"
            f" cannot be used with it; leave {'it' if len(given) == 1 else 'them'} out"
        )


def _lock(path: Path) -> SaveLock:
    """The lock on the file the game will be kept in, taken before the game begins."""
    try:
        return SaveLock.acquire(path)
    except FileInUseError as e:
        process = f" (process {e.holder})" if e.holder else ""
        raise PlayError(
            f"{path} is being played in another umtali play{process}; finish or quit that"
            " game first, or keep this one in another file with --save OTHER_FILE"
            f" (resuming {shlex.quote(str(path))} here too would make the two overwrite"
            " each other)"
        ) from None
    except SavePathError as e:
        raise PlayError(str(e)) from None


_OVERWRITE_NOTE = (
    "--save would write over it. To continue the game saved in it, use: umtali play"
    " --resume {quoted}; to start a new game, give --save another file name (or add"
    " --force to replace it)"
)


def _check_and_lock(save: Path, options: PlayOptions) -> SaveLock:
    """Check that the game can be kept in ``save`` (:class:`SavePathError` says why
    not), then lock it."""
    check_save_path(
        save,
        resuming=None if options.resume is None else Path(options.resume),
        force=options.force,
        what="the game",
        overwrite_note=_OVERWRITE_NOTE.format(quoted=shlex.quote(str(save))),
    )
    return _lock(save)


def _resume(options: PlayOptions, term: Terminal) -> Screen:
    """The saved game of ``--resume``, checked whole, and where it will be kept (locked:
    the lock is taken before the file is read, so that no other game can save into it
    between the reading and the playing)."""
    assert options.resume is not None
    _refuse_options_with_resume(options)
    try:
        lock = _check_and_lock(Path(options.save or options.resume), options)
    except SavePathError as e:
        if options.save:
            raise PlayError(str(e)) from None
        other = f"umtali play --resume {shlex.quote(options.resume)} --save OTHER_FILE"
        raise PlayError(
            f"{e}, so the game cannot be played on in {options.resume}, where it is saved"
            f" after every hand. To play it on, keep it in another file: {other}"
        ) from None
    try:
        kept = KeptGame.resume(options.resume, lock, guard=interrupts_deferred)
    except ResumeError as e:
        raise PlayError(str(e)) from None
    return _screen(term, kept)


def _start(options: PlayOptions, term: Terminal) -> Screen:
    """A new game, its ``--save`` file checked and locked before the deal."""
    session = _new_session(options)
    save = Path(options.save) if options.save else None
    lock = None
    if save is not None:
        try:
            lock = _check_and_lock(save, options)
        except SavePathError as e:
            raise PlayError(str(e)) from None
    return _screen(term, KeptGame(session, save, lock))


def run_play(term: Terminal, options: PlayOptions) -> int:
    """Play until the match ends or the player stops (then the game is saved), and
    again while the player wants another game. The exit status: 0, 130 after Ctrl-C,
    128 + N after signal N, 1 when the game could not be saved or shown."""
    game = _resume(options, term) if options.resume else _start(options, term)
    seed, resumed = options.seed, options.resume
    while True:
        try:
            with stop_signals_raised():
                status = _play_until_stopped(game, partial(game.introduce, seed, resumed))
        finally:
            game.kept.close()
        session = game.kept.session
        if status != 0 or not session.is_over() or not _play_again(term):
            return status
        # The same seats, level and rules, a new deal, and no file until it is saved.
        seed, resumed = None, None
        game = _screen(term, KeptGame(session.rematch(_new_seed()), None))


def _play_again(term: Terminal) -> bool:
    """Ask whether to play another game; anything but yes (or stopping) is no."""
    try:
        with stop_signals_raised():
            term.blank()
            return term.ask("Play again? (yes/no)> ").lower() in YES
    except (QuitRequested, Stopped):
        return False


def _play_until_stopped(game: Screen, introduce: Callable[[], None]) -> int:
    """Say what is played (``introduce``), then play ``game`` to its end, or save it on
    ``quit``, the end of input, Ctrl-C, SIGTERM, SIGHUP or a lost output. A signal that
    comes while the game is stopping, before the save holds signals back, stops it
    again: the game is saved all the same. The exit status (see :func:`run_play`)."""
    why: str | None = None
    signum: int | None = None
    stopping = False

    def play() -> int:
        introduce()
        return game.run()

    while True:
        try:
            if stopping:
                return game.stop(why, _status_of(signum))
            return play()
        except QuitRequested as e:
            # Ctrl-C at a prompt reaches us as a request to quit, marked as such.
            if e.interrupted:
                signum = signal.SIGINT
        except KeyboardInterrupt:
            why = "Interrupted (Ctrl-C)"
            signum = signal.SIGINT
        except Stopped as e:
            why = e.args[0]
            signum = e.signum if signum is None else signum
        stopping = True


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    """``umtali play``: the options (each of :class:`PlayOptions` is one), the game
    played on ``out``."""
    options = PlayOptions(
        **{option.name: getattr(args, option.name) for option in fields(PlayOptions)}
    )
    return run_play(Terminal(out), options)
