"""What a seat of three- or four-hand Gin Rummy is shown in the browser: the hand it
plays, laid out by the two-hand table (:func:`umtali.web.gin_table.gin_seat_table`),
and the whole game beside it (:class:`~umtali.web.protocol.PartyTable`).

A party game (:class:`~umtali.games.gin.party_session.GinPartySession`) is played hand by
hand, each hand an ordinary two-player hand with its own session. A seat is sent its
own view of the hand it plays, and of the others only what everyone knows: who plays
whom, and each hand's result once its deal is counted (so in four-hand the other
table's result comes when both hands are over, as it would at a real table). While it
sits out a hand of three-hand, a seat is shown the last hand it played.

Hands are numbered as the session numbers them: party hand ``k`` (from 1) is stored
as the game's hand ``k - 1``, each with its own deck commitment.

>>> from umtali.games.gin.party_session import GinPartySession
>>> party = GinPartySession.new(players=3, seed=4, humans={0}, bot="random")
>>> _ = party.deal()
>>> table = party_seat_table(party, 0, game_id=7, version=1, commitments={0: "c"},
...                          persons=frozenset({0}), told=PartyTold())
>>> table["party"].sits_out, table["view"], table["names"]
(True, None, ('Computer 2 (random)', 'Computer 3 (random)'))
>>> print(table["party"].seating)
Hand 1: Computer 2 (random) alone against Computer 3 (random), Computer 3 (random) to deal; you sit out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from umtali.games.gin.party import TEAMS, FourHandGame, ThreeHandGame, ThreeHandSeats
from umtali.games.gin.party_session import (
    GinPartySession,
    PartyHand,
    deal_sentence,
    draw_sentence,
    result_sentence,
    seating_sentence,
    teams_sentence,
    totals_sentence,
)
from umtali.games.gin.session import gin_variant, summarize_gin_hand
from umtali.games.gin.state import GinMove
from umtali.kernel.english import YOU
from umtali.web.gin_table import gin_hand_end, gin_seat_table
from umtali.web.protocol import (
    GinHandEnd,
    HandEnd,
    PartyHandResult,
    PartyTable,
    ScoreSheetModel,
)

__all__ = [
    "PartyTold",
    "party_last_move",
    "party_seat_table",
    "party_version",
    "seat_hand",
]


@dataclass
class PartyTold:
    """What the seats were told of finished hands: a hand over never changes, so its
    sentences are worked out once. ``results``: each hand's result by (party player,
    hand number); ``hand_ends``: by hand number, what the two-hand table keeps of its
    end (:func:`umtali.web.gin_table.gin_seat_table`'s ``hand_ends``)."""

    results: dict[tuple[int, int], PartyHandResult] = field(default_factory=dict)
    hand_ends: dict[int, dict[tuple[int, int], tuple[HandEnd, GinHandEnd]]] = field(
        default_factory=dict
    )


def party_version(party: GinPartySession) -> int:
    """Hands dealt plus moves played, over every hand: it grows with every stored
    change, as a game of two's version does."""
    return sum(1 + len(hand.session.match.hands[0].history) for hand in party.hands)


def party_last_move(hand: PartyHand) -> tuple[int, int, str, tuple[int, int] | None]:
    """The move just played at ``hand``, as the store keeps it: the game's hand index
    (party hand ``k`` is hand ``k - 1``), its index in the hand, its text, and the
    hand's scores when it ended the hand."""
    played = hand.session.match.hands[0]
    move_index = len(played.history) - 1
    text = GinMove.of_action(played.history[move_index][1]).text()
    scores = None if played.outcome is None else played.outcome.scores
    return hand.number - 1, move_index, text, scores


def seat_hand(party: GinPartySession, player: int) -> PartyHand | None:
    """The hand ``player`` plays now, else the last one he played (he sits out), else
    ``None`` (he has sat out every hand so far)."""
    return next((hand for hand in reversed(party.hands) if player in hand.table.players), None)


def _names_for(names: Sequence[str], player: int) -> tuple[str, ...]:
    """The party's names as ``player`` is addressed: himself as "You"."""
    return tuple(YOU if who == player else name for who, name in enumerate(names))


def _hand_results(
    party: GinPartySession, player: int, names: tuple[str, ...], told: PartyTold
) -> list[PartyHandResult]:
    """Every hand of the deals counted, as ``player`` is told them."""
    counted = len(party.hands) - len(party.under_way())
    results = []
    for hand in party.hands[:counted]:
        key = (player, hand.number)
        if key not in told.results:
            played = hand.session.match.hands[0]
            outcome = played.outcome
            assert outcome is not None  # a counted hand is over
            first, second = hand.table.players
            summary = summarize_gin_hand(played, (names[first], names[second]))
            told.results[key] = PartyHandResult(
                number=hand.number,
                hand_index=hand.number - 1,
                players=(first, second),
                dealer=hand.table.dealer,
                scores=outcome.scores,
                winner=None if outcome.winner is None else hand.table.players[outcome.winner],
                how=outcome.how,
                result=summary.result[:1].upper() + summary.result[1:],
            )
        results.append(told.results[key])
    return results


def _party_table(
    party: GinPartySession,
    player: int,
    persons: frozenset[int],
    told: PartyTold,
) -> PartyTable:
    game = party.game
    names = _names_for(party.names, player)
    over = party.is_over()
    seats = None if over else party.match.seats()
    sits_out = isinstance(seats, ThreeHandSeats) and seats.on_deck == player
    final: list[int] | None = None
    if over:
        final = list(game.result().final)
    four = isinstance(game, FourHandGame)
    return PartyTable(
        size=3 if isinstance(game, ThreeHandGame) else 4,
        you=player,
        players=list(names),
        kinds=["person" if who in persons else "computer" for who in range(party.size)],
        draw=draw_sentence(game, names),
        teams=list(TEAMS) if four else None,
        teams_sentence=teams_sentence(game, names),
        seating=None if seats is None else seating_sentence(seats, names),
        sits_out=sits_out,
        hands=_hand_results(party, player, names, told),
        last_deal=deal_sentence(game, names),
        totals=list(game.totals()),
        totals_sentence=totals_sentence(game, names),
        target=party.rules.game_target,
        over=over,
        result=result_sentence(game, names) if over else None,
        final=final,
    )


def _title(party: GinPartySession, hand: PartyHand, names: tuple[str, ...]) -> str:
    """The hand's title: which game, which hand (three-hand) or deal (four-hand), the
    target, and who deals."""
    size = "Three" if party.size == 3 else "Four"
    variant = gin_variant(party.rules)
    which = f"hand {hand.number}" if party.size == 3 else f"deal {(hand.number + 1) // 2}"
    dealer = names[hand.table.dealer]
    deals = "deal" if dealer == YOU else "deals"
    return f"{size}-hand {variant}, {which} (to {party.rules.game_target}) · {dealer} {deals}"


def party_seat_table(
    party: GinPartySession,
    player: int,
    *,
    game_id: int,
    version: int,
    commitments: dict[int, str],
    persons: frozenset[int],
    told: PartyTold,
    played_by_computer: bool = False,
) -> dict[str, Any]:
    """What the party's ``player`` is shown now, as :class:`SeatState`'s fields but who
    is present: the hand he plays (or last played) as the two-hand table lays it out,
    and the whole game in ``party``. ``commitments`` are the decks' commitments by the
    game's hand index; ``persons`` the players who play by link; ``told`` keeps what
    was worked out of finished hands; ``played_by_computer``: his seat was handed to
    the computer while he was away (he is offered no move)."""
    table = _party_table(party, player, persons, told)
    names = _names_for(party.names, player)
    hand = seat_hand(party, player)
    if hand is None:  # sat out every hand so far: only the public facts
        watched = party.hands[-1]
        first, second = watched.table.players
        return {
            "game": "gin",
            "rules": party.rules.name,
            "game_id": game_id,
            "seat": player,
            "version": version,
            "names": (names[first], names[second]),
            "kind": "game",
            "title": _title(party, watched, names),
            "hand_index": watched.number - 1,
            "commitment": commitments.get(watched.number - 1, ""),
            "view": None,
            "legal": [],
            "your_turn": False,
            "recap": [],
            "since_own_move": False,
            "scores": ScoreSheetModel(games=[], games_won=None, this_hand=None),
            "over": table.over,
            "result": table.result,
            "previous": None,
            "gin": None,
            "party": table,
        }
    seat = hand.table.players.index(player)
    ends = told.hand_ends.setdefault(hand.number, {})
    state = gin_seat_table(
        hand.session,
        seat,
        game_id=game_id,
        version=version,
        commitment=commitments.get(hand.number - 1, ""),
        played_by_computer=played_by_computer,
        hand_ends=ends,
    )
    # The end told is of the last hand this seat played that is over: this one, or
    # the one before it while this one is played. Each hand's own index is 0: the
    # game's is its number - 1.
    previous = gin_end = None
    ended = next(
        (
            past
            for past in reversed(party.hands)
            if player in past.table.players and past.session.match.hands[0].is_over()
        ),
        None,
    )
    if ended is not None:
        seat_then = ended.table.players.index(player)
        told_end = gin_hand_end(
            ended.session, seat_then, told.hand_ends.setdefault(ended.number, {})
        )
        assert told_end is not None
        previous = told_end[0].model_copy(update={"hand_index": ended.number - 1})
        gin_end = told_end[1].model_copy(update={"hand_index": ended.number - 1})
    gin = state["gin"].model_copy(update={"hand_end": gin_end})
    return {
        **state,
        "seat": player,  # the party's seat; the view's own is the hand's (0 or 1)
        "title": _title(party, hand, names),
        "hand_index": hand.number - 1,
        "over": table.over,
        "result": table.result,
        "previous": previous,
        "gin": gin,
        "party": table,
    }
