"""The arena playing Gin Rummy: the same loop, seed scheme, figures and result files as
Umtali's, the game chosen by the rules passed in."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from umtali.games.gin.rules import GIN, OKLAHOMA
from umtali.games.gin.session import GinPlaySession
from umtali.sim.arena import (
    ArenaError,
    ArenaResult,
    GameRecord,
    game_of,
    game_seed,
    play_game,
    report,
    run_arena,
)
from umtali.sim.results import prepare_results


def reproducible(result: ArenaResult) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.to_json())
    del data["run"]
    return data


def test_a_game_record_holds_the_hands_and_the_bonuses_as_the_session_scored_them() -> None:
    record, times_a, times_b = play_game("expert", "greedy", seed=3, deal=0, a_seat=1, rules=GIN)
    # The same game, played by the session itself: B (greedy) in seat 0, A in seat 1.
    session = GinPlaySession.between_bots(("greedy", "expert"), game_seed(3, 0), rules=GIN)
    session.play_out()
    result = session.match.result()
    assert result is not None
    assert record.hands == tuple(
        (h.outcome.scores[1], h.outcome.scores[0]) for h in session.match.hands if h.outcome
    )
    assert record.totals == (result.final[1], result.final[0])
    assert record.winner == ("A" if result.winner == 1 else "B")
    assert set(record.ends) <= {"gin", "knock", "undercut", "dead"}
    assert record.moves == (len(times_a), len(times_b))
    assert GameRecord.from_dict(record.to_dict()) == record


def test_same_seed_same_results_whatever_the_jobs() -> None:
    one = run_arena("greedy", "random", deals=3, seed=11, jobs=1, rules=GIN)
    two = run_arena("greedy", "random", deals=3, seed=11, jobs=2, rules=GIN)
    assert reproducible(one) == reproducible(two)
    data = reproducible(one)
    assert (data["game"], data["rules"]) == ("gin", "standard")
    assert all("bonuses" in r for r in data["records"])


def test_the_expert_beats_random_at_gin() -> None:
    result = run_arena("expert", "random", deals=4, seed=1, jobs=1, rules=GIN)
    summary = result.summary()
    assert summary.a_wins == 8  # every game of every deal
    assert summary.margin > 100
    assert summary.draws == 0  # a game of Gin Rummy has a winner


def test_oklahoma_plays_to_150() -> None:
    result = run_arena("greedy", "greedy", deals=1, seed=2, jobs=1, rules=OKLAHOMA)
    for record in result.records:
        hands = [sum(h) for h in zip(*record.hands, strict=True)]
        assert max(hands) >= 150
    assert reproducible(result)["rules"] == "oklahoma"


def test_the_report_leaves_out_umtalis_book() -> None:
    text = report(run_arena("greedy", "random", deals=1, seed=5, jobs=1, rules=GIN))
    assert text.startswith("umtali arena · Gin Rummy (standard rules) · A greedy vs B random")
    assert "book:" not in text
    assert "bonuses (line, game, shutout) per game: A" in text


def test_umtali_levels_are_refused_for_gin() -> None:
    with pytest.raises(ArenaError, match="the Gin Rummy levels are: random, greedy, expert"):
        run_arena("search", "random", 1, rules=GIN)
    assert game_of(GIN).name == "gin"


def test_the_command_writes_gin_results_beside_umtalis(tmp_path: Path) -> None:
    from umtali.cli.main import main

    out = io.StringIO()
    args = ["arena", "greedy", "random", "--game", "gin", "--games", "2", "--seed", "4"]
    assert main([*args, "--jobs", "1", "--quiet", "--out", str(tmp_path)], out) == 0
    assert (
        "umtali arena · Gin Rummy (standard rules) · A greedy vs B random · 2 deals"
        in out.getvalue()
    )
    data = json.loads((tmp_path / "gin-greedy-vs-random-seed4.json").read_text(encoding="utf-8"))
    assert data["game"] == "gin"
    assert len(data["records"]) == 4
    # An Umtali run of the same levels and seed has its own files.
    paths = prepare_results(tmp_path, "greedy", "random", 4)
    assert not paths.json.exists()


def test_the_command_refuses_an_umtali_level_for_gin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from umtali.cli.main import main

    code = main(["arena", "search", "random", "--game", "gin", "--out", str(tmp_path / "r")])
    assert code == 2
    assert "the Gin Rummy levels are: random, greedy, expert" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_a_gin_plot_has_its_own_title_and_none_of_the_books_figures() -> None:
    from umtali.sim.plot import book_figures, plot_title

    gin = run_arena("greedy", "random", deals=1, seed=5, jobs=1, rules=OKLAHOMA)
    hands = gin.summary().hands
    assert plot_title(gin) == (
        f"Gin Rummy arena (oklahoma): A greedy vs B random, 2 games to 150 ({hands} hands), seed 5"
    )
    assert book_figures(gin) == ()
    umtali = run_arena("random", "random", deals=1, seed=5, jobs=1)
    assert plot_title(umtali).startswith("Umtali arena: A random vs B random, 2 games")
    assert [figure.label for figure in book_figures(umtali)] == [
        "the book's average, 27",
        "the book's highest hand, 86",
    ]


def test_a_gin_plot_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from umtali.sim.plot import write_points_plot

    write_points_plot(run_arena("greedy", "random", deals=1, seed=5, jobs=1, rules=GIN),
                      tmp_path / "gin.png")  # fmt: skip
    assert (tmp_path / "gin.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
