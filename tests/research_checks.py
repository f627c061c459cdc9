"""Checks every researched game passes the same way, for its tests
(tests/test_<game>_research.py): the PettingZoo parallel checkers, what an illegal action
does, the parallel batch against lone ones, the bench's engines and OpenSpiel's search,
resampling and parameters. Each takes the game's registered name and what is its own."""

from __future__ import annotations

import random
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pytest
from pettingzoo.test import max_cycles_test, parallel_api_test  # type: ignore[import-untyped]
from pettingzoo.utils.conversions import parallel_to_aec  # type: ignore[import-untyped]

from umtali.rl import bench as rl_bench
from umtali.rl.encoding import Batch, IllegalActionError, RewardKind, research
from umtali.rl.gym import CardGameEnv
from umtali.rl.parallel import ParallelHandBatch
from umtali.rl.pettingzoo import parallel_env, raw_env
from umtali.rl.shared import EncodingVersion
from umtali.rl.spiel import OpenSpielOptionError, ResampleError, redealt


def check_parallel_env(game: str, **recall_options: Any) -> None:
    """PettingZoo's ``max_cycles_test`` and ``parallel_api_test`` on ``game``'s parallel
    environment, flat and (with ``recall_options`` besides) as a dict with history."""

    def parallel(**options: Any) -> Any:
        return parallel_env(game=game, on_illegal="ignore", **options)

    max_cycles_test(
        types.SimpleNamespace(
            parallel_env=parallel, env=lambda **options: parallel_to_aec(parallel(**options))
        )
    )
    parallel_api_test(parallel(), num_cycles=100)
    parallel_api_test(parallel(flat=False, perfect_recall=True, **recall_options), num_cycles=100)


def check_illegal_action(game: str, illegal: int, message: str, penalty: float) -> None:
    """The action ``illegal``, not legal at the start of the hand dealt from seed 1, is
    refused (:class:`IllegalActionError` matching ``message``, nothing moved), loses
    (``penalty`` to its player, the default) or is ignored, as the environment is told;
    a Gymnasium environment's action outside the space loses."""
    env = raw_env(game=game)
    env.reset(seed=1)
    episode = env.episode
    assert episode is not None
    before = episode.table_text()
    with pytest.raises(IllegalActionError, match=message):
        env.step(illegal)
    assert episode.table_text() == before
    ignoring = raw_env(game=game, on_illegal="ignore")
    ignoring.reset(seed=1)
    agent = ignoring.agent_selection
    legal = ignoring.infos[agent]["legal_moves"]
    ignoring.step(illegal)
    assert ignoring.infos[agent] == {"illegal_action": True, "legal_moves": legal}
    assert ignoring.agent_selection == agent
    losing = raw_env(game=game, on_illegal="lose")
    losing.reset(seed=1)
    agent = losing.agent_selection
    losing.step(illegal)
    assert losing.rewards[agent] == research(game).default_penalty("margin") == penalty
    assert all(losing.terminations.values())
    alone = CardGameEnv("random", seat=0, game=game)
    alone.reset(seed=4)
    _, reward, terminated, _, info = alone.step(research(game).num_actions)  # no action
    assert (reward, terminated, info["illegal_action"]) == (penalty, True, True)


def check_parallel_batch(
    game: str, lone: Callable[[int, int], Batch], encoding: EncodingVersion = "v1"
) -> None:
    """A batch of ``game`` on two processes steps its rows as lone batches (``lone(n,
    seed)``, in version ``encoding`` of the arrays) of its slices do."""
    with ParallelHandBatch(4, workers=2, seed=5, game=game, encoding=encoding) as batch:
        obs = batch.reset()
        assert None not in batch.seeds  # seeded: each worker's seed is known
        lones = [
            lone(stop - start, seed)
            for (start, stop), seed in zip(batch.slices, batch.seeds, strict=True)
            if seed is not None
        ]
        alone = [b.reset() for b in lones]
        rng = np.random.default_rng(0)
        for _ in range(40):
            for (start, stop), lone_obs in zip(batch.slices, alone, strict=True):
                for name, array in lone_obs.items():
                    assert (obs[name][start:stop] == array).all(), name
            actions = batch.sample_actions(rng)
            obs, _, _ = batch.step(actions)
            alone = [
                b.step(actions[start:stop])[0]
                for (start, stop), b in zip(batch.slices, lones, strict=True)
            ]


def check_bench(game: str) -> None:
    """``umtali bench --peers`` races ``game``'s environment and batch, named after it."""
    names = [rl_bench.PettingZooEngine(game).name, rl_bench.BatchEngine(16, game).name]
    assert names == [f"umtali {game} PettingZoo env", f"umtali {game} HandBatch (16)"]
    engine = rl_bench.PettingZooEngine(game)
    moves, hands = engine.play(random.Random(2))
    assert hands == 1
    assert moves >= 2
    batch = rl_bench.BatchEngine(16, game)
    moves, hands = batch.play(random.Random(2))
    assert moves == rl_bench.BATCH_STEPS * 16


def check_openspiel_parameters(name: str, unknown_rules: str) -> None:
    """OpenSpiel's game ``name`` refuses rules that are no preset and a dealer that is
    no seat."""
    with pytest.raises(OpenSpielOptionError, match="a preset"):
        pyspiel.load_game(name, {"rules": unknown_rules})
    with pytest.raises(OpenSpielOptionError, match="seat 0 or 1"):
        pyspiel.load_game(name, {"dealer": 2})


def ismcts_decisions(name: str, simulations: int, most: int | None = None) -> Any:
    """OpenSpiel's Python IS-MCTS, which deals the hidden cards again at every
    simulation (``resample_from_infostate``), playing player 0 of a hand of ``name``
    against random moves, for ``most`` of its decisions (all, by default): the state
    reached and how many decisions it made."""
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=30.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(1),
    )
    rng = random.Random(0)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and (most is None or decisions < most):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state, decisions


def check_batch_basics(game: str, illegal: list[int]) -> None:
    """``game``'s batches: two from one seed deal alike (one copying its masks, the
    other's read-only); ``illegal``, actions for three rows of which the first is not
    legal at the deal, is refused with nothing moved; a batch steps only once dealt, and
    holds a hand at least; its arrays are as ``batch_arrays`` says."""
    encoding = research(game)
    one, two = encoding.batch(3, seed=9), encoding.batch(3, seed=9, copy=True)
    first, second = one.reset(), two.reset()
    for name in first:
        assert (first[name] == second[name]).all()
    before = one.legal
    with pytest.raises(IllegalActionError, match="is not legal in row 0"):
        one.step(np.array(illegal))
    assert one.legal == before
    assert one.step(one.sample_actions(np.random.default_rng(0)))[0]["action_mask"].any()
    assert not first["action_mask"].flags.writeable
    with pytest.raises(RuntimeError, match="reset"):
        encoding.batch(1).step(np.array([0]))
    with pytest.raises(ValueError, match="n >= 1"):
        encoding.batch(0)
    assert {name: shape for name, (shape, _) in encoding.batch_arrays().items()} == {
        name: first[name].shape[1:] for name in first if name != "action_mask"
    }
    older = encoding.batch(2, seed=9, encoding="v0").reset()  # as batches gave before
    assert encoding.batch_arrays("v0") == {
        name: (array.shape[1:], array.dtype)
        for name, array in older.items()
        if name != "action_mask"
    }
    with pytest.raises(ValueError, match="encoding is one of v0, v1"):
        encoding.batch(2, encoding="v2")


def check_episode_against(
    game: str,
    level: str,
    kinds: list[RewardKind],
    choose: Callable[[list[int], random.Random], int] = lambda legal, rng: rng.choice(legal),
) -> None:
    """An episode of ``game`` against ``level`` for each reward kind of ``kinds`` (seeded
    3, 4, ...): each step's mask is the environment's, ``choose`` picks from the legal
    actions, and the rewards sum to the hand's margin, or to the game's 1 or -1."""
    for seed, reward_kind in enumerate(kinds, start=3):
        alone = CardGameEnv(level, game=game, reward=reward_kind)
        obs, info = alone.reset(seed=seed)
        rng = random.Random(seed)
        total = 0.0
        while True:
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            assert legal
            assert (alone.action_masks() == obs["action_mask"].astype(bool)).all()
            obs, reward, terminated, truncated, info = alone.step(choose(legal, rng))
            total += reward
            if terminated or truncated:
                break
        assert alone.episode is not None
        assert alone.episode.is_over()
        if reward_kind == "margin":
            assert total == info["scores"][0] - info["scores"][1]
        else:
            assert total in (1.0, -1.0)


def check_opponent_sees_its_view(
    game: str, episode: Any, view_of: Callable[[Any], Any], move_of: Callable[[int], Any]
) -> None:
    """The computer of ``game``'s hardest level plays ``episode`` to its end, each move
    among the legal ones of the view ``view_of(episode)`` of the seat to move; an
    unknown level is refused."""
    opponent = research(game).opponent("expert")
    rng = random.Random(8)
    while not episode.is_over():
        view = view_of(episode)
        index = opponent.choose(episode, rng)
        assert move_of(index) in view.legal
        episode.step(index)
    with pytest.raises(ValueError, match="a level is one of"):
        research(game).opponent("grandmaster")


def check_resampling(
    name: str,
    most_moves: int,
    *,
    playable: Callable[[list[int]], list[int]] = lambda legal: legal,
    unseen_after: Callable[[int], bool] = lambda move: False,
) -> None:
    """OpenSpiel's ``resample_from_infostate`` on the game registered as ``name``, from
    30 hands played to a random move below ``most_moves``: the world it gives looks the
    same to the seat it was asked for (its information state and observation, its own
    hand), with the other hand dealt otherwise often enough, and it looks the same after
    the same move too, unless ``unseen_after`` that move (it brought a card nobody had
    seen, another in that world). The random moves are those ``playable`` keeps of the
    legal ones (all of them when it keeps none). Neither the deal nor the end resamples."""
    game = pyspiel.load_game(name)
    rng = random.Random(6)
    others = set()
    for seed in range(30):
        state = game.new_initial_state()
        stop = random.Random(seed).randrange(most_moves)
        moves = 0
        while not state.is_terminal() and (state.is_chance_node() or moves < stop):
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                legal = state.legal_actions()
                state.apply_action(rng.choice(playable(legal) or legal))
                moves += 1
        if state.is_terminal():
            continue
        mover = state.current_player()
        seat = mover if seed % 3 else 1 - mover  # the player to move, or the other
        world = state.resample_from_infostate(seat, rng.random)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.current_player() == mover
        if seat == mover:
            assert world.legal_actions() == state.legal_actions()
        hand, other = state.table.hand, world.table.hand
        assert hand is not None
        assert other is not None
        assert other.hands[seat] == hand.hands[seat]
        others.add(other.hands[1 - seat])
        move = state.legal_actions()[0]
        if move not in world.legal_actions():  # the other's card, not his in that world
            continue
        real = state.clone()
        real.apply_action(move)
        world.apply_action(move)
        if unseen_after(move):
            continue
        assert world.information_state_string(seat) == real.information_state_string(seat)
    assert len(others) > 10
    with pytest.raises(ResampleError, match="only a player's turn"):
        game.new_initial_state().resample_from_infostate(0, rng.random)


def redeals(
    deck: Sequence[int],
    free: Sequence[int],
    history: Iterable[tuple[Any, Any]],
    new: Callable[[], Any],
    rng: random.Random,
    count: int,
) -> Iterator[Any]:
    """Up to ``count`` engines made by ``new`` (a game or match), each with one hand
    dealt from ``deck`` with the cards at the places ``free`` shuffled among those
    places, and ``history``'s moves replayed; a deal under which a move is illegal is
    left out. For the scans that prove no observation tells a seat an unseen card."""
    for _ in range(count):
        dealt = redealt(deck, free, rng, lambda shuffled: shuffled, tries=1, player=0)
        engine = new()
        replayed = engine.new_hand(dealt)
        try:
            for _, action in history:
                replayed.push(action)
        except ValueError:
            continue
        yield engine


def check_masks(episode: Any, legal: list[int], to_move: int | None) -> None:
    """Each seat's mask in ``episode``, as its observation and as :meth:`mask` give it:
    ``legal`` for ``to_move``, nothing for the other."""
    for seat in (0, 1):
        mask = episode.observe(seat)["action_mask"]
        expected = legal if seat == to_move else []
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(expected)
        assert (episode.mask(seat) == mask.astype(bool)).all()


def check_margin_paid(episode: Any, rewards: Any, scores: tuple[int, int]) -> None:
    """``episode``'s hand ended with ``scores`` and paid ``rewards``, its margins."""
    assert episode.scores() == scores
    margin = scores[0] - scores[1]
    assert rewards == (margin, -margin)


def play_a_game(
    episode: Any, rng: random.Random, choose: Callable[[Any, random.Random], int], total_at: int
) -> Any:
    """The rewards of ``episode`` (of ``reward="game"``) played to its end, each move
    ``choose(episode, rng)``; the totals its observations show (``counts[total_at]``)
    change between hands."""
    rewards = None
    totals_seen = set()
    while rewards is None:
        obs = episode.observe(episode.to_move)
        totals_seen.add(float(obs["counts"][total_at]))
        rewards = episode.step(choose(episode, rng))
    assert len(totals_seen) > 1  # the totals reach the observation between hands
    return rewards


def check_batch_margins(
    rewards: Any, done: Any, hands: Sequence[Any], outcome_of: Callable[[Any], Any]
) -> int:
    """A batch step paid each row that ended (``done``) its hand's margins (of the
    scores of ``outcome_of(hands[row])``), and nothing to the others; how many rows
    ended."""
    for row in np.flatnonzero(done).tolist():
        outcome = outcome_of(hands[row])
        assert outcome is not None
        scores = outcome.scores
        assert rewards[row].tolist() == [scores[0] - scores[1], scores[1] - scores[0]]
    assert not rewards[~done].any()
    return int(done.sum())


def check_legal_arrays(batch: Batch) -> None:
    """``batch``'s legal counts and indices are its rows' legal lists."""
    assert batch.legal_counts.tolist() == [len(row) for row in batch.legal]
    assert batch.legal_indices.tolist() == [i for row in batch.legal for i in row]


def play_openspiel(game: Any, rng: random.Random, choose: Callable[[Any], int]) -> Any:
    """A hand of the OpenSpiel ``game`` played to its end: each chance node's outcomes
    (summing to 1) drawn with ``rng``, each player's action ``choose(state)``."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(choose(state))
    return state


def check_returns(state: Any, scores: tuple[int, int]) -> None:
    """The OpenSpiel ``state``'s returns are the margins of the hand's ``scores``."""
    assert state.returns() == [scores[0] - scores[1], scores[1] - scores[0]]


def check_same_sights(world: Any, state: Any, seat: int) -> None:
    """The OpenSpiel states ``world`` and ``state`` look the same to ``seat``: his
    information state and observation, as strings and tensors."""
    assert world is not None
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert world.observation_string(seat) == state.observation_string(seat)
    assert world.observation_tensor(seat) == state.observation_tensor(seat)
