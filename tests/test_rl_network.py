"""The learned baseline (umtali.games.umtali.research.network): its gradients, the bot
that plays it from a view, the shipped weights, and the training example
(examples/train_network.py) run small enough to take seconds."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import load_example
from umtali.games.umtali.research.actions import engine_action, index_of, legal_indices
from umtali.games.umtali.research.network import (
    WEIGHTS_FILE,
    Network,
    NetworkBot,
    NetworkError,
    Sample,
    inputs_of,
    shipped,
)
from umtali.games.umtali.research.observation import Observer
from umtali.games.umtali.rules import PRESETS
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView, determinize
from umtali.sim.arena import run_arena
from umtali.sim.policies import load_policy

ENTRY_POINT = "umtali.games.umtali.research.network:make_bot"


def _positions(hands: int, rules_name: str = "standard") -> list[tuple[HandState, int]]:
    """States of random hands where the player to move has a choice (copies)."""
    rules = PRESETS[rules_name]
    found = []
    for seed in range(hands):
        state = HandState.from_seed(seed, rules=rules)
        rng = random.Random(seed)
        while not state.is_over():
            legal = legal_indices(state)
            if len(legal) > 1:
                found.append((state.clone(), state.player))
            state.push(engine_action(rng.choice(legal)))
    return found


def _sample(net_rng: np.random.Generator, positions: list[tuple[HandState, int]]) -> Sample:
    observer = Observer(flat=True)
    x, legal, chosen = [], [], []
    for state, seat in positions:
        indices = legal_indices(state)
        x.append(inputs_of(observer.observe(state, seat, legal=indices)["observation"]))
        legal.append(indices)
        chosen.append(int(net_rng.integers(len(indices))))
    return Sample.of(np.stack(x), legal, chosen)


def test_the_bot_sees_what_the_environment_shows() -> None:
    # The bot has a view, not a state: it deals the unseen cards out (determinize) and
    # observes that. Its observation is the seat's own, whatever the deal, under every
    # preset, with the game's totals.
    for name in PRESETS:
        observer = Observer(PRESETS[name], flat=True)
        for state, seat in _positions(3, name)[::3]:
            view = PlayerView.of(state, seat, (12, 30), 2)
            real = observer.observe(state, seat, (12, 30), 2)["observation"]
            for deal in range(2):
                dealt = determinize(view, random.Random(deal), undo=False)
                seen = observer.observe(dealt, seat, (12, 30), 2)["observation"]
                assert np.array_equal(real, seen)


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(1)
    net = Network.initial(rng)
    net.w2 += rng.normal(0, 0.05, net.w2.shape).astype(np.float32)  # scores that differ
    sample = _sample(rng, _positions(1)[:8])
    weights = rng.normal(size=len(sample.chosen))
    _, grads = net.gradients(sample, weights)
    for param, grad in zip(net.params, grads, strict=True):
        flat, gflat = param.reshape(-1), grad.reshape(-1)
        for at in np.argsort(-np.abs(gflat))[:2]:  # where the gradient is largest
            keep = float(flat[at])
            eps = 1e-2
            flat[at] = keep + eps
            up = net.gradients(sample, weights)[0]
            flat[at] = keep - eps
            down = net.gradients(sample, weights)[0]
            flat[at] = keep
            assert (up - down) / (2 * eps) == pytest.approx(float(gflat[at]), rel=0.05, abs=1e-4)


def test_imitation_lowers_the_loss_on_a_fixed_batch() -> None:
    train = load_example("train_network")
    rng = np.random.default_rng(2)
    net = Network.initial(rng)
    sample = _sample(rng, _positions(2)[:12])
    adam = train.Adam(net.params, 1e-2)
    first, _ = net.gradients(sample)
    for _ in range(15):
        _, grads = net.gradients(sample)
        adam.step(grads)
    last, _ = net.gradients(sample)
    assert last < first / 2
    # And the network now plays the moves it was shown, most of the time.
    assert np.mean(net.choose_rows(sample) == sample.chosen) > 0.8


def test_a_tiny_training_run_is_reproducible(tmp_path: Path) -> None:
    train = load_example("train_network")
    runs = []
    for _ in range(2):
        net, log = train.train(
            seed=3, imitation_steps=4, rl_steps=8, n=4, teacher="greedy", opponent="random"
        )
        runs.append((net, log))
    (a, log_a), (b, log_b) = runs
    for x, y in zip(a.params, b.params, strict=True):
        assert np.array_equal(x, y)
    assert log_a.losses == log_b.losses
    assert log_a.margins == log_b.margins
    assert 0 < len(log_a.losses) <= 4  # a step where every row is forced teaches nothing
    # Saved as float16, loaded back as the rounded network.
    a.save(tmp_path / "w.npz")
    loaded = Network.load(tmp_path / "w.npz")
    for x, y in zip(loaded.params, a.rounded().params, strict=True):
        assert np.array_equal(x, y)


def test_a_file_without_weights_is_refused(tmp_path: Path) -> None:
    np.savez(tmp_path / "other.npz", w1=np.zeros(3))
    with pytest.raises(NetworkError, match="holds no weights"):
        Network.load(tmp_path / "other.npz")
    with pytest.raises(NetworkError, match="have shape"):
        Network(np.zeros((3, 3)), *shipped().params[1:])


def test_the_shipped_weights_are_small_and_load() -> None:
    source = resources.files("umtali.games.umtali.research") / WEIGHTS_FILE
    assert source.is_file()
    assert len(source.read_bytes()) < 512 * 1024
    net = shipped()
    assert all(np.isfinite(p).all() for p in net.params)


def test_the_shipped_bot_plays_legal_moves_from_its_view() -> None:
    bot = NetworkBot()
    rng = random.Random(0)
    for state, seat in _positions(4)[::5]:
        view = PlayerView.of(state, seat)
        move = bot.choose(view, rng)
        assert move in view.legal
        assert index_of(move) in legal_indices(state)
    sampler = NetworkBot(sample=True)
    state, seat = _positions(1)[3]
    assert index_of(sampler.choose(PlayerView.of(state, seat), random.Random(1))) in legal_indices(
        state
    )


def test_the_shipped_bot_beats_random_in_the_arena() -> None:
    # Ten seeded deals, twenty games: the trained network wins nearly all of them
    # against random play (400 games: see docs/RESEARCH.md); 14 of 20 leaves room.
    policy = load_policy(ENTRY_POINT, "umtali", taken={"random"})
    result = run_arena(policy.name, "random", 10, seed=5, jobs=1, policies=[policy])
    summary = result.summary()
    assert summary.a_wins >= 14, summary


def test_the_example_runs_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    load_example("train_network").main(["--quick", "--out", str(tmp_path / "quick.npz")])
    printed = capsys.readouterr().out
    assert "imitation of expert against greedy: 20 steps of 8 rows" in printed
    assert "policy gradient against greedy: 20 steps" in printed
    assert Network.load(tmp_path / "quick.npz").w1.shape == shipped().w1.shape
