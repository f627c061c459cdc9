"""The arena playing Gin Rummy through the registry: the same loop, seed scheme, figures
and result files as Umtali's, the game chosen by its name; and games of three and four."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from umtali.games.gin.party import TEAMS, FourHandGame
from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.rules import GIN
from umtali.games.gin.session import GinPlaySession
from umtali.sim.arena import (
    ArenaError,
    ArenaResult,
    GameRecord,
    game_seed,
    play_game,
    play_out,
    report,
    run_arena,
)
from umtali.sim.results import prepare_results


def reproducible(result: ArenaResult) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.to_json())
    del data["run"]
    return data


def test_a_game_record_holds_the_hands_and_the_bonuses_as_the_session_scored_them() -> None:
    record, times_a, times_b = play_game("expert", "greedy", seed=3, deal=0, a_seat=1, game="gin")
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
    one = run_arena("greedy", "random", 3, seed=11, jobs=1, game="gin")
    two = run_arena("greedy", "random", 3, seed=11, jobs=2, game="gin")
    assert reproducible(one) == reproducible(two)
    data = reproducible(one)
    assert (data["game"], data["rules"]) == ("gin", "standard")
    assert all("bonuses" in r for r in data["records"])
    assert "book" not in data["summary"]  # the book's figures are Umtali's


def test_the_expert_beats_random_at_gin() -> None:
    result = run_arena("expert", "random", 4, seed=1, jobs=1, game="gin")
    summary = result.summary()
    assert summary.a_wins == 8  # every game of every deal
    assert summary.margin > 100
    assert summary.draws == 0  # a game of Gin Rummy has a winner


def test_oklahoma_plays_to_150() -> None:
    result = run_arena("greedy", "greedy", 1, seed=2, jobs=1, game="gin", variant="oklahoma")
    for record in result.records:
        hands = [sum(h) for h in zip(*record.hands, strict=True)]
        assert max(hands) >= 150
    assert reproducible(result)["rules"] == "oklahoma"


def test_the_report_leaves_out_umtalis_book() -> None:
    text = report(run_arena("greedy", "random", 1, seed=5, jobs=1, game="gin"))
    assert text.startswith("umtali arena · Gin Rummy (standard rules) · A greedy vs B random")
    assert "book:" not in text
    assert "bonuses (line, game, shutout) per game: A" in text


def test_an_unknown_level_is_refused_for_gin() -> None:
    with pytest.raises(ArenaError, match="the Gin Rummy levels are: random, greedy, expert"):
        run_arena("lineup", "random", 1, game="gin")


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


def test_the_command_refuses_an_unknown_level_for_gin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from umtali.cli.main import main

    code = main(["arena", "lineup", "random", "--game", "gin", "--out", str(tmp_path / "r")])
    assert code == 2
    assert "the Gin Rummy levels are: random, greedy, expert" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_a_gin_plot_has_its_own_title_and_none_of_the_books_figures() -> None:
    from umtali.sim.plot import book_figures, plot_title

    gin = run_arena("greedy", "random", 1, seed=5, jobs=1, game="gin", variant="oklahoma")
    hands = gin.summary().hands
    assert plot_title(gin) == (
        f"Gin Rummy arena (oklahoma): A greedy vs B random, 2 games to 150 ({hands} hands), seed 5"
    )
    assert book_figures(gin) == ()
    umtali = run_arena("random", "random", 1, seed=5, jobs=1)
    assert plot_title(umtali).startswith("Umtali arena: A random vs B random, 2 games")
    assert [figure.label for figure in book_figures(umtali)] == [
        "the book's average, 27",
        "the book's highest hand, 86",
    ]


def test_a_gin_plot_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from umtali.sim.plot import write_points_plot

    write_points_plot(run_arena("greedy", "random", 1, seed=5, jobs=1, game="gin"),
                      tmp_path / "gin.png")  # fmt: skip
    assert (tmp_path / "gin.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


# -- three and four players ----------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4])
def test_games_of_three_and_four_play_each_seat_once_a_deal(seats: int) -> None:
    one = run_arena("expert", "greedy", 2, seed=4, jobs=1, game="gin", seats=seats)
    two = run_arena("expert", "greedy", 2, seed=4, jobs=2, game="gin", seats=seats)
    assert reproducible(one) == reproducible(two)
    assert [(r.deal, r.a_seat) for r in one.records] == [
        (d, s) for d in range(2) for s in range(seats)
    ]
    for deal in (0, 1):  # every seating of a deal is dealt alike
        assert len({r.first_dealer for r in one.records if r.deal == deal}) == 1
    data = reproducible(one)
    assert data["seats"] == seats
    assert all(r["seats"] == seats for r in data["records"])
    assert len(data["summary"]["games"]["A_wins_as_player"]) == seats
    assert sum(data["summary"]["games"]["B_wins_with_A_as_player"]) == one.summary().b_wins
    text = report(one)
    assert f"2 deals × {seats} seatings = {2 * seats} games" in text
    assert f"by A's seat, 1 to {seats}" in text
    assert "bonuses and hands sat out per game" in text


def test_in_four_hand_a_plays_for_his_team_against_the_other() -> None:
    record, times_a, times_b = play_game(
        "greedy", "expert", seed=2, deal=0, a_seat=1, game="gin", seats=4
    )
    # The same game, played by the session itself: A (greedy) at seat 1, B elsewhere.
    session = GinPartySession.between_bots(
        ("expert", "greedy", "expert", "expert"), game_seed(2, 0)
    )
    play_out(session)
    game = session.party_game
    assert isinstance(game, FourHandGame)
    final = game.result().final
    assert TEAMS[1] == (1, 3)
    assert record.totals == (final[1], final[0])  # A's team's, against the other's
    # A played one hand a deal, against the player of the other team at his table.
    assert len(record.hands) == len(game.deals)
    for played, hand in zip(game.deals, record.hands, strict=True):
        table = next(i for i, t in enumerate(played.seats.tables) if 1 in t.players)
        scores = played.outcomes[table].scores  # team 0 holds seat 0 at every table
        assert hand == (scores[1], scores[0])
    assert record.moves == (len(times_a), len(times_b))
    assert GameRecord.from_dict(record.to_dict()) == record


def test_a_seat_count_the_game_has_not_is_refused() -> None:
    with pytest.raises(ArenaError, match="Gin Rummy is played by 2 or 3 or 4, not 5"):
        run_arena("greedy", "random", 1, game="gin", seats=5)
    with pytest.raises(ArenaError, match="Umtali is played by 2, not 3"):
        run_arena("greedy", "random", 1, seats=3)
    with pytest.raises(ArenaError, match="Gin Rummy has no variant 'practical'"):
        run_arena("greedy", "random", 1, game="gin", variant="practical")
    with pytest.raises(ArenaError, match="there is no game 'chess'"):
        run_arena("greedy", "random", 1, game="chess")


def test_results_are_named_as_before_for_every_game_and_variant(tmp_path: Path) -> None:
    def named(game: str, variant: str | None = None) -> str:
        return prepare_results(
            tmp_path, "greedy", "random", 1, game=game, variant=variant
        ).json.name

    assert named("gin", "standard") == "gin-greedy-vs-random-seed1.json"
    assert named("gin", "oklahoma") == "gin-oklahoma-greedy-vs-random-seed1.json"
    assert named("gin-oklahoma") == "gin-oklahoma-greedy-vs-random-seed1.json"  # a run's name
    assert named("umtali", "standard") == "greedy-vs-random-seed1.json"
    assert named("umtali", "practical") == "umtali-practical-greedy-vs-random-seed1.json"
