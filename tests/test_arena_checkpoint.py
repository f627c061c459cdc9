"""An arena run that stops goes on where it stopped (umtali.sim.checkpoint): the deals it
finished are kept as they finish, and the run that goes on from them gives the records
of a run never stopped."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_arena import umtali
from umtali.sim.arena import ArenaResult, GameRecord, run_arena
from umtali.sim.checkpoint import Checkpoint, CheckpointError, CheckpointInUseError, RunKey

UMTALI = Path(sys.executable).parent / "umtali"
RUN = RunKey("umtali", "standard", "greedy", "random", 9)


def reproducible(result: ArenaResult) -> dict[str, Any]:
    """The results JSON without the ``run`` section (jobs, timings, machine)."""
    data: dict[str, Any] = json.loads(result.to_json())
    del data["run"]
    return data


class RunStoppedError(Exception):
    """Stands for Ctrl-C, a reboot or a killed job, after some games."""


def stopped_after(games: int) -> Any:
    """A progress callback that stops the run once ``games`` games have finished."""
    done = [0]

    def progress(count: int) -> None:
        done[0] += count
        if done[0] >= games:
            raise RunStoppedError

    return progress


def stopped_run(path: Path, deals: int, games: int, seed: int = 9) -> None:
    """A run of greedy against random, in this process, stopped after ``games`` games."""
    with pytest.raises(RunStoppedError):
        run_arena(
            "greedy",
            "random",
            deals,
            seed=seed,
            jobs=1,
            checkpoint=path,
            progress=stopped_after(games),
        )


def kept_deals(path: Path, run: RunKey = RUN) -> set[int]:
    """The deals the checkpoint at ``path`` holds whole."""
    with Checkpoint.open(path, run) as kept:
        return kept.finished_deals()


def test_a_stopped_run_goes_on_where_it_stopped_with_the_records_of_one_never_stopped(
    tmp_path: Path,
) -> None:
    kept = tmp_path / "run.partial.jsonl"
    stopped_run(kept, deals=5, games=4)  # two deals of five, both seats each
    assert kept_deals(kept) == {0, 1}

    # Two processes go on: only deals 2, 3 and 4 are played, 6 games on top of the 4 kept.
    ticks: list[int] = []
    went_on = run_arena(
        "greedy", "random", 5, seed=9, jobs=2, checkpoint=kept, progress=ticks.append
    )
    assert ticks[0] == 4
    assert sum(ticks) == 10
    never_stopped = run_arena("greedy", "random", 5, seed=9, jobs=1)
    assert reproducible(went_on) == reproducible(never_stopped)
    # Every decision is timed once: the kept games' and the new ones'.
    assert len(went_on.times_a) == len(never_stopped.times_a)
    assert len(went_on.times_b) == len(never_stopped.times_b)
    # The caller deletes the file once the results are safe: until then it holds them all.
    assert kept_deals(kept) == set(range(5))


def test_a_run_may_go_on_longer_than_the_one_that_stopped(tmp_path: Path) -> None:
    kept = tmp_path / "run.partial.jsonl"
    stopped_run(kept, deals=3, games=2)
    longer = run_arena("greedy", "random", 4, seed=9, jobs=1, checkpoint=kept)
    assert reproducible(longer) == reproducible(run_arena("greedy", "random", 4, seed=9, jobs=1))


def test_a_checkpoint_with_deals_beyond_the_run_is_refused(tmp_path: Path) -> None:
    kept = tmp_path / "run.partial.jsonl"
    stopped_run(kept, deals=6, games=8)  # deals 0 to 3
    before = kept.read_bytes()
    with pytest.raises(CheckpointError, match="holds deals up to 3: it goes on in a run of 4"):
        run_arena("greedy", "random", 2, seed=9, jobs=1, checkpoint=kept)
    assert kept.read_bytes() == before


def test_a_line_cut_short_by_the_stop_is_dropped_and_cut_from_the_file(tmp_path: Path) -> None:
    kept = tmp_path / "run.partial.jsonl"
    stopped_run(kept, deals=4, games=4)
    whole = kept.read_text(encoding="utf-8")
    with kept.open("a", encoding="utf-8") as file:
        file.write('{"records": [{"deal": 2, "a_se')  # the stop came mid-write
    assert kept_deals(kept) == {0, 1}
    assert kept.read_text(encoding="utf-8") == whole
    went_on = run_arena("greedy", "random", 4, seed=9, jobs=1, checkpoint=kept)
    assert reproducible(went_on) == reproducible(run_arena("greedy", "random", 4, seed=9, jobs=1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("\n\n", "holds blank lines only"),
        ("not json\n", "line 1: not a JSON object"),
        ('{"format": "umtali-arena", "version": 1}\n', "is not an arena checkpoint"),
        (None, "line 2: not a batch of finished games"),
    ],
)
def test_a_file_that_is_not_a_checkpoint_is_refused_and_left_alone(
    tmp_path: Path, text: str | None, message: str
) -> None:
    kept = tmp_path / "run.partial.jsonl"
    if text is None:  # a good first line, then a batch without its records
        Checkpoint.open(kept, RUN).close()
        with kept.open("a", encoding="utf-8") as file:
            file.write('{"times_a": [], "times_b": [], "seconds": 1}\n')
        text = kept.read_text(encoding="utf-8")
    else:
        kept.write_text(text, encoding="utf-8")
    with pytest.raises(CheckpointError, match=message):
        Checkpoint.open(kept, RUN)
    assert kept.read_text(encoding="utf-8") == text


def test_another_run_s_checkpoint_is_refused_saying_what_differs(tmp_path: Path) -> None:
    kept = tmp_path / "run.partial.jsonl"
    Checkpoint.open(kept, RUN).close()
    other = RunKey("umtali", "practical", "greedy", "random", 9, length="hand")
    with pytest.raises(CheckpointError) as refused:
        Checkpoint.open(kept, other)
    assert "variant standard, not practical; length none, not hand" in str(refused.value)


def test_kept_records_and_timings_round_trip(tmp_path: Path) -> None:
    kept = Checkpoint.open(tmp_path / "run.partial.jsonl", RUN)
    games = [
        GameRecord(0, seat, 1, ((31, 12), (8, 40)), ("B", "A"), ("out", "out"), (50, 48))
        for seat in (0, 1)
    ]
    kept.add(games, [0.25, 0.5], [0.125], seconds=2.0)
    kept.close()
    with Checkpoint.open(kept.path, RUN) as again:
        assert again.records == games
        assert (again.times_a, again.times_b, again.seconds) == ([0.25, 0.5], [0.125], 2.0)


def test_a_second_sitting_of_a_run_playing_now_is_refused(tmp_path: Path) -> None:
    """The same command started twice would play the same deals and keep them twice."""
    path = tmp_path / "run.partial.jsonl"
    with Checkpoint.open(path, RUN) as playing:
        before = path.read_bytes()
        with pytest.raises(CheckpointInUseError, match="is in use: another sitting of this run"):
            run_arena("greedy", "random", 2, seed=9, jobs=1, checkpoint=path)
        assert path.read_bytes() == before
        assert playing.finished_deals() == set()
    # Once the first sitting has stopped, the run goes on.
    assert len(run_arena("greedy", "random", 1, seed=9, jobs=1, checkpoint=path).records) == 2


# -- the command -------------------------------------------------------------------------------
def test_the_command_goes_on_from_a_stopped_run_and_deletes_the_checkpoint(
    tmp_path: Path,
) -> None:
    from umtali.cli.main import main

    folder = tmp_path / "results"
    folder.mkdir()
    kept = folder / "greedy-vs-random-seed9.partial.jsonl"
    stopped_run(kept, deals=4, games=4)

    # The console script itself, as a player runs it.
    args = ["arena", "greedy", "random", "--games", "4", "--seed", "9", "--quiet"]
    result = umtali(*args, "--out", str(folder), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"going on from {kept}: 4 games were played before" in result.stderr
    assert "Traceback" not in result.stderr
    assert not kept.exists()
    went_on = json.loads((folder / "greedy-vs-random-seed9.json").read_text(encoding="utf-8"))

    fresh = tmp_path / "fresh"
    assert main([*args, "--jobs", "1", "--out", str(fresh)], io.StringIO()) == 0
    never_stopped = json.loads((fresh / "greedy-vs-random-seed9.json").read_text(encoding="utf-8"))
    del went_on["run"], never_stopped["run"]
    assert went_on == never_stopped


def test_the_command_refuses_a_bad_checkpoint_and_force_starts_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from umtali.cli.main import main

    kept = tmp_path / "greedy-vs-random-seed9.partial.jsonl"
    kept.write_text("garbage\n", encoding="utf-8")
    args = ["arena", "greedy", "random", "--games", "2", "--seed", "9", "--jobs", "1", "--quiet"]
    assert main([*args, "--out", str(tmp_path)], io.StringIO()) == 1
    err = capsys.readouterr().err
    assert "line 1: not a JSON object: delete it to start the run over (or add --force)" in err
    assert kept.read_text(encoding="utf-8") == "garbage\n"
    assert not (tmp_path / "greedy-vs-random-seed9.json").exists()

    assert main([*args, "--out", str(tmp_path), "--force"], io.StringIO()) == 0
    assert not kept.exists()
    assert (tmp_path / "greedy-vs-random-seed9.json").exists()


def test_ctrl_c_tells_where_the_finished_deals_are_kept(tmp_path: Path) -> None:
    """A real Ctrl-C (SIGINT) to the console script, once a batch of deals is kept."""
    folder = tmp_path / "results"
    kept = folder / "greedy-vs-greedy-seed3.partial.jsonl"
    args = ["arena", "greedy", "greedy", "--games", "100000", "--seed", "3", "--jobs", "2"]
    process = subprocess.Popen(
        [str(UMTALI), *args, "--quiet", "--out", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )
    try:
        # Wait for the first batch: the file's header, then a line of games.
        while not (kept.exists() and kept.read_text(encoding="utf-8").count("\n") >= 2):
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)  # a poll of the file; no result hangs on its timing
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130
    assert f"the deals finished so far are kept in {kept}: the same command goes on" in err
    assert "Traceback" not in err
    assert kept_deals(kept, RunKey("umtali", "standard", "greedy", "greedy", 3))
