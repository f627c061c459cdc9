"""``umtali play``: a game or session against the computer, or two people hot-seat.

The screen is drawn from the mover's :class:`umtali.view.PlayerView`, so it never shows
a hidden card. Every decision of the computer is seeded from the game's seed and the
move number, so a saved game resumed later plays on exactly as it would have.
"""

from __future__ import annotations

import os
import random
import shlex
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from rich.console import Group
from rich.table import Table
from rich.text import Text

from umtali.bots import BOTS, DEFAULT_BOT, Bot, make_bot
from umtali.cli.describe import describe_move, for_mover, subject
from umtali.cli.render import board, cards_text, display_text, hand_text
from umtali.cli.terminal import QuitRequested, Terminal, interrupts_deferred
from umtali.deck import seeded_deck
from umtali.match import Match
from umtali.melds import ColumnKind, column_points
from umtali.moves import IllegalMoveError, InvalidMoveError, Move
from umtali.record import RecordError, load_file, save_file
from umtali.state import HandState

__all__ = ["PlayOptions", "run_play"]

RULES_TITLE = "[bold]Umtali in brief[/bold]"
RULES_SUMMARY: Final = (
    (
        "•",
        "Each turn: draw (the stock, the top discard, or the top two discards if you will"
        " play both), play every card you can, then discard (not a card taken from the pile"
        " this turn, unless it takes you out). The 11-card player's first turn has no draw.",
    ),
    (
        "•",
        "Overlapped melds: a sequence of 3+ of one suit within A..10, a group of 3-4 of a"
        " rank (not Jacks), a marriage K+Q of a suit. Lay a meld whole: all the cards that"
        " extend it.",
    ),
    (
        "•",
        "Solo cards: a Jack is always playable. Any other card may be played off a card on"
        " either side of the table: off a solo card (same rank, or next in its suit), a"
        " group or pair (same rank), a sequence (the next card at either end). A marriage"
        " takes nothing.",
    ),
    ("•", "The Rule: a card that makes a meld with cards in your hand must go down in that meld."),
    (
        "•",
        "Going out: play your last card, discard it (face down if you like), or lay a final"
        " pair (with one discard if needed). Your opponent then has one last turn; what he"
        " cannot play is forfeited to you.",
    ),
    ("•", "Scores: K Q J 10 = 5, others 1, a marriage doubled (20). 4 hands make a game."),
)

HELP_TITLE = "Type a move in notation, or its number from [bold]moves[/bold]:"
HELP: Final = (
    (
        "moves",
        "draw · take 5♥ · take 6♥ 5♥ · meld 7♠ 6♠ 5♠ · play 10♦ off J♦ · play J♠ ·"
        " discard 5♥ · discard 2♦ down · pair 9♠ 9♣ · pair 3♠ 3♦ discard 2♦ · forfeit",
    ),
    (
        "the deal",
        "keep · give: the dealer keeps the 11th card (he then holds 11 and opens the hand,"
        " with no draw) or gives it to the other player (who holds 11 and opens)",
    ),
    ("cards", "typed Ks, 10h, Th or K♠, in any case"),
    (
        "commands",
        "[bold]moves[/bold] (list the legal moves) · [bold]hint[/bold] ·"
        " [bold]why MOVE[/bold] (why it is not allowed) · [bold]rules[/bold] ·"
        " [bold]score[/bold] · [bold]help[/bold] · [bold]quit[/bold] (saves the game;"
        " so does Ctrl-C)",
    ),
)


def _rows(title: str, rows: Sequence[tuple[str, str]]) -> Group:
    """A title and rows of (label, text): the text wraps beside its label."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for label, text in rows:
        grid.add_row(label, text)
    return Group(title, grid)


QUIT_WORDS: Final = frozenset({"quit", "exit", "save", "q"})
"""Words that save the game and stop, at every prompt of ``umtali play``."""


@dataclass(frozen=True)
class PlayOptions:
    """What ``umtali play`` was asked for (``bot`` ``None``: not given, the default level)."""

    bot: str | None = None
    seed: int | None = None
    session: bool = False
    hotseat: bool = False
    save: str | None = None
    resume: str | None = None


class PlayError(Exception):
    """A play option or saved game that cannot be used."""


def _decision_rng(seed: int, hand_index: int, move_index: int) -> random.Random:
    return random.Random(f"{seed}/{hand_index}/{move_index}")


# -- where the record goes -----------------------------------------------------------------


def check_save_path(path: Path, resuming: Path | None = None) -> None:
    """Refuse (:class:`PlayError`) a ``--save`` file the game could not be kept in: a
    folder, a file in a missing or unwritable folder, or an existing file other than the
    one being resumed (it would be overwritten)."""
    where = f"cannot keep the game in {path}"
    try:
        if path.is_dir():
            raise PlayError(f"{where}: it is a folder; give a file name, like {path / 'game.json'}")
        if path.exists() and (resuming is None or not path.samefile(resuming)):
            raise PlayError(
                f"{path} already exists, and --save would write over it. To continue the game"
                f" saved in it, use: umtali play --resume {shlex.quote(str(path))}; to start"
                " a new game, give --save another file name"
            )
        folder = path.parent
        if not folder.exists():
            raise PlayError(f"{where}: the folder {folder} does not exist")
        if not folder.is_dir():
            raise PlayError(f"{where}: {folder} is not a folder")
        # The one sure test of a folder being writable is writing in it.
        fd, probe = tempfile.mkstemp(prefix=".umtali-", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise PlayError(f"{where}: {e.strerror or e}") from None
    except ValueError as e:  # a NUL byte in the name, say
        raise PlayError(f"{where}: it is not a usable file name ({e})") from None


def reserve_default_path(folder: Path) -> Path:
    """A new ``umtali-DATE-TIME.json`` in ``folder``, created empty so that no other save
    takes the name: a second save within the same second gets ``-2``, then ``-3``..."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    number = 1
    while True:
        name = f"umtali-{stamp}.json" if number == 1 else f"umtali-{stamp}-{number}.json"
        path = folder / name
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            number += 1
            continue
        os.close(fd)
        return path


def _reason(error: OSError) -> str:
    return str(error.strerror or error)


# -- the game ---------------------------------------------------------------------------------


class Game:
    """A match with its seats: who is human, which bot plays the other seat."""

    def __init__(
        self, term: Terminal, match: Match, save_path: Path | None, *, resumed: bool = False
    ) -> None:
        self.term = term
        self.match = match
        self.save_path = save_path
        meta = match.meta
        try:
            self.seed = int(meta["seed"])
            self.humans = {int(p) for p in meta["humans"]}
            level = str(meta.get("bot", DEFAULT_BOT))
        except (KeyError, TypeError, ValueError):
            raise PlayError(
                "the saved game lacks its seats or seed ('meta'): it was not saved by 'umtali play'"
            ) from None
        if not self.humans or not self.humans <= {0, 1}:
            raise PlayError("the saved game names no human seat")
        self.hotseat = len(self.humans) == 2
        try:
            # Reproducible: the computer's choices depend on the deal and the seed alone
            # (not on the machine's speed), so a seeded or resumed game plays the same.
            self.bot: Bot | None = None if self.hotseat else make_bot(level, reproducible=True)
            # Hints come from the strongest fast level, whoever the opponent is.
            self.hint_bot = make_bot(DEFAULT_BOT, reproducible=True)
        except ValueError as e:
            raise PlayError(str(e)) from None
        self.last_human: int | None = None
        """Who was last at the keyboard in this hand (hot-seat: a change means a hand-over)."""
        self.recap_due = resumed
        """Tell the player what happened since his last turn (after a resume)."""

    # -- the loop ----------------------------------------------------------------------
    def run(self) -> int:
        match = self.match
        while not match.is_over():
            hand = match.current
            if hand is None:
                hand = self._deal()
            else:
                self.term.blank()
                self.term.say(f"[bold]{self._hand_title(hand)}[/bold]")
            self._play_hand(hand)
            self._hand_summary(hand)
            self._autosave()
            if not match.is_over():
                self._pause("Press Enter for the next hand")
        self._final_summary()
        return 0

    def _hand_title(self, hand: HandState, dealer: bool = True) -> str:
        """ "Game 1, hand 2 of 4", and who deals."""
        per = self.match.rules.hands_per_game
        index = next(i for i, h in enumerate(self.match.hands) if h is hand)
        game, number = divmod(index, per)
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
        self.term.say(f"[bold]{self._hand_title(hand)}[/bold]")
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
        hand_index = len(self.match.hands) - 1
        rng = _decision_rng(self.seed, hand_index, len(hand.history))
        move = self.bot.choose(self.match.view(actor), rng)
        sentence = describe_move(hand, move, reveal=False, names=self._names())
        with interrupts_deferred():
            hand.push(move)
        self.term.say(Text("  " + sentence, style="cyan"))

    def _names(self) -> tuple[str, str]:
        return self.match.players

    def _names_for(self, reader: int) -> tuple[str, str]:
        """The players' names as ``reader`` is addressed: himself as "You"."""
        names = list(self._names())
        names[reader] = "You"
        return (names[0], names[1])

    def _human_turn(self, hand: HandState, player: int) -> None:
        if self.hotseat and self.last_human != player:
            self._hand_over(hand, player)
        elif self.recap_due:
            self._recap(hand, player)
        self.recap_due = False
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
                + " · "
                + ("your move" if name == "You" else f"{name} to move"),
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
        self.term.say(f"[bold]{self._hand_title(hand)}[/bold]")
        self._pause(f"Hand the terminal to {name}, then press Enter")
        self.term.clear()
        self._recap(hand, player)

    def _recap(self, hand: HandState, reader: int) -> None:
        """The other player's moves since ``reader``'s last move in this hand, as
        ``reader`` saw them: a card drawn from the stock and a face-down discard hidden."""
        names = self._names_for(reader)
        fresh = HandState(hand.deck, hand.dealer, hand.rules)
        lines: list[str] = []
        moved = False
        for actor, action in hand.history:
            move = Move.from_action(action)
            if actor == reader:
                lines = []
                moved = True
            else:
                lines.append(describe_move(fresh, move, reveal=False, names=names))
            fresh.push(move)
        if not lines:
            return
        since = "Since your last turn" if moved else "So far in this hand"
        if self.hotseat:
            since += f" ({self._names()[reader]})"
        self.term.blank()
        self.term.say(f"[bold]{since}[/bold]:")
        for line in lines:
            self.term.say(Text("  " + line, style="cyan"))

    def _list_moves(self, legal: Sequence[Move]) -> None:
        for i, move in enumerate(legal, start=1):
            self.term.say(f"  [bold]{i:>2}[/bold]  {move}", style=None)

    def _handle(self, line: str, hand: HandState, player: int, legal: list[Move]) -> bool:
        """Act on one line of input; True when a move was played."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not line:
            if len(legal) == 1:
                return self._push(hand, legal[0])
            self.term.say("Type a move, a number, or [bold]help[/bold].")
            return False
        if line.isdigit():
            n = int(line)
            if 1 <= n <= len(legal):
                return self._push(hand, legal[n - 1])
            self.term.say(
                f"There is no move {n}: choose 1 to {len(legal)} ([bold]moves[/bold] lists them)."
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
        elif word in QUIT_WORDS:
            raise QuitRequested
        elif word == "why":
            self._why(hand, player, rest)
        else:
            try:
                move = hand.parse_move(line)
            except (InvalidMoveError, IllegalMoveError) as e:
                self._refusal(e, player)
                return False
            return self._push(hand, move)
        return False

    def _refusal(self, error: Exception, player: int) -> None:
        self.term.say(Text(for_mover(str(error), player, self._names()), style="yellow"))

    def _push(self, hand: HandState, move: Move) -> bool:
        sentence = describe_move(hand, move, names=self._names())
        with interrupts_deferred():
            hand.push(move)
        self.term.say(Text("  " + sentence, style="green"))
        return True

    def _hint(self, player: int) -> str:
        hand = self.match.current
        assert hand is not None
        rng = _decision_rng(self.seed, len(self.match.hands), -1 - len(hand.history))
        move = self.hint_bot.choose(self.match.view(player), rng)
        return f"{move}  (the {self.hint_bot.name} level would play this)"

    def _why(self, hand: HandState, player: int, text: str) -> None:
        if not text.strip():
            self.term.say("Write the move after 'why', e.g. [bold]why play 8♦ off 8♥[/bold].")
            return
        try:
            move = hand.parse_move(text)
        except (InvalidMoveError, IllegalMoveError) as e:
            self._refusal(e, player)
            return
        self.term.say(f"{move} is allowed now.")

    def _pause(self, prompt: str) -> None:
        """Wait for Enter; ``quit`` saves and stops, ``score`` and ``help`` answer and
        wait again; anything else goes on."""
        while True:
            reply = self.term.ask(f"{prompt} (or type quit)> ").lower()
            if reply in QUIT_WORDS:
                raise QuitRequested
            if reply == "score":
                self._score_sheet()
            elif reply in ("help", "?", "h"):
                self.term.say(
                    "Press Enter to go on; [bold]score[/bold] shows the score sheet,"
                    " [bold]quit[/bold] saves the game and stops."
                )
            else:
                return

    # -- summaries ---------------------------------------------------------------------
    def _how_it_ended(self, hand: HandState) -> str:
        outcome = hand.outcome()
        assert outcome is not None
        names = self._names()
        if outcome.termination.value == "dead: empty stock":
            return "the stock ran out: the hand died, and cards still in hand score for nobody"
        if outcome.termination.value == "dead: turn cap":
            return "the turn limit was reached: the hand died, and cards in hand score for nobody"
        first = outcome.went_out[0]
        text = f"{subject(names[first], 'went')} out first"
        other = 1 - first
        if len(outcome.went_out) > 1:
            text += f", and {subject(names[other], 'went')} out too on the last turn"
        else:
            text += f"; {subject(names[other], 'could')} not go out on the last turn" + (
                f" and {'forfeit' if names[other] == 'You' else 'forfeits'}"
                f" {len(outcome.forfeited)} card(s)"
                if outcome.forfeited
                else ""
            )
        return text

    def _hand_summary(self, hand: HandState) -> None:
        outcome = hand.outcome()
        assert outcome is not None
        names = self._names()
        self.term.blank()
        self.term.say(f"[bold]End of the hand[/bold]: {self._how_it_ended(hand)}.")
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
                    other = names[1 - p]
                    lost = Text(f"forfeited to {'you' if other == 'You' else other}: ")
                else:
                    lost = Text("left in hand, scoring for nobody: ", style="dim")
                lost.append_text(hand_text(left))
                lines.add_row(lost, "")
            self.term.say(f"[bold]{names[p]}[/bold]: {outcome.scores[p]} points")
            self.term.say(lines)
        winner = outcome.winner
        self.term.say(
            "The hand is drawn."
            if winner is None
            else f"[bold]{subject(names[winner], 'wins')} the hand.[/bold]"
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
            sheet.add_column(names[0], justify="right")
            sheet.add_column(names[1], justify="right")
            for i, outcome in enumerate(hands, start=1):
                sheet.add_row(str(i), str(outcome.scores[0]), str(outcome.scores[1]))
            totals = self.match.game_totals(number - 1)
            sheet.add_row("Total", str(totals[0]), str(totals[1]), style="bold")
            self.term.say(sheet)
        if self.match.kind == "session":
            won = self.match.games_won()
            self.term.say(f"Games won: {names[0]} {won[0]}, {names[1]} {won[1]}")

    def _final_summary(self) -> None:
        names = self._names()
        winner = self.match.winner()
        what = self.match.kind
        self.term.blank()
        if winner is None:
            self.term.say(f"[bold]The {what} is drawn.[/bold]")
        else:
            self.term.say(f"[bold]{subject(names[winner], 'wins')} the {what}.[/bold]")
        if self.save_path is not None:
            quoted = shlex.quote(str(self.save_path))
            self.term.say(
                f"The record is in {self.save_path} (replay it with: umtali replay {quoted})",
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
                    f"The game could not be saved to {self.save_path}: {_reason(e)}. Playing"
                    " on; it will be tried again after the next hand, and 'quit' saves it"
                    " elsewhere if need be.",
                    style="yellow",
                ),
                whole=True,
            )

    def save_on_quit(self) -> Path | None:
        """Save the game: to the ``--save`` file, else (or if that fails) to a new
        ``umtali-DATE-TIME.json`` here, else in the system's temporary folder. The path,
        or ``None`` if nothing could be written (each failure is reported)."""
        if self.save_path is not None:
            try:
                save_file(self.match, self.save_path)
                return self.save_path
            except OSError as e:
                self.term.say(
                    f"The game could not be saved to {self.save_path}: {_reason(e)}.", whole=True
                )
        for folder in (Path(), Path(tempfile.gettempdir())):
            try:
                path = reserve_default_path(folder)
            except OSError as e:
                self.term.say(f"The game could not be saved in {folder}: {_reason(e)}.")
                continue
            try:
                save_file(self.match, path)
                return path
            except OSError as e:
                path.unlink(missing_ok=True)
                self.term.say(f"The game could not be saved to {path}: {_reason(e)}.")
        return None

    def stop(self, interrupted: bool) -> int:
        """Save the game on ``quit``, Ctrl-C or the end of input, and say how to go on."""
        with interrupts_deferred(reraise=False):  # a second Ctrl-C does not stop the save
            if interrupted:
                self.term.blank()
                self.term.say("Interrupted (Ctrl-C): saving the game.")
            path = self.save_on_quit()
            if path is None:
                self.term.say("The game could not be saved anywhere.")
                return 1
            self.term.say(
                f"Game saved to {path}. Continue it with: umtali play --resume"
                f" {shlex.quote(str(path))}",
                whole=True,
            )
            return 0


def _new_match(options: PlayOptions) -> Match:
    level = options.bot or DEFAULT_BOT
    if level not in BOTS:
        raise PlayError(f"unknown bot level {level!r}; choose from {', '.join(BOTS)}")
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(10**9)
    rng = random.Random(f"{seed}/first dealer")
    if options.hotseat:
        players = ("Player 1", "Player 2")
        humans = [0, 1]
    else:
        players = ("You", f"Computer ({level})")
        humans = [0]
    # The seed stays in the record (a resumed game deals on from it) but is never shown
    # unless the player gave it: it would reveal the deal (R11).
    meta: dict[str, Any] = {"seed": seed, "humans": humans, "bot": level}
    return Match(
        kind="session" if options.session else "game",
        first_dealer=rng.randrange(2),
        players=players,
        meta=meta,
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


def run_play(term: Terminal, options: PlayOptions) -> int:
    """Play until the match ends or the player quits (then the game is saved)."""
    save: Path | None
    if options.resume:
        _refuse_options_with_resume(options)
        try:
            match = load_file(options.resume)
        except RecordError as e:
            raise PlayError(f"cannot resume {options.resume}: {e}") from None
        if match.is_over():
            raise PlayError(f"the game in {options.resume} is already over")
        save = Path(options.save or options.resume)
        check_save_path(save, resuming=Path(options.resume))
    else:
        match = _new_match(options)
        save = Path(options.save) if options.save else None
        if save is not None:
            check_save_path(save)
    game = Game(term, match, save, resumed=bool(options.resume))
    if options.resume:
        term.say(f"Resuming the {match.kind} saved in {options.resume}.", whole=True)
    else:
        seed = f" Seed {options.seed}." if options.seed is not None else ""
        term.say(
            f"A {match.kind} of Umtali: {match.players[0]} against {match.players[1]}.{seed}"
            " Type [bold]help[/bold] at any prompt."
        )
    try:
        return game.run()
    except QuitRequested:
        return game.stop(interrupted=False)
    except KeyboardInterrupt:
        return game.stop(interrupted=True)
