"""Umtali's presets at the terminal: ``--rules NAME`` (another name for ``--variant``) for
``umtali play``, ``umtali demo`` and ``umtali arena``, with any preset of
``umtali.games.umtali.rules.PRESETS``; an unknown name is refused with the known ones, and
a resumed game keeps the record's rules."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from tests.test_cli_play import play
from umtali.cli.main import main
from umtali.games.umtali.learn.help import HELP_FILE, help_file
from umtali.games.umtali.match import Match
from umtali.games.umtali.record import load_file
from umtali.games.umtali.rules import PRACTICAL, PRESETS
from umtali.learn.reference import rules_summary


def run_main(*args: str, cwd: Path) -> tuple[int, str, str]:
    """``umtali ARGS`` in this process, in the folder ``cwd``: the status, the output and
    the errors."""
    out, err = io.StringIO(), io.StringIO()
    # (argparse prints --help to standard output itself)
    with contextlib.chdir(cwd), contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            status = main(list(args), out)
        except SystemExit as e:  # argparse refuses an option so
            status = e.code if isinstance(e.code, int) else 2
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", list(PRESETS))
def test_play_deals_every_preset_and_keeps_it_in_the_record(name: str, tmp_path: Path) -> None:
    # The first move listed, twice over, then quit: the game is saved with its rules.
    result = play("--rules", name, "--seed", "3", "--bot", "random", "--save", "g.json",
                  script="1\n1\nquit\n", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    shown = "" if name == "standard" else f" ({name} rules)"
    assert result.stdout.startswith(f"A game of Umtali{shown}: You against Computer (Beginner).")
    # Each hand's title, and the board's under it, name the rules unless standard.
    titles = [line for line in result.stdout.splitlines() if line.startswith("Game 1, hand 1")]
    assert len(titles) >= 2
    assert all(("· practical rules ·" in title) == (name == "practical") for title in titles)
    saved = load_file(tmp_path / "g.json")
    assert saved.rules == PRESETS[name]
    assert json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))["rules"]["preset"] == name
    # Resumed, the game plays on under the record's rules; --rules may not change them.
    refused = play("--resume", "g.json", "--rules", name, script="", cwd=tmp_path)
    assert refused.returncode == 2
    assert "its rules" in refused.stderr
    assert "so --rules cannot be used with it" in refused.stderr
    again = play("--resume", "g.json", script="quit\n", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert load_file(tmp_path / "g.json").rules == PRESETS[name]


def test_a_practical_hand_starts_with_the_upcard_and_ten_cards_each(tmp_path: Path) -> None:
    result = play("--rules", "practical", "--seed", "3", "--bot", "greedy", "--save", "p.json",
                  script="1\nquit\n", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    match = load_file(tmp_path / "p.json")
    assert isinstance(match, Match)
    hand = match.hands[0]
    assert hand.rules == PRACTICAL
    # Seed 003's deal: no eleventh card to keep or give, so no such move is recorded.
    assert not any(move.text() in ("keep", "give") for move in hand.moves_played())


def test_an_unknown_preset_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    for command in (("play",), ("demo",), ("arena", "random", "random")):
        for option in ("--rules", "--variant"):
            status, _out, err = run_main(*command, option, "house", cwd=tmp_path)
            assert status == 2
            assert f"Umtali has no variant 'house'; choose from {', '.join(PRESETS)}\n" in err
    assert not list(tmp_path.iterdir())


def test_rules_is_another_name_for_variant_in_every_game(tmp_path: Path) -> None:
    # Gin Rummy's variants are chosen with --rules too, and Umtali's with --variant.
    oklahoma = play("--game", "gin", "--rules", "oklahoma", "--seed", "4", script="quit\n",
                    cwd=tmp_path)  # fmt: skip
    assert oklahoma.returncode == 0, oklahoma.stderr
    assert oklahoma.stdout.startswith("A game of Oklahoma Gin to 150:")
    practical = play("--variant", "practical", "--seed", "3", script="quit\n", cwd=tmp_path)
    assert practical.returncode == 0, practical.stderr
    assert practical.stdout.startswith("A game of Umtali (practical rules):")
    # An Umtali preset is no variant of Gin Rummy: the refusal says whose it is.
    for command in (("play", "--game", "gin"), ("arena", "random", "random", "--game", "gin")):
        status, _out, err = run_main(*command, "--rules", "practical", cwd=tmp_path)
        assert status == 2
        assert (
            "Gin Rummy has no variant 'practical'; choose from standard, oklahoma; 'practical'"
            " is a variant of Umtali (--game umtali)" in err
        )
    assert not list(tmp_path.iterdir())


def test_the_help_says_what_each_preset_is(tmp_path: Path) -> None:
    for command in ("play", "demo", "arena"):
        status, out, _err = run_main(command, "--help", cwd=tmp_path)
        assert status == 0
        text = " ".join(out.split())  # argparse wraps the help
        for name in PRESETS:
            assert name in text
        assert "standard (the book's game, with the rulings R1-R11)" in text
        assert "practical (seed 003's looser game: ten cards and an upcard," in text


def test_demo_plays_and_saves_a_hand_of_the_preset(tmp_path: Path) -> None:
    status, out, err = run_main("demo", "--rules", "practical", "--seed", "2", "--save",
                                "d.json", cwd=tmp_path)  # fmt: skip
    assert status == 0, err
    assert out.startswith("A demo hand between two random players (seed 2, practical rules).\n")
    assert load_file(tmp_path / "d.json").rules == PRACTICAL
    status, told, err = run_main("replay", "d.json", cwd=tmp_path)
    assert status == 0, err
    assert told.startswith("Hand between Player 1 and Player 2, rules: practical\n")


def test_the_arena_plays_the_preset_and_names_it(tmp_path: Path) -> None:
    status, out, err = run_main("arena", "greedy", "random", "--rules", "practical",
                                "--games", "1", "--jobs", "1", "--quiet", "--out", "runs",
                                cwd=tmp_path)  # fmt: skip
    assert status == 0, err
    assert out.startswith("umtali arena · Umtali (practical rules) · A greedy vs B random")
    assert "book:" not in out  # the book's figures are of its standard rules
    # Named apart from a standard run of the same levels and seed, which it never replaces.
    results = tmp_path / "runs" / "umtali-practical-greedy-vs-random-seed0.json"
    assert f"results: {Path('runs') / results.name}" in out
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["rules"] == "practical"
    assert data["game"] == "umtali"


def test_rules_and_help_at_the_prompt_tell_the_games_own_preset(tmp_path: Path) -> None:
    practical = play("--rules", "practical", "--seed", "3", script="rules\nhelp\nquit\n",
                     cwd=tmp_path)  # fmt: skip
    assert practical.returncode == 0, practical.stderr
    summary = rules_summary(help_file("practical"))
    assert summary.title == "Practical Umtali in brief"
    assert f"{summary.title}\n• Ten cards each, and the next card turned up" in practical.stdout
    assert "take 9♣ (deeper: with every card above it)" in " ".join(practical.stdout.split())
    # The standard game tells the book's rules, as before.
    standard = play("--seed", "3", script="rules\nquit\n", cwd=tmp_path)
    assert f"{rules_summary(HELP_FILE).title}\n• Each turn: draw" in standard.stdout
    assert "Practical" not in standard.stdout


def test_an_oklahoma_run_is_named_apart_from_a_standard_gin_run(tmp_path: Path) -> None:
    args = ("arena", "greedy", "random", "--game", "gin", "--games", "1", "--jobs", "1")
    status, out, err = run_main(*args, "--variant", "oklahoma", "--quiet", cwd=tmp_path)
    assert status == 0, err
    assert out.startswith("umtali arena · Gin Rummy (oklahoma rules) · A greedy vs B random")
    data = json.loads(
        (tmp_path / "arena-results" / "gin-oklahoma-greedy-vs-random-seed0.json").read_text(
            encoding="utf-8"
        )
    )
    assert data["rules"] == "oklahoma"
    assert not (tmp_path / "arena-results" / "gin-greedy-vs-random-seed0.json").exists()
