"""The game, variant, computer level, number of players and length a command asks for,
checked against the game's spec in the registry (:mod:`umtali.games`), and the words of
``--help`` that list them. Every refusal here is built from the specs: no game is named.

>>> either(["2", "3", "4"])
'2, 3 or 4'
>>> default = games.get(games.DEFAULT_GAME)
>>> seats_chosen(default, None) == default.seat_counts[0]  # the usual number, unless told
True
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence

from umtali import games
from umtali.cli.hook import NoScreenError, terminal_of
from umtali.cli.usage import UsageError, typed
from umtali.games.api import GameSpec

__all__ = [
    "all_levels",
    "all_seat_counts",
    "either",
    "game_named",
    "game_option",
    "games_told",
    "length_chosen",
    "level_chosen",
    "levels_told",
    "seats_chosen",
    "seats_told",
    "variant_chosen",
    "variants_told",
]


def either(words: Sequence[str], last: str = "or") -> str:
    """Words listed as a sentence says them: "a, b or c"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _offered(specs: Iterable[GameSpec]) -> str:
    """Other games, each with the option that chooses it."""
    return either([f"{spec.title} (--game {spec.name})" for spec in specs])


# -- what a command asks for -------------------------------------------------------------------


def game_option(text: str) -> str:
    """A ``--game`` option: the name of a registered game (else the games are listed)."""
    try:
        return games.get(text).name
    except games.UnknownGameError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def game_named(name: str | None) -> GameSpec:
    """The game ``name`` (the default game when ``None``)."""
    try:
        return games.get(name if name is not None else games.DEFAULT_GAME)
    except games.UnknownGameError as e:
        raise UsageError(str(e)) from None


def variant_chosen(spec: GameSpec, variant: str | None, rules: str | None) -> str | None:
    """The variant of ``spec`` that ``--variant`` or its other name ``--rules`` asks for
    (``None``: neither was given, the game's first)."""
    if variant is not None and rules is not None and variant != rules:
        raise UsageError("--rules is another name for --variant: give one of them, not both")
    name = variant if variant is not None else rules
    if name is None or name in spec.variants:
        return name
    refusal = f"{spec.title} has no variant {typed(name)!r}; choose from {', '.join(spec.variants)}"
    others = [
        other for other in games.games() if other.name != spec.name and name in other.variants
    ]
    if others:
        refusal += f"; {typed(name)!r} is a variant of {_offered(others)}"
    raise UsageError(refusal)


def level_chosen(spec: GameSpec, level: str | None) -> str | None:
    """``level`` if it is one of ``spec``'s computer levels (``None``: not given)."""
    if level is None or level in spec.levels:
        return level
    # The default game's levels are simply "the levels"; another game's are named.
    game = "" if spec.name == games.DEFAULT_GAME else f"{spec.title} "
    raise UsageError(
        f"unknown {game}bot level {typed(level)!r}; the {game}levels are: {', '.join(spec.levels)}"
    )


def seats_chosen(spec: GameSpec, players: int | None) -> int:
    """How many play: ``players`` if ``spec`` may be played by so many, else its usual
    number when ``None``."""
    if players is None:
        return spec.seat_counts[0]
    if players in spec.seat_counts:
        return players
    counts = either([str(count) for count in spec.seat_counts])
    refusal = f"{spec.title} is a game for {counts} players, not {players}"
    others = [other for other in games.games() if players in other.seat_counts]
    if others:
        refusal += f"; for {players}, play {_offered(others)}"
    raise UsageError(refusal)


def length_chosen(spec: GameSpec, length: str | None, option: str) -> str | None:
    """``length`` if a match of ``spec`` may be that long (``None``: the game's first);
    ``option`` is what asked for it, named in the refusal."""
    if length is None or length in spec.lengths:
        return length
    lengths = either([f"one {each}" for each in spec.lengths])
    raise UsageError(
        f"{option} cannot be used with --game {spec.name}: {spec.title} has no {length};"
        f" a match of it is {lengths}; leave {option} out"
    )


# -- the words of --help -----------------------------------------------------------------------


def games_told() -> str:
    """Every game, by the name ``--game`` takes and its title; the default first."""
    return either(
        [
            f"{spec.name} ({spec.title}{', the default' if spec.name == games.DEFAULT_GAME else ''})"
            for spec in games.games()
        ]
    )


def all_levels() -> list[str]:
    """Every game's computer levels, each once, weakest first within a game."""
    return list(dict.fromkeys(level for spec in games.games() for level in spec.levels))


def all_seat_counts() -> list[int]:
    """Every number of players some game may be played by."""
    return sorted({count for spec in games.games() for count in spec.seat_counts})


def levels_told() -> str:
    """Each game's computer levels, with its default."""
    return "; ".join(
        f"{spec.name}: {either(spec.levels)} (default {spec.default_level})"
        for spec in games.games()
    )


def seats_told() -> str:
    """How many may play each game, the usual number first."""
    return "; ".join(
        f"{spec.name} {either([str(n) for n in spec.seat_counts])}" for spec in games.games()
    )


def variants_told() -> str:
    """Each game's variants, with what each is where its terminal says so."""
    told = []
    for spec in games.games():
        try:
            notes = terminal_of(spec).variants
        except NoScreenError:  # a game with no screen: its variants by name
            notes = {}
        told.append(
            f"{spec.name}: "
            + either([f"{v} ({notes[v]})" if v in notes else v for v in spec.variants])
        )
    return "; ".join(told)
