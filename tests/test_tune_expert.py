"""The expert's weights and the command that tunes them (benchmarks/tune_expert.py)."""

from __future__ import annotations

import dataclasses
from types import ModuleType

import pytest

from tests.helpers import load_benchmark
from umtali.games.umtali.bots.evaluate import WEIGHTS


def tuner() -> ModuleType:
    return load_benchmark("tune_expert")


def test_the_expert_against_itself_comes_out_exactly_even_on_duplicate_deals() -> None:
    # Each deal is played twice with the seats swapped: two identical players play the
    # same two hands, so every deal's margins cancel.
    module = tuner()
    assert module.margins(WEIGHTS, 3, 12, 1) == [0.0] * 12


def test_a_heavier_danger_weight_plays_other_hands() -> None:
    module = tuner()
    heavier = dataclasses.replace(WEIGHTS, w_danger=5.0)
    margins = module.margins(heavier, 3, 20, 2)
    assert len(margins) == 20
    assert any(m != 0 for m in margins)
    assert margins == module.margins(heavier, 3, 20, 1)  # the workers change nothing


def test_the_command_walks_the_weights_and_prints_each_trial(
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = tuner()
    assert module.main(["--deals", "10", "--search", "--only", "w_danger"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("start: +0.000")
    assert "round 1 w_danger=0.75:" in out
    assert "end: " in out


@pytest.mark.parametrize(
    "argv", [["--deals", "1"], ["--jobs", "0"], ["--rounds", "0"], ["--only", "genius"]]
)
def test_the_command_refuses_what_it_cannot_run(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        tuner().main(argv)
