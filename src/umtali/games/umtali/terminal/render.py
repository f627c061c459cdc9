"""Umtali's board, hand's end and score sheet at the terminal, in rich text.

The board is built from a :class:`umtali.games.umtali.view.PlayerView`, so it cannot show
a card the player may not see. Overlapped columns are drawn top-down as the book draws
them, solo cards apart on their own row. The cards themselves are written as every
game's are (:mod:`umtali.cli.cards`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.cli.cards import (
    NEW_MARK,
    card_text,
    cards_text,
    display_text,
    hand_text,
    top_discard_text,
    under_the_top_text,
)
from umtali.games.umtali.melds import ColumnKind
from umtali.games.umtali.session import HandSummary, ScoreSheet, table_mask
from umtali.games.umtali.state import Column, Phase
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import card_name
from umtali.kernel.english import YOU, plural

__all__ = [
    "board",
    "column_lines",
    "hand_line",
    "hand_summary",
    "score_sheets",
    "table_side",
]


def column_lines(column: Column, new: int = 0) -> Text:
    """One overlapped column, top card first, one card a line."""
    return cards_text(column.top_down(), sep="\n", new=new)


def table_side(columns: Sequence[Column], owner: str, new: int = 0) -> RenderableType:
    """One side of the table: overlapped columns side by side, then the solo cards; the
    cards in the mask ``new`` marked as just played."""
    melds = [c for c in columns if c.kind != ColumnKind.SOLO]
    solos = [c for c in columns if c.kind == ColumnKind.SOLO]
    if not columns:
        return Text(f"{owner}: nothing on the table yet", style="dim")
    parts: list[RenderableType] = [Text(f"{owner}:", style="bold")]
    if melds:
        grid = Table.grid(padding=(0, 3))
        for _ in melds:
            grid.add_column()
        grid.add_row(*[column_lines(c, new) for c in melds])
        parts.append(grid)
    if solos:
        row = Text("solo: ", style="dim")
        for i, c in enumerate(solos):
            if i:
                row.append("   ")
            card = c.cards.mask.bit_length() - 1
            row.append_text(card_text(card, bool(new >> card & 1)))
            if c.played_off is not None:
                row.append(f" (off {card_name(c.played_off)})", style="dim")
        parts.append(row)
    return Group(*parts)


def _choose_text(view: PlayerView, names: tuple[str, str]) -> Text:
    other = names[1 - view.player]
    text = Text("The cards are not dealt yet. ", style="bold")
    text.append(
        "You deal, so you choose who gets the 11th card: 'keep' it (you then hold 11 cards"
        f" and open the hand, with no draw) or 'give' it ({other} holds 11 and opens)."
    )
    return text


def board(
    view: PlayerView,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    heading: str | None = None,
    game_so_far: tuple[int, int] | None = None,
    new: int = 0,
) -> RenderableType:
    """Everything ``view.player`` may see, laid out for the terminal, with the totals of
    the game's finished hands when ``game_so_far`` gives them; the table's cards in the
    mask ``new`` (played since he last saw it) are marked."""
    me = view.player
    other = 1 - me
    parts: list[RenderableType] = []
    if heading:
        parts.append(Text(heading, style="bold underline"))
    status = Text()
    status.append(f"Stock {view.stock_size}   Top discard ")
    status.append_text(top_discard_text(view.discard_pile))
    if view.phase != Phase.CHOOSE:
        status.append(f"   {names[other]} holds {plural(view.opponent_hand_size, 'card')}")
    if view.opponent_known:
        status.append(" including ")
        status.append_text(display_text(view.opponent_known))
    parts.append(status)
    if len(view.discard_pile) > 1:
        parts.append(under_the_top_text(view.discard_pile))
    score = Text(f"This hand: {names[me]} {view.points[me]}, {names[other]} {view.points[other]}")
    if game_so_far is not None:
        totals = game_so_far
        score.append(f"    Game so far: {names[me]} {totals[me]}, {names[other]} {totals[other]}")
    parts.append(score)
    if view.last_turn and view.to_move == me:
        parts.append(
            Text(
                f"This is your last turn: {names[other]} has gone out. Go out now if you can;"
                f" the cards left in your hand will be forfeited to {names[other]}.",
                style="bold yellow",
            )
        )
    parts.append(Text())
    parts.append(table_side(view.tables[other], f"{names[other]}'s side", new))
    parts.append(Text())
    mine_side = "Your side" if names[me] == YOU else f"Your side ({names[me]})"
    parts.append(table_side(view.tables[me], mine_side, new))
    parts.append(Text())
    if new & table_mask(view):
        parts.append(
            Text(f"{NEW_MARK} played since your last turn", style="dim"),
        )
    if view.phase == Phase.CHOOSE:
        parts.append(_choose_text(view, names))
    else:
        parts.append(hand_line(view))
    return Group(*parts)


def hand_line(view: PlayerView) -> Text:
    """The viewer's hand, with how many cards it holds."""
    mine = Text(f"Your hand ({len(view.hand)}): ", style="bold")
    mine.append_text(hand_text(view.hand))
    return mine


# -- the end of a hand and the score sheet ---------------------------------------------------


def hand_summary(summary: HandSummary) -> list[RenderableType]:
    """How a finished hand ended, each side's columns with their points, the forfeits,
    and who won it (the whole table is shown: the hand is over)."""
    parts: list[RenderableType] = [
        Text.assemble(("End of the hand", "bold"), f": {summary.ended}.")
    ]
    for side in summary.sides:
        lines = Table.grid(padding=(0, 2))
        lines.add_column()
        lines.add_column(justify="right")
        for column in side.columns:
            label = cards_text(column.cards)
            label.append(f"  {column.kind}", style="dim")
            lines.add_row(label, str(column.points))
        if side.forfeit_won:
            label = Text("forfeited by the opponent: ")
            label.append_text(display_text(side.forfeit_won))
            lines.add_row(label, str(side.forfeit_won.points()))
        if side.left:
            lost = Text(f"{side.left_label}: ", style="" if side.left_scored else "dim")
            lost.append_text(hand_text(side.left))
            lines.add_row(lost, "")
        parts.append(Text.assemble((side.name, "bold"), f": {plural(side.score, 'point')}"))
        parts.append(lines)
    parts.append(Text(summary.result, style="" if summary.winner is None else "bold"))
    return parts


def score_sheets(sheet: ScoreSheet, names: tuple[str, str]) -> list[RenderableType]:
    """The score sheet of each game, the games won in a session, and the points on the
    table in the hand under way, so that the score is there from the first hand on."""
    parts: list[RenderableType] = []
    if not sheet.games:
        parts.append(Text("No hand has been finished yet."))
    for number, hands, totals in sheet.games:
        table = Table(title=f"Game {number}", show_edge=False)
        table.add_column("Hand")
        table.add_column(Text(names[0]), justify="right")
        table.add_column(Text(names[1]), justify="right")
        for i, scores in enumerate(hands, start=1):
            table.add_row(str(i), str(scores[0]), str(scores[1]))
        table.add_row("Total", str(totals[0]), str(totals[1]), style="bold")
        parts.append(table)
    if sheet.games_won is not None:
        won = sheet.games_won
        parts.append(Text(f"Games won: {names[0]} {won[0]}, {names[1]} {won[1]}"))
    if sheet.this_hand is not None:
        this_hand = sheet.this_hand
        parts.append(
            Text(f"This hand so far: {names[0]} {this_hand[0]}, {names[1]} {this_hand[1]}")
        )
    return parts
