"""``umtali play --game gin`` end to end, with scripted input: through the command's own
``main`` (its standard input a script), and once as a real process through the
``umtali`` console script. A game saved and resumed, its record replayed, and three-
and four-hand games at the table."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli_play import play
from tests.test_replaying import gin_game_of_three_gins
from umtali.games.gin.match import GinMatch, GinPartyMatch
from umtali.kernel.record import load_any_file, save_file

UMTALI = str(Path(sys.executable).parent / "umtali")


def test_a_whole_game_against_the_computer(tmp_path: Path) -> None:
    # Always the first move listed (in a discard: the first card); Enter between hands.
    result = play(
        "--game", "gin", "--seed", "4", "--bot", "greedy", script="1\n" * 3000, cwd=tmp_path
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert out.startswith("A game of Gin Rummy to 100: You against Computer (Casual). Seed 4.")
    assert "Knock limit 10" in out
    hands = out.count("End of the hand")
    assert hands >= 1
    dealt = re.findall(
        r"^Gin Rummy, hand (\d+) \(to 100\) · (?:You deal|\S+ \S+ deals)$", out, re.M
    )
    assert dealt == [str(n) for n in range(1, hands + 1)]
    final = re.search(r"(You|Computer \(Casual\)) wins? the game, (\d+) to (\d+)", out)
    assert final is not None
    assert int(final[2]) >= 100 + 100  # the hands' points and the game bonus at least
    assert "Final" in out  # the score sheet with the bonuses


def test_oklahoma_shows_each_hands_knock_limit_and_plays_to_150(tmp_path: Path) -> None:
    result = play(
        "--game", "gin", "--variant", "oklahoma", "--seed", "4", "--bot", "greedy",
        script="1\n" * 3000, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "A game of Oklahoma Gin to 150" in out
    limits = set(re.findall(r"^Knock limit (\d+)", out, re.M))
    assert len(limits) > 1  # the first upcard of each hand sets it
    assert re.search(r"wins? the game, \d+ to \d+", out)


def test_moves_are_typed_in_notation_and_refused_with_the_reason(tmp_path: Path) -> None:
    # Seed 4: you deal; the computer takes the upcard 3♣ and discards 10♦. You take it.
    script = "\n".join(
        [
            "draw now",  # no such move
            "take",
            "undo",  # taking a face-up card showed nothing: it may be taken back
            "take",
            "discard 10d",  # the card just taken
            "knock Kh",  # far too much deadwood
            "draw",  # drawn already
            "discard 2c",  # a card you do not hold
            "why discard Kh",
            "hint",
            "quit",
        ]
    )
    result = play(
        "--game", "gin", "--seed", "4", "--bot", "greedy", script=script + "\n", cwd=tmp_path
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "  Computer (Casual) discards 10♦" in out
    assert (
        "'draw now' is not a Gin Rummy move: say draw, take, pass, discard CARD or knock CARD"
        in out
    )
    assert out.count("  You take 10♦ from the pile") == 2
    assert "Taken back: take." in out
    assert (
        "You took 10♦ from the pile this turn, and the card just taken may not be discarded"
        " in the same turn (ruling G)." in out
    )
    assert re.search(
        r"Knocking with K♥ would leave \d+ deadwood, and you may knock with at most 10\.", out
    )
    assert "You have drawn this turn: now discard a card, or knock." in out
    assert "You do not hold 2♣." in out
    assert "discard Kh is allowed now." in out
    assert re.search(
        r"Hint: discard \S+\. Discarding .*\(The expert level would play this\.\)", out
    )
    (saved,) = tmp_path.glob("umtali-*.json")  # quit keeps the game
    assert f"Game saved to {saved.name}. Continue it with" in out


def test_hotseat_hides_each_hand_between_the_players(tmp_path: Path) -> None:
    # Enter at each hand-over, then the first move listed.
    result = play("--game", "gin", "--seed", "4", "--hotseat", script="\n1\n" * 40, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Hand the terminal to Player 2, then press Enter" in out
    assert "Hand the terminal to Player 1, then press Enter" in out
    assert "So far in this hand (Player 1):\n  Player 2 takes 3♣ from the pile" in out
    # Between two hand-overs only one player's hand is on the screen.
    screens = out.split("Hand the terminal to ")[1:]
    for screen in screens[:-1]:
        moving = re.findall(r"· (Player \d)'s move", screen)
        assert len(set(moving)) <= 1, screen


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--game", "gin", "--session"],
            "--session cannot be used with --game gin: Gin Rummy has no session; a match of"
            " it is one game; leave --session out",
        ),
        (
            ["--players", "3"],
            "Umtali is a game for 2 players, not 3; for 3, play Gin Rummy (--game gin)",
        ),
        (["--game", "gin", "--players", "4", "--session"], "--session cannot be used"),
        (
            ["--game", "gin", "--rules", "practical"],
            "Gin Rummy has no variant 'practical'; choose from standard, oklahoma;"
            " 'practical' is a variant of Umtali (--game umtali)",
        ),
        (["--game", "gin", "--players", "5"], "invalid choice: 5"),
        (["--game", "gin", "--players", "3", "--hotseat", "--bot", "random"], "leave it out"),
        (["--game", "gin", "--hotseat", "--bot", "greedy"], "--bot cannot be used with it"),
        (
            ["--variant", "oklahoma"],
            "Umtali has no variant 'oklahoma'; choose from standard, practical; 'oklahoma' is"
            " a variant of Gin Rummy (--game gin)",
        ),
        (
            ["--game", "gin", "--variant", "texas"],
            "Gin Rummy has no variant 'texas'; choose from standard, oklahoma\n",
        ),
        (
            ["--game", "gin", "--variant", "oklahoma", "--rules", "standard"],
            "--rules is another name for --variant: give one of them, not both",
        ),
    ],
)
def test_options_that_cannot_be_used_are_refused(
    args: list[str], message: str, tmp_path: Path
) -> None:
    result = play(*args, script="", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not list(tmp_path.iterdir())


def test_the_console_script_plays_gin_from_a_pipe(tmp_path: Path) -> None:
    assert Path(UMTALI).exists(), "the umtali console script is not installed"
    completed = subprocess.run(
        [UMTALI, "play", "--game", "gin", "--seed", "4", "--bot", "random"],
        input="take\n1\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8"),
        check=False,
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Your hand (10):" in completed.stdout
    assert "Game saved to umtali-" in completed.stdout


# -- saved and resumed ---------------------------------------------------------------------------


def test_a_game_saved_on_quit_is_resumed_where_it_stopped(tmp_path: Path) -> None:
    # Seed 4: the computer takes the upcard 3♣ and discards 10♦; you take it, discard
    # your first card, and quit.
    result = play(
        "--game", "gin", "--seed", "4", "--bot", "greedy", "--save", "g.json",
        script="take\n1\nquit\n", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Game saved to g.json. Continue it with: umtali play --resume g.json" in result.stdout
    saved = load_any_file(tmp_path / "g.json")
    assert isinstance(saved, GinMatch)
    assert saved.meta == {"seed": 4, "humans": [0], "bot": "greedy"}
    played = [move for _, move in saved.hands[0].history]
    assert len(played) >= 3  # the computer's take and discard, then yours
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert record["game"] == "gin"
    assert record["hands"][0]["moves"][:2] == ["take", "discard 10d"]

    resumed = play("--resume", "g.json", script="quit\n", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    out = resumed.stdout
    assert out.startswith("Resuming the game of Gin Rummy saved in g.json.")
    # What the computer did since your last move is told again, as you saw it.
    assert "Since your last turn:" in out
    assert "Your hand (10):" in out
    again = load_any_file(tmp_path / "g.json")
    assert isinstance(again, GinMatch)
    assert again.hands[0].history == saved.hands[0].history


def test_a_saved_game_is_kept_after_every_hand_and_to_its_end(tmp_path: Path) -> None:
    result = play(
        "--game", "gin", "--seed", "4", "--bot", "greedy", "--save", "whole.json",
        script="1\n" * 3000, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "The record is in whole.json (replay it with: umtali replay whole.json)" in out
    kept = load_any_file(tmp_path / "whole.json")
    assert isinstance(kept, GinMatch)
    assert kept.is_over()
    assert len(kept.hands) == out.count("End of the hand")
    # A finished game is not resumed.
    again = play("--resume", "whole.json", script="", cwd=tmp_path)
    assert again.returncode == 2
    assert "the game in whole.json is already over" in again.stderr


def test_quit_without_a_file_saves_the_game_in_a_new_one(tmp_path: Path) -> None:
    result = play("--game", "gin", "--seed", "4", "--bot", "greedy", script="take\n1\nquit\n",
                  cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    (saved,) = tmp_path.glob("umtali-*.json")
    assert f"Game saved to {saved.name}." in result.stdout
    assert isinstance(load_any_file(saved), GinMatch)
    # Nothing played yet: nothing is kept.
    nothing = tmp_path / "nothing"
    nothing.mkdir()
    result = play("--game", "gin", "--seed", "5", "--bot", "greedy", script="quit\n",
                  cwd=nothing)  # fmt: skip
    assert "Nothing was played yet, so nothing was saved." in result.stdout
    assert not list(nothing.iterdir())


def test_save_at_the_prompt_keeps_the_game_and_plays_on(tmp_path: Path) -> None:
    result = play("--game", "gin", "--seed", "4", "--bot", "greedy",
                  script="take\nsave\n1\nquit\n", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    (saved,) = tmp_path.glob("umtali-*.json")
    assert f"Game saved to {saved.name}; it is saved there again after every hand." in (
        result.stdout
    )
    assert f"Game saved to {saved.name}. Continue it with" in result.stdout  # quit: same file


@pytest.mark.parametrize(
    ("flags", "named"),
    [(["--game", "gin"], "--game"), (["--variant", "oklahoma"], "--variant")],
)
def test_resume_takes_the_game_and_variant_from_the_record(
    flags: list[str], named: str, tmp_path: Path
) -> None:
    save_file(gin_game_of_three_gins(), tmp_path / "g.json")
    result = play("--resume", "g.json", *flags, script="", cwd=tmp_path)
    assert result.returncode == 2
    assert f"so {named} cannot be used with it" in result.stderr


def test_a_record_changed_after_it_was_saved_is_not_resumed(tmp_path: Path) -> None:
    played = play("--game", "gin", "--seed", "4", "--bot", "greedy", "--save", "g.json",
                  script="take\n1\nquit\n", cwd=tmp_path)  # fmt: skip
    assert played.returncode == 0
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    record["meta"]["seed"] = 5  # another seed deals other cards
    del record["digest"]
    (tmp_path / "g.json").write_text(json.dumps(record), encoding="utf-8")
    result = play("--resume", "g.json", script="", cwd=tmp_path)
    assert result.returncode == 2
    assert "hand 1 is not dealt as its seed deals it" in result.stderr


# -- replayed ------------------------------------------------------------------------------------


def test_a_gin_record_is_replayed_turn_by_turn(tmp_path: Path) -> None:
    from umtali.cli.main import main

    save_file(gin_game_of_three_gins(), tmp_path / "gin.json")
    out = io.StringIO()
    assert main(["replay", str(tmp_path / "gin.json")], out) == 0
    text = out.getvalue()
    assert text.startswith("Gin Rummy between Ann (Player 1) and Bob (Player 2), to 100\n")
    assert "== Hand 1 · Player 2 deals ==\nturn 1 · Player 1\n" in text
    assert "    Player 1 takes 4♠ from the pile\n" in text
    assert "    Player 1 knocks, discarding K♦ face down\n" in text
    assert (
        "Player 1 (knocked): 85 points\n  5♣ 5♦ 5♥ | 9♥ 10♥ J♥ | A♠ 2♠ 3♠ 4♠ | gin: no deadwood\n"
        "Player 2: 0 points\n  deadwood 6♠ Q♥ A♥ 8♦ 7♦ 4♦ Q♣ 9♣ 3♣ 2♣ (60)\n" in text
    )
    assert text.count("gin: no deadwood") == 3 + 3  # each board after a knock, each end
    assert "  Ann wins the game, 320 to 85: points from the hands 170 and 85," in text
    assert text.rstrip().endswith("The game is over: won by Ann.")


def test_a_played_game_is_replayed_to_where_it_stopped(tmp_path: Path) -> None:
    from umtali.cli.main import main

    played = play("--game", "gin", "--seed", "4", "--bot", "greedy", "--save", "g.json",
                  script="take\n1\nquit\n", cwd=tmp_path)  # fmt: skip
    assert played.returncode == 0
    out = io.StringIO()
    assert main(["replay", str(tmp_path / "g.json")], out) == 0
    text = out.getvalue()
    assert text.startswith("Gin Rummy between You (Player 1) and Computer (Casual) (Player 2)")
    assert "    Player 2 takes 3♣ from the pile\n    Player 2 discards 10♦\n" in text
    assert "(the hand is unfinished)" in text
    assert text.rstrip().splitlines()[-1].startswith("The game is unfinished: hand 1 stops at")


# -- three- and four-hand ------------------------------------------------------------------------


def test_three_hand_against_two_computers_to_the_end(tmp_path: Path) -> None:
    result = play("--game", "gin", "--players", "3", "--seed", "5", "--bot", "greedy",
                  script="1\n" * 3000, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith(
        "A game of three-hand Gin Rummy to 100: You, Computer 2 (Casual) and Computer 3"
        " (Casual). Seed 5."
    )
    assert (
        "You drew K♥ and play alone first; Computer 3 (Casual) drew 10♣ and sits out;"
        " Computer 2 (Casual) drew 7♠ and plays for the team." in out
    )
    assert (
        "Hand 1: you alone against Computer 2 (Casual), Computer 2 (Casual) to deal;"
        " Computer 3 (Casual) sits out." in out
    )
    seatings = re.findall(r"^Hand (\d+): .* (?:sits|sit) out\.$", out, re.M)
    assert seatings == [str(n) for n in range(1, len(seatings) + 1)]
    totals = re.findall(r"^Totals: you (\d+), Computer 2 \(Casual\) (\d+), Computer 3", out, re.M)
    assert len(totals) == len(seatings)
    assert re.search(
        r"wins? the game\. With 25 for each hand (he|you|they) won and (100|200) for the game", out
    )
    # The hands you sat out were played by the computers, and only their ends shown.
    assert "Your hand (10):" in out


def test_four_hand_shows_both_tables_and_the_team_totals(tmp_path: Path) -> None:
    result = play("--game", "gin", "--players", "4", "--seed", "5", "--bot", "greedy",
                  "--variant", "oklahoma", script="1\n" * 3000, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "A game of four-hand Oklahoma Gin to 150" in out
    assert (
        "You and Computer 3 (Casual) play as a team against Computer 2 (Casual) and"
        " Computer 4 (Casual)" in out
    )
    assert "Deal 1: you against Computer 2 (Casual), you to deal; Computer 3 (Casual)" in out
    assert "Deal 2: you against Computer 4 (Casual)" in out  # partners swap opponents
    assert re.search(r"^Team totals: you and Computer 3 \(Casual\) \d+, ", out, re.M)
    deals = len(re.findall(r"^Deal \d+:", out, re.M))
    assert out.count("End of the hand") == 2 * deals
    assert re.search(r"win the game\. With 25 for each hand (you|they) won", out)


def test_hotseat_party_hands_the_terminal_over_and_quit_saves(tmp_path: Path) -> None:
    result = play("--game", "gin", "--players", "3", "--seed", "5", "--hotseat",
                  script="\n1\n" * 6 + "quit\n", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "A game of three-hand Gin Rummy to 100: Player 1, Player 2 and Player 3." in out
    assert "Hand the terminal to " in out
    (saved,) = tmp_path.glob("umtali-*.json")
    assert f"Game saved to {saved.name}. Continue it with: umtali play --resume" in out
    kept = load_any_file(saved)
    assert isinstance(kept, GinPartyMatch)
    assert kept.meta == {"seed": 5, "humans": [0, 1, 2], "bot": "expert"}


def test_a_party_game_is_saved_resumed_and_replayed(tmp_path: Path) -> None:
    from umtali.cli.main import main

    # Seed 5, three-hand: you drew K♥ and play alone against Computer 2, who deals.
    # Take or draw, discard, a few times over, then quit in the middle of hand 1.
    first = play("--game", "gin", "--players", "3", "--seed", "5", "--bot", "greedy",
                 "--save", "p.json", script="1\n" * 6 + "quit\n", cwd=tmp_path)  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert "Game saved to p.json. Continue it with: umtali play --resume p.json" in first.stdout
    saved = load_any_file(tmp_path / "p.json")
    assert isinstance(saved, GinPartyMatch)
    (hand,) = saved.hands
    assert hand.table.players == (0, 1)  # you alone, Computer 2 for the team
    assert not hand.hand.is_over()
    played = hand.hand.history

    # Resumed: the record's game, seats and level; --players comes from it too.
    refused = play("--resume", "p.json", "--players", "3", script="", cwd=tmp_path)
    assert refused.returncode == 2
    assert "so --players cannot be used with it" in refused.stderr
    again = play("--resume", "p.json", script="1\n" * 3000, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    out = again.stdout
    assert out.startswith("Resuming the game of three-hand Gin Rummy saved in p.json.\n")
    assert "Hand 1: you alone against Computer 2 (Casual)" in out
    assert re.search(r"wins? the game\. With 25 for each hand (he|you|they) won", out)
    assert "The record is in p.json (replay it with: umtali replay p.json)" in out
    whole = load_any_file(tmp_path / "p.json")
    assert isinstance(whole, GinPartyMatch)
    assert whole.is_over()
    assert whole.hands[0].hand.history[: len(played)] == played  # played on, not again
    counted = len(re.findall(r"^Totals: ", out, re.M))
    assert counted == 1 + len(whole.hands)  # where it stood, then after every hand

    told = io.StringIO()
    assert main(["replay", str(tmp_path / "p.json")], told) == 0
    text = told.getvalue()
    assert text.startswith(
        "Three-hand Gin Rummy between You, Computer 2 (Casual) and Computer 3 (Casual),"
        " to 100\nYou drew K♥ and play alone first;"
    )
    seatings = re.findall(r"^== Hand (\d+): (.*) ==$", text, re.M)
    assert [int(number) for number, _ in seatings] == list(range(1, len(whole.hands) + 1))
    assert seatings[0][1] == (
        "you alone against Computer 2 (Casual), Computer 2 (Casual) to deal;"
        " Computer 3 (Casual) sits out"
    )
    assert len(re.findall(r"^  Totals: ", text, re.M)) == len(whole.hands)
    # The moves and boards name the two players at the hand.
    assert "\nturn 1 · You\n" in text
    assert "\n  Computer 2 (Casual): " in text
    final = re.findall(r"^.* wins? the game\. .*$", text, re.M)
    assert final == re.findall(r"^.* wins? the game\. .*$", out, re.M)[:1]


def test_help_and_rules_come_from_the_package_data(tmp_path: Path) -> None:
    from umtali.games.gin.terminal import GIN_HELP_FILE
    from umtali.learn.reference import play_help, rules_summary

    result = play("--game", "gin", "--seed", "9", script="help\nrules\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    help_text, rules = play_help(GIN_HELP_FILE), rules_summary(GIN_HELP_FILE)
    assert "Type a move, or its number from moves:" in out  # the backquotes set apart
    assert [label for label, _ in help_text.rows][:5] == [
        "take",
        "pass",
        "draw",
        "discard CARD",
        "knock CARD",
    ]
    for label, _ in help_text.rows:
        assert re.search(rf"^{re.escape(label)} +\S", out, re.M), label
    assert f"{rules.title}\n• Ten cards each." in out
    assert len(rules.rows) == out.count("\n• ")
