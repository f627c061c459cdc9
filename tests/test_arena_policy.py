"""Outside policies in the arena (umtali.sim.policies, ``umtali arena
package.module:make_bot``): the example policy through the real console script, the
results file naming it, and a clear message for every way an entry point can fail."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.servers import umtali_command
from umtali.games.umtali.bots import BOTS
from umtali.sim.arena import run_arena
from umtali.sim.policies import PolicyError, load_policy, registered

ROOT = Path(__file__).resolve().parent.parent

BAD_POLICIES = textwrap.dedent(
    """
    X = 3

    def raising():
        raise ValueError("no weights file")

    def no_choose():
        return object()

    class Crash:
        name = "crash"
        def choose(self, view, rng, **_):
            raise RuntimeError("out of memory")

    def crash():
        return Crash()

    class Taken:
        name = "greedy"
        def choose(self, view, rng, **_):
            return view.legal[0]

    class First:
        name = "first legal"
        version = "0.3"
        def choose(self, view, rng, **_):
            return view.legal[0]
    """
)


def _umtali(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed console script, run in ``cwd`` with this test's module path."""
    path = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [*umtali_command(), *args],
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=path, PYTHONIOENCODING="utf-8"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.process
def test_the_example_policy_through_the_console_script(tmp_path: Path) -> None:
    out = tmp_path / "results"
    ran = _umtali(
        "arena",
        "examples.eager_policy:make_bot",
        "random,greedy",
        "--games",
        "3",
        "--jobs",
        "2",
        "--quiet",
        "--out",
        str(out),
        cwd=ROOT,
    )
    assert ran.returncode == 0, ran.stderr
    assert "A is the outside policy examples.eager_policy:make_bot, version 1.0" in ran.stdout
    table = ran.stdout[ran.stdout.index("A eager against each") :].splitlines()
    assert table[1].split()[:5] == ["B", "games", "A", "won", "B"]
    assert [line.split()[0] for line in table[2:]] == ["random", "greedy"]
    for level in ("random", "greedy"):
        data = json.loads((out / f"eager-vs-{level}-seed0.json").read_text())
        assert data["bots"] == {"A": "eager", "B": level}
        assert data["policies"] == {
            "A": {
                "name": "eager",
                "entry_point": "examples.eager_policy:make_bot",
                "version": "1.0",
            }
        }
        assert len(data["records"]) == 6
        assert "game_ci" in data["method"]


@pytest.mark.process
@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("examples.eager_policy", "has no colon"),
        ("no_such_module_here:make_bot", "cannot import 'no_such_module_here'"),
        ("bad_policies:missing", "'bad_policies' has no 'missing'"),
        ("bad_policies:X", "'bad_policies:X' is int 3, not a callable"),
        ("bad_policies:raising", "raised ValueError when asked for a bot: no weights file"),
        ("bad_policies:no_choose", "which has no choose(view, rng) method"),
        ("bad_policies:Taken", "named 'greedy', which is taken"),
        ("rando", "unknown bot level 'rando'; the levels are"),
    ],
)
def test_a_bad_policy_is_refused_in_a_sentence(tmp_path: Path, bot: str, message: str) -> None:
    (tmp_path / "bad_policies.py").write_text(BAD_POLICIES)
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "eager_policy.py").write_text("")
    ran = _umtali("arena", bot, "random", "--games", "1", "--jobs", "1", cwd=tmp_path)
    assert ran.returncode == 2
    assert message in ran.stderr
    assert "Traceback" not in ran.stderr
    assert not (tmp_path / "arena-results").exists() or not any(
        (tmp_path / "arena-results").iterdir()
    )


@pytest.mark.process
def test_a_policy_that_fails_in_play_ends_the_run_with_where(tmp_path: Path) -> None:
    (tmp_path / "bad_policies.py").write_text(BAD_POLICIES)
    ran = _umtali(
        "arena", "bad_policies:crash", "random", "--games", "1", "--jobs", "1", cwd=tmp_path
    )
    assert ran.returncode == 1
    assert "deal 0, A (crash) as Player 1" in ran.stderr
    assert "the bot failed: RuntimeError: out of memory" in ran.stderr
    assert "Traceback" not in ran.stderr


def test_a_policy_plays_in_process_and_leaves_the_levels_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bad_policies.py").write_text(BAD_POLICIES)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    policy = load_policy("bad_policies:First", "umtali", taken=BOTS)
    assert (policy.name, policy.version) == ("first-legal", "0.3")
    result = run_arena("first-legal", "random", 2, jobs=1, policies=[policy])
    assert result.to_dict()["policies"] == {"A": policy.to_dict()}
    assert "first-legal" not in BOTS
    with registered("umtali", [policy]):
        assert "first-legal" in BOTS
    assert "first-legal" not in BOTS


def test_a_policy_for_every_game_with_live_levels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "kl_policy.py").write_text(
        "from umtali.games.klaberjass.bots import BOTS\n"
        "def make_bot():\n"
        "    bot = BOTS['greedy']()\n"
        "    bot.name = 'mine'\n"
        "    return bot\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    policy = load_policy("kl_policy:make_bot", "klaberjass", taken=())
    result = run_arena("mine", "random", 1, jobs=1, game="klaberjass", policies=[policy])
    assert result.to_dict()["policies"]["A"]["entry_point"] == "kl_policy:make_bot"
    with pytest.raises(PolicyError, match="has no colon"):
        load_policy("kl_policy", "klaberjass", taken=())
