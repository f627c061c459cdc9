"""``umtali play``: a game or session against the computer, or two people hot-seat.

The screen is drawn from the mover's :class:`umtali.view.PlayerView`, so it never shows
a hidden card. Every decision of the computer is seeded from the game's seed and the
move number, so a saved game resumed later plays on exactly as it would have.
"""

from __future__ import annotations

import random
import shlex
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from umtali.bots import BOTS, DEFAULT_BOT, Bot, make_bot
from umtali.cli.render import board, cards_text, display_text, hand_text
from umtali.cli.saving import (
    SaveLock,
    SavePathError,
    check_save_path,
    os_reason,
    reserve_default_path,
)
from umtali.cli.terminal import (
    QUIT_WORDS,
    QuitRequested,
    Stopped,
    Terminal,
    interrupts_deferred,
    printable,
    stop_signals_raised,
)
from umtali.deck import seeded_deck
from umtali.describe import (
    YOU,
    describe_move,
    describe_seen,
    object_name,
    possessive,
    subject,
)
from umtali.learn.answers import whole_number
from umtali.learn.reference import play_help, rules_summary, typed_spans
from umtali.match import Match
from umtali.melds import ColumnKind, column_points
from umtali.moves import IllegalMoveError, InvalidMoveError, Move
from umtali.notation import parse_move
from umtali.reasons import explain_illegal
from umtali.record import RecordError, load_file, save_file
from umtali.state import HandState, Termination
from umtali.view import PlayerView

__all__ = ["PlayOptions", "run_play"]


def _markup(text: str) -> str:
    """Help text as rich markup: what is typed at the prompt in bold."""
    return "".join(
        f"[bold]{escape(span)}[/bold]" if typed else escape(span)
        for span, typed in typed_spans(text)
    )


RULES_TITLE = f"[bold]{escape(rules_summary().title)}[/bold]"
RULES_SUMMARY: Final = tuple((label or "•", _markup(text)) for label, text in rules_summary().rows)

HELP_TITLE = _markup(play_help().title)
HELP: Final = tuple((label, _markup(text)) for label, text in play_help().rows)


def _rows(title: str, rows: Sequence[tuple[str, str]]) -> Group:
    """A title and rows of (label, text): the text wraps beside its label."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for label, text in rows:
        grid.add_row(label, text)
    return Group(title, grid)


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


class PlayError(Exception):
    """A play option or saved game that cannot be used."""


def _decision_rng(seed: int, hand_index: int, move_index: int) -> random.Random:
    return random.Random(f"{seed}/{hand_index}/{move_index}")


# -- the seats a record keeps ------------------------------------------------------------


@dataclass(frozen=True)
class Seats:
    """What ``umtali play`` keeps in a record's ``meta`` to play it on: the seed the
    hands are dealt from, the seats at the keyboard, and the computer's level."""

    seed: int
    humans: frozenset[int]
    bot: str

    @classmethod
    def of(cls, meta: dict[str, Any]) -> Seats:
        """The seats in ``meta``, checked as strictly as a record's moves: whole numbers
        (not ``1e400``, ``3.7`` or ``true``), a list of seats 0 and 1, a known level."""
        if not {"seed", "humans", "bot"} <= meta.keys():
            raise PlayError(
                "the saved game lacks its seats or seed ('meta'): it was not saved by 'umtali play'"
            )
        seed, humans, bot = meta["seed"], meta["humans"], meta["bot"]
        if type(seed) is not int:
            raise PlayError(f"{_META} its 'seed' must be a whole number, not {seed!r}")
        if (
            not isinstance(humans, list)
            or not humans
            or any(type(seat) is not int or seat not in (0, 1) for seat in humans)
            or len(set(humans)) != len(humans)
        ):
            raise PlayError(
                f"{_META} its 'humans' must list the seats at the keyboard, [0], [1] or"
                f" [0, 1], not {humans!r}"
            )
        if not isinstance(bot, str) or bot not in BOTS:
            raise PlayError(f"{_META} its 'bot' must be one of {', '.join(BOTS)}, not {bot!r}")
        return cls(seed, frozenset(humans), bot)

    def meta(self) -> dict[str, Any]:
        return {"seed": self.seed, "humans": sorted(self.humans), "bot": self.bot}


_META = "the saved game's seats ('meta') are not as 'umtali play' wrote them:"


# -- the game ---------------------------------------------------------------------------------


class Game:
    """A match with its seats: who is human, which bot plays the other seat."""

    def __init__(
        self, term: Terminal, match: Match, save_path: Path | None, lock: SaveLock | None = None
    ) -> None:
        self.term = term
        self.match = match
        self.save_path = save_path
        self.lock = lock
        """The lock held on ``save_path`` while the game is played (see :meth:`close`)."""
        seats = Seats.of(match.meta)
        self.seed = seats.seed
        self.humans = seats.humans
        self.hotseat = len(self.humans) == 2
        # Reproducible: the computer's choices depend on the deal and the seed alone
        # (not on the machine's speed), so a seeded or resumed game plays the same.
        self.bot: Bot | None = None if self.hotseat else make_bot(seats.bot, reproducible=True)
        # Hints come from the default level, whoever the opponent is.
        self.hint_bot = make_bot(DEFAULT_BOT, reproducible=True)
        self.last_human: int | None = None
        """Who was last at the keyboard in this hand (hot-seat: a change means a hand-over)."""

    # -- the loop ----------------------------------------------------------------------
    def run(self) -> int:
        match = self.match
        if match.current is not None:  # resumed in the middle of a hand
            self.term.blank()
            self.term.say(Text(self._hand_title(match.current), style="bold"))
            if not self.hotseat:  # (hot-seat: the hand-over before the first turn tells it)
                self._recap(next(iter(self.humans)))
        while not match.is_over():
            hand = match.current or self._deal()
            self._play_hand(hand)
            # Saved before anything about the hand is printed: if printing fails, the
            # hand is kept all the same.
            self._autosave()
            self._hand_summary(hand)
            if not match.is_over():
                self._pause("Press Enter for the next hand")
        self._final_summary()
        return 0

    def _hand_index(self) -> int:
        """The index of the hand being played in the match."""
        return len(self.match.hands) - 1

    def _hand_title(self, hand: HandState, dealer: bool = True) -> str:
        """ "Game 1, hand 2 of 4", and who deals."""
        per = self.match.rules.hands_per_game
        index = next(i for i, h in enumerate(self.match.hands) if h is hand)
        game, number = divmod(index, per)
        if self.match.kind == "hand":
            title = "A single hand"
        else:
            title = f"Game {game + 1}, hand {number + 1} of {per}"
        if dealer:
            title += f" · {subject(self._names()[hand.dealer], 'deals')}"
        return title

    def _deal(self) -> HandState:
        index = len(self.match.hands)
        with interrupts_deferred():
            hand = self.match.new_hand(seeded_deck(f"{self.seed}/{index}"))
        self.last_human = None  # hot-seat: a hand-over before the new hand's first turn
        self.term.blank()
        self.term.say(Text(self._hand_title(hand), style="bold"))
        return hand

    def _play_hand(self, hand: HandState) -> None:
        while not hand.is_over():
            actor = hand.player
            if actor in self.humans:
                self._human_turn(hand, actor)
            else:
                self._computer_move(hand, actor)

    def _computer_move(self, hand: HandState, actor: int) -> None:
        assert self.bot is not None
        self.term.flush()  # the screen is up to date while the computer thinks
        rng = _decision_rng(self.seed, self._hand_index(), len(hand.history))
        move = self.bot.choose(self.match.view(actor), rng)
        with interrupts_deferred():
            hand.push(move)
        # Told as the player saw it: his view decides what he may know of it (R11).
        seen = PlayerView.of(hand, 1 - actor)
        sentence = describe_seen(seen, len(seen.history) - 1, self._names())
        self.term.say(Text("  " + sentence, style="cyan"))

    def _names(self) -> tuple[str, str]:
        """The players' names as they are shown: a record's names are checked when it is
        read, and shown with any control character escaped all the same."""
        first, second = self.match.players
        return printable(first), printable(second)

    def _names_for(self, reader: int) -> tuple[str, str]:
        """The players' names as ``reader`` is addressed: himself as "You"."""
        names = list(self._names())
        names[reader] = YOU
        return (names[0], names[1])

    def _game_so_far(self, view: PlayerView) -> tuple[int, int] | None:
        """The totals of the game's finished hands, as the core gives them; none on the
        first hand of a game, or when the match is a single hand."""
        first_hand = view.hands_left == self.match.rules.hands_per_game - 1
        if self.match.kind == "hand" or first_hand:
            return None
        return view.game_scores

    def _human_turn(self, hand: HandState, player: int) -> None:
        if self.hotseat and self.last_human != player:
            self._hand_over(hand, player)
        self.last_human = player
        view = self.match.view(player)
        name = self._names()[player]
        self.term.blank()
        self.term.say(
            board(
                view,
                self._names(),
                heading=f"{self._hand_title(hand, dealer=False)} · "
                + (f"turn {hand.turn}" if hand.turn else "the deal")
                + f" · {possessive(name)} move",
                game_so_far=self._game_so_far(view),
            )
        )
        legal = list(view.legal)
        if len(legal) <= 10:
            self._list_moves(legal)
        else:
            self.term.say(f"{len(legal)} legal moves: type [bold]moves[/bold] to list them.")
        while True:
            line = self.term.ask(f"{name}> ")
            if self._handle(line, hand, player, legal):
                return

    def _hand_over(self, hand: HandState, player: int) -> None:
        """Hot-seat: hide the screen, wait for the next player, then tell him what the
        other player did since his last turn, as far as he was allowed to see it."""
        name = self._names()[player]
        self.term.clear()
        self.term.say(Text(self._hand_title(hand), style="bold"))
        self._pause(f"Hand the terminal to {name}, then press Enter")
        self.term.clear()
        self._recap(player)

    def _recap(self, reader: int) -> None:
        """The other player's moves since ``reader``'s last move in this hand, told from
        ``reader``'s view: what he saw of them (R11, as the view decides)."""
        view = self.match.view(reader)
        mine = [i for i, (actor, _) in enumerate(view.history) if actor == reader]
        since = mine[-1] + 1 if mine else 0
        if since == len(view.history):
            return
        title = "Since your last turn" if mine else "So far in this hand"
        if self.hotseat:
            title += f" ({self._names()[reader]})"
        self.term.blank()
        self.term.say(Text.assemble((title, "bold"), ":"))
        names = self._names_for(reader)
        for index in range(since, len(view.history)):
            self.term.say(Text("  " + describe_seen(view, index, names), style="cyan"))

    def _list_moves(self, legal: Sequence[Move]) -> None:
        for i, move in enumerate(legal, start=1):
            self.term.say(f"  [bold]{i:>2}[/bold]  {move}", style=None)

    def _handle(self, line: str, hand: HandState, player: int, legal: list[Move]) -> bool:
        """Act on one line of input; True when a move was played."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not line:
            if len(legal) == 1:
                return self._push(hand, player, legal[0])
            self.term.say("Type a move, a number, or [bold]help[/bold].")
            return False
        number = whole_number(line)
        if number is not None:
            if 1 <= number <= len(legal):
                return self._push(hand, player, legal[number - 1])
            self.term.say(
                f"There is no move {number}: choose 1 to {len(legal)}"
                " ([bold]moves[/bold] lists them)."
            )
            return False
        if word in ("help", "?", "h"):
            self.term.say(_rows(HELP_TITLE, HELP))
        elif word in ("moves", "m"):
            self._list_moves(legal)
        elif word == "hint":
            self.term.say(f"Hint: {self._hint(player)}")
        elif word == "rules":
            self.term.say(_rows(RULES_TITLE, RULES_SUMMARY))
        elif word == "score":
            self._score_sheet()
        elif word == "save":
            self._save_and_play_on()
        elif word in QUIT_WORDS:
            raise QuitRequested
        elif word == "why":
            if not rest.strip():
                self.term.say("Write the move after 'why', e.g. [bold]why play 8♦ off 8♥[/bold].")
            elif (move := self._read_move(hand, player, rest)) is not None:
                self.term.say(f"{move} is allowed now.")
        elif (move := self._read_move(hand, player, line)) is not None:
            return self._push(hand, player, move)
        return False

    def _read_move(self, hand: HandState, player: int, text: str) -> Move | None:
        """``text`` as a move ``player`` may make now; else ``None``, once the engine's
        reason is shown, addressed to him."""
        try:
            typed = parse_move(text)
        except InvalidMoveError as e:
            self.term.say(Text(str(e), style="yellow"))
            return None
        try:
            return hand.resolve(typed)
        except IllegalMoveError:
            refusal = explain_illegal(hand, typed, names=self._names_for(player))
            self.term.say(Text(refusal, style="yellow"))
            return None

    def _push(self, hand: HandState, player: int, move: Move) -> bool:
        sentence = describe_move(hand, move, names=self._names_for(player))
        with interrupts_deferred():
            hand.push(move)
        self.term.say(Text("  " + sentence, style="green"))
        return True

    def _hint(self, player: int) -> str:
        hand = self.match.current
        assert hand is not None
        rng = _decision_rng(self.seed, self._hand_index(), -1 - len(hand.history))
        move = self.hint_bot.choose(self.match.view(player), rng)
        return f"{move}  (the {self.hint_bot.name} level would play this)"

    def _pause(self, prompt: str) -> None:
        """Wait for Enter; ``quit`` saves and stops, ``save``, ``score`` and ``help``
        answer and wait again; anything else goes on."""
        while True:
            reply = self.term.ask(f"{prompt} (or type quit)> ").lower()
            if reply in QUIT_WORDS:
                raise QuitRequested
            if reply == "save":
                self._save_and_play_on()
            elif reply == "score":
                self._score_sheet()
            elif reply in ("help", "?", "h"):
                self.term.say(
                    "Press Enter to go on; [bold]score[/bold] shows the score sheet,"
                    " [bold]save[/bold] saves the game, [bold]quit[/bold] saves it and stops."
                )
            else:
                return

    # -- summaries ---------------------------------------------------------------------
    def _how_it_ended(self, hand: HandState) -> str:
        outcome = hand.outcome()
        assert outcome is not None
        names = self._names()
        if outcome.termination is Termination.DEAD_STOCK:
            return "the stock ran out: the hand died, and cards still in hand score for nobody"
        if outcome.termination is Termination.TURN_CAP:
            return "the turn limit was reached: the hand died, and cards in hand score for nobody"
        first = outcome.went_out[0]
        other = names[1 - first]
        text = f"{subject(names[first], 'went')} out first"
        if len(outcome.went_out) > 1:
            return text + f", and {subject(other, 'went', capital=False)} out too on the last turn"
        text += f"; {subject(other, 'could', capital=False)} not go out on the last turn"
        if outcome.forfeited:
            text += f": {len(outcome.forfeited)} card(s) forfeited"
        return text

    def _hand_summary(self, hand: HandState) -> None:
        outcome = hand.outcome()
        assert outcome is not None
        names = self._names()
        self.term.blank()
        self.term.say(Text.assemble(("End of the hand", "bold"), f": {self._how_it_ended(hand)}."))
        for p in (0, 1):
            lines = Table.grid(padding=(0, 2))
            lines.add_column()
            lines.add_column(justify="right")
            for column in hand.table(p):
                points = column_points(
                    column.kind, column.cards.mask, hand.rules.marriage_multiplier
                )
                label = cards_text(column.top_down())
                kind = column.kind.label
                if column.kind == ColumnKind.MARRIAGE:
                    kind += f" ×{hand.rules.marriage_multiplier}"
                label.append(f"  {kind}", style="dim")
                lines.add_row(label, str(points))
            if outcome.went_out and p == outcome.went_out[0] and outcome.forfeited:
                label = Text("forfeited by the opponent: ")
                label.append_text(display_text(outcome.forfeited))
                lines.add_row(label, str(outcome.forfeited.points()))
            left = hand.hand(p)
            if left:
                if outcome.went_out and p not in outcome.went_out:
                    lost = Text(f"forfeited to {object_name(names[1 - p])}: ")
                else:
                    lost = Text("left in hand, scoring for nobody: ", style="dim")
                lost.append_text(hand_text(left))
                lines.add_row(lost, "")
            self.term.say(Text.assemble((names[p], "bold"), f": {outcome.scores[p]} points"))
            self.term.say(lines)
        winner = outcome.winner
        self.term.say(
            "The hand is drawn."
            if winner is None
            else Text(f"{subject(names[winner], 'wins')} the hand.", style="bold")
        )
        self._score_sheet()

    def _score_sheet(self) -> None:
        names = self._names()
        games = self.match.games()
        if not games or not games[0]:
            self.term.say("No hand has been finished yet.")
            return
        for number, hands in enumerate(games, start=1):
            if not hands:
                continue
            sheet = Table(title=f"Game {number}", show_edge=False)
            sheet.add_column("Hand")
            sheet.add_column(Text(names[0]), justify="right")
            sheet.add_column(Text(names[1]), justify="right")
            for i, outcome in enumerate(hands, start=1):
                sheet.add_row(str(i), str(outcome.scores[0]), str(outcome.scores[1]))
            totals = self.match.game_totals(number - 1)
            sheet.add_row("Total", str(totals[0]), str(totals[1]), style="bold")
            self.term.say(sheet)
        if self.match.kind == "session":
            won = self.match.games_won()
            self.term.say(Text(f"Games won: {names[0]} {won[0]}, {names[1]} {won[1]}"))

    def _final_summary(self) -> None:
        names = self._names()
        winner = self.match.winner()
        what = self.match.kind
        self.term.blank()
        if winner is None:
            self.term.say(Text(f"The {what} is drawn.", style="bold"))
        else:
            self.term.say(Text(f"{subject(names[winner], 'wins')} the {what}.", style="bold"))
        if self.save_path is not None:
            quoted = shlex.quote(str(self.save_path))
            self.term.say(
                Text(
                    f"The record is in {_shown(self.save_path)} (replay it with: umtali"
                    f" replay {printable(quoted)})"
                ),
                whole=True,
            )

    # -- saving --------------------------------------------------------------------------
    def _autosave(self) -> None:
        if self.save_path is None:
            return
        try:
            with interrupts_deferred():
                save_file(self.match, self.save_path)
        except OSError as e:
            self.term.say(
                Text(
                    f"The game could not be saved to {printable(str(self.save_path))}:"
                    f" {os_reason(e)}. Playing on; it will be tried again after the next"
                    " hand, and 'quit' saves it elsewhere if need be.",
                    style="yellow",
                ),
                whole=True,
            )

    def _keep_in(self, path: Path) -> bool:
        """From now on keep the game in ``path`` (a new file this game made), holding
        its lock instead of the old file's; False if it cannot be locked."""
        try:
            lock = SaveLock.acquire(path)
        except SavePathError:
            return False
        if self.lock is not None:
            self.lock.release()
        self.lock, self.save_path = lock, path
        return True

    def _save_anywhere(self, say: Callable[[Text], None]) -> Path | None:
        """Save the game: to the ``--save`` file, else (or if that fails) to a new
        ``umtali-DATE-TIME.json`` here, else in the system's temporary folder, which is
        then where the game is kept. The path, or ``None`` if nothing could be written
        (each failure is told with ``say``)."""
        if self.save_path is not None:
            try:
                with interrupts_deferred():
                    save_file(self.match, self.save_path)
                return self.save_path
            except OSError as e:
                say(
                    Text(
                        f"The game could not be saved to {_shown(self.save_path)}: {os_reason(e)}."
                    )
                )
        for folder in (Path(), Path(tempfile.gettempdir())):
            try:
                path = reserve_default_path(folder)
            except OSError as e:
                say(Text(f"The game could not be saved in {_shown(folder)}: {os_reason(e)}."))
                continue
            try:
                with interrupts_deferred():
                    save_file(self.match, path)
            except OSError as e:
                path.unlink(missing_ok=True)
                say(Text(f"The game could not be saved to {_shown(path)}: {os_reason(e)}."))
                continue
            self._keep_in(path)
            return path
        return None

    def _save_and_play_on(self) -> None:
        """``save``: keep the game now; later saves go to the same file."""
        path = self._save_anywhere(lambda text: self.term.say(text, whole=True))
        if path is None:
            self.term.say("The game could not be saved anywhere; playing on.")
            return
        self.term.say(
            Text(
                f"Game saved to {_shown(path)}; it is saved there again after every hand."
                " Playing on."
            ),
            whole=True,
        )

    def stop(self, why: str | None = None) -> int:
        """Save the game on ``quit``, the end of input, Ctrl-C, a signal to stop or a
        lost output (``why`` names the last three), and say how to go on. The terminal
        may be gone (SIGHUP, a closed pipe): the game is saved all the same, what cannot
        be written is left unsaid, and where a lost output leaves it the last word goes
        to standard error. The exit status: 0, or 1 when the game could not be saved or
        nothing could be shown."""
        with interrupts_deferred(reraise=False):  # a second Ctrl-C does not stop the save
            if why is not None:
                self.term.say_if_possible("")
                self.term.say_if_possible(f"{why}: saving the game.")
            path = self._save_anywhere(lambda text: self.term.say_if_possible(text, whole=True))
            if path is None:
                self.term.say_if_possible("The game could not be saved anywhere.")
                if self.term.output_lost:
                    self.term.warn(f"{why}, and the game could not be saved anywhere.")
                return 1
            resume = f"umtali play --resume {shlex.quote(str(path))}"
            self.term.say_if_possible(
                Text(f"Game saved to {_shown(path)}. Continue it with: {printable(resume)}"),
                whole=True,
            )
            if self.term.output_lost:
                self.term.warn(f"{why}: the game was saved to {path}; continue it with: {resume}")
                return 1
            return 0

    def close(self) -> None:
        """Let go of the file the game is kept in (another program may now resume it)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def _shown(path: Path) -> str:
    """A path as it is shown to the player: control characters escaped."""
    return printable(str(path))


def _new_match(options: PlayOptions) -> Match:
    level = options.bot or DEFAULT_BOT
    if level not in BOTS:
        raise PlayError(f"unknown bot level {level!r}; choose from {', '.join(BOTS)}")
    if options.hotseat and options.bot is not None:
        raise PlayError(
            "--hotseat is two people at one terminal, with no computer to play, so --bot"
            " cannot be used with it; leave it out"
        )
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(10**9)
    rng = random.Random(f"{seed}/first dealer")
    if options.hotseat:
        players = ("Player 1", "Player 2")
        humans = frozenset({0, 1})
    else:
        players = (YOU, f"Computer ({level})")
        humans = frozenset({0})
    # The seed stays in the record (a resumed game deals on from it) but is never shown
    # unless the player gave it: it would reveal the deal (R11).
    return Match(
        kind="session" if options.session else "game",
        first_dealer=rng.randrange(2),
        players=players,
        meta=Seats(seed, humans, level).meta(),
    )


def _refuse_options_with_resume(options: PlayOptions) -> None:
    given = [
        flag
        for flag, value in (
            ("--bot", options.bot is not None),
            ("--seed", options.seed is not None),
            ("--session", options.session),
            ("--hotseat", options.hotseat),
        )
        if value
    ]
    if given:
        raise PlayError(
            f"--resume continues the saved game as it was: its deal, its seats and the"
            f" computer's level come from the record, so {' and '.join(given)} cannot be"
            f" used with it; leave {'it' if len(given) == 1 else 'them'} out"
        )


def _check_deals(match: Match, seed: int) -> None:
    """Refuse a saved game whose deals are not the ones its seed makes: the first
    dealer and every hand's deck order (a record whose stock was reordered, say)."""
    edited = "the record was changed after it was saved"
    if match.first_dealer != random.Random(f"{seed}/first dealer").randrange(2):
        raise PlayError(f"its first dealer is not the one its seed chose: {edited}")
    for index, hand in enumerate(match.hands):
        if tuple(hand.deck) != tuple(seeded_deck(f"{seed}/{index}")):
            raise PlayError(f"hand {index + 1} is not dealt as its seed deals it: {edited}")


def _lock(path: Path) -> SaveLock:
    try:
        return SaveLock.acquire(path)
    except SavePathError as e:
        raise PlayError(str(e)) from None


_OVERWRITE_NOTE = (
    "--save would write over it. To continue the game saved in it, use: umtali play"
    " --resume {quoted}; to start a new game, give --save another file name (or add"
    " --force to replace it)"
)


def _resume(options: PlayOptions, term: Terminal) -> Game:
    """The saved game of ``--resume``, checked whole, and where it will be kept (locked:
    the lock is taken before the file is read, so that no other game can save into it
    between the reading and the playing)."""
    assert options.resume is not None
    _refuse_options_with_resume(options)
    where = f"cannot resume {options.resume}"
    save = Path(options.save or options.resume)
    try:
        check_save_path(
            save,
            resuming=Path(options.resume),
            force=options.force,
            what="the game",
            overwrite_note=_OVERWRITE_NOTE.format(quoted=shlex.quote(str(save))),
        )
    except SavePathError as e:
        if options.save:
            raise PlayError(str(e)) from None
        other = f"umtali play --resume {shlex.quote(options.resume)} --save OTHER_FILE"
        raise PlayError(
            f"{e}, so the game cannot be played on in {options.resume}, where it is saved"
            f" after every hand. To play it on, keep it in another file: {other}"
        ) from None
    lock = _lock(save)
    try:
        try:
            match = load_file(options.resume)
        except RecordError as e:
            raise PlayError(f"{where}: {e}") from None
        if match.is_over():
            raise PlayError(f"the game in {options.resume} is already over")
        try:
            _check_deals(match, Seats.of(match.meta).seed)
            return Game(term, match, save, lock)
        except PlayError as e:
            raise PlayError(f"{where}: {e}") from None
    except BaseException:
        lock.release()
        raise


def run_play(term: Terminal, options: PlayOptions) -> int:
    """Play until the match ends or the player quits (then the game is saved)."""
    if options.resume:
        game = _resume(options, term)
    else:
        match = _new_match(options)
        save = Path(options.save) if options.save else None
        lock = None
        if save is not None:
            try:
                check_save_path(
                    save,
                    force=options.force,
                    what="the game",
                    overwrite_note=_OVERWRITE_NOTE.format(quoted=shlex.quote(str(save))),
                )
            except SavePathError as e:
                raise PlayError(str(e)) from None
            lock = _lock(save)
        game = Game(term, match, save, lock)
    try:
        with stop_signals_raised():
            return _play_until_stopped(game, lambda: _introduce(game, options))
    finally:
        game.close()


def _introduce(game: Game, options: PlayOptions) -> None:
    """The first line: what is played, or which saved game is resumed."""
    match = game.match
    if options.resume:
        resumed = printable(options.resume)
        game.term.say(Text(f"Resuming the {match.kind} saved in {resumed}."), whole=True)
        return
    seed = f" Seed {options.seed}." if options.seed is not None else ""
    names = game._names()
    game.term.say(
        Text.assemble(
            f"A {match.kind} of Umtali: {names[0]} against {names[1]}.{seed} Type ",
            ("help", "bold"),
            " at any prompt.",
        )
    )


def _play_until_stopped(game: Game, introduce: Callable[[], None]) -> int:
    """Say what is played (``introduce``), then play ``game`` to its end, or save it on
    ``quit``, the end of input, Ctrl-C, SIGTERM, SIGHUP or a lost output. A signal that
    comes while the game is stopping, before the save holds signals back, stops it
    again: the game is saved all the same."""
    why: str | None = None
    stopping = False

    def play() -> int:
        introduce()
        return game.run()

    while True:
        try:
            return game.stop(why) if stopping else play()
        except QuitRequested:
            pass
        except KeyboardInterrupt:
            why = "Interrupted (Ctrl-C)"
        except Stopped as e:
            why = e.args[0]
        stopping = True
