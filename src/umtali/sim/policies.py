"""Outside policies in the arena: a bot of anyone's, named by its entry point
(``package.module:make_bot``, a callable that returns a bot with the interface of the
game's own bots), played against the levels like a level (docs/RESEARCH.md, "Submit a
policy").

:func:`load_policy` checks the text, imports the module (the folder the program runs in
is searched first, as ``python -m`` does), finds the callable, asks it for a bot once
and checks that the bot has a ``choose`` method; each step that fails is a
:class:`PolicyError` saying which and why. :func:`registered` then adds the policy to
the game's live registry of levels (its arena hook's ``levels``) for as long as a run
lasts, a fresh bot a game, under its name: its bot's ``name``, else the callable's.

>>> policy = load_policy("umtali.games.umtali.bots:RandomBot", "umtali", taken=())
>>> policy.name, policy.entry_point
('random', 'umtali.games.umtali.bots:RandomBot')
>>> load_policy("umtali.games.umtali.bots", "umtali", taken=())
Traceback (most recent call last):
...
umtali.sim.policies.PolicyError: an outside policy is named as package.module:make_bot, \
the module and the callable that makes its bot joined by a colon; \
'umtali.games.umtali.bots' has no colon
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import sys
from collections.abc import Callable, Collection, Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

from umtali import games as registry
from umtali.games.api import GameSpec
from umtali.sim.hooks import hook_of
from umtali.sim.summary import ArenaError

__all__ = [
    "OutsidePolicy",
    "PolicyError",
    "is_entry_point",
    "load_policy",
    "registered",
]

_NAME: Final = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
ENTRY_POINT: Final = re.compile(rf"(?P<module>{_NAME}):(?P<attribute>{_NAME})")
"""An entry point's text: a dotted module, a colon, a dotted attribute of it."""

_LEVEL_NAME: Final = re.compile(r"[^A-Za-z0-9_.+-]+")


class PolicyError(ArenaError):
    """An outside policy that cannot be played: its text, its module, its callable or
    its bot, and why."""


@dataclass(frozen=True)
class OutsidePolicy:
    """A policy from outside, as a run plays and records it.

    Attributes:
        entry_point: ``package.module:make_bot``, as given.
        name: the level it plays under (its bot's ``name``, made fit for a file name).
        version: its version where it tells one (its bot's ``version``, its module's or
            package's ``__version__``, or its installed distribution's), else ``None``.
    """

    entry_point: str
    name: str
    version: str | None

    def to_dict(self) -> dict[str, str | None]:
        """What a run's JSON says of it."""
        return {"name": self.name, "entry_point": self.entry_point, "version": self.version}


def is_entry_point(text: str) -> bool:
    """Whether ``text`` (not a level) was meant as an entry point: it has a colon, a
    dot or a slash, which no level's name has."""
    return any(mark in text for mark in ":./")


def _module(name: str, entry_point: str) -> ModuleType:
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)  # as python -m: a module of the folder run from
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise PolicyError(
            f"cannot import {name!r}, the module of {entry_point!r} ({e}): is it installed,"
            " or in the folder this runs from?"
        ) from None
    except Exception as e:  # the module itself failed
        raise PolicyError(
            f"importing {name!r}, the module of {entry_point!r}, failed: {type(e).__name__}: {e}"
        ) from None


def _maker(entry_point: str) -> tuple[Callable[[], Any], ModuleType]:
    """The callable ``entry_point`` names and its module, or :class:`PolicyError`."""
    found = ENTRY_POINT.fullmatch(entry_point.strip())
    if found is None:
        how = (
            "has no colon"
            if ":" not in entry_point
            else "is not a dotted module name, a colon and a dotted name in it"
        )
        raise PolicyError(
            "an outside policy is named as package.module:make_bot, the module and the"
            f" callable that makes its bot joined by a colon; {entry_point!r} {how}"
        )
    module = _module(found["module"], entry_point)
    maker: Any = module
    for part in found["attribute"].split("."):
        if not hasattr(maker, part):
            raise PolicyError(
                f"{found['module']!r} has no {found['attribute']!r}: {entry_point!r} names"
                " nothing there"
            )
        maker = getattr(maker, part)
    if not callable(maker):
        raise PolicyError(
            f"{entry_point!r} is {type(maker).__name__} {maker!r}, not a callable that makes a bot"
        )
    return maker, module


def _bot_of(maker: Callable[[], Any], entry_point: str) -> Any:
    """A bot from ``maker``, checked to have a ``choose`` method."""
    try:
        bot = maker()
    except Exception as e:
        raise PolicyError(
            f"{entry_point!r} raised {type(e).__name__} when asked for a bot: {e}"
        ) from None
    if not callable(getattr(bot, "choose", None)):
        raise PolicyError(
            f"{entry_point!r} gave {type(bot).__name__} {bot!r}, which has no"
            " choose(view, rng) method: a bot chooses a move from its player's view"
        )
    return bot


def _version(bot: Any, module: ModuleType) -> str | None:
    """The version a policy tells: its bot's ``version``, its module's or its top
    package's ``__version__``, or its installed distribution's."""
    top = module.__name__.partition(".")[0]
    told = (
        getattr(bot, "version", None),
        getattr(module, "__version__", None),
        getattr(sys.modules.get(top), "__version__", None),
    )
    for version in told:
        if version is not None:
            return str(version)
    for distribution in importlib.metadata.packages_distributions().get(top, []):
        try:
            return importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def load_policy(entry_point: str, game: str | GameSpec, *, taken: Collection[str]) -> OutsidePolicy:
    """The outside policy ``entry_point`` names, checked by making one bot (see the
    module); its name must not be one of ``taken`` (the game's levels, the other bot's).
    :class:`PolicyError` saying what is wrong."""
    maker, module = _maker(entry_point)
    bot = _bot_of(maker, entry_point)
    named = getattr(bot, "name", None)
    if not isinstance(named, str) or not named.strip():
        named = entry_point.rpartition(":")[2].rpartition(".")[2]
    name = _LEVEL_NAME.sub("-", named.strip()).strip("-.") or "policy"
    if name in taken:
        raise PolicyError(
            f"{entry_point!r} makes a bot named {name!r}, which is taken (a level's or the"
            " other bot's name): give its bot another name"
        )
    spec = game if isinstance(game, GameSpec) else registry.get(game)
    _levels(spec)  # a game that cannot take one says so now
    return OutsidePolicy(entry_point.strip(), name, _version(bot, module))


def _levels(spec: GameSpec) -> MutableMapping[str, Callable[[], Any]]:
    levels = hook_of(spec).levels
    if not isinstance(levels, MutableMapping):
        raise PolicyError(f"{spec.title}'s arena takes its own levels only, no outside policy")
    return levels


@contextmanager
def registered(game: str | GameSpec, policies: Sequence[OutsidePolicy]) -> Iterator[None]:
    """``policies`` among ``game``'s levels while the block runs (each a fresh bot a
    game, from its entry point); the ones this added are taken out again after. A policy
    whose name is a level already is left as it is (a worker of a run, which has it)."""
    spec = game if isinstance(game, GameSpec) else registry.get(game)
    added: list[str] = []
    if policies:
        levels = _levels(spec)
        for policy in policies:
            if policy.name not in levels:
                maker, _ = _maker(policy.entry_point)
                levels[policy.name] = maker
                added.append(policy.name)
    try:
        yield
    finally:
        for name in added:
            _levels(spec).pop(name, None)
