"""Klaberjass at a table: its session (a game of two, as every game of two plays it:
:class:`~umtali.session.shared.TwoSeatSession`) and how the registry makes one
(:data:`SESSIONS`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from typing import Any, Final

from umtali.games.api import Guard, Recap, Refused
from umtali.games.klaberjass.bots import BOTS, DEFAULT_BOT
from umtali.games.klaberjass.describe import game_result, tell_move
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import (
    EXCHANGE,
    KEEP,
    KIND_MASK,
    NAME,
    PASS,
    PLAY,
    REFUSE,
    TAKE,
    KlaberjassMove,
    KlaberjassMoveError,
)
from umtali.games.klaberjass.rules import KLABERJASS_PRESETS
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK, SUIT_NAMES
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.english import subject
from umtali.kernel.seeds import Seed, first_dealer_for
from umtali.session.shared import Seats, TwoSeatMaker, TwoSeatSession, bots_named

__all__ = ["SESSIONS", "KlaberjassSession", "KlaberjassSessions"]


class KlaberjassSession(
    TwoSeatSession[KlaberjassMatch, KlaberjassHand, KlaberjassView, KlaberjassMove]
):
    """A game of Klaberjass between a person and the computer, two people, or two
    computers."""

    game = "klaberjass"
    known_levels = tuple(BOTS)
    default_level = DEFAULT_BOT
    deck_cards = DECK

    def _make_bot(self, level: str) -> Any:
        return BOTS[level]()

    def _mover(self, hand: KlaberjassHand) -> int | None:
        return hand.to_move()

    def _move_text(self, hand: KlaberjassHand, index: int) -> str:
        return KlaberjassMove.of_action(hand.history[index][1]).text()

    def _scores(self, hand: KlaberjassHand) -> tuple[int, int] | None:
        outcome = hand.outcome()
        return None if outcome is None else outcome.scores

    def view(self, seat: int) -> KlaberjassView:
        return KlaberjassView.of(self.match, seat)

    def _parse(self, text: str) -> KlaberjassMove | Refused:
        try:
            return KlaberjassMove.parse(text)
        except KlaberjassMoveError as e:
            return Refused(str(e))

    def _allowed(
        self, hand: KlaberjassHand, seat: int, move: KlaberjassMove
    ) -> KlaberjassMove | Refused:
        if move.action in hand.legal_actions():
            return move
        return Refused(hand.why_not(move))

    def _play(self, hand: KlaberjassHand, seat: int, move: KlaberjassMove) -> str:
        with self.guard():
            hand.push(move)
        return tell_move(hand, len(hand.history) - 1, self.names_for(seat), seat)

    def _why(self, view: KlaberjassView, move: KlaberjassMove) -> str:
        return reason_for(view, move)

    def hand_title(self, names: tuple[str, str], dealer: bool = True) -> str:
        rules = self.match.rules
        extras = [f"{rules.ranking} ranking"] if rules.ranking != "book" else []
        extras += ["schmeiss"] if rules.schmeiss else []
        told = "".join(f", {extra}" for extra in extras)
        title = f"Klaberjass, hand {self.hand_index + 1} (to {rules.game_target}{told})"
        return title + (
            f" · {subject(names[self.match.hands[-1].dealer], 'deals')}" if dealer else ""
        )

    def tell(self, reader: int, index: int) -> str:
        return tell_move(self.match.hands[-1], index, self.names_for(reader), reader)

    def recap(self, reader: int, hand_index: int = -1) -> Recap:
        hand = self.match.hands[hand_index]
        names = self.names_for(reader)
        return Recap.told(
            reader,
            hand.history,
            lambda i: tell_move(hand, i, names, reader),
        )

    def result(self, names: Sequence[str]) -> str:
        return game_result(self.match, (names[0], names[1]))

    def undo_refusal(self, seat: int, *, consent: bool = False) -> str | None:
        """Why ``seat`` may not take back his last move now, or ``None`` when he may. As in
        the other games, a move is taken back only when it told him nothing and kept the
        turn his: in Klaberjass that is a card that won the trick he answered, the hand
        not over. A lead, a lost trick, a bid or a pass gave the turn away; taking or
        naming trump dealt him three more cards; the exchange showed the bottom card. No
        move waits for the other player's leave (``consent`` changes nothing)."""
        if seat not in self.humans:
            return "only a player at the keyboard takes back his moves"
        hand = self.match.current
        if hand is None or not hand.history or hand.history[-1][0] != seat:
            return "there is no move of yours to take back in this turn"
        kind = hand.history[-1][1] & KIND_MASK
        if kind in (TAKE, NAME, REFUSE):
            return "you have seen the three more cards dealt once trump was made: that stands"
        if kind in (EXCHANGE, KEEP):
            return "the bottom card of the stock has been shown: the exchange stands"
        if kind != PLAY or hand.trick or hand.to_move() != seat:
            return "your turn has passed to the other player: that move stands"
        return None

    def rematch(self, seed: int, *, guard: Guard | None = None) -> KlaberjassSession:
        return SESSIONS.new(
            seed=seed,
            humans=self.humans,
            level=self.level(),
            variant=self.match.rules.name,
            guard=self.guard if guard is None else guard,
        )


def reason_for(view: KlaberjassView, move: KlaberjassMove) -> str:
    """Why a computer level would make ``move``, in a few words for the player."""
    kind = move.kind
    if kind == TAKE:
        return "your hand is strong in the turned-up suit: its jack, nine and aces win tricks"
    if kind == NAME:
        return f"your hand is strongest in {SUIT_NAMES[move.card]}"
    if kind == PASS:
        return "your hand is too weak to make trump and win more points than the other"
    if kind == EXCHANGE:
        return "the turned-up card is worth more than the 7 of trump"
    if kind == KEEP:
        return "the 7 of trump is as good to you as the turned-up card"
    if kind == PLAY and view.trick:
        return "it takes the trick cheaply, or gives away the least if the trick is lost"
    if kind == PLAY:
        return "it leads from strength"
    return "it is the computer's choice"


class KlaberjassSessions(TwoSeatMaker[KlaberjassSession]):
    """How the registry makes Klaberjass sessions (its ``sessions`` hook)."""

    session = KlaberjassSession

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
    ) -> KlaberjassSession:
        rules = _rules(variant, length, seats)
        seats_kept = Seats(seed, frozenset(humans), level or KlaberjassSession.default_level)
        if seats_kept.bot not in BOTS:
            raise ValueError(
                f"unknown Klaberjass computer level {seats_kept.bot!r};"
                f" choose from {', '.join(BOTS)}"
            )
        match = KlaberjassMatch(
            rules,
            first_dealer=first_dealer_for(seed),
            players=seats_kept.players(),
            meta=seats_kept.meta(),
        )
        return KlaberjassSession.of_match(match, guard=guard or nullcontext)

    def between_bots(
        self,
        levels: Sequence[str],
        seed: Seed,
        *,
        variant: str | None = None,
        length: str | None = None,
        players: Sequence[str] | None = None,
    ) -> KlaberjassSession:
        rules = _rules(variant, length, len(levels))
        two = (levels[0], levels[1])
        match = KlaberjassMatch(
            rules,
            first_dealer=first_dealer_for(seed),
            players=tuple(players) if players else bots_named(two),
        )
        return KlaberjassSession(match, seed, two)


def _rules(variant: str | None, length: str | None, seats: int) -> Any:
    if seats != 2:
        raise ValueError("Klaberjass is a game for two")
    if length not in (None, "game"):
        raise ValueError(f"a game of Klaberjass is played to its target, not {length!r}")
    name = variant or "book"
    if name not in KLABERJASS_PRESETS:
        raise ValueError(
            f"no Klaberjass variant {name!r}; the variants are {', '.join(KLABERJASS_PRESETS)}"
        )
    return KLABERJASS_PRESETS[name]


SESSIONS: Final = KlaberjassSessions()
"""How Klaberjass's sessions are made (the registry's ``sessions`` hook)."""
