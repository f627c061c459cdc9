"""Umtali as an OpenSpiel game (umtali.rl.openspiel): OpenSpiel's own checks, the book's
hands replayed through chance nodes with their scores, what each player is shown, clone,
serialisation and resampling."""

from __future__ import annotations

import random

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pytest

from tests.helpers import NOT_THE_STATE, load_example
from umtali.games.umtali.lessons import LESSONS, Lesson
from umtali.games.umtali.research.actions import DRAW, NUM_ACTIONS, engine_action, index_of
from umtali.games.umtali.research.observation import Observer, max_moves
from umtali.games.umtali.research.openspiel import (
    GAME_NAME,
    OpenSpielOptionError,
    UmtaliState,
    max_margin,
    play_indices,
)
from umtali.games.umtali.rules import STANDARD
from umtali.games.umtali.state import HandState, NotInStockError
from umtali.games.umtali.terms import Phase
from umtali.kernel.cards import card_name


@pytest.fixture(scope="module")
def game() -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME)


@pytest.mark.parametrize(("rules", "dealer"), [("standard", 0), ("standard", 1), ("practical", 0)])
def test_openspiel_random_sim_test_passes(rules: str, dealer: int) -> None:
    # OpenSpiel's checker: legal actions sorted and only the mover's, masks, clone and
    # serialise round trips at every node, chance outcomes summing to 1, returns in
    # bounds and equal to the rewards' sum, the game no longer than its bound.
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "dealer": dealer})
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_game_facts(game: pyspiel.Game) -> None:
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 52
    # All 116 card points and the four marriages' doubling, to one side.
    assert (game.min_utility(), game.max_utility()) == (-156.0, 156.0)
    assert max_margin(STANDARD) == 156
    assert game.max_game_length() == max_moves(STANDARD) == 255
    observed = len(Observer(STANDARD, flat=True).observe(HandState.from_seed(1), 0)["observation"])
    assert game.observation_tensor_shape() == [observed]
    # and the history: 255 rows of v1's 119 columns, or v0's two entries
    assert game.information_state_tensor_shape() == [observed + 255 * 119]
    first = pyspiel.load_game(GAME_NAME, {"encoding": "v0"})
    observed = len(
        Observer(STANDARD, flat=True, encoding="v0").observe(HandState.from_seed(1), 0)[
            "observation"
        ]
    )
    assert first.observation_tensor_shape() == [observed] == [1167]
    assert first.information_state_tensor_shape() == [observed + 255 * 2]


def test_unknown_parameters_are_refused() -> None:
    with pytest.raises(OpenSpielOptionError, match="one of practical, standard; not 'house'"):
        pyspiel.load_game(GAME_NAME, {"rules": "house"})
    with pytest.raises(OpenSpielOptionError, match="seat 0 or 1, not 2"):
        pyspiel.load_game(GAME_NAME, {"dealer": 2})
    with pytest.raises(OpenSpielOptionError, match="encoding is one of v0, v1, not 'v2'"):
        pyspiel.load_game(GAME_NAME, {"encoding": "v2"})


def _replay_lesson(lesson: Lesson) -> UmtaliState:
    """The lesson's hand through the OpenSpiel game: its deck's first 21 cards as the
    deal's chance outcomes, each draw's card as the next one of the deck."""
    game = pyspiel.load_game(GAME_NAME, {"dealer": lesson.dealer})
    deck = lesson.deck()
    state = play_indices(game, deck[:21])
    stock = iter(deck[21:])
    for _, text in lesson.moves():
        hand = state.hand.state
        assert hand is not None
        index = index_of(hand.parse_move(text))
        state.apply_action(index)
        if index == DRAW:
            assert state.is_chance_node()
            state.apply_action(next(stock))
    return state


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"hand{lesson.number}")
def test_book_hands_end_with_the_books_scores(lesson: Lesson) -> None:
    # Hand 1, dealt by Player 2:  Player 2  K♠ 9♠ K♥ 7♥ 5♥ 3♥ 2♥ A♥ K♣ 9♣ 10♦ (keeps the 11th)
    #                             Player 1  J♠ 7♠ 6♠ 5♠ 10♥ 6♥ 10♣ 5♣ Q♦ J♦
    # ... and the three other hands of the book's game: 31-28, 40-22, 33-52, 55-8.
    state = _replay_lesson(lesson)
    ours, theirs = lesson.scores
    assert state.is_terminal()
    assert state.returns() == [ours - theirs, theirs - ours]
    # The history (chance outcomes and moves) replays the hand exactly.
    again = play_indices(state.get_game(), state.history())
    assert str(again) == str(state)
    assert again.returns() == state.returns()


def test_a_draw_is_a_chance_node_over_the_unseen_cards() -> None:
    lesson = LESSONS[0]
    deck = lesson.deck()
    state = play_indices(pyspiel.load_game(GAME_NAME, {"dealer": lesson.dealer}), deck[:21])
    # Player 2 deals and keeps: K♠ K♥ K♣, 3♥ 2♥ A♥ and 5♥ go down; Player 1 then draws.
    for text in ("keep", "meld K♠ K♥ K♣", "meld 3♥ 2♥ A♥", "discard 5♥", "draw"):
        hand = state.hand.state
        assert hand is not None
        state.apply_action(index_of(hand.parse_move(text)))
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    # Nobody has seen the 31 cards after the deal: each is as likely to come.
    assert sorted(c for c, _ in outcomes) == sorted(deck[21:])
    assert {p for _, p in outcomes} == {1 / 31}
    before = state.information_state_string(1)
    state.apply_action(deck[21])  # 4♣, the book's draw
    assert card_name(deck[21]) == "4♣"
    assert state.information_state_string(0).endswith("Player 1: draw\ndrew 4♣")
    assert state.information_state_string(1) == before  # Player 2 saw "draw" already
    assert "4♣" not in state.observation_string(1)
    assert "4♣" in state.observation_string(0)


def fields(hand: HandState) -> dict[str, object]:
    """Every field of ``hand`` but its caches (lists as tuples: a snapshot)."""
    return {
        name: tuple(value) if isinstance(value, list) else value
        for name in HandState.__slots__
        if name not in NOT_THE_STATE
        for value in (getattr(hand, name),)
    }


def test_placing_the_next_draw_swaps_it_with_the_stocks_top_card_and_nothing_else() -> None:
    # The chance node of a draw picks its card; the engine then finds it on top of the
    # stock. Seed 5, played at random through the opening turn to the first draw.
    hand, rng = HandState.from_seed(5), random.Random(5)
    while hand.phase != Phase.DRAW:
        legal = hand.legal_actions()
        hand.push(legal[rng.randrange(len(legal))])
    drawer = hand.player
    stock = hand.stock_cards()
    card, top = stock[7], stock[0]
    before = fields(hand)
    hand.place_next_draw(card)
    after = fields(hand)
    assert hand.stock_cards() == [card, *stock[1:7], top, *stock[8:]]
    assert hand.deck[21:] == hand.stock  # a dealt hand keeps its deck's tail its stock
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"stock", "deck"}
    hand.push(engine_action(DRAW))
    assert hand.hands[drawer] >> card & 1
    assert hand.stock_size() == len(stock) - 1
    with pytest.raises(NotInStockError, match=f"{card_name(card)} is not in the stock: the next"):
        hand.place_next_draw(card)  # drawn already
    with pytest.raises(NotInStockError, match="'7' is not in the stock"):
        hand.place_next_draw("7")  # type: ignore[arg-type]
    assert hand.stock_cards() == [*stock[1:7], top, *stock[8:]]  # refused: nothing moved


def test_nobody_sees_a_card_before_the_dealers_choice(game: pyspiel.Game) -> None:
    state = play_indices(game, range(21))
    assert state.current_player() == 0  # the dealer chooses keep or give (R1)
    for seat in (0, 1):
        assert state.information_state_string(seat) == f"Player {seat + 1}"
        assert not np.asarray(state.observation_tensor(seat))[:52].any()  # an empty hand
    state.apply_action(index_of(state.hand.state.parse_move("give")))  # type: ignore[union-attr]
    assert state.current_player() == 1  # the non-dealer got 11 cards and starts
    assert "dealt: " in state.information_state_string(1)


def test_tensors_are_the_observers(game: pyspiel.Game) -> None:
    state = _replay_lesson(LESSONS[1])
    hand = state.hand.state
    assert hand is not None
    for seat in (0, 1):
        flat = Observer(STANDARD, flat=True).observe(hand, seat)["observation"]
        assert np.array_equal(np.asarray(state.observation_tensor(seat)), flat)
        recall = Observer(STANDARD, perfect_recall=True, flat=True).observe(hand, seat)
        assert np.array_equal(
            np.asarray(state.information_state_tensor(seat)), recall["observation"]
        )
    # During the deal nothing is known: the tensors are all zero.
    dealing = play_indices(game, range(5))
    assert not np.asarray(dealing.information_state_tensor(0)).any()


def _random_state(game: pyspiel.Game, seed: int, moves: int) -> UmtaliState:
    rng = random.Random(seed)
    state: UmtaliState = game.new_initial_state()
    played = 0
    while not state.is_terminal() and (played < moves or not state.is_player_node()):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            played += 1
    return state


def test_clone_and_serialisation_keep_the_state(game: pyspiel.Game) -> None:
    state = _random_state(game, seed=3, moves=20)
    clone = state.clone()
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    for copy in (clone, restored):
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        for seat in (0, 1):
            assert copy.information_state_string(seat) == state.information_state_string(seat)
    # A clone moves on its own: the original stays where it was.
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before
    assert len(clone.history()) == len(state.history()) + 1


def test_resampling_keeps_what_the_player_knows(game: pyspiel.Game) -> None:
    state = _random_state(game, seed=5, moves=12)
    seat = state.current_player()
    hand = state.hand.state
    assert hand is not None
    rng = random.Random(1)
    others = set()
    for _ in range(5):
        world = state.resample_from_infostate(seat, rng.random)
        other = world.hand.state
        assert other is not None
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        assert world.legal_actions() == state.legal_actions()
        assert other.hands[seat] == hand.hands[seat]
        assert other.hands[1 - seat].bit_count() == hand.hands[1 - seat].bit_count()
        others.add(other.hands[1 - seat])
        # The same move in both leaves them alike to him, the move recalled after the rest.
        move = state.legal_actions()[0]
        real = state.clone()
        real.apply_action(move)
        world.apply_action(move)
        assert world.information_state_tensor(seat) == real.information_state_tensor(seat)
        assert world.information_state_string(seat) == real.information_state_string(seat)
        # A world plays on to its end like any state.
        while not world.is_terminal():
            if world.is_chance_node():
                world.apply_action(world.chance_outcomes()[0][0])
            else:
                world.apply_action(world.legal_actions()[-1])
    assert len(others) > 1  # the opponent's hidden cards were dealt again


def test_the_ismcts_example_plays_reproducibly() -> None:
    example = load_example("openspiel_ismcts")
    first = example.play_deals(deals=1, simulations=3, opponent="random", seed=4)
    again = example.play_deals(deals=1, simulations=3, opponent="random", seed=4)
    assert [(r.deal, r.search_seat) for r in first] == [(0, 0), (0, 1)]
    assert first == again
    assert all(abs(r.margin) <= max_margin(STANDARD) for r in first)


def _face_down_minded(state: UmtaliState, rng: random.Random) -> int:
    """A move of a player who goes out face down whenever he can, else any legal move:
    so that hands reach a last turn (R7) over a face-down discard."""
    legal: list[int] = state.legal_actions()
    down = [a for a in legal if "down" in state.action_to_string(a)]
    return rng.choice(down or legal)


@pytest.mark.parametrize("encoding", ["v1", "v0"])
def test_resampling_keeps_each_players_own_face_down_discard(encoding: str) -> None:
    """Every player's information state, string and tensor, is the same in a world dealt
    again from it, over many states: those after a face-down discard among them (the
    discarder still knows his card, though it lies face down); in both versions of the
    tensors."""
    game = pyspiel.load_game(GAME_NAME, {"encoding": encoding})
    rng = random.Random(11)
    compared = after_face_down = 0
    for _ in range(20):
        state: UmtaliState = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            hand = state.hand.state
            assert hand is not None
            for seat in (0, 1):
                world = state.resample_from_infostate(seat, rng.random)
                assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.observation_tensor(seat) == state.observation_tensor(seat)
                assert world.observation_string(seat) == state.observation_string(seat)
                compared += 1
                after_face_down += any(down for _, down in hand.discard_pile())
            state.apply_action(_face_down_minded(state, rng))
    assert compared > 500
    assert after_face_down > 0
