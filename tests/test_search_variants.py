"""The screen of the search's variants (benchmarks/search_variants.py).

Each variant must be the level with its own options and nothing else, the arena's
players must be those variants, and the command must pair every variant with the
first one named on the same deals.
"""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from tests.helpers import load_benchmark
from umtali.games.umtali.bots import SearchBot


def bench() -> ModuleType:
    return load_benchmark("search_variants")


def test_each_variant_is_the_level_with_its_own_options() -> None:
    level = SearchBot()
    for variant, options in bench().VARIANTS.items():
        bot = bench().build(variant)
        assert bot.max_ms == math.inf  # as the arena builds the level: replays anywhere
        for option in (
            "playouts",
            "candidates",
            "racing",
            "game_chances",
            "max_plies",
            "last_hand_stake",
        ):
            assert getattr(bot, option) == options.get(option, getattr(level, option))
    assert bench().build("level").name == "search"
    assert bench().racing().name == "search-racing"
    assert bench().racing_wide().racing
    assert bench().racing_wide().candidates == 8
    assert bench().game_chances().game_chances
    assert bench().build("racing-wide", playouts=12).playouts == 12
    assert bench().build("stake-1000").last_hand_stake == 1000.0
    combined = bench().combined()
    assert combined.name == "search-combined"
    assert (combined.game_chances, combined.racing, combined.candidates) == (True, True, 8)
    assert (combined.playouts, combined.last_hand_stake) == (1200, 1000.0)


@pytest.mark.parametrize(
    "argv",
    [
        ["level", "--deals", "1"],
        ["level", "--jobs", "0"],
        ["level", "--playouts", "0"],
        ["psychic"],
        [],
    ],
)
def test_the_command_refuses_what_it_cannot_run(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench().main(argv)


def _screen(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The lines the command prints for ``argv`` (two variants, each line checked)."""
    # A small budget keeps the test quick; the plumbing is the arena's duplicate deals.
    assert bench().main([*argv, "--deals", "2", "--playouts", "12"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first, second = argv[:2]
    assert [line.split(":")[0] for line in lines] == [
        first,
        second,
        f"{second} on {first}, deal by deal",
    ]
    return lines


def test_the_command_prints_each_variant_then_its_difference_on_the_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = _screen(["level", "racing"], capsys)
    assert lines[0].endswith("a hand over 2 deals")


def test_in_last_hands_the_command_counts_the_games_won(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = _screen(["level", "stake-1000", "--last-hand"], capsys)
    assert lines[0].endswith("points of games won over 2 deals")
    # A deal's figure is a game won (100), drawn (50) or lost (0), averaged over two seats.
    mean = float(lines[0].split(": ")[1].split()[0])
    assert 0 <= mean <= 100


def test_a_last_hand_s_lead_is_the_same_on_every_run_and_spread_as_three_hands() -> None:
    leads = [bench().lead_of("last/1", d) for d in range(200)]
    assert leads == [bench().lead_of("last/1", d) for d in range(200)]
    spread = (sum(x * x for x in leads) / len(leads)) ** 0.5
    assert 0.8 * bench().LEAD_SPREAD < spread < 1.2 * bench().LEAD_SPREAD
