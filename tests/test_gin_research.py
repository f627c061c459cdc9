"""Gin Rummy through the research interfaces (umtali.games.gin.research): the peers' own
checkers on its PettingZoo, Gymnasium and OpenSpiel forms, the action space against the
engine, rewards against the engine's scores, batches against a lone observer, and a scan
proving that no observation tells a seat a card it has not seen."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pytest

import umtali.rl.openspiel  # noqa: F401 - registers every game's OpenSpiel game
from tests.research_checks import (
    check_batch_basics,
    check_batch_margins,
    check_bench,
    check_episode_against,
    check_illegal_action,
    check_legal_arrays,
    check_margin_paid,
    check_masks,
    check_openspiel_parameters,
    check_opponent_sees_its_view,
    check_parallel_batch,
    check_resampling,
    check_returns,
    check_same_sights,
    ismcts_decisions,
    play_a_game,
    play_openspiel,
    redeals,
)
from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.game import GinGame
from umtali.games.gin.research import ENCODING, MODULES, rules_of
from umtali.games.gin.research.actions import (
    DISCARD,
    DRAW,
    KNOCK,
    NUM_ACTIONS,
    PASS,
    TAKE,
    ActionSpaceError,
    action_text,
    engine_action,
    index_of,
    legal_indices,
    legal_mask,
    move_of,
)
from umtali.games.gin.research.episode import Episode
from umtali.games.gin.research.observation import (
    CARD_PLANES,
    COUNTS,
    FLAGS,
    HISTORY_COLUMNS,
    PHASES,
    Observer,
    max_moves,
    max_score,
)
from umtali.games.gin.research.openspiel import (
    GAME_NAME,
    GinState,
    play_indices,
)
from umtali.games.gin.research.vector import HandBatch
from umtali.games.gin.rules import GIN, GIN_PRESETS, OKLAHOMA, GinRules
from umtali.games.gin.state import DRAW as ENGINE_DRAW
from umtali.games.gin.state import FIRST_STOCK_INDEX, UPCARD_INDEX, GinHand, GinMove
from umtali.games.gin.view import GinView
from umtali.kernel.cards import ALL_CARDS
from umtali.kernel.deck import shuffled_deck
from umtali.rl.encoding import RewardKind, research

GAME = "gin"

# PettingZoo's checkers warn of a dict observation and of an all-zero mask (an agent
# whose episode has ended); Gymnasium's of an 'ansi' text with no frame rate.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
    "ignore:Action mask numpy array is all zeros",
    "ignore:.*No render fps was declared",
)


def random_game(seed: int, rules: GinRules = GIN) -> tuple[GinGame, random.Random]:
    rng = random.Random(seed)
    game = GinGame(rules, first_dealer=rng.randrange(2))
    game.new_hand(shuffled_deck(rng))
    return game, rng


# -- the peers' checkers -------------------------------------------------------------------


# (the peers' own checkers: tests/test_research_peers.py)


# -- the action space ----------------------------------------------------------------------


def test_every_index_is_the_engines_action_and_round_trips_through_the_notation() -> None:
    for index in range(NUM_ACTIONS):
        move = move_of(index)
        assert engine_action(index) == index_of(move) == move.action == index
        assert action_text(index) == move.text()
        assert GinMove.parse(action_text(index)) == move
    assert (DISCARD, KNOCK, DRAW, TAKE, PASS) == (0, 52, 104, 105, 106)
    assert [action_text(i) for i in (DISCARD, DISCARD + 51, KNOCK + 13)] == [
        "discard Ac",
        "discard Ks",
        "knock Ad",
    ]
    with pytest.raises(ActionSpaceError, match=r"an int 0\.\.106"):
        engine_action(NUM_ACTIONS)
    with pytest.raises(ActionSpaceError, match="no move the rules could ever offer"):
        index_of(107)


@pytest.mark.parametrize("rules", list(GIN_PRESETS))
def test_masks_agree_with_the_engines_legal_moves(rules: str) -> None:
    observer = Observer(rules_of(rules))
    seen: set[int] = set()
    for seed in range(40):
        episode = Episode(random.Random(seed), rules_of(rules), observer=observer)
        rng = random.Random(seed)
        while True:
            hand = episode.hand
            legal = hand.legal_actions()
            assert episode.legal() == legal == legal_indices(hand)
            assert np.flatnonzero(legal_mask(hand)).tolist() == legal
            check_masks(episode, legal, hand.to_move())
            for index in range(NUM_ACTIONS):
                assert episode.is_legal(index) == (index in legal)
            seen.update(legal)
            # Knock when one may, now and then, so that hands end every way.
            knocks = [i for i in legal if KNOCK <= i < ENGINE_DRAW]
            move = knocks[0] if knocks and rng.random() < 0.3 else rng.choice(legal)
            if episode.step(move) is not None:
                break
    assert {DRAW, TAKE, PASS} <= seen
    assert len([i for i in seen if i < KNOCK]) == 52  # every card discarded
    assert any(KNOCK <= i < DRAW for i in seen)


# -- episodes and rewards ------------------------------------------------------------------


@pytest.mark.parametrize("rules", [GIN, OKLAHOMA], ids=["standard", "oklahoma"])
def test_a_hand_pays_each_player_his_score_margin(rules: GinRules) -> None:
    results = set()
    for seed in range(150):
        episode = Episode(random.Random(seed), rules)
        bot = ENCODING.opponent("greedy")
        rng = random.Random(seed + 1)
        rewards = None
        while rewards is None:
            rewards = episode.step(bot.choose(episode, rng))
        outcome = episode.hand.outcome
        assert outcome is not None
        check_margin_paid(episode, rewards, outcome.scores)
        assert abs(rewards[0]) <= max_score(rules)
        results.add(outcome.how)
    assert results >= {"gin", "knock", "undercut"}


def test_a_game_pays_its_winner_one_and_is_played_to_the_target() -> None:
    for seed in range(3):
        episode = Episode(random.Random(seed), reward="game")
        bot = ENCODING.opponent("greedy")
        rng = random.Random(seed)
        rewards = play_a_game(episode, rng, bot.choose, COUNTS.index("total"))
        game = episode.game
        assert game.is_over()
        assert len(game.hands) > 1
        assert max(game.totals()) >= GIN.game_target
        winner = game.result().winner
        assert rewards == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))


def test_an_illegal_action_is_refused_loses_or_is_ignored() -> None:
    # The first upcard is taken or passed, not drawn over:
    check_illegal_action(GAME, DRAW, r"action 104 \('draw'\) is not legal for player", -300.0)


# Every level of GIN_BOTS, read when the tests are collected (a level added there is
# tried at once): a hand against each, and a whole game against one.
@pytest.mark.parametrize("level", list(GIN_BOTS))
def test_an_episode_against_each_level_pays_the_agents_margin(level: str) -> None:
    def knock_first(legal: list[int], rng: random.Random) -> int:
        knocks = [i for i in legal if KNOCK <= i < DRAW]
        return knocks[0] if knocks else rng.choice(legal)

    kinds: list[RewardKind] = ["margin", "game"] if level == "greedy" else ["margin"]
    check_episode_against(GAME, level, kinds, knock_first)


def test_the_computer_chooses_from_its_view_only() -> None:
    check_opponent_sees_its_view(
        GAME, Episode(random.Random(8)), lambda e: GinView.of(e.hand, e.to_move), move_of
    )


def test_the_encoding_checks_what_it_is_given() -> None:
    assert rules_of("oklahoma") is OKLAHOMA
    assert rules_of(OKLAHOMA) is OKLAHOMA
    with pytest.raises(ValueError, match="preset's name"):
        rules_of("straight")
    with pytest.raises(ValueError, match="has no module 'policy'"):
        ENCODING.module("policy")  # a policy is Umtali's alone
    assert [ENCODING.module(name).__name__.rsplit(".", 1)[1] for name in MODULES] == list(MODULES)
    with pytest.raises(TypeError, match="a Gin Rummy observer"):
        ENCODING.episode(random.Random(1), research("klaberjass").observer())
    game, _ = random_game(1, GIN)
    with pytest.raises(ValueError, match="under the rules 'oklahoma'"):
        Observer(OKLAHOMA).observe(game, 0)


def test_the_observation_shows_the_hand_as_the_view_does() -> None:
    for seed in range(6):
        game, rng = random_game(seed, OKLAHOMA if seed % 2 else GIN)
        hand = game.hands[-1]
        observer = Observer(game.rules, flat=False, perfect_recall=True)
        flat = Observer(game.rules, flat=True, perfect_recall=True)
        while True:
            for seat in (0, 1):
                view = GinView.of(hand, seat)
                obs = observer.observe(game, seat)
                assert observer.space.contains(obs)
                for name in ("counts", "flags", "cards", "history"):
                    assert obs[name].min() >= 0, name
                    assert obs[name].max() <= 1, name
                places = {
                    name: int(np.packbits(row, bitorder="little").view("<u8")[0]) & ALL_CARDS
                    for name, row in zip(
                        CARD_PLANES, np.pad(obs["cards"], ((0, 0), (0, 12))), strict=True
                    )
                }
                assert places["hand"] == view.hand
                assert places["upcard"] == 1 << hand.deck[UPCARD_INDEX]
                # Hand, pile, what the other is known to hold and the unseen split the deck.
                split = ("hand", "pile", "other_holds", "unseen")
                assert sum(places[name].bit_count() for name in split) == 52
                union = 0
                for name in split:
                    union |= places[name]
                assert union == ALL_CARDS
                flags = obs["flags"]
                assert flags[: len(PHASES)].sum() == 1
                assert flags[FLAGS.index("to_move")] == (view.to_move == seat)
                assert flags[FLAGS.index("oklahoma")] == game.rules.oklahoma
                assert obs["counts"][COUNTS.index("stock")] == pytest.approx(hand.stock_size() / 31)
                rows = obs["history"]
                assert rows.shape == (max_moves(game.rules), HISTORY_COLUMNS)
                assert rows[: len(view.history), :2].tolist() == [
                    [1, 0] if mover == seat else [0, 1] for mover, _ in view.history
                ]
                assert not rows[len(view.history) :].any()
                vector = flat.observe(game, seat)["observation"]
                parts = [obs[name].ravel() for name in ("cards", "counts", "flags", "history")]
                assert (vector == np.concatenate(parts).astype(np.float32)).all()
            if hand.is_over():
                break
            legal = hand.legal_actions()
            knocks = [a for a in legal if KNOCK <= a < DRAW]
            hand.push(knocks[0] if knocks else rng.choice(legal))


# -- what no seat may see: a scan ------------------------------------------------------------


def seen_by(hand: GinHand, seat: int) -> int:
    """Every card ``seat`` has held or seen face up, read from the engine: the ten he was
    dealt, the cards he drew, the upcard, every card discarded face up, and the other
    hand once the hand is over (the other's face-down knock discard stays unseen)."""
    non_dealer = 1 - hand.dealer
    seen = 1 << hand.deck[UPCARD_INDEX]
    for at in range(UPCARD_INDEX):
        if (non_dealer if at % 2 == 0 else hand.dealer) == seat:
            seen |= 1 << hand.deck[at]
    stock = FIRST_STOCK_INDEX
    for player, action in hand.history:
        if action == ENGINE_DRAW:
            if player == seat:
                seen |= 1 << hand.deck[stock]
            stock += 1
        elif action < KNOCK or (action < ENGINE_DRAW and player == seat):
            seen |= 1 << action % KNOCK
    if hand.is_over():
        seen |= hand.hands[1 - seat]
    return seen


def other_deals(game: GinGame, seat: int, rng: random.Random, count: int) -> list[GinGame]:
    """``count`` games dealt from ``game``'s deck with every card ``seat`` has not seen
    shuffled among the places such cards lie in (the other's hand, the stock), the same
    moves replayed; those under which a move is illegal are left out."""
    hand = game.hands[-1]
    seen = seen_by(hand, seat)
    free = [at for at, card in enumerate(hand.deck) if not seen >> card & 1]
    new = partial(GinGame, game.rules, first_dealer=hand.dealer)
    return list(redeals(hand.deck, free, hand.history, new, rng, count))


def scan_for_secrets(seeds: range, deals: int) -> tuple[int, int]:
    """For a hand of each seed, played by the greedy computer with random moves mixed in
    to a random point and seen by a random seat, compare what the seat is shown with what
    it is shown after ``deals`` other deals of the cards it has not seen
    (:func:`other_deals`): every observation array (flat with the history, and as a
    dict), and OpenSpiel's information state and observation, tensor and string. How
    many comparisons, and how many of them had the other hand dealt otherwise."""
    compared = differing = 0
    rng = random.Random(seeds.start)
    bot = GIN_BOTS["greedy"]()
    for seed in seeds:
        rules = OKLAHOMA if seed % 3 == 0 else GIN
        observers = [
            Observer(rules, flat=True, perfect_recall=True),
            Observer(rules, flat=False, perfect_recall=False),
        ]
        game, play_rng = random_game(seed, rules)
        hand = game.hands[-1]
        seat = play_rng.randrange(2)
        stop = play_rng.randrange(60)
        while not hand.is_over() and len(hand.history) < stop:
            if play_rng.random() < 0.5:
                hand.push(bot.choose(GinView.of(hand, hand.player), play_rng))
            else:
                hand.push(play_rng.choice(hand.legal_actions()))
        real = [observer.observe(game, seat) for observer in observers]
        spiel_game = pyspiel.load_game(GAME_NAME, {"rules": rules.name, "dealer": hand.dealer})
        moves = [action for _, action in hand.history]
        spiel = play_indices(spiel_game, hand.deck, moves)
        assert spiel is not None
        for other in other_deals(game, seat, rng, deals):
            differing += other.hands[-1].hands[1 - seat] != hand.hands[1 - seat]
            for observer, obs in zip(observers, real, strict=True):
                again = observer.observe(other, seat)
                for name, array in obs.items():
                    assert (again[name] == array).all(), (seed, seat, name)
            check_same_sights(play_indices(spiel_game, other.hands[-1].deck, moves), spiel, seat)
            compared += 1
    return compared, differing


@pytest.mark.parametrize("rules", [GIN, OKLAHOMA], ids=["gin", "oklahoma"])
@pytest.mark.parametrize("flat", [False, True])
def test_an_observation_is_the_encoding_of_the_seats_view(rules: GinRules, flat: bool) -> None:
    # The observer follows each hand move by move; its arrays are those of the seat's
    # GinView encoded afresh, in every position of 60 hands, a move taken back (and
    # another played) now and then, and several hands observed in turn.
    observer = Observer(rules, flat=flat, perfect_recall=True)
    rng = random.Random(8)
    games = [random_game(seed, rules)[0] for seed in range(60)]
    positions = knocks_hidden = 0
    while any(not game.hands[-1].is_over() for game in games):
        for game in games:
            hand = game.hands[-1]
            for seat in (0, 1):
                seen = observer.observe(game, seat)
                view = GinView.of(hand, seat)
                fresh = observer.encode(view, hand.deck[UPCARD_INDEX])
                assert seen.keys() == fresh.keys()
                for name in seen:
                    assert (seen[name] == fresh[name]).all(), (name, seat, hand.history)
                positions += 1
                knocks_hidden += bool(hand.history) and len(view.pile) < len(hand.pile)
            if hand.is_over():
                continue
            if hand.history and rng.random() < 0.1:
                hand.pop()
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
    assert positions > 5000
    assert knocks_hidden > 10


def test_no_observation_changes_when_the_unseen_cards_are_dealt_otherwise() -> None:
    compared, differing = scan_for_secrets(range(40), 5)
    assert compared > 150
    assert differing > 120


def test_no_observation_of_200_hands_changes_when_the_unseen_cards_are_dealt_otherwise() -> None:
    compared, differing = scan_for_secrets(range(1000, 1200), 6)
    assert compared > 1000
    assert differing > 750


# -- batches ---------------------------------------------------------------------------------


def test_every_batch_row_is_what_a_lone_observer_sees_and_pays_its_margin() -> None:
    batch = HandBatch(5, seed=3, rules=OKLAHOMA)
    obs = batch.reset()
    observer = Observer(OKLAHOMA)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        for row in range(batch.n):
            game = batch.games[row]
            seat = int(batch.to_move[row])
            assert game.hands[-1].player == seat
            alone = observer.observe(game, seat)
            for name, array in alone.items():
                assert (obs[name][row] == array).all(), name
            assert batch.legal[row] == legal_indices(game.hands[-1])
        before = [g.hands[-1] for g in batch.games]
        actions = batch.sample_actions(rng)
        for row, legal in enumerate(batch.legal):  # knock at once, so that hands end
            knocks = [a for a in legal if KNOCK <= a < DRAW]
            if knocks:
                actions[row] = knocks[0]
        obs, rewards, done = batch.step(actions)
        ended += check_batch_margins(rewards, done, before, lambda hand: hand.outcome)
    assert ended == batch.hands_played > 10
    check_legal_arrays(batch)


def test_a_batch_refuses_an_illegal_action_and_deals_alike_from_a_seed() -> None:
    check_batch_basics(GAME, [DRAW, PASS, PASS])


def test_the_parallel_batch_steps_gin_rows_as_lone_batches_do() -> None:
    check_parallel_batch(GAME, lambda n, seed: HandBatch(n, seed=seed))


def test_the_bench_races_gin_environments() -> None:
    check_bench(GAME)


# -- OpenSpiel -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["standard", "oklahoma"])
def test_openspiel_returns_are_the_engines_scores(rules: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "dealer": 1})
    most = max_score(GIN_PRESETS[rules])
    assert (game.num_distinct_actions(), game.max_chance_outcomes()) == (107, 52)
    assert (game.min_utility(), game.max_utility(), game.max_game_length()) == (-most, most, 202)
    rng = random.Random(4)
    bot = GIN_BOTS["greedy"]()
    hows = set()

    def choose(state: Any) -> int:
        assert isinstance(state, GinState)
        hand = state.table.hand
        assert hand is not None
        move = bot.choose(GinView.of(hand, hand.player), rng)
        return move.action if rng.random() < 0.8 else rng.choice(state.legal_actions())

    for _ in range(60):
        state = play_openspiel(game, rng, choose)
        assert isinstance(state, GinState)
        hand = state.table.hand
        assert hand is not None
        outcome = hand.outcome
        assert outcome is not None
        hows.add(outcome.how)
        assert hand.dealer == 1
        check_returns(state, outcome.scores)
        replayed = play_indices(game, hand.deck, [a for _, a in hand.history])
        assert replayed is not None
        assert replayed.returns() == state.returns()
        assert state.history() == replayed.history()
    assert hows >= {"gin", "knock", "undercut"}


def test_openspiels_ismcts_plays_a_hand_through_resampling() -> None:
    # OpenSpiel's Python IS-MCTS deals the hidden cards again at every simulation
    # (resample_from_infostate): it plays player 0's first six decisions.
    _, decisions = ismcts_decisions(GAME_NAME, simulations=4, most=6)
    assert decisions >= 1


def test_openspiel_refuses_unknown_parameters() -> None:
    check_openspiel_parameters(GAME_NAME, "straight")


def test_resampling_keeps_what_the_player_knows() -> None:
    check_resampling(
        GAME_NAME,
        40,
        playable=lambda legal: [a for a in legal if not KNOCK <= a < DRAW],
        unseen_after=lambda move: move == DRAW,
    )
