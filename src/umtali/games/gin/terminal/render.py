"""Gin Rummy's board, hand's end and score sheet at the terminal, drawn from a player's
:class:`~umtali.games.gin.view.GinView` (so that they cannot show a card he may not see)
and from the session's summaries of a finished hand and of the game; and a replay's
board, every card shown.

A hand is shown as its player would lay it: the melds of its least deadwood, each
sequence low to high, then the deadwood with its count.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.cli.cards import card_text, cards_text, under_the_top_text
from umtali.games.gin.melds import best_arrangement
from umtali.games.gin.replay import GinBoard
from umtali.games.gin.session import GinHandSummary, GinScoreSheet
from umtali.games.gin.view import GinView
from umtali.kernel.cards import cards_of, display_key
from umtali.kernel.english import plural

__all__ = [
    "gin_board",
    "gin_hand_line",
    "gin_hand_summary",
    "gin_replay_board",
    "gin_score_sheet",
    "gin_summary_lines",
    "melds_text",
]

PILE_SHOWN = 5
"""How many discards under the top one the board lists, from the top down."""


def melds_text(melds: tuple[int, ...], deadwood: int, points: int) -> Text:
    """Melds (each low to high, ``|`` between them) and then the deadwood with its
    count, or "gin" when there is none.

    >>> from umtali.kernel.cards import mask_of, parse_cards
    >>> str(melds_text((mask_of(parse_cards("3s 2s As")),), mask_of(parse_cards("Kd")), 10))
    'A♠ 2♠ 3♠ | deadwood K♦ (10)'
    """
    text = Text()
    for meld in melds:
        text.append_text(cards_text(cards_of(meld)))
        text.append(" | ", style="dim")
    if deadwood:
        text.append("deadwood ")
        text.append_text(cards_text(sorted(cards_of(deadwood), key=display_key)))
        text.append(f" ({points})")
    else:
        text.append("gin: no deadwood", style="bold green")
    return text


def gin_hand_line(view: GinView) -> Text:
    """The viewer's hand laid out as melds and deadwood, with its count of cards."""
    laid = best_arrangement(view.hand)
    text = Text(f"Your hand ({view.hand.bit_count()}): ", style="bold")
    text.append_text(melds_text(laid.melds, laid.deadwood, laid.points))
    return text


def _knock_limit_text(view: GinView) -> Text:
    if view.knock_limit == 0:
        text = Text("Knock limit 0: the first upcard was an ace, so only gin may knock")
    else:
        text = Text(f"Knock limit {view.knock_limit}")
    if view.multiplier > 1:
        text.append(" · the first upcard was a spade: this hand's points are doubled")
    return text


def gin_board(
    view: GinView,
    names: tuple[str, str],
    heading: str | None = None,
    totals: tuple[int, int] | None = None,
    target: int | None = None,
) -> RenderableType:
    """Everything ``view.seat`` may see: the stock, the discard pile, what he knows of
    the other hand, the knock limit, the game's points so far, and his hand."""
    me, other = view.seat, 1 - view.seat
    parts: list[RenderableType] = []
    if heading:
        parts.append(Text(heading, style="bold underline"))
    status = Text(f"Stock {view.stock_size}   Top discard ")
    if view.pile:
        status.append_text(card_text(view.pile[-1]))
    else:
        status.append("(none)", style="dim")
    status.append(f"   {names[other]} holds {plural(view.opponent_cards, 'card')}")
    if view.opponent_known:
        status.append(", taken from the pile: ")
        status.append_text(cards_text(sorted(cards_of(view.opponent_known), key=display_key)))
    parts.append(status)
    if len(view.pile) > 1:
        parts.append(under_the_top_text(view.pile, PILE_SHOWN))
    parts.append(_knock_limit_text(view))
    if totals is not None:
        line = f"Game so far: {names[me]} {totals[me]}, {names[other]} {totals[other]}"
        parts.append(Text(line + (f" (to {target})" if target else "")))
    parts.append(Text())
    parts.append(gin_hand_line(view))
    return Group(*parts)


def gin_hand_summary(summary: GinHandSummary) -> list[RenderableType]:
    """A finished hand: each side's melds (the knocker's with the cards laid off on
    them), layoffs and deadwood, its points, and the sentence that tells the result."""
    return [Group(*_summary_texts(summary))]


def gin_summary_lines(summary: GinHandSummary) -> list[str]:
    """:func:`gin_hand_summary` as lines of plain text (a replay prints them)."""
    return [str(text) for text in _summary_texts(summary)]


def _summary_texts(summary: GinHandSummary) -> list[Text]:
    parts = [Text("End of the hand", style="bold")]
    for side in summary.sides:
        role = " (knocked)" if side.knocked else ""
        parts.append(Text.assemble((side.name, "bold"), f"{role}: {plural(side.score, 'point')}"))
        parts.append(
            Text.assemble("  ", melds_text(side.melds, side.deadwood, side.deadwood_points))
        )
        if side.laid_off:
            laid = Text("  laid off on the knocker's melds: ")
            laid.append_text(cards_text(sorted(cards_of(side.laid_off), key=display_key)))
            parts.append(laid)
    parts.append(Text(summary.result, style="" if summary.winner is None else "bold"))
    return parts


def gin_score_sheet(sheet: GinScoreSheet, names: tuple[str, str]) -> list[RenderableType]:
    """The hands' points, how each ended, the totals against the target, and the
    bonuses once the game is over."""
    if not sheet.hands:
        return [Text("No hand has been finished yet.")]
    table = Table(title=f"Gin Rummy to {sheet.target}", show_edge=False)
    table.add_column("Hand")
    table.add_column(Text(names[0]), justify="right")
    table.add_column(Text(names[1]), justify="right")
    table.add_column("")
    for i, (scores, how) in enumerate(sheet.hands, start=1):
        table.add_row(str(i), str(scores[0]), str(scores[1]), how)
    table.add_row("Total", str(sheet.totals[0]), str(sheet.totals[1]), "", style="bold")
    result = sheet.result
    if result is not None:
        table.add_row("Line bonus", str(result.line[0]), str(result.line[1]), "25 a hand won")
        bonus = ["0", "0"]
        bonus[result.winner] = str(result.game_bonus)
        table.add_row("Game bonus", bonus[0], bonus[1], "shutout ×2" if result.shutout else "")
        if result.shutout:
            doubled = ["0", "0"]
            doubled[result.winner] = str(result.points[result.winner])
            table.add_row("Shutout", doubled[0], doubled[1], "the hands' points again")
        table.add_row("Final", str(result.final[0]), str(result.final[1]), "", style="bold")
    return [table]


def gin_replay_board(board: GinBoard, labels: tuple[str, str]) -> str:
    """A replay's board as plain text: both hands laid out as melds and deadwood (a
    replay hides nothing), then the stock and the discard pile, its top last.

    >>> from umtali.games.gin.state import GinHand
    >>> print(gin_replay_board(GinBoard.of(GinHand.from_seed(7)), ("Ann", "Bob")))
      Ann: J♣ Q♣ K♣ | deadwood Q♠ 7♠ 6♠ A♠ 4♥ 7♦ 9♣ (44)
      Bob: deadwood 2♠ K♥ 8♥ 6♥ Q♦ 10♦ 5♦ 4♦ 2♦ A♣ (58)
      stock 31 · pile 9♦ (top last) · knock limit 10
    """
    lines = []
    for seat in (0, 1):
        laid = best_arrangement(board.hands[seat])
        lines.append(f"  {labels[seat]}: {melds_text(laid.melds, laid.deadwood, laid.points)}")
    pile = " ".join(str(card_text(card)) for card in board.pile) or "(empty)"
    limit = f"knock limit {board.knock_limit}" + (", doubled" if board.multiplier > 1 else "")
    lines.append(f"  stock {board.stock} · pile {pile} (top last) · {limit}")
    return "\n".join(lines)
