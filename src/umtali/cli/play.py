"""``umtali play``: a game or session against the computer, or two people hot-seat, of
Umtali or (``--game gin``) of Gin Rummy.

The game itself (seats, turns, the computer's seeded decisions, hints, undo, recaps) is a
:class:`umtali.games.umtali.session.PlaySession`, what each seat has seen of it a
:class:`~umtali.games.umtali.session.SeatsSeen`, and the file it is kept in (locked while it is
played) a :class:`umtali.session.kept.KeptGame`. This module is its terminal: it draws
each screen from the mover's :class:`~umtali.games.umtali.view.PlayerView` (so it never shows a hidden
card), reads what is typed, and saves the game whatever way the program stops.
"""

from __future__ import annotations

import random
import shlex
import signal
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

from rich.text import Text

from umtali.cli.gin_party_play import PartyPlay
from umtali.cli.gin_play import GinGame, new_gin_session
from umtali.cli.prompting import TurnPrompt
from umtali.cli.render import (
    board,
    hand_line,
    hand_summary,
    score_sheets,
)
from umtali.cli.terminal import (
    QuitRequested,
    Stopped,
    Terminal,
    interrupts_deferred,
    printable,
    stop_signals_raised,
)
from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.session import DEFAULT_GIN_BOT, GinPlaySession, rules_named
from umtali.games.umtali.bots import BOTS, DEFAULT_BOT
from umtali.games.umtali.match import MatchKind
from umtali.games.umtali.moves import Move
from umtali.games.umtali.notation import VERBS
from umtali.games.umtali.rules import STANDARD, RuleSet
from umtali.games.umtali.session import PlaySession, Refused, SeatsSeen, rules_label, summarize_hand
from umtali.games.umtali.state import HandState
from umtali.kernel.english import possessive
from umtali.kernel.files import FileInUseError, SaveLock, SavePathError, check_save_path
from umtali.learn.reference import help_file
from umtali.session.kept import KeptGame, KeptSession, ResumeError

__all__ = ["PlayOptions", "run_play"]

UNKNOWN_WORD: Final = (
    "Type [bold]moves[/bold] to list the moves you may make, [bold]hint[/bold] for a"
    " suggestion, or [bold]help[/bold] for everything you can type."
)

YES: Final = frozenset({"y", "yes"})


@dataclass(frozen=True)
class PlayOptions:
    """What ``umtali play`` was asked for (``bot`` ``None``: not given, the default level)."""

    bot: str | None = None
    seed: int | None = None
    session: bool = False
    hotseat: bool = False
    save: str | None = None
    resume: str | None = None
    force: bool = False
    game: str | None = None
    """``"umtali"`` or ``"gin"``; ``None``: Umtali, or with ``--resume`` the record's game."""
    variant: str | None = None
    """With ``--game gin``: a preset of Gin Rummy (``"standard"`` when not given)."""
    players: int | None = None
    """With ``--game gin``: 3 or 4 for three- or four-hand; ``None``: two."""
    rules: RuleSet | None = None
    """Umtali's rules, a preset of :data:`umtali.games.umtali.rules.PRESETS`; ``None``: standard."""


class PlayError(Exception):
    """A play option or saved game that cannot be used."""


def _status_of(signum: int | None) -> int:
    """The exit status of a game stopped by signal ``signum`` (Ctrl-C is SIGINT), as
    shells report a program the signal ended: 128 + its number; 0 for ``quit`` or the
    end of input (``signum`` ``None``)."""
    return 0 if signum is None else 128 + signum


# -- the game on the screen --------------------------------------------------------------------


class Game(TurnPrompt[Move]):
    """A :class:`PlaySession` at a terminal, kept in a file (:class:`KeptGame`): its
    boards, what is new to each seat, and the hand-over in hot-seat (where a move may be
    taken back with the other player's leave); the prompts are
    :class:`~umtali.cli.prompting.TurnPrompt`'s."""

    session: PlaySession
    why_example = "play 8♦ off 8♥"

    def __init__(self, term: Terminal, kept: KeptGame) -> None:
        super().__init__(term, kept)
        assert isinstance(kept.session, PlaySession), "a game of Gin Rummy is a GinGame"
        self.session = kept.session
        self.match = kept.session.match
        self.seen = SeatsSeen(self.session)
        """What each seat has been shown: the whole board once a turn, new cards marked."""
        self.private_shown = False
        """Hot-seat: whether a player's hand has been shown since the screen was cleared."""

    def help_file(self) -> str:
        return help_file(self.match.rules.name)

    def show_hand_end(self) -> None:
        self.term.say(*hand_summary(summarize_hand(self.match.hands[-1], self.names())))
        self.term.say(*score_sheets(self.session.score_sheet(running=False), self.names()))

    def show_score(self) -> None:
        """``score``: the score sheet, with the points of the hand under way."""
        self.term.say(*score_sheets(self.session.score_sheet(running=True), self.names()))

    def refused(self, move: Move | str) -> None:
        if isinstance(move, str) and move.split()[0].lower() not in VERBS:
            self.term.say(UNKNOWN_WORD)

    def human_turn(self, seat: int) -> None:
        session = self.session
        if self.seen.hand_over_due(seat) and self._hand_over(seat):
            return  # the other player took his move back: his turn again
        hand = session.hand
        assert hand is not None
        view = session.view(seat)
        look = self.seen.look(seat)
        if look.whole:
            self._show_board(seat, hand, look.new)
        else:  # later in the same turn: only what changed (the move was just told)
            self.term.say(hand_line(view))
        if len(view.legal) <= 10:
            self.list_moves(view.legal)
        else:
            self.term.say(f"{len(view.legal)} legal moves: type [bold]moves[/bold] to list them.")
        self.read_moves(seat, view.legal)

    def _show_board(self, seat: int, hand: HandState, new: int) -> None:
        view = self.session.view(seat)
        name = self.names()[seat]
        self.term.blank()
        self.term.say(
            board(
                view,
                self.names(),
                heading=f"{self.hand_title(dealer=False)} · "
                + (f"turn {hand.turn}" if hand.turn else "the deal")
                + f" · {possessive(name)} move",
                game_so_far=self.session.game_so_far(),
                new=new,
            )
        )
        self.private_shown = True

    def _hand_over(self, seat: int) -> bool:
        """Hot-seat: hide the screen, wait for the next player, then tell him what the
        other player did since his last turn, as far as he was allowed to see it. Here
        the player who just moved may take his move back, if the next one agrees: then
        True (and the next player's turn has not begun)."""
        names = self.names()
        name, other = names[seat], 1 - seat
        if self.private_shown:  # (the opening screen stays until the first Enter)
            self.term.clear()
            self.private_shown = False
            self.term.say(Text(self.hand_title(), style="bold"))
        if self.session.undo_refusal(other, consent=True) is None:
            self.term.say(
                f"({names[other]} may type [bold]undo[/bold] here to take back"
                f" the last move, if {name} agrees.)"
            )
        prompt = f"Hand the terminal to {name}, then press Enter"
        while self.pause(prompt, undo=partial(self.session.undo_refusal, other, consent=True)):
            answer = self.term.ask(
                f"{name}: may {names[other]} take the last move back? (yes/no)> "
            )
            if answer.lower() in YES:
                reply = self.session.undo(other, consent=True)
                self.term.say(printable(reply.sentence), style=None)
                if not isinstance(reply, Refused):
                    # Back to the player whose turn it is again, his whole board unseen.
                    self.pause(f"Hand the terminal back to {names[other]}, then press Enter")
                    self.term.clear()
                    self.seen.forget_turn()
                    return True
            else:
                self.term.say("The move stands.")
        self.term.clear()
        self.tell_recap(seat)
        return False


# -- starting, resuming, and stopping -----------------------------------------------------------


def _new_session(options: PlayOptions) -> KeptSession:
    """The new game ``options`` ask for: of Umtali, or of Gin Rummy with ``--game gin``."""
    if options.hotseat and options.bot is not None:
        raise PlayError(
            "--hotseat is two people at one terminal, with no computer to play, so --bot"
            " cannot be used with it; leave it out"
        )
    players = options.players or 2
    if players != 2 and options.game != "gin":
        raise PlayError(
            f"--players {players} is three- or four-hand Gin Rummy: add --game gin (Umtali"
            " is a game for two)"
        )
    seed = options.seed if options.seed is not None else _new_seed()
    humans = set(range(players)) if options.hotseat else {0}
    if options.game == "gin":
        if options.session:
            raise PlayError(
                "--session cannot be used with --game gin: a game of Gin Rummy already"
                " runs over many hands to its target score (100, or 150 in Oklahoma), and"
                " it has no match of several games; leave --session out"
            )
        try:
            if players != 2:
                return GinPartySession.new(
                    players=players,
                    seed=seed,
                    humans=humans,
                    bot=options.bot or DEFAULT_GIN_BOT,
                    rules=rules_named(options.variant or "standard"),
                    guard=interrupts_deferred,
                )
            return new_gin_session(
                seed, humans, options.bot, options.variant, guard=interrupts_deferred
            )
        except ValueError as e:
            raise PlayError(str(e)) from None
    level = options.bot or DEFAULT_BOT
    if level not in BOTS:
        raise PlayError(f"unknown bot level {level!r}; choose from {', '.join(BOTS)}")
    # The seed stays in the record (a resumed game deals on from it) but is never shown
    # unless the player gave it: it would reveal the deal (R11).
    kind: MatchKind = "session" if options.session else "game"
    return PlaySession.new(
        seed=seed,
        humans=humans,
        bot=level,
        kind=kind,
        rules=options.rules or STANDARD,
        guard=interrupts_deferred,
    )


def _rematch(session: KeptSession) -> KeptSession:
    """Another game with the same seats, level and rules, dealt from a new seed."""
    return session.rematch(_new_seed())


Screen = Game | GinGame | PartyPlay
"""The terminal's screen of a game, whichever game it is."""


def _screen(term: Terminal, kept: KeptGame) -> Screen:
    """The terminal's screen of the game ``kept`` holds, whichever game it is."""
    if isinstance(kept.session, GinPlaySession):
        return GinGame(term, kept)
    if isinstance(kept.session, GinPartySession):
        return PartyPlay(term, kept)
    return Game(term, kept)


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
    while True:
        try:
            with stop_signals_raised():
                status = _play_until_stopped(game, partial(_introduce, game, options))
        finally:
            game.kept.close()
        if status != 0 or not game.session.is_over() or not _play_again(term):
            return status
        # The same seats and level, a new deal, and no file until the game is saved.
        options = PlayOptions()
        game = _screen(term, KeptGame(_rematch(game.session), None))


def _play_again(term: Terminal) -> bool:
    """Ask whether to play another game; anything but yes (or stopping) is no."""
    try:
        with stop_signals_raised():
            term.blank()
            return term.ask("Play again? (yes/no)> ").lower() in YES
    except (QuitRequested, Stopped):
        return False


def _introduce(game: Screen, options: PlayOptions) -> None:
    """The first line: what is played, or which saved game is resumed."""
    if isinstance(game, GinGame | PartyPlay):
        game.introduce(options.seed, options.resume)
        return
    match = game.match
    if options.resume:
        resumed = printable(options.resume)
        game.term.say(Text(f"Resuming the {match.kind} saved in {resumed}."), whole=True)
        return
    seed = f" Seed {options.seed}." if options.seed is not None else ""
    names = game.names()
    label = rules_label(match.rules)
    rules = "" if label is None else f" ({label})"
    game.term.say(
        Text.assemble(
            f"A {match.kind} of Umtali{rules}: {names[0]} against {names[1]}.{seed} Type ",
            ("help", "bold"),
            " at any prompt.",
        )
    )


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
