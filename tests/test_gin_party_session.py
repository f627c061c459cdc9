"""Three- and four-hand Gin Rummy at a table (``umtali.games.gin.party_session``): the seats,
the seed scheme, each person's own view, the counting of the hands, and the words the
players are told between them."""

from __future__ import annotations

import pytest

from umtali.games.gin.bots import make_gin_bot
from umtali.games.gin.party import FourHandGame, ThreeHandGame
from umtali.games.gin.party_session import GinPartySession, PartyError
from umtali.games.gin.rules import OKLAHOMA
from umtali.games.gin.view import GinView
from umtali.kernel.seeds import decision_rng, deck_for
from umtali.session.shared import Accepted


def play_whole(party: GinPartySession) -> int:
    """Deal, play out (every seat a computer's) and count hands to the end; how many
    hands were dealt."""
    while not party.is_over():
        for hand in party.deal():
            party.play_out(hand)
        party.count()
    return len(party.hands)


def play_deal(party: GinPartySession) -> None:
    """Deal and play the next hand or deal, a person always playing the first move
    listed, then count it."""
    for hand in party.deal():
        session = hand.session
        while (seat := session.to_move()) is not None:
            if seat in session.humans:
                reply = session.submit(seat, session.view(seat).legal[0])
                assert isinstance(reply, Accepted), reply
            else:
                session.bot_move()
    party.count()


def test_the_computer_fills_every_seat_the_person_does_not_take() -> None:
    party = GinPartySession.new(players=4, seed=8, humans={0}, bot="greedy")
    assert party.names == (
        "You",
        "Computer 2 (Casual)",
        "Computer 3 (Casual)",
        "Computer 4 (Casual)",
    )
    assert party.levels == (None, "greedy", "greedy", "greedy")
    assert not party.hotseat
    assert isinstance(party.party_game, FourHandGame)
    everyone = GinPartySession.new(players=3, seed=8, humans={0, 1, 2})
    assert everyone.names == ("Player 1", "Player 2", "Player 3")
    assert everyone.hotseat
    assert isinstance(everyone.party_game, ThreeHandGame)


@pytest.mark.parametrize(
    ("players", "humans", "bot", "message"),
    [
        (2, {0}, "expert", "has 3 or 4 players, not 2"),
        (5, {0}, "expert", "has 3 or 4 players, not 5"),
        (3, {3}, "expert", "the people sit at some of the seats 0 to 2, not [3]"),
        (3, set(), "expert", "the people sit at some of the seats 0 to 2, not []"),
        (4, {0}, "openspiel", "unknown Gin Rummy bot level 'openspiel'"),
    ],
)
def test_a_party_that_cannot_be_seated_is_refused(
    players: int, humans: set[int], bot: str, message: str
) -> None:
    with pytest.raises(PartyError, match=message.replace("[", r"\[").replace("]", r"\]")):
        GinPartySession.new(players=players, seed=1, humans=humans, bot=bot)


def test_each_hand_is_dealt_from_its_own_seed_and_decided_by_its_own_rng() -> None:
    # Four-hand: a deal is two hands, party hands 0 and 1, each dealt as hand 0 of the
    # session seeded "SEED/k".
    party = GinPartySession.new(players=4, seed=21, humans={0}, bot="random")
    hands = party.deal()
    assert sorted(hand.number for hand in hands) == [1, 2]
    for hand in hands:
        assert hand.session.seed == f"21/{hand.number - 1}"
        assert hand.session.match.hands[0].deck == deck_for(f"21/{hand.number - 1}", 0)
    # The computers' table: its first move is the one its bot makes from its own RNG.
    computers = next(hand for hand in hands if 0 not in hand.table.players)
    assert computers.number == 2  # the second table's hand: party hand 1
    session = computers.session
    dealt = session.match.hands[0]
    mover = dealt.to_move()
    assert mover is not None
    rng = decision_rng("21/1", 0, 0)
    expected = make_gin_bot("random").choose(GinView.of(dealt, mover), rng)
    assert session.bot_move().move == expected


def test_the_same_seed_plays_the_same_game() -> None:
    first = GinPartySession.between_bots(("greedy", "random", "greedy"), 5)
    second = GinPartySession.between_bots(("greedy", "random", "greedy"), 5)
    count = play_whole(first)
    assert play_whole(second) == count
    assert first.party_game.totals() == second.party_game.totals()
    assert [h.session.match.hands[0].history for h in first.hands] == [
        h.session.match.hands[0].history for h in second.hands
    ]


def test_a_person_sees_only_his_own_cards_at_his_table() -> None:
    party = GinPartySession.new(players=3, seed=2, humans={0, 1, 2}, bot="random")
    (hand,) = party.deal()
    lone, partner = hand.table.players
    played = hand.session.match.hands[0]
    for player in (lone, partner):
        seat = hand.seat_of(player)
        assert seat is not None
        view = hand.session.view(seat)
        assert view.hand == played.hand(seat)
        assert view.hand & played.hand(1 - seat) == 0
        assert view.opponent_cards == played.hand(1 - seat).bit_count()
    on_deck = ({0, 1, 2} - {lone, partner}).pop()
    assert hand.seat_of(on_deck) is None


def test_a_hand_is_counted_only_once_it_is_over_and_the_next_only_then_dealt() -> None:
    party = GinPartySession.new(players=3, seed=3, humans={0}, bot="random")
    with pytest.raises(PartyError, match="no hand has been dealt to count"):
        party.count()
    (hand,) = party.deal()
    with pytest.raises(PartyError, match="not over yet: play it to its end first"):
        party.count()
    with pytest.raises(PartyError, match="the hands dealt are not over yet"):
        party.deal()
    while (seat := hand.session.to_move()) is not None:
        hand.session.submit(seat, hand.session.view(seat).legal[0])
    party.count()
    outcome = hand.session.match.hands[0].outcome
    assert outcome is not None
    # The points went where three-hand sends them: to the lone player, or to the team.
    totals = party.party_game.totals()
    assert sum(totals) == outcome.points * (1 if outcome.winner == 0 else 2)


def test_three_hand_words_follow_the_draw_the_seats_and_the_totals() -> None:
    # Seed 5: you drew K♥ and play alone; Computer 3 (10♣) sits out; Computer 2 (7♠)
    # plays for the team and deals.
    party = GinPartySession.new(players=3, seed=5, humans={0}, bot="greedy")
    assert party.draw_sentence() == (
        "You drew K♥ and play alone first; Computer 3 (Casual) drew 10♣ and sits out;"
        " Computer 2 (Casual) drew 7♠ and plays for the team."
    )
    assert party.teams_sentence() is None
    hands = party.deal()
    assert party.seating(hands) == (
        "Hand 1: you alone against Computer 2 (Casual), Computer 2 (Casual) to deal;"
        " Computer 3 (Casual) sits out."
    )
    while (seat := hands[0].session.to_move()) is not None:
        if seat == 0:  # you, alone at seat 0: always the first move listed
            hands[0].session.submit(0, hands[0].session.view(0).legal[0])
        else:
            hands[0].session.bot_move()
    party.count()
    assert isinstance(party.party_game, ThreeHandGame)
    a, b, c = party.party_game.totals()
    assert party.totals_sentence() == (
        f"Totals: you {a}, Computer 2 (Casual) {b}, Computer 3 (Casual) {c} (to 100)."
    )
    assert party.deal_sentence() is None


def test_four_hand_words_name_the_teams_and_what_a_deal_scored() -> None:
    party = GinPartySession.new(players=4, seed=5, humans={0}, bot="greedy", rules=OKLAHOMA)
    assert party.teams_sentence() == (
        "You and Computer 3 (Casual) play as a team against Computer 2 (Casual) and"
        " Computer 4 (Casual); partners change opponents every deal."
    )
    play_deal(party)
    assert isinstance(party.party_game, FourHandGame)
    played = party.party_game.deals[-1]
    first, second = played.points
    made = (
        f"In deal 1 you and Computer 3 (Casual) made {first} and Computer 2 (Casual) and"
        f" Computer 4 (Casual) {second}"
    )
    if played.winner is None:
        assert party.deal_sentence() == f"{made}: level, so nobody scores."
    else:
        team = ("You and Computer 3 (Casual)", "Computer 2 (Casual) and Computer 4 (Casual)")
        net = played.net[played.winner]
        assert party.deal_sentence() == (
            f"{made}. {team[played.winner]} score the difference, {net}."
        )
    assert party.totals_sentence().endswith(f"{party.party_game.totals()[1]} (to 150).")


def test_a_whole_game_ends_with_the_winners_and_the_bonuses() -> None:
    party = GinPartySession.between_bots(("greedy", "expert", "greedy", "expert"), 9)
    assert party.result_sentence() == "The game is not over."
    play_whole(party)
    assert isinstance(party.party_game, FourHandGame)
    result = party.party_game.result()
    sentence = party.result_sentence()
    winners = (
        "Computer 1 (Casual) and Computer 3 (Casual)",
        "Computer 2 (Expert) and Computer 4 (Expert)",
    )
    assert sentence.startswith(f"{winners[result.winner]} win the game.")
    assert f"{result.final[0]}, " in sentence
    assert sentence.count("shutout") == result.shutout


def test_a_whole_three_hand_game_with_a_person_ends_with_every_total() -> None:
    party = GinPartySession.new(players=3, seed=6, humans={1}, bot="greedy")
    while not party.is_over():
        play_deal(party)
    result = party.party_game.result()
    assert isinstance(party.party_game, ThreeHandGame)
    assert max(party.party_game.totals()) >= 100
    finals = ", ".join(
        f"{name if name != 'You' else 'you'} {final}"
        for name, final in zip(party.names, result.final, strict=True)
    )
    assert f"and {result.game_bonus} for the game: {finals}." in party.result_sentence()
