"""The PettingZoo environments (:mod:`umtali.rl.pettingzoo`): PettingZoo's own checkers,
then what an episode pays and how an illegal action is met."""

from __future__ import annotations

import random
import types
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (  # type: ignore[import-untyped]
    api_test,
    max_cycles_test,
    parallel_api_test,
    seed_test,
)
from pettingzoo.utils.conversions import parallel_to_aec  # type: ignore[import-untyped]

from umtali.games.umtali.research.actions import DISCARD, GIVE, KEEP, NUM_ACTIONS
from umtali.games.umtali.research.episode import Episode
from umtali.rl.encoding import IllegalActionError, research, researched
from umtali.rl.pettingzoo import AGENTS, UmtaliAEC, env, parallel_env, raw_env

# PettingZoo's checkers warn of a dict observation unless the game is on their own list
# (the dict is the one their masked envs use: {"observation", "action_mask"}), and of an
# all-zero mask, which is what an agent whose episode has ended is shown.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
    "ignore:Action mask numpy array is all zeros",
)


def test_the_aec_env_passes_pettingzoos_api_test() -> None:
    api_test(env(), num_cycles=1000)


def test_the_wrapper_still_refuses_calls_out_of_order() -> None:
    """``env()``'s wrapper, made cheaper, checks what PettingZoo's does: nothing before
    ``reset()``, and a loop over ``agent_iter()`` that does not step is stopped."""
    game = env()
    with pytest.raises(AttributeError, match="before reset"):
        game.last()
    with pytest.raises(AttributeError, match="before reset"):
        game.agent_selection  # noqa: B018
    with pytest.raises(Exception, match="reset"):
        game.step(0)
    with pytest.raises(Exception, match="reset"):
        game.agent_iter()
    game.reset(seed=1)
    agents = iter(game.agent_iter())
    assert next(agents) == game.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)
    assert str(game) == "umtali_v1"  # the name says the version of the arrays


@pytest.mark.parametrize("game", researched())
@pytest.mark.parametrize("encoding", ["v0", "v1"])
def test_each_name_keeps_its_version_of_the_arrays(game: str, encoding: str) -> None:
    first = research(game).aec_name  # the name it had before v1: v0's arrays
    base = first.removesuffix("_v0")
    aec = env(game=game, encoding=encoding)
    assert aec.metadata["name"] == f"{base}_{encoding}"
    assert parallel_env(game=game, encoding=encoding).metadata["name"] == (
        f"{base}_parallel_{encoding}"
    )
    arrays = research(game).observer(None, flat=True, encoding=encoding).space
    assert aec.observation_space(aec.possible_agents[0]) == arrays


@pytest.mark.parametrize("encoding", ["v0", "v1"])
def test_both_versions_of_the_arrays_pass_it(encoding: str) -> None:
    api_test(env(perfect_recall=True, encoding=encoding), num_cycles=300)
    api_test(env(flat=False, encoding=encoding), num_cycles=300)


def test_the_dict_observations_and_perfect_recall_pass_it_too() -> None:
    api_test(env(flat=False, perfect_recall=True, reward="game"), num_cycles=300)


def test_the_aec_env_passes_pettingzoos_seed_test() -> None:
    seed_test(env, num_cycles=500)


def test_the_parallel_env_passes_pettingzoos_max_cycles_and_api_tests() -> None:
    # max_cycles_test counts cycles, which a game of turns has only in its parallel form
    # (every agent acts each step), so it runs on that form and on PettingZoo's own AEC
    # view of it; and it steps with unmasked random actions, which the environment is
    # told to ignore rather than refuse.
    def parallel(**options: Any) -> Any:
        return parallel_env(on_illegal="ignore", **options)

    max_cycles_test(
        types.SimpleNamespace(
            parallel_env=parallel, env=lambda **options: parallel_to_aec(parallel(**options))
        )
    )
    parallel_api_test(parallel(), num_cycles=100)


def play_out(game: UmtaliAEC, rng: random.Random) -> dict[str, float]:
    """Play the episode at random to its end; each agent's total reward."""
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            game.step(int(legal[rng.randrange(len(legal))]))
    return totals


def test_a_hand_pays_each_player_his_score_margin() -> None:
    rng = random.Random(3)
    for seed in range(20):
        game = raw_env()
        game.reset(seed=seed)
        assert isinstance(game.episode, Episode)  # Umtali's, the default game's
        hand = game.episode.state
        totals = play_out(game, rng)
        outcome = hand.outcome()
        assert outcome is not None
        margin = outcome.scores[0] - outcome.scores[1]
        assert totals == {"player_0": margin, "player_1": -margin}


def test_a_game_pays_its_winner_one_and_the_loser_minus_one() -> None:
    rng = random.Random(4)
    game = raw_env(reward="game")
    game.reset(seed=9)
    assert isinstance(game.episode, Episode)
    totals = play_out(game, rng)
    match = game.episode.match
    assert len(match.hands) == 4  # R10: a game is four hands
    winner = match.winner()
    expected = {None: (0.0, 0.0), 0: (1.0, -1.0), 1: (-1.0, 1.0)}[winner]
    assert (totals["player_0"], totals["player_1"]) == expected


def test_the_game_totals_reach_the_observation_between_hands() -> None:
    game = raw_env(reward="game", flat=False, encoding="v0")
    game.reset(seed=2)
    episode = game.episode
    assert isinstance(episode, Episode)
    rng = random.Random(1)
    while len(episode.match.hands) < 2:
        obs = game.observe(game.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        game.step(int(legal[rng.randrange(len(legal))]))
    first = episode.match.hands[0].outcome()
    assert first is not None
    counts = game.observe("player_1")["counts"]
    # Entries 7 and 8: the viewer's game total, then his opponent's; then hands to come.
    assert counts[7:].tolist() == [first.scores[1], first.scores[0], 2]


def test_an_illegal_action_is_refused_by_default() -> None:
    game = raw_env()
    game.reset(seed=1)
    mover = game.agent_selection
    with pytest.raises(IllegalActionError, match=r"action 3260 \('discard A♣'\) is not legal"):
        game.step(DISCARD)
    with pytest.raises(IllegalActionError, match=f"an action is an int 0..{NUM_ACTIONS - 1}"):
        game.step(None)
    game.step(KEEP)  # nothing was changed by the refusals
    assert game.agent_selection == mover  # the dealer who kept plays first


def test_an_illegal_action_can_lose_the_episode_or_be_ignored() -> None:
    losing = raw_env(on_illegal="lose", illegal_reward=-7.0)
    losing.reset(seed=1)
    mover = losing.agent_selection
    losing.step(DISCARD)
    assert all(losing.terminations.values())
    assert losing._cumulative_rewards == {mover: -7.0, AGENTS[1 - AGENTS.index(mover)]: 7.0}

    ignoring = raw_env(on_illegal="ignore")
    ignoring.reset(seed=1)
    before = ignoring.observe(mover)["observation"].copy()
    ignoring.step(DISCARD)
    assert ignoring.agent_selection == mover
    assert ignoring.infos[mover] == {"illegal_action": True, "legal_moves": (KEEP, GIVE)}
    assert (ignoring.observe(mover)["observation"] == before).all()
    ignoring.step(KEEP)
    assert "illegal_action" not in ignoring.infos[ignoring.agent_selection]


@pytest.mark.parametrize("game", researched())
def test_the_movers_info_lists_what_his_mask_marks(game: str) -> None:
    # At every move of a few random episodes: the agent to move finds the legal moves
    # his mask marks in his info, the others find nothing there, and once the episode
    # is over nobody does.
    aec = raw_env(game=game)
    rng = random.Random(3)
    for seed in range(3):
        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            obs, _, terminated, truncated, info = aec.last()
            if terminated or truncated:
                assert info == {}
                aec.step(None)
                continue
            marked = np.flatnonzero(obs["action_mask"]).tolist()
            assert info.keys() == {"legal_moves"}
            assert type(info["legal_moves"]) is tuple
            assert sorted(info["legal_moves"]) == marked
            assert all(aec.infos[other] == {} for other in aec.agents if other != agent)
            aec.step(rng.choice(info["legal_moves"]))


def test_max_cycles_truncates_after_that_many_moves() -> None:
    game = raw_env(max_cycles=5)
    game.reset(seed=4)
    rng = random.Random(0)
    moves = 0
    while not any(game.truncations.values()):
        legal = np.flatnonzero(game.observe(game.agent_selection)["action_mask"])
        game.step(int(legal[rng.randrange(len(legal))]))
        moves += 1
    assert moves == 5
    assert not any(game.terminations.values())


def test_the_waiting_player_sees_no_legal_move() -> None:
    game = raw_env()
    game.reset(seed=6)
    waiting = AGENTS[1 - AGENTS.index(game.agent_selection)]
    assert not game.observe(waiting)["action_mask"].any()
    assert game.observe(game.agent_selection)["action_mask"].sum() == 2  # keep or give


def test_ansi_render_shows_the_table() -> None:
    game = raw_env(render_mode="ansi")
    game.reset(seed=2)
    text = game.render()
    assert text is not None
    assert "player_0 has on the table: nothing" in text
    assert "discard pile, bottom to top: empty" in text
    with warnings.catch_warnings(record=True):
        quiet = raw_env()
        quiet.reset(seed=2)
        assert quiet.render() is None


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="on_illegal is one of raise, lose, ignore"):
        raw_env(on_illegal="shrug")
    with pytest.raises(ValueError, match="max_cycles is None or an int >= 1"):
        raw_env(max_cycles=0)
    with pytest.raises(ValueError, match="reward is one of margin, game"):
        raw_env(reward="points")
    with pytest.raises(ValueError, match="encoding is one of v0, v1, not 'v2'"):
        raw_env(encoding="v2")
