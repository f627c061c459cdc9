"""The ``umtali`` command asks the registry, and names no game: every registered game is
offered, its options checked against its spec with refusals built from it, its records
replayed and its demo played through its terminal hook."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cli_play import play
from tests.test_cli_rules import run_main
from umtali import games
from umtali.cli.choosing import all_levels, either
from umtali.cli.hook import GameTerminal, terminal_of
from umtali.games.api import GameSpec
from umtali.kernel.players import player_name
from umtali.kernel.record import save_file
from umtali.replaying import Heading, MatchEnds, Moved, events

GAMES = games.games()
SEATINGS = [
    pytest.param(spec, seats, id=f"{spec.name}-{seats}")
    for spec in GAMES
    for seats in spec.seat_counts
]


def by_name(spec: GameSpec) -> str:
    return spec.name


@pytest.mark.parametrize("spec", GAMES, ids=by_name)
def test_every_game_has_a_terminal_that_tells_its_variants(spec: GameSpec) -> None:
    screen = terminal_of(spec)
    assert isinstance(screen, GameTerminal)
    assert set(screen.variants) <= set(spec.variants)


@pytest.mark.parametrize(
    "command",
    [("play",), ("demo",), ("arena", "random", "random"), ("lesson", "1"), ("quiz",)],
)
def test_a_game_that_does_not_exist_is_refused_with_the_games(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    status, _out, err = run_main(*command, "--game", "chess", cwd=tmp_path)
    assert status == 2
    assert f"there is no game 'chess'; the games are {', '.join(games.names())}" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("spec", GAMES, ids=by_name)
def test_a_variant_a_level_and_a_length_are_refused_in_the_games_words(
    spec: GameSpec, tmp_path: Path
) -> None:
    variants = ", ".join(spec.variants)
    refused = play("--game", spec.name, "--variant", "nosuch", script="", cwd=tmp_path)
    assert refused.returncode == 2
    assert f"{spec.title} has no variant 'nosuch'; choose from {variants}\n" in refused.stderr
    for level in [level for level in all_levels() if level not in spec.levels][:1]:
        # A level of another game, which --bot offers.
        refused = play("--game", spec.name, "--bot", level, script="", cwd=tmp_path)
        assert refused.returncode == 2
        assert f"unknown {spec.title} bot level {level!r}" in refused.stderr
        assert f"levels are: {', '.join(spec.levels)}" in refused.stderr
    if "session" not in spec.lengths:
        refused = play("--game", spec.name, "--session", script="", cwd=tmp_path)
        assert refused.returncode == 2
        assert f"{spec.title} has no session; a match of it is one " in refused.stderr
    for players in {2, 3, 4} - set(spec.seat_counts):
        refused = play("--game", spec.name, "--players", str(players), script="", cwd=tmp_path)
        assert refused.returncode == 2
        assert f"{spec.title} is a game for " in refused.stderr
        assert f"players, not {players}" in refused.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("spec", "seats"), SEATINGS)
def test_a_record_of_every_game_and_seat_count_is_replayed(
    spec: GameSpec, seats: int, tmp_path: Path
) -> None:
    # Computers of the game's weakest level play its first deal; the record is kept.
    session = spec.maker().between_bots([spec.levels[0]] * seats, 8)
    session.deal()
    while session.computer_to_move() is not None:
        session.bot_move()
    save_file(session.match, tmp_path / "record.json")
    status, out, err = run_main("replay", "record.json", cwd=tmp_path)
    assert status == 0, err
    told = list(events(session.match))
    first, last = told[0], told[-1]
    assert isinstance(first, Heading)
    assert isinstance(last, MatchEnds)
    assert out.startswith(first.text + "\n")
    for event in told:
        if isinstance(event, Moved):
            assert f"    {event.sentence}\n" in out
    assert out.rstrip().splitlines()[-1] == last.text
    assert "Traceback" not in err


@pytest.mark.parametrize("spec", GAMES, ids=by_name)
def test_every_game_has_a_demo_hand_that_replays_the_same(spec: GameSpec, tmp_path: Path) -> None:
    status, out, err = run_main("demo", "--game", spec.name, "--seed", "5", "--save", "d.json",
                                cwd=tmp_path)  # fmt: skip
    assert status == 0, err
    of_game = "" if spec.name == games.DEFAULT_GAME else f" of {spec.title}"
    assert out.startswith(
        f"A demo hand{of_game} between two {spec.levels[0]} players (seed 5).\n"
        "Record saved to d.json (replay it with: umtali replay d.json)\n"
    )
    status, replayed, err = run_main("replay", "d.json", cwd=tmp_path)
    assert status == 0, err
    assert out.endswith(replayed)  # the demo tells its record as the replay does
    assert "\n== Hand 1 · " in out
    for seat in range(spec.seat_counts[0]):
        assert player_name(seat) in replayed


def test_a_game_without_lessons_is_refused_with_the_games_that_have_them(tmp_path: Path) -> None:
    taught = [spec for spec in GAMES if terminal_of(spec).teaching is not None]
    untaught = [spec for spec in GAMES if terminal_of(spec).teaching is None]
    assert taught[0] == games.get(games.DEFAULT_GAME)  # the default game's are the default
    assert untaught  # a game without lessons remains, to be refused
    offered = either([f"{spec.title} (--game {spec.name})" for spec in taught], "and")
    for spec in untaught:
        status, _out, err = run_main("lesson", "1", "--game", spec.name, cwd=tmp_path)
        assert status == 2
        assert (
            f"{spec.title} has no lessons at the terminal; lessons are offered for {offered}" in err
        )
        status, _out, err = run_main("quiz", "--game", spec.name, cwd=tmp_path)
        assert status == 2
        assert f"{spec.title} has no quiz at the terminal; a quiz is offered for {offered}" in err


def test_three_hand_is_played_by_the_players_option(tmp_path: Path) -> None:
    gin = next(spec for spec in GAMES if 3 in spec.seat_counts)
    result = play("--game", gin.name, "--players", "3", "--seed", "5", script="quit\n",
                  cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"A game of three-hand {gin.title} to ")


def test_the_help_offers_every_game_with_its_levels_and_variants(tmp_path: Path) -> None:
    status, out, _err = run_main("play", "--help", cwd=tmp_path)
    assert status == 0
    text = " ".join(out.split())  # argparse wraps the help
    for spec in GAMES:
        assert f"{spec.name} ({spec.title}" in text
        assert f"{spec.name}: {spec.levels[0]}" in text
        assert f"(default {spec.default_level})" in text
        for variant in spec.variants:
            assert variant in text
