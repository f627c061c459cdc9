"""A whole game of Klaberjass at the terminal, through the real ``umtali`` console script,
as the README tells a new player to play it: begun with ``--save``, its score sheet asked
for, stopped with ``quit``, resumed with ``--resume`` and played to 500, its end told and
``Play again?`` declined, then its record told by ``umtali replay``.

The player's move is always the first listed (``1``): the game is the same at every run
(the deal and the computer's play come from the seed), and it reaches its end, since the
computer bids too.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_conformance_front_ends import umtali
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.kernel.record import load_any_file

MOVES = 4_000
"""More first moves than a game to 500 can take (some hands are thrown in)."""


def test_a_whole_game_is_played_saved_resumed_and_replayed_at_the_terminal(
    tmp_path: Path,
) -> None:
    begun = umtali(
        "play", "--game", "klaberjass", "--variant", "classic", "--bot", "random",
        "--seed", "3", "--save", "game.json",
        script="1\n" * 45 + "score\nquit\n", cwd=tmp_path,
    )  # fmt: skip
    assert begun.returncode == 0, begun.stderr
    assert "Klaberjass to 500 (classic ranking)" in begun.stdout
    # The score sheet: each finished hand, the totals, the points of the hand under way.
    sheet = begun.stdout.rsplit("You> score\n", 1)[-1]
    assert re.search(r"^  Hand 1 \((made|failed|tied|thrown in)\): You \d+, ", sheet, re.M)
    assert re.search(r"^Totals: You \d+, Computer \(Beginner\) \d+ \(to 500\)", sheet, re.M)
    assert "Continue it with: umtali play --resume game.json" in begun.stdout
    stopped = load_any_file(tmp_path / "game.json")
    assert isinstance(stopped, KlaberjassMatch)
    assert not stopped.is_over()
    assert len(stopped.hands) >= 2

    resumed = umtali("play", "--resume", "game.json", script="1\n" * MOVES, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    out = resumed.stdout
    assert "Traceback" not in out + begun.stdout + resumed.stderr + begun.stderr
    match = load_any_file(tmp_path / "game.json")
    assert isinstance(match, KlaberjassMatch)
    assert match.is_over()
    # The hands finished before the stop are the record's, as they were.
    kept = len(stopped.hands) - 1
    assert [h.history for h in match.hands[:kept]] == [h.history for h in stopped.hands[:kept]]
    winner = match.winner()
    assert winner is not None
    totals = match.totals()
    assert totals[winner] >= 500
    names = ("You", "Computer (Beginner)")
    verb = "win" if winner == 0 else "wins"
    assert f"{names[winner]} {verb} the game, {totals[winner]} to {totals[1 - winner]}." in out
    assert "The record is in game.json (replay it with: umtali replay game.json)" in out
    assert out.rstrip().endswith("Play again? (yes/no)> 1")

    replayed = umtali("replay", "game.json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    told = replayed.stdout
    assert told.startswith("Klaberjass between You (Player 1) and Computer (Beginner) (Player 2)")
    assert f"== Hand {len(match.hands)} · " in told
    won_by = "you" if winner == 0 else "Computer (Beginner)"
    assert told.rstrip().splitlines()[-1] == f"The game is over: won by {won_by}."
