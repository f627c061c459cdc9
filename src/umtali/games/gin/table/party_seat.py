"""What a seat of three- or four-hand Gin Rummy is shown in the browser (layer 7): the
hand it plays, laid out by the table of two (:func:`umtali.games.gin.table.seat.seat_table`),
and the whole game beside it (:class:`~umtali.games.gin.table.models.PartyTable`).

A party game (:class:`~umtali.games.gin.party_session.GinPartySession`) is played hand by
hand, each hand an ordinary two-player hand with its own session. A seat is sent its
own view of the hand it plays, and of the others only what everyone knows: who plays
whom, and each hand's result once its deal is counted (so in four-hand the other
table's result comes when both hands are over, as it would at a real table). While it
sits out a hand of three-hand, a seat is shown the last hand it played.

Hands are numbered as the session numbers them: party hand ``k`` (from 1) is stored
as the game's hand ``k - 1``.

>>> from umtali.games.gin.party_session import GinPartySession
>>> party = GinPartySession.new(players=3, seed=4, humans={0}, bot="random")
>>> _ = party.deal()
>>> table = party_seat_table(party, 0, frozenset({0}), {})
>>> table["party"].sits_out, table["view"], table["names"]
(True, None, ('Computer 2 (Beginner)', 'Computer 3 (Beginner)'))
>>> print(table["party"].seating)
Hand 1: Computer 2 (Beginner) alone against Computer 3 (Beginner), Computer 3 (Beginner) to deal; you sit out.
"""

from __future__ import annotations

from collections.abc import Hashable
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
from umtali.games.gin.table.models import GinTable, PartyHandResult, PartyTable
from umtali.games.gin.table.seat import hand_end, seat_table
from umtali.kernel.english import YOU
from umtali.web.protocol import ScoreSheetModel, hand_heading

__all__ = ["hands_counted", "party_seat_table"]


def hands_counted(party: GinPartySession) -> int:
    """The hands of the deals counted: every hand but those under way (both hands of a
    four-hand deal are counted together)."""
    return len(party.hands) - len(party.under_way())


def _hand_results(
    party: GinPartySession, player: int, names: tuple[str, ...], told: dict[Hashable, Any]
) -> list[PartyHandResult]:
    """Every hand of the deals counted, as ``player`` is told them."""
    results = []
    for hand in party.hands[: hands_counted(party)]:
        key = ("party result", player, hand.number)
        if key not in told:
            played = hand.session.match.hands[0]
            outcome = played.outcome
            assert outcome is not None  # a counted hand is over
            first, second = hand.table.players
            summary = summarize_gin_hand(played, (names[first], names[second]))
            told[key] = PartyHandResult(
                number=hand.number,
                hand_index=hand.number - 1,
                players=(first, second),
                dealer=hand.table.dealer,
                scores=outcome.scores,
                winner=None if outcome.winner is None else hand.table.players[outcome.winner],
                how=outcome.how,
                result=summary.result[:1].upper() + summary.result[1:],
            )
        results.append(told[key])
    return results


def _party_table(
    party: GinPartySession, player: int, persons: frozenset[int], told: dict[Hashable, Any]
) -> PartyTable:
    game = party.party_game
    names = party.names_for(player)
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


def _watching(party: GinPartySession, player: int, table: PartyTable) -> dict[str, Any]:
    """What a player who has sat out every hand so far is shown: only the public facts
    of the hand being played."""
    names = party.names_for(player)
    watched = party.hands[-1]
    first, second = watched.table.players
    return {
        "rules": party.rules.name,
        "names": (names[first], names[second]),
        "kind": "game",
        "title": _title(party, watched, names),
        "hand_index": watched.number - 1,
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


def party_seat_table(
    party: GinPartySession, player: int, persons: frozenset[int], told: dict[Hashable, Any]
) -> dict[str, Any]:
    """What the party's ``player`` is shown now, as :class:`GinSeatState`'s fields but
    those the server fills in: the hand he plays (or last played) as the table of two
    lays it out, and the whole game in ``party``. ``persons`` are the players who play
    by link; ``told`` keeps what was worked out of finished hands."""
    table = _party_table(party, player, persons, told)
    hand = party.seat_hand(player)
    if hand is None:  # sat out every hand so far
        return _watching(party, player, table)
    state = seat_table(
        hand.session, hand.table.players.index(player), told, ("party hand", hand.number)
    )
    # The end told is of the last hand this seat played that is over: this one, or
    # the one before it while this one is played. Each hand's own index is 0: the
    # game's is its number - 1.
    previous = end = None
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
        told_end = hand_end(ended.session, seat_then, told, ("party hand", ended.number))
        assert told_end is not None
        told_previous = told_end[0]
        names = (told_previous.sides[0].name, told_previous.sides[1].name)
        # A party's totals are the standings' (by player or team), not the hand's own.
        previous = told_previous.model_copy(
            update={
                "hand_index": ended.number - 1,
                "heading": hand_heading(ended.number - 1, names, told_previous.scores),
                "sides": [side.model_copy(update={"total": None}) for side in told_previous.sides],
            }
        )
        end = told_end[1].model_copy(update={"hand_index": ended.number - 1})
    gin = state["gin"]
    assert isinstance(gin, GinTable)
    return {
        **state,
        "title": _title(party, hand, party.names_for(player)),
        "hand_index": hand.number - 1,
        "over": table.over,
        "result": table.result,
        "previous": previous,
        "gin": gin.model_copy(update={"hand_end": end}),
        "party": table,
    }
