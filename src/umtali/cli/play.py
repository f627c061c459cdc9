"""``umtali play``: a game or session against the computer, or two people hot-seat.

The screen is drawn from the mover's :class:`umtali.view.PlayerView`, so it never shows
a hidden card. Every decision of the computer is seeded from the game's seed and the
move number, so a saved game resumed later plays on exactly as it would have.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from umtali.bots import BOTS, DEFAULT_BOT, Bot, make_bot
from umtali.cli.describe import describe_move
from umtali.cli.render import board, cards_text, hand_text
from umtali.cli.terminal import QuitRequested, Terminal
from umtali.deck import seeded_deck
from umtali.match import Match
from umtali.melds import ColumnKind, column_points
from umtali.moves import IllegalMoveError, InvalidMoveError, Move
from umtali.record import RecordError, load_file, save_file
from umtali.state import HandState
from umtali.view import PlayerView

__all__ = ["PlayOptions", "run_play"]

RULES_SUMMARY = """\
[bold]Umtali in brief[/bold]
• Each turn: draw (the stock, the top discard, or the top two discards if you will play
  both), play every card you can, then discard. The 11-card player's first turn has no draw.
• Overlapped melds: a sequence of 3+ of one suit within A..10, a group of 3-4 of a rank
  (not Jacks), a marriage K+Q of a suit. Lay a meld whole: all the cards that extend it.
• Solo cards: a Jack is always playable. Any other card may be played off a card on
  either side of the table: off a solo card (same rank, or next in its suit), a group or
  pair (same rank), a sequence (the next card at either end). A marriage takes nothing.
• The Rule: a card that makes a meld with cards in your hand must go down in that meld.
• Going out: play your last card, discard it (face down if you like), or lay a final
  pair (with one discard if needed). Your opponent then has one last turn; what he
  cannot play is forfeited to you.
• Scores: K Q J 10 = 5, others 1, a marriage doubled (20). 4 hands make a game."""

HELP = """\
Type a move in notation, or its number from [bold]moves[/bold]:
  draw · take 5♥ · take 6♥ 5♥ · meld 7♠ 6♠ 5♠ · play 10♦ off J♦ · play J♠
  discard 5♥ · discard 2♦ down · pair 9♠ 9♣ · pair 3♠ 3♦ discard 2♦ · forfeit
Cards may be typed Ks, 10h, Th or K♠, in any case.
Commands: [bold]moves[/bold] (list legal moves) · [bold]hint[/bold] · [bold]why MOVE[/bold] (why it is not allowed)
          [bold]rules[/bold] · [bold]score[/bold] · [bold]help[/bold] · [bold]quit[/bold] (saves the game)"""


@dataclass(frozen=True)
class PlayOptions:
    """What ``umtali play`` was asked for."""

    bot: str = DEFAULT_BOT
    seed: int | None = None
    session: bool = False
    hotseat: bool = False
    save: str | None = None
    resume: str | None = None


class PlayError(Exception):
    """A play option or saved game that cannot be used."""


def _decision_rng(seed: int, hand_index: int, move_index: int) -> random.Random:
    return random.Random(f"{seed}/{hand_index}/{move_index}")


class Game:
    """A match with its seats: who is human, which bot plays the other seat."""

    def __init__(self, term: Terminal, match: Match, save_path: Path | None) -> None:
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
        try:
            # Reproducible: the computer's choices depend on the deal and the seed alone
            # (not on the machine's speed), so a seeded or resumed game plays the same.
            self.bot: Bot | None = (
                None if len(self.humans) == 2 else make_bot(level, reproducible=True)
            )
        except ValueError as e:
            raise PlayError(str(e)) from None
        self.last_human: int | None = None

    # -- the loop ----------------------------------------------------------------------
    def run(self) -> int:
        match = self.match
        while not match.is_over():
            hand = match.current or self._deal()
            self._play_hand(hand)
            self._hand_summary(hand)
            self._autosave()
            if not match.is_over():
                self._pause("Press Enter for the next hand")
        self._final_summary()
        return 0

    def _deal(self) -> HandState:
        index = len(self.match.hands)
        hand = self.match.new_hand(seeded_deck(f"{self.seed}/{index}"))
        per = self.match.rules.hands_per_game
        game, number = divmod(index, per)
        names = self.match.players
        self.term.blank()
        self.term.say(
            f"[bold]Game {game + 1}, hand {number + 1} of {per}[/bold] · {names[hand.dealer]} deals"
        )
        return hand

    def _play_hand(self, hand: HandState) -> None:
        while not hand.is_over():
            actor = hand.player
            if actor in self.humans:
                self._human_turn(hand, actor)
            else:
                assert self.bot is not None
                hand_index = len(self.match.hands) - 1
                rng = _decision_rng(self.seed, hand_index, len(hand.history))
                move = self.bot.choose(self.match.view(actor), rng)
                self.term.say(
                    Text(
                        "  " + describe_move(hand, move, reveal=False, names=self._names()),
                        style="cyan",
                    )
                )
                hand.push(move)

    def _names(self) -> tuple[str, str]:
        return self.match.players

    def _human_turn(self, hand: HandState, player: int) -> None:
        if len(self.humans) == 2 and self.last_human not in (None, player):
            self.term.clear()
            self._pause(f"Hand the terminal to {self._names()[player]}, then press Enter")
            self.term.clear()
        self.last_human = player
        view = PlayerView.of(hand, player)
        totals = self.match.game_totals() if self.match.finished_outcomes() else None
        self.term.blank()
        self.term.say(
            board(
                view,
                self._names(),
                totals,
                heading=f"Turn {hand.turn} · {self._names()[player]} to move",
            )
        )
        legal = list(view.legal)
        if len(legal) <= 10:
            self._list_moves(legal)
        else:
            self.term.say(f"{len(legal)} legal moves: type [bold]moves[/bold] to list them.")
        while True:
            line = self.term.ask(f"{self._names()[player]}> ")
            if self._handle(line, hand, player, legal):
                return

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
            self.term.say(HELP)
        elif word in ("moves", "m"):
            self._list_moves(legal)
        elif word == "hint":
            self.term.say(f"Hint: {self._hint(hand, player)}")
        elif word == "rules":
            self.term.say(RULES_SUMMARY)
        elif word == "score":
            self._score_sheet()
        elif word in ("quit", "exit", "save", "q"):
            raise QuitRequested
        elif word == "why":
            self._why(hand, rest)
        else:
            try:
                move = hand.parse_move(line)
            except (InvalidMoveError, IllegalMoveError) as e:
                self.term.say(Text(str(e), style="yellow"))
                return False
            return self._push(hand, move)
        return False

    def _push(self, hand: HandState, move: Move) -> bool:
        self.term.say(Text("  " + describe_move(hand, move, names=self._names()), style="green"))
        hand.push(move)
        return True

    def _hint(self, hand: HandState, player: int) -> str:
        hint_bot = self.bot or make_bot(DEFAULT_BOT, reproducible=True)
        rng = _decision_rng(self.seed, len(self.match.hands), -1 - len(hand.history))
        move = hint_bot.choose(self.match.view(player), rng)
        return f"{move}  ({hint_bot.name} would play this)"

    def _why(self, hand: HandState, text: str) -> None:
        if not text.strip():
            self.term.say("Write the move after 'why', e.g. [bold]why play 8♦ off 8♥[/bold].")
            return
        try:
            move = hand.parse_move(text)
        except (InvalidMoveError, IllegalMoveError) as e:
            self.term.say(Text(str(e), style="yellow"))
            return
        self.term.say(f"{move} is allowed now.")

    def _pause(self, prompt: str) -> None:
        self.term.ask(f"{prompt}> ")

    # -- summaries ---------------------------------------------------------------------
    def _hand_summary(self, hand: HandState) -> None:
        outcome = hand.outcome()
        assert outcome is not None
        names = self._names()
        self.term.blank()
        how = {
            "out": "the hand is over",
            "dead: empty stock": "the stock ran out: a dead hand, cards in hand score for nobody",
            "dead: turn cap": "the turn limit was reached: a dead hand",
        }[outcome.termination.value]
        self.term.say(f"[bold]End of the hand[/bold]: {how}.")
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
                label.append_text(cards_text(outcome.forfeited))
                lines.add_row(label, str(outcome.forfeited.points()))
            left = hand.hand(p)
            if left:
                lost = Text("left in hand: ", style="dim")
                lost.append_text(hand_text(left))
                lines.add_row(lost, "")
            self.term.say(f"[bold]{names[p]}[/bold]: {outcome.scores[p]} points")
            self.term.say(lines)
        winner = outcome.winner
        self.term.say(
            "The hand is drawn."
            if winner is None
            else f"[bold]{names[winner]} wins the hand.[/bold]"
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
            self.term.say(f"[bold]{names[winner]} wins the {what}.[/bold]")
        if self.save_path is not None:
            self.term.say(
                f"The record is in {self.save_path} (replay it with: umtali replay {self.save_path})"
            )

    # -- saving --------------------------------------------------------------------------
    def _autosave(self) -> None:
        if self.save_path is not None:
            save_file(self.match, self.save_path)

    def save_on_quit(self) -> Path:
        path = self.save_path or Path(time.strftime("umtali-%Y%m%d-%H%M%S.json"))
        save_file(self.match, path)
        return path


def _new_match(options: PlayOptions) -> Match:
    if options.bot not in BOTS:
        raise PlayError(f"unknown bot level {options.bot!r}; choose from {', '.join(BOTS)}")
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(10**9)
    rng = random.Random(f"{seed}/first dealer")
    if options.hotseat:
        players = ("Player 1", "Player 2")
        humans = [0, 1]
    else:
        players = ("You", f"Computer ({options.bot})")
        humans = [0]
    meta: dict[str, Any] = {"seed": seed, "humans": humans, "bot": options.bot}
    return Match(
        kind="session" if options.session else "game",
        first_dealer=rng.randrange(2),
        players=players,
        meta=meta,
    )


def run_play(term: Terminal, options: PlayOptions) -> int:
    """Play until the match ends or the player quits (then the game is saved)."""
    save: Path | None
    if options.resume:
        try:
            match = load_file(options.resume)
        except RecordError as e:
            raise PlayError(f"cannot resume {options.resume}: {e}") from None
        if match.is_over():
            raise PlayError(f"the game in {options.resume} is already over")
        save = Path(options.save or options.resume)
    else:
        match = _new_match(options)
        save = Path(options.save) if options.save else None
    game = Game(term, match, save)
    if options.resume:
        term.say(f"Resuming the {match.kind} saved in {options.resume}.")
    else:
        term.say(
            f"A {match.kind} of Umtali: {match.players[0]} against {match.players[1]}."
            f" Seed {game.seed}. Type [bold]help[/bold] at any prompt."
        )
    try:
        return game.run()
    except QuitRequested:
        try:
            path = game.save_on_quit()
        except OSError as e:
            term.say(f"The game could not be saved: {e.strerror}.")
            return 1
        term.say(f"Game saved to {path}. Continue it with: umtali play --resume {path}")
        return 0
