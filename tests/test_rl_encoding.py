"""umtali.rl as the registry's front: every environment is made from a game's research
encoding (its spec's ``research`` hook), and the paths of Umtali's encoding from before
there were other games stand for its modules."""

from __future__ import annotations

import dataclasses
import importlib
import random

import gymnasium
import numpy as np
import pytest

import umtali.rl
from umtali import games
from umtali.games.api import HookError
from umtali.games.umtali import research as umtali_research
from umtali.games.umtali.bots import BOTS
from umtali.games.umtali.research.episode import Episode
from umtali.games.umtali.research.observation import Observer
from umtali.games.umtali.research.vector import HandBatch
from umtali.rl import gym as rl_gym
from umtali.rl import pettingzoo
from umtali.rl.encoding import IllegalActionError, checked_actions, research, researched


@pytest.mark.parametrize("name", umtali_research.MODULES)
def test_the_old_paths_are_the_default_games_modules(name: str) -> None:
    alias = importlib.import_module(f"umtali.rl.{name}")
    module = importlib.import_module(f"umtali.games.umtali.research.{name}")
    assert research().module(name) is module
    for public in module.__all__:
        assert getattr(alias, public) is getattr(module, public)
    assert set(module.__all__) <= set(dir(alias))
    with pytest.raises(AttributeError):
        alias.no_such_name  # noqa: B018 - the attribute lookup is the test


def test_every_researched_game_is_registered_with_gymnasium() -> None:
    assert researched() == ("umtali", "gin", "klaberjass")
    assert (
        umtali.rl.ENV_IDS
        == {"umtali": "Umtali-v1", "gin": "GinRummy-v1", "klaberjass": "Klaberjass-v1"}
        == umtali.rl.register_environments()
    )
    assert umtali.rl.ENV_ID == "Umtali-v1"
    # One id a version of the arrays: an id's observations never change.
    for game, name in (("umtali", "Umtali"), ("gin", "GinRummy"), ("klaberjass", "Klaberjass")):
        for version in ("v0", "v1"):
            spec = gymnasium.spec(f"{name}-{version}")
            assert spec.entry_point == "umtali.rl.gym:CardGameEnv"
            assert spec.vector_entry_point == "umtali.rl.versus:make_vector_env"
            assert spec.kwargs == {"game": game, "encoding": version}
    with pytest.warns(DeprecationWarning, match="out of date"):
        first = gymnasium.make("Umtali-v0").unwrapped
    newest = gymnasium.make("Umtali-v1").unwrapped
    assert isinstance(first, rl_gym.CardGameEnv)
    assert isinstance(newest, rl_gym.CardGameEnv)
    assert first.observer.space["observation"].shape == (1167,)
    assert newest.observer.space["observation"].shape == (3871,)
    assert rl_gym.UmtaliEnv is rl_gym.CardGameEnv
    assert pettingzoo.UmtaliAEC is pettingzoo.CardGameAEC


@pytest.mark.parametrize("game", researched())
def test_every_games_batch_gives_the_environments_version_unless_asked(game: str) -> None:
    # v1, as env() and the -v1 ids; v0 when asked, the arrays batches gave before.
    found = research(game)
    assert found.batch_arrays() == found.batch_arrays("v1")
    for encoding in (None, "v1", "v0"):
        batch = (
            found.batch(2, seed=3)
            if encoding is None
            else found.batch(2, seed=3, encoding=encoding)
        )
        obs = batch.reset()
        layout = found.batch_arrays(encoding or "v1")
        assert {
            name: (array.shape[1:], array.dtype) for name, array in obs.items() if name in layout
        } == layout
        if encoding is None:
            default = obs
        elif encoding == "v1":
            assert all((default[name] == obs[name]).all() for name in obs)


def test_a_game_without_an_encoding_or_an_unknown_one_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every game has an encoding now: Gin Rummy registered again without one.
    spec = dataclasses.replace(games.get("gin"), name="bare", research=None, _resolved={})
    monkeypatch.setitem(games._registry, "bare", spec)
    assert "bare" not in researched()
    with pytest.raises(HookError, match="Gin Rummy has no research"):
        pettingzoo.raw_env(game="bare")
    with pytest.raises(HookError, match="Gin Rummy has no research"):
        rl_gym.CardGameEnv(game="bare")
    with pytest.raises(games.UnknownGameError, match="there is no game 'chess'"):
        research("chess")


def test_the_environments_are_made_from_the_hook_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # Umtali's encoding registered again under another name: the environments find it
    # through the registry, and play the same hands as Umtali's.
    spec = dataclasses.replace(games.get("umtali"), name="plain", _resolved={})
    monkeypatch.setitem(games._registry, "plain", spec)
    assert "plain" in researched()
    scores = []
    for game in ("plain", "umtali"):
        env = pettingzoo.raw_env(game=game)
        env.reset(seed=5)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
        scores.append(env.rewards)
    assert scores[0] == scores[1]
    alone = rl_gym.CardGameEnv("greedy", seat=1, game="plain")
    obs, info = alone.reset(seed=2)
    assert info == {"seat": 1}
    assert obs["action_mask"].sum() >= 1  # the computer has moved: the agent is to move


def test_the_umtali_encoding_checks_what_it_is_given() -> None:
    encoding = research()
    assert encoding.levels is BOTS
    assert umtali_research.rules_of("practical").name == "practical"
    with pytest.raises(ValueError, match="preset's name"):
        umtali_research.rules_of("house")
    with pytest.raises(ValueError, match="has no module"):
        encoding.module("terminal")
    observer = encoding.observer("practical", flat=False)
    assert isinstance(observer, Observer)
    episode = encoding.episode(random.Random(1), observer, rules="practical")
    assert isinstance(episode, Episode)
    assert episode.rules.name == "practical"
    assert set(episode.observe(episode.to_move)) == set(observer.space.spaces)
    with pytest.raises(TypeError, match="Umtali observer"):
        encoding.episode(random.Random(1), object())  # type: ignore[arg-type]
    assert isinstance(encoding.batch(2, seed=1, rules="practical"), HandBatch)


def test_an_illegal_batch_action_is_named_in_the_games_notation() -> None:
    masks = np.zeros(2 * 5, np.int8)
    masks[[1, 7]] = 1
    assert checked_actions([1, 2], masks, 5, str).tolist() == [1, 2]
    with pytest.raises(IllegalActionError, match=r"action 3 \('3'\) is not legal in row 1"):
        checked_actions([1, 3], masks, 5, str)
    with pytest.raises(IllegalActionError, match="actions are 2 ints"):
        checked_actions([1], masks, 5, str)
