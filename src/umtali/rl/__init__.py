"""Card games for reinforcement learning: every registered game with a research encoding
(the registry's ``research`` hook, :mod:`umtali.rl.encoding`), through one set of
environments. docs/RESEARCH.md shows each with an example.

* :mod:`umtali.rl.pettingzoo`: a PettingZoo environment (AEC and parallel).
* :mod:`umtali.rl.gym`: a Gymnasium environment against computer players.
* :mod:`umtali.rl.parallel`: a game's batches of hands on several cores.
* :mod:`umtali.rl.versus`: hands in a batch against a computer level, and the same as a
  Gymnasium ``VectorEnv`` (``gymnasium.make_vec``); ``PackedVersusBatch`` plays the
  computer's moves inside the game's own batch.
* :mod:`umtali.rl.selfplay`: a game's packed self-play batch as a Gymnasium ``VectorEnv``.
* :mod:`umtali.rl.openspiel`: the games' OpenSpiel games, registered with ``pyspiel``.
* :mod:`umtali.rl.shared` and :mod:`umtali.rl.spiel`: what every game's encoding and
  OpenSpiel game do the same way, written once for them to call.

Each takes ``game=`` a registered name, the default game (Umtali) when none is given.
What is a game's own (its action space, observations, episodes, batches, policy,
OpenSpiel game) lives in its folder (Umtali's in ``umtali.games.umtali.research``).

``umtali.rl.actions``, ``observation``, ``episode``, ``vector``, ``policy`` and the
names of ``openspiel`` are where Umtali's encoding was when it was the only game, and
every program written against them goes on working: each of these modules stands for
the default game's encoding module of its name, found through the registry
(:func:`umtali.rl.encoding.alias`), and each name read there is that module's own
object (``umtali.rl.vector.HandBatch is umtali.games.umtali.research.vector.HandBatch``).
Code that wants the exact types for a type checker imports from the game's module; at
the old paths every name is ``Any`` to it.

Everything here needs the ``rl`` extra (``pip install -e '.[rl]'``: numpy, Gymnasium,
PettingZoo); the rules core stays free of them and keeps its packed action ints.
Importing the package registers each game's Gymnasium environment under one id a
version of its arrays: Umtali's are ``Umtali-v1`` (:data:`ENV_ID`, the default arrays) and
``Umtali-v0`` (the first arrays, as that id always gave them).
"""

from __future__ import annotations

from typing import Final

import gymnasium

from umtali.rl.encoding import research, researched
from umtali.rl.shared import DEFAULT_ENCODING, ENCODINGS, EncodingVersion

__all__ = ["ENV_ID", "ENV_IDS", "register_environments", "versioned_ids"]


def versioned_ids(game: str) -> dict[EncodingVersion, str]:
    """The Gymnasium ids of ``game``'s environment, by the version of its arrays: the
    game's first id (its research encoding's ``env_id``, ``"Umtali-v0"``) gives ``v0``'s,
    as it did before ``v1`` came, and the same name with ``-v1`` gives ``v1``'s. An id
    keeps its observations for good; a new encoding comes under a new id.

    >>> versioned_ids("umtali")
    {'v0': 'Umtali-v0', 'v1': 'Umtali-v1'}
    """
    name = research(game).env_id.rsplit("-v", 1)[0]
    return {version: f"{name}-{version}" for version in ENCODINGS}


def register_environments() -> dict[str, str]:
    """Register with Gymnasium the environments of every registered game that has a
    research encoding and is not registered yet (done on import; call it again after
    registering a game), one id a version of the arrays (:func:`versioned_ids`), with its
    vector environment (:class:`umtali.rl.versus.CardGameVectorEnv`, what
    ``gymnasium.make_vec`` makes); each game's id of the default version, by game."""
    newest = {}
    for game in researched():
        ids = versioned_ids(game)
        for version, env_id in ids.items():
            if env_id not in gymnasium.registry:
                gymnasium.register(
                    id=env_id,
                    entry_point="umtali.rl.gym:CardGameEnv",
                    vector_entry_point="umtali.rl.versus:make_vector_env",
                    kwargs={"game": game, "encoding": version},
                )
        newest[game] = ids[DEFAULT_ENCODING]
    return newest


ENV_IDS: Final = register_environments()
"""The Gymnasium id of each game's environment (:class:`umtali.rl.gym.CardGameEnv`) with
the default arrays (``v1``), by game: ``gymnasium.make(id)`` once :mod:`umtali.rl` (or
any module of it) is imported. Each game's ``-v0`` id gives the ``v0`` arrays."""

ENV_ID: Final = ENV_IDS[research().game]
"""The Gymnasium id of the default game's environment: ``gymnasium.make("Umtali-v1")``."""
