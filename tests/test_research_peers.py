"""Every researched game through the peers' own checkers, one test a checker
parametrized by game: its registration with Gymnasium and OpenSpiel, PettingZoo's AEC,
seed and parallel tests, Gymnasium's environment checker and OpenSpiel's random
simulation (each game's other research tests are in tests/test_<game>_research.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gymnasium
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (  # type: ignore[import-untyped]
    api_test,
    seed_test,
)

import umtali.rl.openspiel  # noqa: F401 - registers every game's OpenSpiel game
from tests.research_checks import check_parallel_env
from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.research import ENCODING as GIN_ENCODING
from umtali.games.gin.research.openspiel import GAME_NAME as GIN_SPIEL
from umtali.games.klaberjass.bots import BOTS as KLABERJASS_BOTS
from umtali.games.klaberjass.research import ENCODING as KLABERJASS_ENCODING
from umtali.games.klaberjass.research.openspiel import GAME_NAME as KLABERJASS_SPIEL
from umtali.rl.encoding import research, researched
from umtali.rl.pettingzoo import env

# PettingZoo's checkers warn of a dict observation and of an all-zero mask (an agent
# whose episode has ended); Gymnasium's of an 'ansi' text with no frame rate.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
    "ignore:Action mask numpy array is all zeros",
    "ignore:.*No render fps was declared",
)


@dataclass(frozen=True)
class Peer:
    """A researched game as the peers' checkers meet it."""

    game: str
    env_id: str
    """Its Gymnasium ids' stem (``<stem>-v0``, ``<stem>-v1``)."""
    encoding: Any
    num_actions: int
    levels: Any
    spiel: str
    """Its OpenSpiel game's name."""
    presets: tuple[str, str]
    """Its default rules and another preset, each checked."""
    game_rules: str
    """The rules of the Gymnasium check of a whole game."""
    sims: int
    """OpenSpiel's random simulations a preset."""
    seeded_other: bool
    """Whether PettingZoo's seed test runs on the other preset too (and the parallel
    checks on it)."""


PEERS = [
    Peer("gin", "GinRummy", GIN_ENCODING, 107, GIN_BOTS, GIN_SPIEL, ("standard", "oklahoma"),
         "oklahoma", 2, True),
    Peer("klaberjass", "Klaberjass", KLABERJASS_ENCODING, 43, KLABERJASS_BOTS,
         KLABERJASS_SPIEL, ("book", "classic-schmeiss"), "schmeiss", 10, False),
]  # fmt: skip
BY_GAME = pytest.mark.parametrize("peer", PEERS, ids=[peer.game for peer in PEERS])


@BY_GAME
def test_it_is_researched_and_registered_with_gymnasium(peer: Peer) -> None:
    assert peer.game in researched()
    assert research(peer.game) is peer.encoding
    for version in ("v0", "v1"):
        spec = gymnasium.spec(f"{peer.env_id}-{version}")
        assert spec.entry_point == "umtali.rl.gym:CardGameEnv"
        assert spec.kwargs == {"game": peer.game, "encoding": version}
    assert peer.encoding.num_actions == peer.num_actions
    assert peer.encoding.levels is peer.levels
    assert peer.spiel in pyspiel.registered_names()


@BY_GAME
def test_the_aec_env_passes_pettingzoos_api_test(peer: Peer) -> None:
    api_test(env(game=peer.game), num_cycles=1000)
    api_test(env(game=peer.game, flat=False, perfect_recall=True, reward="game"), num_cycles=300)
    api_test(env(game=peer.game, rules=peer.presets[1]), num_cycles=300)


@BY_GAME
def test_the_aec_env_passes_pettingzoos_seed_test(peer: Peer) -> None:
    seed_test(lambda **options: env(game=peer.game, **options), num_cycles=500)
    if peer.seeded_other:
        other = peer.presets[1]
        seed_test(lambda **options: env(game=peer.game, rules=other, **options), num_cycles=200)


@BY_GAME
def test_the_parallel_env_passes_pettingzoos_parallel_and_max_cycles_tests(peer: Peer) -> None:
    if peer.seeded_other:
        check_parallel_env(peer.game, rules=peer.presets[1])
    else:
        check_parallel_env(peer.game)


@BY_GAME
@pytest.mark.parametrize("kind", ["expert", "dict-recall", "game"])
def test_the_env_passes_gymnasiums_checker(peer: Peer, kind: str) -> None:
    options: dict[str, dict[str, Any]] = {
        "expert": {"opponent": "expert"},
        "dict-recall": {"opponent": "random", "seat": 1, "flat": False, "perfect_recall": True},
        "game": {"opponent": "greedy", "reward": "game", "rules": peer.game_rules},
    }
    check_env(gymnasium.make(f"{peer.env_id}-v1", **options[kind]).unwrapped)


@BY_GAME
@pytest.mark.parametrize("preset", [0, 1])
def test_openspiel_random_sim_test_passes(peer: Peer, preset: int) -> None:
    game = pyspiel.load_game(peer.spiel, {"rules": peer.presets[preset], "dealer": preset})
    pyspiel.random_sim_test(game, num_sims=peer.sims, serialize=True, verbose=False)
