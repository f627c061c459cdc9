"""Reviewing an Umtali hand (layer 5): the registry's ``review`` hook.

Each hand of a record is replayed on the engine; at every decision of the reviewed
player with a real choice (how to draw; which card to discard, face up or down, or a
pair to go out with; which of two melds that share a card to lay) the review sees only
his :class:`~umtali.games.umtali.view.PlayerView`, deals the cards he could not see at
random in agreement with it (:func:`~umtali.games.umtali.view.determinize`), and plays
each alternative out to the hand's end with the expert's policy for both players
(:func:`umtali.learn.review.weigh`). The record's own hidden cards are never read: the
view is all a decision is built from.

>>> from umtali.games.umtali.lessons import LESSONS
>>> from umtali.games.umtali.match import Match
>>> match = Match(kind="hand", first_dealer=1)
>>> _ = LESSONS[3].replay(match.new_hand(LESSONS[3].deck()))
>>> done = REVIEW.review(match, 0, 1, Settings(playouts=8))
>>> [d.played for d in done.decisions][:2]
['discard A♥', 'take 3♦ from the pile']
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from umtali.games.umtali.bots.evaluate import situation
from umtali.games.umtali.bots.expert import ExpertBot
from umtali.games.umtali.describe import how_hand_ended
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terms import Phase
from umtali.games.umtali.view import PlayerView, determinize
from umtali.kernel.cards import card_name
from umtali.kernel.english import sentence
from umtali.learn.review import (
    Decision,
    HandReview,
    ReviewError,
    Settings,
    play_to_end,
    weigh,
)

__all__ = ["REVIEW", "Choice", "UmtaliReview", "choices", "said"]

_DRAWS: Final = frozenset((MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO))
_ENDS: Final = frozenset((MoveKind.DISCARD, MoveKind.PAIR, MoveKind.FORFEIT))
_POLICY: Final = ExpertBot()


def said(move: Move) -> str:
    """A move as the review names it to a card player.

    >>> from umtali.kernel.cards import parse_card
    >>> said(Move.draw()), said(Move.take_two(parse_card("6h"), parse_card("5h")))
    ('draw from the stock', 'take 6♥ 5♥ from the pile')
    >>> said(Move.discard_card(parse_card("2s")))
    'discard 2♠'
    """
    if move.kind is MoveKind.DRAW:
        return "draw from the stock"
    if move.kind in (MoveKind.TAKE, MoveKind.TAKE_TWO):
        return f"{move.text()} from the pile"
    return move.text()


@dataclass
class Choice:
    """One decision, from the player's view alone (see :class:`umtali.learn.review.Choice`).

    ``tally``, when a list, gathers each playout's alternative, his hand score, his
    opponent's and whether he went out first (the puzzles explain a move by them)."""

    view: PlayerView
    options: tuple[Move, ...]
    played: int
    lead: float | None = None
    tally: list[tuple[int, int, int, bool]] | None = None

    @property
    def moves(self) -> tuple[str, ...]:
        return tuple(map(said, self.options))

    def deal(self, rng: random.Random) -> HandState:
        return determinize(self.view, rng, undo=False)

    def play_out(self, world: HandState, index: int, rng: random.Random) -> float:
        state = world.clone()
        state.push(self.options[index])
        play_to_end(state, lambda s: _POLICY.choose(self._seen(s, s.player), rng))
        outcome = state.outcome()
        assert outcome is not None
        me = self.view.player
        if self.tally is not None:
            first = bool(outcome.went_out) and outcome.went_out[0] == me
            self.tally.append((index, outcome.scores[me], outcome.scores[1 - me], first))
        return float(outcome.scores[me] - outcome.scores[1 - me])

    def _seen(self, state: HandState, player: int) -> PlayerView:
        """What ``player`` sees of a dealt world, in the game as the decision saw it."""
        return PlayerView.of(
            state, player, self.view.game_scores, self.view.hands_left, with_history=False
        )

    def line(self, index: int, rng: random.Random) -> tuple[str, ...]:
        """The alternative and the rest of his turn as the expert plays it; after a
        draw from the stock the rest depends on a card he cannot know, so it stops."""
        state = self.deal(rng)
        me, turn = self.view.player, state.turn
        move = self.options[index]
        out = [said(move)]
        state.push(move)
        while (
            move.kind is not MoveKind.DRAW
            and not state.is_over()
            and state.player == me
            and state.turn == turn
        ):
            move = _POLICY.choose(self._seen(state, me), rng)
            state.push(move)
            out.append(said(move))
        return tuple(out)


class UmtaliReview:
    """Umtali's :class:`umtali.learn.review.Reviewer`."""

    def hands(self, match: Match) -> tuple[tuple[int, tuple[int, ...]], ...]:
        return tuple((i, (0, 1)) for i, hand in enumerate(match.hands) if hand.is_over())

    def review(self, match: Match, hand_index: int, seat: int, settings: Settings) -> HandReview:
        if not isinstance(match, Match):
            raise ReviewError("this is no record of Umtali")
        if type(hand_index) is not int or not 0 <= hand_index < len(match.hands):
            raise ReviewError(
                f"the record has {_hands(len(match.hands))}: no hand {hand_index + 1}"
            )
        played = match.hands[hand_index]
        outcome = played.outcome()
        if outcome is None:
            raise ReviewError(
                f"hand {hand_index + 1} is not finished: only a finished hand is reviewed"
            )
        if seat not in (0, 1):
            raise ReviewError("Umtali has two players: player 1 or player 2")
        totals, hands_left = _game_context(match, hand_index)
        lead = _lead(match, hand_index, seat)
        decisions = []
        for index, choice in choices(played, seat, settings.alternatives, totals, hands_left):
            choice.lead = lead
            alternatives, spent = weigh(choice, settings, f"{hand_index}/{index}")
            made = choice.moves[choice.played]
            decisions.append(
                Decision(index, choice.view.turn, _where(choice.view), made, alternatives, spent)
            )
        names = (match.players[0], match.players[1])
        return HandReview(
            game="umtali",
            hand_index=hand_index,
            seat=seat,
            player=match.players[seat],
            result=sentence(how_hand_ended(outcome, names)),
            decisions=tuple(decisions),
            settings=settings,
        )


def choices(
    hand: HandState,
    seat: int,
    most: int,
    game_scores: tuple[int, int] = (0, 0),
    hands_left: int = 0,
) -> Iterator[tuple[int, Choice]]:
    """The decisions of ``seat`` worth weighing in the finished ``hand``: each move's index
    in the hand and the decision, built from his view alone; ``most`` discards at most.
    ``game_scores`` and ``hands_left`` place the hand in its game (a lone hand by
    default): the expert, whose play the playouts assume, plays a game's last hand
    otherwise than the others."""
    state = HandState(hand.deck, hand.dealer, hand.rules)
    for index, move in enumerate(hand.moves_played()):
        if state.player == seat and state.phase != Phase.OVER:
            view = PlayerView.of(state, seat, game_scores, hands_left, with_history=False)
            choice = _choice_at(view, move, most)
            if choice is not None:
                yield index, choice
        state.push(move)


def _game_context(match: Match, hand_index: int) -> tuple[tuple[int, int], int]:
    """Both players' game totals before hand ``hand_index`` and the hands still to come
    in its game after it, as :meth:`Match.view` gave them while it was played."""
    per = match.rules.hands_per_game
    if match.kind == "hand":
        return (0, 0), 0
    first = hand_index - hand_index % per
    totals = [0, 0]
    for hand in match.hands[first:hand_index]:
        outcome = hand.outcome()
        assert outcome is not None  # the hands before a finished one are finished
        totals[0] += outcome.scores[0]
        totals[1] += outcome.scores[1]
    return (totals[0], totals[1]), per - hand_index % per - 1


def _lead(match: Match, hand_index: int, seat: int) -> float | None:
    """The player's lead in the game before hand ``hand_index`` when that hand ends a game
    of several hands, else ``None``."""
    if match.kind == "hand" or match.rules.hands_per_game < 2:
        return None
    totals, hands_left = _game_context(match, hand_index)
    return None if hands_left else float(totals[seat] - totals[1 - seat])


def _hands(n: int) -> str:
    return "one hand" if n == 1 else f"{n} hands"


def _choice_at(view: PlayerView, made: Move, most: int) -> Choice | None:
    """The decision at ``view`` if it is one worth weighing, with ``made`` among its
    alternatives; ``None`` when there was no real choice."""
    legal = _distinct(view.legal)
    kinds = {m.kind for m in legal}
    options: list[Move]
    if kinds & _DRAWS:
        options = legal
    elif kinds <= _ENDS:
        options = _ends(view, legal, made, most)
    elif made.kind is MoveKind.MELD:
        options = _rival_melds(legal, made)
    else:
        return None
    if len(options) < 2 or made not in options:
        return None
    return Choice(view, tuple(options), options.index(made))


def _ends(view: PlayerView, legal: list[Move], made: Move, most: int) -> list[Move]:
    """The ways to end the turn: the expert's best ``most`` discards face up, then the
    pairs and face-down discards, with the move made always among them."""
    face_up = [m for m in legal if m.kind is MoveKind.DISCARD and not m.face_down]
    ranked = _POLICY.rank_discards(view, face_up, situation(view)) if len(face_up) > 1 else face_up
    rest = [m for m in legal if m not in face_up]
    options = [*ranked[:most], *rest[:3]]
    if made not in options:
        options.append(made)
    return options


def _rival_melds(legal: list[Move], made: Move) -> list[Move]:
    """The melds that share a card with the meld made (the book's K♣ Q♣ or Q♣ Q♠ Q♦)."""
    mine = set(made.cards)
    rivals = [m for m in legal if m.kind is MoveKind.MELD and m != made and mine & set(m.cards)]
    return [made, *rivals] if rivals else []


def _distinct(legal: tuple[Move, ...]) -> list[Move]:
    """The legal moves, once each."""
    return list(dict.fromkeys(legal))


def _where(view: PlayerView) -> str:
    """Where the decision stood, as the player saw it."""
    hand = " ".join(view.hand.names()) or "nothing"
    top = view.top_discard()
    pile = (
        "the pile was empty"
        if not view.discard_pile
        else (
            "the top of the pile lay face down"
            if top is None
            else f"the pile showed {card_name(top)}"
        )
    )
    held = view.opponent_hand_size
    return sentence(
        f"you held {hand}; {pile}; your opponent held {held} card{'s' if held != 1 else ''}"
        f" and the stock {view.stock_size}"
    )


REVIEW: Final[Any] = UmtaliReview()
