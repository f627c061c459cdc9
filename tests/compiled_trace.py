"""What the lockstep test compares (tests/test_compiled.py): seeded random hands of
Umtali and steps of its batch, written down move for move. The test runs it once on the
pure package and once, in a child process, on the compiled build, and the two records
must be equal.

``python -m tests.compiled_trace HANDS SEED`` prints the record as JSON, and first
the names of the core's modules that were loaded compiled.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import numpy as np

from umtali.games.umtali.rules import PRESETS
from umtali.games.umtali.state import _STATE_FIELDS, HandState
from umtali.games.umtali.view import PlayerView, determinize
from umtali.kernel.deck import shuffled_deck

UNDO_EVERY = 7
"""Every this many moves the last move is popped, the state compared with its snapshot
from before, and the move pushed again."""


def fields(state: HandState) -> str:
    """Every field of ``state`` as text (the cached legal moves aside). An int field
    (``phase``) may hold an ``IntEnum`` member in pure Python, where compiled code keeps
    the plain int it is declared as: equal values, written alike here."""
    return repr([_plain(getattr(state, name)) for name in _STATE_FIELDS if name != "_legal"])


def _plain(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    return value


def hand_record(rng: random.Random, rules_name: str) -> list[Any]:
    """One hand played at random, each position's legal moves and the move chosen, an
    undo every :data:`UNDO_EVERY` moves, a world dealt from a player's view now and then
    and played out, and the outcome."""
    record: list[Any] = []
    state = HandState(shuffled_deck(rng), rng.randrange(2), PRESETS[rules_name])
    moves = 0
    while not state.is_over():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        record.append([list(legal), action, [str(m) for m in state.legal_moves][:3]])
        before = fields(state)
        state.push(action)
        moves += 1
        if moves % UNDO_EVERY == 0:
            after = fields(state)
            popped = state.pop()
            assert fields(state) == before, "pop restores the state"
            state.push(popped)
            assert fields(state) == after, "the move pushed again plays the same"
        if moves % 11 == 0 and not state.is_over():
            world = determinize(PlayerView.of(state, state.player), rng, undo=False)
            outcome = world.play_out(rng)
            record.append(["world", fields(world)[:2000], outcome.scores, str(outcome)])
            clone = state.clone()
            record.append(["clone", fields(clone) == fields(state)])
    final = state.outcome()
    assert final is not None
    record.append(["outcome", final.scores, final.termination.value, state.recount()])
    return record


def batch_record(seed: int, steps: int = 60) -> list[str]:
    """Digests of a small batch's observations, rewards and ends, step by step."""
    from umtali.games.umtali.research.vector import HandBatch

    batch = HandBatch(16, seed=seed)
    sampler = np.random.default_rng(seed)
    out = [_digest(batch.reset())]
    for _ in range(steps):
        obs, rewards, done = batch.step(batch.sample_actions(sampler))
        out.append(_digest({**obs, "rewards": rewards, "done": done}))
    return out


def _digest(arrays: dict[str, Any]) -> str:
    digest = hashlib.sha256()
    for key in sorted(arrays):
        digest.update(key.encode())
        digest.update(np.ascontiguousarray(arrays[key]).tobytes())
    return digest.hexdigest()


def trace(hands: int, seed: int) -> dict[str, Any]:
    """The whole record: ``hands`` hands under each preset in turn, then the batch."""
    rng = random.Random(seed)
    names = sorted(PRESETS)
    return {
        "hands": [hand_record(rng, names[i % len(names)]) for i in range(hands)],
        "batch": batch_record(seed),
    }


def compiled_modules() -> list[str]:
    """The core's modules this process loaded from compiled extensions."""
    return sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith("umtali.")
        and not str(getattr(module, "__file__", "") or "").endswith(".py")
        and getattr(module, "__file__", None)
    )


if __name__ == "__main__":
    record = trace(int(sys.argv[1]), int(sys.argv[2]))
    print(json.dumps(compiled_modules()))
    print(json.dumps(record))
