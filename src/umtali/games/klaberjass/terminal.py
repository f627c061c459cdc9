"""Klaberjass at the terminal (layer 7): its screen, a replay's board, its help (the spec's
``terminal`` hook, :class:`umtali.cli.hook.GameTerminal`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from umtali.cli.cards import cards_text
from umtali.cli.hook import GameTerminal, Teaching
from umtali.cli.kept import session_of
from umtali.cli.prompting import TurnPrompt
from umtali.cli.quizzing import quizzer
from umtali.cli.terminal import Terminal
from umtali.cli.walking import walker
from umtali.games.klaberjass.describe import hand_result
from umtali.games.klaberjass.learn.howto import lesson_count, walkthrough
from umtali.games.klaberjass.learn.quiz import build_quiz
from umtali.games.klaberjass.moves import SCHMEISS, KlaberjassMove
from umtali.games.klaberjass.replay import KlaberjassBoard
from umtali.games.klaberjass.session import KlaberjassSession
from umtali.games.klaberjass.terms import SUIT_NAMES
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.cards import card_name, cards_of
from umtali.kernel.players import player_name
from umtali.session.kept import KeptGame

__all__ = ["SCREEN"]

_PHASES: Final = {
    "bid1": "first round of bidding: take the turned-up suit, or pass",
    "bid2": "second round of bidding: name another suit, or pass",
    "schmeiss": "schmeiss is offered: accept (the hand is thrown in) or refuse",
    "exchange": "you hold the 7 of trump: exchange it for the turned-up card, or keep it",
    "play": "play a card",
}


class KlaberjassScreen(TurnPrompt[KlaberjassMove]):
    """A game of Klaberjass for two at the terminal."""

    session: KlaberjassSession
    why_example = "play Jh"

    def __init__(self, term: Terminal, kept: KeptGame) -> None:
        super().__init__(term, kept)
        self.session = session_of(kept, KlaberjassSession)

    def introduce(self, seed: int | None, resumed: str | None) -> None:
        names = self.names()
        rules = self.session.match.rules
        self.term.say(
            Text(
                f"Klaberjass to {rules.game_target} ({rules.ranking} ranking"
                f"{', schmeiss' if rules.schmeiss else ''}):"
                f" {names[0]} against {names[1]}. Type help at any prompt."
            )
        )

    def help_file(self) -> str:
        return "umtali.games.klaberjass:help.toml"

    def show_hand_end(self) -> None:
        hand = self.session.match.hands[-1]
        self.term.say(Text(hand_result(hand, self.names())))
        self.show_totals()

    def show_totals(self) -> None:
        match = self.session.match
        standing = match.standing()
        a, b = standing.totals
        names = self.names()
        pot = f"; {standing.pot} in the pot" if standing.pot else ""
        self.term.say(
            Text(f"Totals: {names[0]} {a}, {names[1]} {b} (to {match.rules.game_target}){pot}.")
        )

    def show_score(self) -> None:
        """The score sheet: each finished hand's scores as added (a pot paid included) and
        how it went, the totals, and the points taken so far in the hand under way."""
        names = self.names()
        for line in sheet_lines(self.session, names):
            self.term.say(Text(line))
        self.show_totals()
        hand = self.session.match.hands[-1] if self.session.match.hands else None
        if hand is not None and not hand.is_over() and hand.phase == "play":
            self.term.say(
                Text(
                    f"This hand so far, in tricks: {names[0]} {hand.points[0]},"
                    f" {names[1]} {hand.points[1]}."
                )
            )

    def human_turn(self, seat: int) -> None:
        view = self.session.view(seat)
        for line in table_lines(view, self.names()):
            self.term.say(line)
        self.read_moves(seat, view.legal)


_HOW: Final = {"made": "made", "failed": "failed", "tied": "tied", "thrown_in": "thrown in"}
"""How a hand went, as the score sheet says it."""


def sheet_lines(session: KlaberjassSession, names: Sequence[str]) -> list[str]:
    """Each finished hand's line of the score sheet: its number, how it went for the
    maker, and what each player scored in it."""
    match = session.match
    hows = [score.result for hand in match.hands if (score := hand.outcome()) is not None]
    return [
        f"  Hand {number} ({_HOW.get(how, how)}): {names[0]} {a}, {names[1]} {b}"
        for number, ((a, b), how) in enumerate(
            zip(match.standing().hands, hows, strict=False), start=1
        )
    ]


def table_lines(view: KlaberjassView, names: Sequence[str]) -> list[Text]:
    """What the player sees of the table at his turn."""
    lines = []
    if view.trump < 0:
        lines.append(
            Text(f"Turned up: {card_name(view.turned)}" if view.turned is not None else "")
        )
    else:
        maker = names[view.maker] if view.maker >= 0 else "nobody"
        lines.append(Text(f"Trump: {SUIT_NAMES[view.trump]} (made by {maker})."))
    if view.bottom is not None:
        lines.append(Text(f"The bottom card of the stock: {card_name(view.bottom)}."))
    if view.trick:
        lines.append(Text("On the table: ").append_text(cards_text(list(view.trick))))
    lines.append(
        Text(f"Points in tricks: {names[0]} {view.points[0]}, {names[1]} {view.points[1]}.")
    )
    lines.append(Text("Your cards: ").append_text(cards_text(cards_of(view.hand))))
    hint = _PHASES.get(view.phase)
    if hint and any(move.kind == SCHMEISS for move in view.legal):
        hint = "first round of bidding: take the turned-up suit, pass, or offer schmeiss"
    if hint:
        lines.append(Text(f"Your turn: {hint}."))
    return lines


def board(shown: KlaberjassBoard, names: Sequence[str] | None) -> str:
    """A replay's board as plain text: both hands, what is turned up or trump, the
    bottom card once shown, the trick and the points."""
    seats = names or (player_name(0), player_name(1))
    hands = "; ".join(
        f"{seats[p]}: {' '.join(card_name(c) for c in cards_of(shown.hands[p])) or 'no cards'}"
        for p in (0, 1)
    )
    if shown.trump is None:
        table = f"turned up {card_name(shown.turned)}"
    else:
        table = f"trump {SUIT_NAMES[shown.trump]}"
    if shown.bottom is not None:
        table += f", bottom card {card_name(shown.bottom)}"
    trick = " ".join(card_name(c) for c in shown.trick) or "nothing"
    return f"{hands}; {table}; on the table {trick}; points {shown.points[0]} and {shown.points[1]}"


SCREEN: Final = GameTerminal(
    screen=KlaberjassScreen,
    board=board,
    variants={
        "book": "the book's ranking (trump J 9 A K Q 10 8 7), to 500",
        "classic": "the ranking most players know (trump J 9 A 10 K Q 8 7), to 500",
        "schmeiss": "the book's ranking, and schmeiss may be offered in the first round",
        "classic-schmeiss": "the classic ranking, and schmeiss may be offered",
    },
    teaching=Teaching(
        lessons=lesson_count(),
        lesson=walker(walkthrough),
        quiz=quizzer(build_quiz),
        lessons_told="a hand played with both hands open, to learn the game",
        quiz_told="eight questions on the rules, graded",
    ),
)
"""Klaberjass at the terminal (its spec's ``terminal`` hook)."""
