"""Learn to play Umtali: REINFORCE on the Gymnasium environment, in plain numpy, then
the learnt policy against the ``random`` level in the arena.

The policy is :class:`umtali.rl.policy.LinearPolicy`: a softmax over the legal moves,
each scored by a handful of features of what it does with the cards. It starts with all
weights at zero, which is uniform random play. Each training episode is one hand of
``gymnasium.make("Umtali-v1", opponent=...)``, paying the agent's score margin at its
end; the update is the policy gradient of that margin (less a running mean of it).

The learnt weights then play as a bot (:class:`umtali.rl.policy.PolicyBot`) in
``umtali.sim.arena``: duplicate deals of four-hand games against ``random``, the game
win rate given with its 95% Wilson interval.

    python examples/train_policy.py --quick       # seconds: a smoke run
    python examples/train_policy.py               # 3,000 hands, 200 deals: under a minute
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import gymnasium
import numpy as np

import umtali.rl  # registers Umtali-v1
from umtali.games.umtali.bots import BOTS
from umtali.rl.policy import FEATURES, LinearPolicy, PolicyBot, Position
from umtali.sim.arena import ArenaResult, run_arena

TRAINED: str = "trained"
"""The level name the learnt policy plays under in the arena."""

MARGIN_SCALE: float = 50.0
"""Margins are divided by this before the update: a typical hand's margin is tens of
points, and the step size is chosen for returns about 1."""


@dataclass(frozen=True)
class Training:
    """What a training run gives: the policy, the margin of each training hand, and
    how long it took."""

    policy: LinearPolicy
    margins: list[float]
    seconds: float


def train(hands: int, seed: int = 0, opponent: str = "random", step: float = 0.05) -> Training:
    """REINFORCE over ``hands`` hands against ``opponent`` (see the module)."""
    assert umtali.rl.ENV_ID == "Umtali-v1"
    env = gymnasium.make(umtali.rl.ENV_ID, opponent=opponent, flat=False)
    rng = np.random.default_rng(seed)
    policy = LinearPolicy()
    baseline = 0.0
    margins = []
    start = time.perf_counter()
    obs, _ = env.reset(seed=seed)
    for _ in range(hands):
        gradient = np.zeros(len(FEATURES))
        done = False
        reward = 0.0
        while not done:
            legal = obs["action_mask"].view(bool).nonzero()[0].tolist()
            if len(legal) == 1:  # a forced move teaches nothing
                action = legal[0]
            else:
                action, grad = policy.choose(Position.of_observation(obs), legal, rng)
                gradient += grad
            obs, paid, terminated, truncated, _ = env.step(action)
            reward = float(paid)
            done = terminated or truncated
        margins.append(reward)
        scaled = reward / MARGIN_SCALE
        policy.weights += step * (scaled - baseline) * gradient
        baseline += 0.05 * (scaled - baseline)
        obs, _ = env.reset()
    return Training(policy, margins, time.perf_counter() - start)


def evaluate(policy: LinearPolicy, deals: int, seed: int = 1, jobs: int = 1) -> ArenaResult:
    """The policy (its likeliest move each time) against ``random`` in the arena."""
    BOTS[TRAINED] = lambda: PolicyBot(policy, name=TRAINED)
    try:
        return run_arena(TRAINED, "random", deals, seed=seed, jobs=jobs)
    finally:
        del BOTS[TRAINED]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="training hands (default 3000)")
    parser.add_argument("--deals", type=int, default=200, help="arena deals to judge by")
    parser.add_argument("--opponent", default="random", help="the level trained against")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="arena processes (default 1)")
    parser.add_argument("--quick", action="store_true", help="100 hands, 10 deals")
    args = parser.parse_args(argv)
    hands, deals = (100, 10) if args.quick else (args.hands, args.deals)

    training = train(hands, args.seed, args.opponent)
    first, last = training.margins[: hands // 5], training.margins[-(hands // 5) :]
    print(
        f"trained on {hands} hands against {args.opponent} in {training.seconds:.1f} s;"
        f" mean margin {np.mean(first):+.1f} in the first fifth, {np.mean(last):+.1f} in the last"
    )
    for name, weight in zip(FEATURES, training.policy.weights, strict=True):
        print(f"  {name:<22}{weight:+.3f}")

    result = evaluate(training.policy, deals, seed=args.seed + 1, jobs=args.jobs)
    s = result.summary()
    low, high = s.game_ci
    verdict = "beats" if low > 0.5 else "does not beat" if high < 0.5 else "cannot be told from"
    print(
        f"arena, {s.deals} deals × 2 seatings = {s.games} games against random"
        f" ({result.seconds:.1f} s): the policy won {s.a_wins}, lost {s.b_wins},"
        f" drew {s.draws}; game win rate {s.game_rate:.1%}"
        f" (95% Wilson {low:.1%} to {high:.1%}): it {verdict} random"
    )
    print(
        f"game margin {s.margin:+.1f} points (95% {s.margin_ci[0]:+.1f} to {s.margin_ci[1]:+.1f})"
    )


if __name__ == "__main__":
    main()
