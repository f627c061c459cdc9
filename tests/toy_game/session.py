"""Toy at a table: its computer levels, its session (a game of two, as every game of two
plays it: :class:`~umtali.session.shared.TwoSeatSession`) and how the registry makes one."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from typing import Final

from tests.toy_game.game import CARDS, PRESETS, ToyHand, ToyMatch, ToyMove, ToyMoveError, ToyView
from tests.toy_game.replay import told
from umtali.games.api import Deadline, Guard, Recap, Refused
from umtali.kernel.cards import rank_of
from umtali.kernel.seeds import Seed, first_dealer_for
from umtali.session.shared import Seats, TwoSeatMaker, TwoSeatSession, bots_named


class RandomToy:
    def choose(
        self, view: ToyView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> ToyMove:
        return rng.choice(view.legal)


class GreedyToy:
    """The lowest card that beats the pile's top, else the lowest card."""

    def choose(
        self, view: ToyView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> ToyMove:
        top = rank_of(view.pile[-1]) if view.pile else 99
        beating = [m for m in view.legal if rank_of(m.card) > top]
        return min(beating or view.legal, key=lambda m: rank_of(m.card))


BOTS: Final[dict[str, type[RandomToy | GreedyToy]]] = {"random": RandomToy, "greedy": GreedyToy}


class ToySession(TwoSeatSession[ToyMatch, ToyHand, ToyView, ToyMove]):
    game = "toy"
    known_levels = tuple(BOTS)
    default_level = "greedy"
    deck_cards = CARDS

    def _make_bot(self, level: str) -> RandomToy | GreedyToy:
        return BOTS[level]()

    def _mover(self, hand: ToyHand) -> int | None:
        return hand.to_move()

    def _move_text(self, hand: ToyHand, index: int) -> str:
        return ToyMove(hand.history[index][1]).text()

    def _scores(self, hand: ToyHand) -> tuple[int, int] | None:
        return hand.outcome()

    def view(self, seat: int) -> ToyView:
        return ToyView.of(self.match, seat)

    def _parse(self, text: str) -> ToyMove | Refused:
        try:
            return ToyMove.parse(text)
        except ToyMoveError as e:
            return Refused(str(e))

    def _allowed(self, hand: ToyHand, seat: int, move: ToyMove) -> ToyMove | Refused:
        return move if move in hand.legal() else Refused("you do not hold that card")

    def _play(self, hand: ToyHand, seat: int, move: ToyMove) -> str:
        with self.guard():
            hand.push(move)
        return told(hand, len(hand.history) - 1, self.names_for(seat))

    def _why(self, view: ToyView, move: ToyMove) -> str:
        return "it is the lowest card that scores" if view.pile else "it keeps the high cards"

    def hand_title(self, names: tuple[str, str], dealer: bool = True) -> str:
        title = f"Toy, hand {self.hand_index + 1} (to {self.match.rules.target})"
        return title + (f" · {names[self.match.hands[-1].dealer]} deals" if dealer else "")

    def tell(self, reader: int, index: int) -> str:
        return told(self.match.hands[-1], index, self.names_for(reader))

    def recap(self, reader: int, hand_index: int = -1) -> Recap:
        hand = self.match.hands[hand_index]
        names = self.names_for(reader)
        return Recap.told(reader, hand.history, lambda i: told(hand, i, names))

    def result(self, names: Sequence[str]) -> str:
        winner = self.match.winner()
        a, b = self.match.totals()
        return "The game is not over." if winner is None else f"{names[winner]} wins, {a} to {b}."

    def undo_refusal(self, seat: int, *, consent: bool = False) -> str | None:
        return "a card played stands: it was drawn for at once"

    def rematch(self, seed: int, *, guard: Guard | None = None) -> ToySession:
        return SESSIONS.new(
            seed=seed,
            humans=self.humans,
            level=self.level(),
            variant=self.match.rules.name,
            guard=self.guard if guard is None else guard,
        )


class ToySessions(TwoSeatMaker[ToySession]):
    session = ToySession

    def new(
        self,
        *,
        seed: int,
        humans: Iterable[int],
        seats: int = 2,
        level: str | None = None,
        variant: str | None = None,
        length: str | None = None,
        guard: Guard | None = None,
    ) -> ToySession:
        if seats != 2 or length not in (None, "game") or (variant or "standard") not in PRESETS:
            raise ValueError("Toy is one game for two, to its target, standard or hearts")
        seats_kept = Seats(seed, frozenset(humans), level or ToySession.default_level)
        if seats_kept.bot not in BOTS:
            raise ValueError(
                f"unknown Toy computer level {seats_kept.bot!r}; choose from random, greedy"
            )
        match = ToyMatch(
            PRESETS[variant or "standard"],
            first_dealer=first_dealer_for(seed),
            players=seats_kept.players(),
            meta=seats_kept.meta(),
        )
        return ToySession.of_match(match, guard=guard or nullcontext)

    def between_bots(
        self,
        levels: Sequence[str],
        seed: Seed,
        *,
        variant: str | None = None,
        length: str | None = None,
        players: Sequence[str] | None = None,
    ) -> ToySession:
        two = (levels[0], levels[1])
        match = ToyMatch(
            PRESETS[variant or "standard"],
            first_dealer=first_dealer_for(seed),
            players=tuple(players) if players else bots_named(two),
        )
        return ToySession(match, seed, two)


SESSIONS: Final = ToySessions()
