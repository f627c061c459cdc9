"""Three- and four-hand Gin Rummy (ruling G): who plays whom, the totals and the end of
the game over scripted results, real hands recorded, whole games between bots, and the
records the games refuse."""

from __future__ import annotations

import random

import pytest

from tests.test_gin import GIN_CARDS, SIXTY, gin_deck
from umtali.games.gin.party import (
    FourHandGame,
    GinPartyError,
    Table,
    ThreeHandGame,
    ThreeHandSeats,
    draw_order,
)
from umtali.games.gin.party_session import GinPartySession, PartyError
from umtali.games.gin.rules import GIN, OKLAHOMA, GinRules
from umtali.games.gin.state import GinHand, GinOutcome
from umtali.kernel.cards import parse_cards
from umtali.sim.arena import play_out


def bots_play(levels: tuple[str, ...], seed: int, rules: GinRules) -> GinPartySession:
    """A whole game between computers of ``levels``, played out as the arena plays it."""
    session = GinPartySession.between_bots(levels, seed, rules=rules)
    play_out(session)
    return session


def lone_wins(points: int) -> GinOutcome:
    """The lone player (seat 0 of a three-hand table) wins by a knock."""
    return GinOutcome("knock", 0, points, knocker=0)


def team_wins(points: int) -> GinOutcome:
    """The team's player (seat 1) wins, by an undercut of the lone player's knock."""
    return GinOutcome("undercut", 1, points, knocker=0)


DEAD: GinOutcome = GinOutcome("dead", None, 0)


def drawn(text: str) -> tuple[int, int, int]:
    first, second, third = parse_cards(text)
    return first, second, third


# -- three-hand --------------------------------------------------------------------------------


def test_the_draw_seats_the_high_card_alone_and_the_second_on_deck() -> None:
    # Player 0 draws 4♥, player 1 K♣, player 2 9♠.
    game = ThreeHandGame(drawn("4h Kc 9s"))
    seats = game.next_seats()
    assert (seats.lone, seats.on_deck, seats.partner) == (1, 2, 0)
    assert seats.table.dealer == 0  # the team's player deals the first hand
    # Aces are low; in one rank the suit decides, spades highest.
    assert draw_order(parse_cards("Ah 2c 2s")) == (2, 1, 0)
    assert draw_order(parse_cards("7s 7h Kd")) == (2, 0, 1)


def test_three_hand_rotation_over_a_win_a_dead_hand_and_two_losses() -> None:
    # Player 1 drew highest (K♣) and plays alone; player 2 (9♠) is on deck; player 0
    # (4♥) plays for the team and deals.
    game = ThreeHandGame(drawn("4h Kc 9s"))

    def play(lone: int, partner: int, on_deck: int, dealer: int, outcome: GinOutcome) -> None:
        seats = game.next_seats()
        assert (seats.lone, seats.partner, seats.on_deck, seats.table.dealer) == (
            lone,
            partner,
            on_deck,
            dealer,
        )
        game.record(seats, outcome)

    play(1, 0, 2, 0, lone_wins(20))  # the lone player wins: he stays, the deal passes
    assert game.totals() == (0, 20, 0)
    play(1, 0, 2, 1, DEAD)  # a dead hand: same players, same dealer
    assert game.totals() == (0, 20, 0)
    play(1, 0, 2, 1, team_wins(30))  # the lone player loses: 30 to both of the team
    assert game.totals() == (30, 20, 30)
    # Player 2 came off deck to play alone; player 1 plays for the team, player 0 waits.
    play(2, 1, 0, 1, team_wins(50))  # 50 to player 1 at the table and player 0 on deck
    assert game.totals() == (80, 70, 30)
    play(0, 2, 1, 0, lone_wins(25))  # player 0 reaches 105
    assert game.totals() == (105, 70, 30)
    assert game.is_over()
    assert game.hands_won() == (3, 2, 1)  # a team's hand counts for both its members
    result = game.result()
    assert (result.winners, result.shutout, result.game_bonus) == ((0,), False, 100)
    assert result.line == (75, 0, 0)  # the winner's hands alone (seed 004)
    assert result.final == (105 + 75 + 100, 70, 30)
    with pytest.raises(GinPartyError, match="the game is over"):
        game.next_seats()


def test_a_lone_player_who_wins_every_hand_shuts_the_others_out() -> None:
    game = ThreeHandGame(drawn("Qd 3c 8h"))  # player 0 alone
    for points in (60, 50):
        game.record(game.next_seats(), lone_wins(points))
    result = game.result()
    assert (result.winners, result.shutout, result.game_bonus) == ((0,), True, 200)
    assert result.final == (2 * (110 + 2 * 25) + 200, 0, 0)


def test_team_members_reaching_the_target_together_share_the_win() -> None:
    # Player 0 (K♠) alone; the team's gin of 105 in the first hand gives players 1 and
    # 2 105 each. Player 0 won no hand: a shutout for both winners.
    game = ThreeHandGame(drawn("Ks Qs 2c"))
    game.record(game.next_seats(), GinOutcome("gin", 1, 105, knocker=1))
    result = game.result()
    assert (result.winners, result.shutout) == ((1, 2), True)
    assert result.final == (0, 2 * (105 + 25) + 200, 2 * (105 + 25) + 200)


def test_the_higher_total_wins_when_two_pass_the_target_in_one_hand() -> None:
    game = ThreeHandGame(drawn("Ks Qs 2c"))  # player 0 alone, 1 on deck, 2 plays
    game.record(game.next_seats(), team_wins(40))  # (0, 40, 40); 1 alone, 0 plays, 2 waits
    game.record(game.next_seats(), team_wins(20))  # (20, 40, 60); 2 alone, 1 plays, 0 waits
    game.record(game.next_seats(), team_wins(80))  # players 1 and 0 pass 100 together
    assert game.totals() == (100, 120, 60)
    assert game.result().winners == (1,)


def test_three_hand_oklahoma_is_played_to_150() -> None:
    game = ThreeHandGame(drawn("Ks Qs 2c"), OKLAHOMA)
    game.record(game.next_seats(), lone_wins(120))
    assert not game.is_over()  # past 100, short of 150
    game.record(game.next_seats(), lone_wins(40))
    assert game.is_over()
    assert game.result().final[0] == 2 * (160 + 2 * 25) + 200  # a shutout in Oklahoma too


def test_a_real_hand_is_dealt_at_the_seats_and_recorded() -> None:
    # Player 1 alone (K♣) against player 0, who deals: the lone player holds the gin
    # hand, takes the 4♠ upcard and goes gin against 60 points.
    game = ThreeHandGame(drawn("4h Kc 9s"))
    hand = game.deal(gin_deck(GIN_CARDS, SIXTY, "4s"))
    assert hand.dealer == 1  # the hand's seat 1, player 0
    hand.push_text("take")
    hand.push_text("knock Kd")
    game.record(game.next_seats(), hand)
    assert game.totals() == (0, 85, 0)


def test_three_hand_refuses_what_was_not_played_as_named() -> None:
    game = ThreeHandGame(drawn("4h Kc 9s"))
    seats = game.next_seats()
    unfinished = game.deal(gin_deck(GIN_CARDS, SIXTY, "4s"))
    with pytest.raises(GinPartyError, match=r"is not finished \(player 1 to move\)"):
        game.record(seats, unfinished)
    wrong_dealer = GinHand(gin_deck(GIN_CARDS, SIXTY, "4s"), dealer=0)
    wrong_dealer.play_out(random.Random(1))
    with pytest.raises(
        GinPartyError, match=r"dealt by seat 0, but at this table .* the dealer sits at seat 1"
    ):
        game.record(seats, wrong_dealer)
    other_rules = GinHand(gin_deck(GIN_CARDS, SIXTY, "4s"), dealer=1, rules=OKLAHOMA)
    other_rules.play_out(random.Random(1))
    with pytest.raises(GinPartyError, match="'oklahoma' rules; this game plays 'standard'"):
        game.record(seats, other_rules)
    swapped = ThreeHandSeats(1, Table((0, 1), dealer=0), 2)
    with pytest.raises(GinPartyError, match="the next hand is hand 1: player 1 alone"):
        game.record(swapped, lone_wins(10))
    assert game.outcomes == []  # nothing was counted
    game.record(seats, lone_wins(10))
    with pytest.raises(GinPartyError, match="not the next hand's; the next hand is hand 2"):
        game.record(seats, lone_wins(10))  # the same hand twice
    with pytest.raises(GinPartyError, match="not over: nobody has 100 points"):
        game.result()
    with pytest.raises(GinPartyError, match="three different cards"):
        ThreeHandGame(drawn("4h 4h 9s"))


# -- four-hand ---------------------------------------------------------------------------------


def test_partners_swap_opponents_and_a_team_deals_at_both_tables_in_turn() -> None:
    game = FourHandGame(first_dealers=1)
    pairings = []
    for _ in range(4):
        seats = game.next_seats()
        pairings.append([(t.players, t.dealer) for t in seats.tables])
        game.record(seats, (DEAD, DEAD))
    assert pairings == [
        [((0, 1), 1), ((2, 3), 3)],
        [((0, 3), 0), ((2, 1), 2)],
        [((0, 1), 1), ((2, 3), 3)],
        [((0, 3), 0), ((2, 1), 2)],
    ]


def test_four_hand_team_totals_are_the_net_of_each_deal() -> None:
    game = FourHandGame()
    # Deal 1: player 0 beats player 1 by 17, player 2 loses to player 3 by 12: team 0
    # wins the deal by 5.
    game.record(game.next_seats(), (lone_wins(17), team_wins(12)))
    assert game.totals() == (5, 0)
    # Deal 2 (0 v 3, 2 v 1): team 1 wins both tables, 30 and 45.
    game.record(game.next_seats(), (team_wins(30), team_wins(45)))
    assert game.totals() == (5, 75)
    # Deal 3: one table dead; team 0 wins the other by 60.
    game.record(game.next_seats(), (DEAD, lone_wins(60)))
    assert game.totals() == (65, 75)
    # Deal 4: each team wins one table by 20: level, nobody scores.
    game.record(game.next_seats(), (lone_wins(20), team_wins(20)))
    assert game.deals[-1].winner is None
    assert game.totals() == (65, 75)
    assert not game.is_over()
    # Deal 5: team 1 wins by 40 and reaches 115.
    game.record(game.next_seats(), (team_wins(40), DEAD))
    assert game.is_over()
    assert game.deals_won() == (2, 2)
    result = game.result()
    assert (result.winner, result.points, result.shutout) == (1, (65, 115), False)
    assert result.line == (0, 50)
    assert result.final == (65, 115 + 50 + 100)


def test_a_four_hand_shutout() -> None:
    game = FourHandGame()
    game.record(game.next_seats(), (lone_wins(70), team_wins(10)))  # team 0 by 60
    game.record(game.next_seats(), (GinOutcome("gin", 0, 40), DEAD))  # 100
    result = game.result()
    assert (result.winner, result.shutout) == (0, True)
    assert result.final == (2 * (100 + 2 * 25) + 200, 0)


def test_four_hand_deals_real_hands_and_refuses_wrong_records() -> None:
    game = FourHandGame()
    seats = game.next_seats()
    # Table 0: player 0 (seat 0) deals, so player 1 holds the gin hand and goes gin.
    first, second = game.deal([gin_deck(GIN_CARDS, SIXTY, "4s"), gin_deck(SIXTY, GIN_CARDS, "4s")])
    first.push_text("take")
    first.push_text("knock Kd")
    with pytest.raises(GinPartyError, match="two hands, one per table"):
        game.record(seats, [first])
    with pytest.raises(
        GinPartyError, match=r"of player 2 against player 3 \(player 2 deals\) is not finished"
    ):
        game.record(seats, [first, second])
    # Table 1: player 2 deals, so player 3 is first offered the upcard.
    second.push_text("pass")
    second.push_text("take")  # player 2 (the dealer) holds the gin hand
    second.push_text("knock Kd")
    stale = FourHandGame().next_seats()
    game.record(seats, [first, second])
    assert game.totals() == (0, 0)  # 85 each way
    with pytest.raises(GinPartyError, match="not the next deal's; the next is deal 2"):
        game.record(stale, [DEAD, DEAD])
    with pytest.raises(GinPartyError, match="team 0 or 1, not 2"):
        FourHandGame(GIN, first_dealers=2)


# -- whole games between bots ------------------------------------------------------------------


def test_three_hand_bot_games_end_with_a_winner_and_keep_the_rotation() -> None:
    for seed, rules in ((1, GIN), (2, GIN), (3, OKLAHOMA)):
        game = bots_play(("expert", "greedy", "random"), seed, rules).party_game
        assert isinstance(game, ThreeHandGame)
        result = game.result()
        assert all(result.points[w] >= rules.game_target for w in result.winners)
        # The totals are every lone win once and every team win twice.
        expected = [0, 0, 0]
        for seats, outcome in game.outcomes:
            assert sorted((seats.lone, seats.partner, seats.on_deck)) == [0, 1, 2]
            if outcome.winner == 0:
                expected[seats.lone] += outcome.points
            elif outcome.winner == 1:
                expected[seats.partner] += outcome.points
                expected[seats.on_deck] += outcome.points
        assert tuple(expected) == game.totals()
        # Only a lone player's loss changes who plays whom.
        for (seats, outcome), (following, _) in zip(game.outcomes, game.outcomes[1:], strict=False):
            if outcome.winner == 1:
                assert (following.lone, following.partner) == (seats.on_deck, seats.lone)
            else:
                assert following.table.players == seats.table.players


def test_four_hand_bot_games_end_with_a_winner() -> None:
    for seed, rules in ((1, GIN), (2, OKLAHOMA)):
        game = bots_play(("expert", "greedy", "expert", "random"), seed, rules).party_game
        assert isinstance(game, FourHandGame)
        result = game.result()
        assert result.points[result.winner] >= rules.game_target
        assert result.points[1 - result.winner] < rules.game_target
        assert game.totals() == (
            sum(max(d.points[0] - d.points[1], 0) for d in game.deals),
            sum(max(d.points[1] - d.points[0], 0) for d in game.deals),
        )


def test_bot_games_need_one_level_per_player() -> None:
    with pytest.raises(PartyError, match="has 3 or 4 players: give 3 or 4 levels, not 2"):
        bots_play(("expert", "greedy"), 0, GIN)
    with pytest.raises(PartyError, match="choose from random, greedy, expert"):
        bots_play(("expert", "greedy", "expert", "master"), 0, GIN)
