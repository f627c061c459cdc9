"""Klaberjass in sentences for the players (layer 3): each move as it is told at the
table, a finished hand's account, and the game's last word.

Every move of Klaberjass is seen by both players (a bid, the exchange, a card played),
so a move's sentence names its cards whoever reads it. What a player may not know yet is
a sequence's cards: ruling K declares only who scores sequences, and how much, before the
first lead, and shows the scoring cards when the first trick is done; a losing sequence
is never shown. A replay (``reader`` ``None``) sees everything, so it names the scoring
cards at once.

>>> from umtali.kernel.deck import seeded_deck
>>> from umtali.games.klaberjass.terms import DECK
>>> hand = KlaberjassHand(seeded_deck(3, DECK), dealer=1)
>>> for text in ("pass", "pass", "name s"):
...     _ = hand.push_text(text)
>>> [tell_move(hand, i, ("Ann", "Bob")) for i in range(2)]
['Ann passes', 'Bob passes']
>>> tell_move(hand, 2, ("You", "Bob"), reader=0).startswith("You name ♠ as trump")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import (
    ACCEPT,
    EXCHANGE,
    KEEP,
    NAME,
    PASS,
    PLAY,
    REFUSE,
    SCHMEISS,
    TAKE,
    KlaberjassMove,
)
from umtali.games.klaberjass.state import LAST_TRICK, HandScore, KlaberjassHand
from umtali.games.klaberjass.terms import NATURAL, SUIT_NAMES, sequences
from umtali.kernel.cards import KING, QUEEN, SUIT_SYMBOLS, card_name, make_card, rank_of, suit_of
from umtali.kernel.english import YOU, object_name, plural, possessive, subject, verb_for

__all__ = [
    "TrickTaken",
    "game_result",
    "hand_result",
    "result_sentence",
    "scoring_sequences",
    "tell_move",
    "tricks_of",
]

_YOU_FORMS: Final = {
    "names": "name",
    "offers": "offer",
    "accepts": "accept",
    "refuses": "refuse",
    "exchanges": "exchange",
    "makes": "make",
    "fails": "fail",
    "shows": "show",
    "leads": "lead",
}
"""Verbs of Klaberjass that :func:`umtali.kernel.english.subject` does not put in the
second person itself."""


def _says(name: str, verb: str, *, capital: bool = True) -> str:
    """``name`` and ``verb`` (written for "he"), in the second person for "You"."""
    if name == YOU and verb in _YOU_FORMS:
        return f"{'You' if capital else 'you'} {_YOU_FORMS[verb]}"
    return subject(name, verb, capital=capital)


def _verb(name: str, verb: str) -> str:
    """``verb`` alone, as ``name`` takes it ("fails", or "fail" for "You")."""
    if name == YOU:
        return _YOU_FORMS.get(verb) or verb_for(name, verb)
    return verb


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_name(card) for card in cards)


# -- what the hand went through ------------------------------------------------------------


@dataclass(frozen=True)
class TrickTaken:
    """A trick done: the move that ended it (its index in the history), who ``won`` it,
    what it was worth (the last trick's 10 included) and whether it was the ``last``."""

    index: int
    won_by: int
    points: int
    last: bool


def _replayed(hand: KlaberjassHand, moves: int) -> KlaberjassHand:
    """A fresh copy of ``hand`` with its first ``moves`` moves played again."""
    again = KlaberjassHand(hand.deck, hand.dealer, hand.rules)
    for _, action in hand.history[:moves]:
        again.push(action)
    return again


def tricks_of(hand: KlaberjassHand) -> list[TrickTaken]:
    """The tricks of ``hand`` done so far, in order."""
    again = KlaberjassHand(hand.deck, hand.dealer, hand.rules)
    done = []
    for index, (_, action) in enumerate(hand.history):
        before = list(again.points)
        again.push(action)
        if action & 0xF == PLAY and not again.trick:
            winner = again.leader
            done.append(
                TrickTaken(index, winner, again.points[winner] - before[winner], again.is_over())
            )
    return done


def scoring_sequences(hand: KlaberjassHand) -> tuple[int | None, list[tuple[int, ...]]]:
    """Who scores sequences in ``hand`` (``None``: nobody) and the cards of each of his
    sequences, the best first (each as its cards in natural order, lowest first)."""
    points = hand.sequence_points()
    if points == (0, 0):
        return None, []
    owner = 0 if points[0] else 1
    held = hand.held(owner)
    runs = []
    for _value, top, suit in sequences(held):
        cards = []
        place = NATURAL.index(top)
        while place >= 0 and held >> make_card(NATURAL[place], suit) & 1:
            cards.append(make_card(NATURAL[place], suit))
            place -= 1
        runs.append(tuple(reversed(cards)))
    return owner, runs


def _declared(hand: KlaberjassHand, names: Sequence[str], *, show_cards: bool) -> str:
    """What ruling K declares before the first lead: who scores sequences and how much
    (their cards only if ``show_cards``); nothing when neither player holds one."""
    owner, runs = scoring_sequences(hand)
    if owner is None:
        held_any = any(sequences(hand.held(p)) for p in (0, 1))
        return "the sequences are equal: neither scores them" if held_any else ""
    points = hand.sequence_points()[owner]
    shown = f" ({'; '.join(_cards(run) for run in runs)})" if show_cards else ""
    return f"{_says(names[owner], 'scores', capital=False)} {points} for sequences{shown}"


def _bella_now(before: KlaberjassHand, card: int) -> bool:
    """Whether playing ``card`` now is the second of the king and queen of trump from
    the hand that held both: bella is announced with it."""
    trump = before.trump
    if suit_of(card) != trump or rank_of(card) not in (KING, QUEEN):
        return False
    player = before.player
    other = make_card(QUEEN if rank_of(card) == KING else KING, trump)
    held_both = before.held(player) >> other & 1
    return bool(held_both) and not before.hands[player] >> other & 1


# -- one move ------------------------------------------------------------------------------


def tell_move(
    hand: KlaberjassHand, index: int, names: Sequence[str], reader: int | None = None
) -> str:
    """Move ``index`` of ``hand``'s history as a sentence, the players called ``names``
    (the reader as "You", if the caller names him so), as ``reader`` learns it; with
    ``reader`` ``None`` (a replay) the scoring sequences' cards are named at once.

    The move that starts the play also tells the last card of the stock, shown to both,
    and who scores sequences; the move that ends a trick tells who wins it and its
    points; the first trick done shows the scoring sequences (ruling K).
    """
    before = _replayed(hand, index)
    _, action = hand.history[index]
    move = KlaberjassMove.of_action(action)
    player = before.player
    name = names[player]
    after = _replayed(hand, index + 1)
    kind = move.kind
    said: list[str] = []
    if kind == TAKE:
        suit = suit_of(before.turned)
        said.append(f"{_says(name, 'takes')}: {SUIT_NAMES[suit]} are trump")
    elif kind == PASS:
        if after.thrown_in():
            said.append(f"{_says(name, 'passes')} again: the hand is thrown in")
        else:
            said.append(f"{_says(name, 'passes')}{' again' if before.phase == 'bid2' else ''}")
    elif kind == NAME:
        said.append(f"{_says(name, 'names')} {SUIT_SYMBOLS[move.card]} as trump")
    elif kind == SCHMEISS:
        said.append(f"{_says(name, 'offers')} schmeiss")
    elif kind == ACCEPT:
        said.append(f"{_says(name, 'accepts')} schmeiss: the hand is thrown in")
    elif kind == REFUSE:
        maker = names[after.maker]
        said.append(
            f"{_says(name, 'refuses')} schmeiss: {_says(maker, 'makes', capital=False)}"
            f" {SUIT_NAMES[after.trump]} trump"
        )
    elif kind == EXCHANGE:
        seven = make_card(7, before.trump)
        said.append(
            f"{_says(name, 'exchanges')} the {card_name(seven)} for the {card_name(before.turned)}"
        )
    elif kind == KEEP:
        # The other player learns only that the 7 of trump stays where it was.
        kept = (
            "7 of trump" if reader not in (None, player) else card_name(make_card(7, before.trump))
        )
        said.append(f"{_says(name, 'keeps')} the {kept}")
    else:
        said.append(_told_play(before, after, index, move.card, names, reader))
    if kind != PLAY and before.phase != "play" and after.phase == "play":
        said.append(_play_begins(after, names, reader))
    return "; ".join(part for part in said if part)


def _play_begins(after: KlaberjassHand, names: Sequence[str], reader: int | None) -> str:
    """What both learn as the play begins: the last card of the stock and who scores
    sequences; and who leads."""
    parts = [f"the last card of the stock is the {card_name(after.bottom)}"]
    declared = _declared(after, names, show_cards=reader is None)
    if declared:
        parts.append(declared)
    parts.append(f"{_says(names[after.elder], 'leads', capital=False)}")
    return "; ".join(parts)


def _told_play(
    before: KlaberjassHand,
    after: KlaberjassHand,
    index: int,
    card: int,
    names: Sequence[str],
    reader: int | None,
) -> str:
    player = before.player
    sentence = f"{_says(names[player], 'plays')} the {card_name(card)}"
    if _bella_now(before, card):
        sentence += (
            f", the second of the K and Q of trump: bella, 20 to {object_name(names[player])}"
        )
    if after.trick:
        return sentence
    won_by = after.leader
    gained = after.points[won_by] - before.points[won_by]
    last = after.is_over()
    what = "the last trick" if last else "the trick"
    extra = f" with the {LAST_TRICK} for the last" if last else ""
    # The second card's player, taking the trick, is named once: "Bob plays the A♦ and
    # wins the trick", not "Bob plays the A♦; Bob wins the trick".
    wins = (
        f" and {_verb(names[won_by], 'wins')}"
        if won_by == player
        else f"; {_says(names[won_by], 'wins', capital=False)}"
    )
    sentence += f"{wins} {what}, {plural(gained, 'point')}{extra}"
    first_trick = sum(after.tricks_won) == 1
    if first_trick and reader is not None:
        owner, runs = scoring_sequences(after)
        if owner is not None:
            shown = "; ".join(_cards(run) for run in runs)
            what = "sequence" if len(runs) == 1 else "sequences"
            sentence += f"; {_says(names[owner], 'shows', capital=False)} the {what}: {shown}"
    return sentence


# -- a hand's end and the game's ---------------------------------------------------------


def result_sentence(score: HandScore, names: Sequence[str]) -> str:
    """How a finished hand scores, by the maker's rule (ruling K).

    >>> result_sentence(HandScore((55, 70), 0, "failed", (0, 125), 0), ("Ann", "Bob"))
    'Ann made trump with 55 against 70 and fails: Bob scores both, 125'
    >>> result_sentence(HandScore((80, 62), 1, "failed", (142, 0), 0), ("Ann", "You"))
    'You made trump with 62 against 80 and fail: Ann scores both, 142'
    >>> result_sentence(HandScore((80, 62), 0, "made", (80, 62), 0), ("Ann", "Bob"))
    'Ann made trump with 80 against 62 and makes it: each scores his own, Ann 80 and Bob 62'
    >>> result_sentence(HandScore((71, 71), 1, "tied", (71, 0), 71), ("Ann", "Bob"))
    "Bob made trump with 71 against 71, a tie: Ann scores 71, and Bob's 71 goes to the pot"
    """
    if score.maker is None:
        return "The hand is thrown in: nobody scores"
    maker = score.maker
    other = 1 - maker
    totals = score.totals
    made = f"{names[maker]} made trump with {totals[maker]} against {totals[other]}"
    if score.result == "made":
        return (
            f"{made} and {_verb(names[maker], 'makes')} it: each scores his own,"
            f" {names[0]} {score.scores[0]} and {names[1]} {score.scores[1]}"
        )
    if score.result == "failed":
        return (
            f"{made} and {_verb(names[maker], 'fails')}: {_says(names[other], 'scores')}"
            f" both, {score.scores[other]}"
        )
    return (
        f"{made}, a tie: {_says(names[other], 'scores')} {totals[other]},"
        f" and {possessive(names[maker])} {totals[maker]} goes to the pot"
    )


def hand_result(hand: KlaberjassHand, names: Sequence[str]) -> str:
    """A finished hand's account: who scored sequences and how much, bella, the last
    trick, each player's total, and how the maker fared (ruling K). A losing sequence
    is not named; nor is a hand thrown in given more than that.

    >>> from umtali.kernel.deck import seeded_deck
    >>> from umtali.games.klaberjass.terms import DECK
    >>> hand = KlaberjassHand(seeded_deck(3, DECK), dealer=1)
    >>> for text in ("pass", "pass", "pass", "pass"):
    ...     _ = hand.push_text(text)
    >>> hand_result(hand, ("Ann", "Bob"))
    'Both passed twice. The hand is thrown in: nobody scores.'
    """
    score = hand.outcome()
    if score is None:
        raise ValueError("the hand is not over: it has no result yet")
    if score.maker is None:
        why = "Schmeiss was accepted" if hand.schmeiss_by >= 0 else "Both passed twice"
        return f"{why}. {result_sentence(score, names)}."
    parts = []
    owner, runs = scoring_sequences(hand)
    if owner is not None:
        shown = "; ".join(_cards(run) for run in runs)
        value = hand.sequence_points()[owner]
        parts.append(f"{_says(names[owner], 'scores')} {value} for sequences ({shown})")
    elif any(sequences(hand.held(p)) for p in (0, 1)):
        parts.append("The sequences were equal: neither scored them")
    for player, points in enumerate(hand.bella()):
        if points:
            parts.append(f"{_says(names[player], 'scores')} {points} for bella")
    tricks = tricks_of(hand)
    if tricks:
        last = tricks[-1].won_by
        parts.append(f"{_says(names[last], 'takes')} the last trick, {LAST_TRICK}")
    totals = score.totals
    parts.append(f"The totals: {names[0]} {totals[0]}, {names[1]} {totals[1]}")
    parts.append(result_sentence(score, names))
    return ". ".join(parts) + "."


def game_result(match: KlaberjassMatch, names: Sequence[str]) -> str:
    """The game's last word: who won, the totals, and a pot lost if one was waiting;
    or, unfinished, where it stands.

    >>> game_result(KlaberjassMatch(), ("Ann", "Bob"))
    'The game is unfinished: Ann 0, Bob 0.'
    """
    standing = match.standing()
    a, b = standing.totals
    winner = match.winner()
    if winner is None:
        pot = f"; {standing.pot} wait in the pot" if standing.pot else ""
        return f"The game is unfinished: {names[0]} {a}, {names[1]} {b}{pot}."
    loser = 1 - winner
    totals = standing.totals
    lost = f" The pot of {standing.pot} is lost." if standing.pot else ""
    return f"{_says(names[winner], 'wins')} the game, {totals[winner]} to {totals[loser]}.{lost}"
