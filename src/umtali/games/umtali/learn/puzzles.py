"""Umtali's puzzles (layer 5): the registry's ``puzzles`` hook.

A game of the run is one hand between two computer levels (:data:`LEVELS`, in turn),
dealt and played from ``random.Random(f"{seed}/puzzles/{game}")``. Its decisions are the
game review's (:func:`umtali.games.umtali.learn.review.choices`: how to draw, how to end
a turn, which of two melds that share a card), each weighed by the review's playouts
from the player's own view; :func:`umtali.learn.puzzles.generate` keeps the clear ones.
A puzzle shows what that player saw (his :class:`~umtali.games.umtali.view.PlayerView`,
nothing else) and explains its answer by what the playouts found: how often he went out
first, what he scored and what his opponent scored, after the best move and the next.

The puzzles shipped (``puzzles.json`` beside this module) were made by
``umtali puzzles generate`` (docs/PUZZLES.md).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from umtali.games.umtali.bots import make_bot
from umtali.games.umtali.learn.review import Choice, choices
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.state import Column
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import card_ascii, card_name
from umtali.kernel.deck import shuffled_deck
from umtali.kernel.english import sentence
from umtali.learn.puzzles import Option, Puzzle, read_puzzles
from umtali.learn.review import Alternative, Settings, weigh

__all__ = ["LEVELS", "PUZZLES", "UmtaliPuzzles", "position_of", "seen_cards"]

LEVELS: Final = (("greedy", "expert"), ("expert", "expert"), ("expert", "greedy"))
"""The levels that play the games the puzzles come from, in turn (player 1's first)."""

FILE: Final = "puzzles.json"


def play_hand(seed: int, game: int) -> Match:
    """Game ``game`` (from 0) of the run seeded ``seed``: one hand between the levels of
    :data:`LEVELS` in turn, played to its end."""
    rng = random.Random(f"{seed}/puzzles/{game}")
    levels = LEVELS[game % len(LEVELS)]
    match = Match(kind="hand", first_dealer=game % 2)
    bots = [make_bot(level, reproducible=True) for level in levels]
    state = match.new_hand(shuffled_deck(rng))
    while not state.is_over():
        actions = state.legal_actions()
        if len(actions) == 1:
            state.push(actions[0])
        else:
            view = PlayerView.of(state, state.player, with_history=False)
            state.push(bots[state.player].choose(view, rng))
    return match


@dataclass(frozen=True)
class Weighed:
    """A spot weighed: the review's alternatives, best first, and each playout's tally
    (alternative, his score, his opponent's, whether he went out first)."""

    alternatives: tuple[Alternative, ...]
    playouts: int
    tally: tuple[tuple[int, int, int, bool], ...]


@dataclass
class _Spot:
    source: str
    key: str
    choice: Choice

    def weigh(self, settings: Settings) -> Weighed:
        self.choice.tally = []
        alternatives, spent = weigh(self.choice, settings, self.key)
        tally, self.choice.tally = tuple(self.choice.tally), None
        return Weighed(alternatives, spent, tally)

    def puzzle(self, weighed: Any, number: int) -> Puzzle:
        assert isinstance(weighed, Weighed)
        view = self.choice.view
        expected = {a.move: a.expected for a in weighed.alternatives}
        order = sorted(
            range(len(self.choice.options)), key=lambda i: _order(self.choice.options[i])
        )
        moves = self.choice.moves
        options = tuple(
            Option(
                moves[i], tuple(map(card_ascii, self.choice.options[i].cards)), expected[moves[i]]
            )
            for i in order
        )
        best, second = weighed.alternatives[0], weighed.alternatives[1]
        answer = next(n for n, o in enumerate(options) if o.move == best.move)
        return Puzzle(
            number=number,
            source=self.source,
            prompt=_prompt(self.choice.options),
            facts=facts_of(view),
            position=position_of(view),
            options=options,
            answer=answer,
            gap=second.loss,
            error=second.error,
            playouts=weighed.playouts,
            explanation=_explain(weighed, moves.index(best.move), moves.index(second.move)),
        )


def _order(move: Move) -> tuple[int, int, tuple[int, ...]]:
    """The order a puzzle lists its moves in: by kind, then by card (never best first)."""
    return (int(move.kind), int(move.face_down), tuple(sorted(move.cards)))


def _prompt(options: tuple[Move, ...]) -> str:
    kinds = {m.kind for m in options}
    if kinds & {MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO}:
        return "How do you draw?"
    if MoveKind.MELD in kinds:
        return "Which meld do you lay?"
    return "How do you end your turn?"


def _cards(cards: Any) -> str:
    return " ".join(card_name(c) for c in cards)


def facts_of(view: PlayerView) -> tuple[str, ...]:
    """What the player saw, in sentences: his hand, the pile, the table, the counts."""
    me, them = view.player, 1 - view.player
    dealer = "you deal" if view.dealer == me else "your opponent deals"
    out = [sentence(f"Turn {view.turn}; {dealer}")]
    if view.last_turn:
        out.append("Your opponent has gone out: this is your last turn.")
    out.append(sentence(f"You hold {_cards(view.hand)}"))
    if view.must_meld:
        out.append(
            sentence(
                f"You took {_cards(view.must_meld)} from the pile this turn: it must be played before your turn ends"
            )
        )
    top = view.top_discard()
    if not view.discard_pile:
        out.append("The pile is empty.")
    elif top is None:
        out.append(sentence(f"The pile holds {len(view.discard_pile)}, the top card face down"))
    else:
        out.append(sentence(f"The pile holds {len(view.discard_pile)}, {card_name(top)} on top"))
    for who, side in (("You have", me), ("Your opponent has", them)):
        columns = view.tables[side]
        laid = "; ".join(str(c) for c in columns) if columns else "nothing"
        out.append(sentence(f"{who} {view.points[side]} points on the table: {laid}"))
    held = view.opponent_hand_size
    known = view.opponent_known
    among = f", among them {_cards(known)} taken from the pile" if known else ""
    out.append(sentence(f"Your opponent holds {held} card{'s' if held != 1 else ''}{among}"))
    out.append(sentence(f"The stock holds {view.stock_size}"))
    return tuple(out)


def _column(column: Column) -> dict[str, Any]:
    return {
        "kind": column.kind.label,
        "cards": [card_ascii(c) for c in column.top_down()],
        "played_off": None if column.played_off is None else card_ascii(column.played_off),
    }


def position_of(view: PlayerView) -> dict[str, Any]:
    """What the player saw, for a page to draw (the learning pages' position)."""
    me = view.player
    return {
        "note": "",
        "sides": [
            {
                "caption": "Your opponent's side",
                "columns": [_column(c) for c in view.tables[1 - me]],
            },
            {"caption": "Your side", "columns": [_column(c) for c in view.tables[me]]},
        ],
        "hand": [card_ascii(c) for c in view.hand],
        "hand_caption": "Your hand",
        "pile": [None if c is None else card_ascii(c) for c in view.discard_pile],
        "pile_caption": "Discard pile, bottom to top",
    }


def seen_cards(view: PlayerView) -> set[str]:
    """Every card the player could see (in ASCII): his hand, the table, the pile's face-up
    cards and those he laid face down, and the pile cards his opponent still holds."""
    seen = {card_ascii(c) for c in view.hand}
    seen |= {card_ascii(c) for c in view.discard_pile if c is not None}
    seen |= {card_ascii(c) for c in view.opponent_known}
    for side in view.tables:
        for column in side:
            seen |= {card_ascii(c) for c in column.top_down()}
            if column.played_off is not None:
                seen.add(card_ascii(column.played_off))
    return seen


def _explain(weighed: Weighed, best: int, second: int) -> str:
    """Why the best move beats the next, from the playouts' figures."""
    figures = [_figures(weighed.tally, i) for i in (best, second)]
    b, s = weighed.alternatives[0], weighed.alternatives[1]
    count = len(weighed.alternatives)
    deals = weighed.playouts // count
    next_best = ", the next best" if count > 2 else ""
    first = (
        f"{_capital(b.move)} is worth about {b.expected - s.expected:.1f} points more than"
        f" {s.move}{next_best}: {b.expected:+.1f} against {s.expected:+.1f}, your score minus"
        f" your opponent's at the end of the hand, on average over {deals} deals played out."
    )
    (out_b, mine_b, theirs_b), (out_s, mine_s, theirs_s) = figures
    clauses = []
    if abs(out_b - out_s) >= 0.1:
        more = "more" if out_b > out_s else "less"
        clauses.append(
            f"you go out first {more} often ({out_b:.0%} of the deals, against {out_s:.0%})"
        )
    if mine_b - mine_s >= 2:
        clauses.append(f"you score more ({mine_b:.0f} points on average, against {mine_s:.0f})")
    if theirs_s - theirs_b >= 2:
        clauses.append(
            f"your opponent scores less ({theirs_b:.0f} points on average, against {theirs_s:.0f})"
        )
    if not clauses:
        return first
    but = ""
    if theirs_b - theirs_s >= 2:
        but = f", though your opponent scores more ({theirs_b:.0f} against {theirs_s:.0f})"
    said_ = clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + " and " + clauses[-1]
    return f"{first} With it {said_}{but}."


def _figures(
    tally: tuple[tuple[int, int, int, bool], ...], index: int
) -> tuple[float, float, float]:
    """The share of playouts he went out first, his mean score and his opponent's."""
    rows = [t for t in tally if t[0] == index]
    n = max(1, len(rows))
    return (
        sum(t[3] for t in rows) / n,
        sum(t[1] for t in rows) / n,
        sum(t[2] for t in rows) / n,
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class UmtaliPuzzles:
    """Umtali's :class:`umtali.learn.puzzles.PuzzleMaker`."""

    levels = LEVELS

    def spots(self, seed: int, game: int) -> Iterator[_Spot]:
        match = play_hand(seed, game)
        hand = match.hands[0]
        a, b = LEVELS[game % len(LEVELS)]
        for seat in (0, 1):
            for index, choice in choices(hand, seat, Settings().alternatives):
                yield _Spot(
                    f"seed {seed}, game {game + 1} ({a} against {b}), player {seat + 1},"
                    f" move {index + 1}",
                    f"puzzles/{game}/{index}",
                    choice,
                )

    def shipped(self) -> tuple[Puzzle, ...]:
        return _shipped()


@cache
def _shipped() -> tuple[Puzzle, ...]:
    text = resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8")
    return read_puzzles(text, "umtali")


PUZZLES: Final[Any] = UmtaliPuzzles()
