"""The deals an arena run has finished, kept on disk as they finish, so that a run that
stops (Ctrl-C, a reboot, a killed job) goes on where it stopped instead of starting over.

A checkpoint is a JSON Lines file beside the run's results: a first line that says which
run it belongs to (the game, its variant, the bots, the seed, the seat count, the length
of a game and the outside policies), then a line for each batch of finished deals, their
game records and decision times and the run's seconds so far. Deals are seeded one by
one (``f"{seed}/{deal}"``), so a deal played in an earlier sitting is the same game it
would be now, and the finished run's records are those of a run never stopped; only the
timings differ. A line is appended and flushed to disk as a batch finishes, so a stop
loses the deals still being played and nothing else; a last line cut short by the stop
is dropped.

>>> import tempfile
>>> from dataclasses import replace
>>> folder = tempfile.TemporaryDirectory()
>>> path = Path(folder.name) / "run.partial.jsonl"
>>> run = RunKey("umtali", "standard", "greedy", "random", 7)
>>> kept = Checkpoint.open(path, run)
>>> kept.finished_deals(), kept.seconds
(set(), 0.0)
>>> record = GameRecord(0, 0, 0, ((30, 20),), ("A",), ("out",), (12, 11))
>>> kept.add([record, replace(record, a_seat=1)], [0.001], [0.002], seconds=1.5)
>>> Checkpoint.open(path, run)  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
umtali.sim.checkpoint.CheckpointInUseError: ... is in use: another sitting of this run is playing now; ...
>>> kept.close()
>>> with Checkpoint.open(path, run) as again:
...     again.finished_deals(), again.seconds, len(again.times_a)
({0}, 1.5, 1)
>>> Checkpoint.open(path, replace(run, seed=8))  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
umtali.sim.checkpoint.CheckpointError: ... is the checkpoint of another run (seed 7, not 8): delete it to start the run over
>>> folder.cleanup()
"""

from __future__ import annotations

import json
import os

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from umtali.sim.summary import GameRecord

__all__ = ["Checkpoint", "CheckpointError", "CheckpointInUseError", "RunKey"]

FORMAT: Final = "umtali-arena-checkpoint"
VERSION: Final = 1


class CheckpointError(ValueError):
    """A checkpoint file that cannot be read, or that belongs to another run."""


class CheckpointInUseError(CheckpointError):
    """The checkpoint is held by a sitting of the run that is playing now."""


@dataclass(frozen=True)
class RunKey:
    """What makes two sittings of an arena run the same run: the deals they play are the
    same games. The number of deals is not part of it, so a run may be lengthened."""

    game: str
    variant: str
    bot_a: str
    bot_b: str
    seed: int
    seats: int = 2
    length: str | None = None
    policies: tuple[tuple[str, str, str | None], ...] = ()
    """Each outside policy among the bots: its name, entry point and version."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["policies"] = [list(p) for p in self.policies]
        return data


@dataclass
class Checkpoint:
    """The finished deals of one run, read from ``path`` and added to it."""

    path: Path
    run: RunKey
    records: list[GameRecord] = field(default_factory=list)
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)
    seconds: float = 0.0
    """The seconds the run has played so far, over all its sittings."""
    _file: IO[str] | None = field(default=None, repr=False)
    """The file, open to append while this sitting holds it."""

    @classmethod
    def open(cls, path: Path, run: RunKey) -> Checkpoint:
        """The checkpoint at ``path``: what an earlier sitting of ``run`` finished, or a new
        file, held for this sitting until :meth:`close`. :class:`CheckpointError` if the
        file is not a checkpoint, is another run's, is held by a sitting playing now, or
        cannot be read or written."""
        kept = cls(path, run)
        kept._hold()
        try:
            kept._load()
        except BaseException:
            kept.close()
            raise
        return kept

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = getattr(e, "strerror", None) or e
            raise CheckpointError(f"cannot read {self.path}: {reason}") from None
        # A last line cut short by the stop is dropped (its batch is played again), and
        # cut from the file before more lines follow it.
        whole = text[: text.rfind("\n") + 1]
        if whole:
            self._read(whole)
        if whole != text:
            self._truncate(len(whole.encode("utf-8")))
        if not whole:
            self._append({"format": FORMAT, "version": VERSION, "run": self.run.to_dict()})

    def finished_deals(self) -> set[int]:
        """The deals whose every game is kept."""
        games: dict[int, int] = {}
        for record in self.records:
            games[record.deal] = games.get(record.deal, 0) + 1
        return {deal for deal, count in games.items() if count == self.run.seats}

    def add(
        self,
        records: Sequence[GameRecord],
        times_a: Sequence[float],
        times_b: Sequence[float],
        *,
        seconds: float,
    ) -> None:
        """Keep a batch of finished games (every game of each of their deals) and the run's
        seconds so far, on disk before this returns."""
        self._append(
            {
                "records": [r.to_dict() for r in records],
                "times_a": list(times_a),
                "times_b": list(times_b),
                "seconds": seconds,
            }
        )
        self.records += records
        self.times_a += times_a
        self.times_b += times_b
        self.seconds = seconds

    def close(self) -> None:
        """Let another sitting of the run open the file (the caller deletes it once the
        results are written)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _hold(self) -> None:
        """Open the file to append, held for this sitting alone: two sittings of one run
        playing at once (the same command started twice) would play the same deals and
        keep them twice."""
        try:
            self._file = self.path.open("a", encoding="utf-8")
        except OSError as e:
            raise CheckpointError(f"cannot write {self.path}: {e.strerror or e}") from None
        if fcntl is None:
            return  # no advisory locks here (Windows): the caller's care alone
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.close()
            raise CheckpointInUseError(
                f"{self.path} is in use: another sitting of this run is playing now; let it"
                " finish, or stop it first"
            ) from None

    def _truncate(self, size: int) -> None:
        try:
            os.truncate(self.path, size)
        except OSError as e:
            raise CheckpointError(f"cannot write {self.path}: {e.strerror or e}") from None

    def _append(self, data: dict[str, Any]) -> None:
        file = self._file
        if file is None:
            raise CheckpointError(f"{self.path} was closed: open it again to add to it")
        try:
            file.write(json.dumps(data, ensure_ascii=False) + "\n")
            file.flush()
            os.fsync(file.fileno())
        except OSError as e:
            raise CheckpointError(f"cannot write {self.path}: {e.strerror or e}") from None

    def _read(self, text: str) -> None:
        lines = [line for line in text.split("\n") if line]
        if not lines:
            raise CheckpointError(f"{self.path} holds blank lines only: {_START_OVER}")
        header = self._line(lines[0], 1)
        if header.get("format") != FORMAT or header.get("version") != VERSION:
            raise CheckpointError(
                f"{self.path} is not an arena checkpoint (format {FORMAT} {VERSION}): {_START_OVER}"
            )
        mine = self.run.to_dict()
        theirs = header.get("run")
        if not isinstance(theirs, dict) or theirs != mine:
            differ = [
                f"{key} {_shown(theirs.get(key))}, not {_shown(value)}"
                for key, value in mine.items()
                if isinstance(theirs, dict) and theirs.get(key) != value
            ]
            raise CheckpointError(
                f"{self.path} is the checkpoint of another run"
                f" ({'; '.join(differ) or 'unreadable'}): {_START_OVER}"
            )
        for number, line in enumerate(lines[1:], start=2):
            batch = self._line(line, number)
            try:
                records = [GameRecord.from_dict(r) for r in batch["records"]]
                times_a = [float(t) for t in batch["times_a"]]
                times_b = [float(t) for t in batch["times_b"]]
                seconds = float(batch["seconds"])
            except (KeyError, TypeError, ValueError, IndexError):
                raise CheckpointError(
                    f"{self.path}, line {number}: not a batch of finished games: {_START_OVER}"
                ) from None
            self.records += records
            self.times_a += times_a
            self.times_b += times_b
            self.seconds = seconds

    def _line(self, line: str, number: int) -> dict[str, Any]:
        try:
            data = json.loads(line)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise CheckpointError(f"{self.path}, line {number}: not a JSON object: {_START_OVER}")
        return data


_START_OVER: Final = "delete it to start the run over"


def _shown(value: object) -> str:
    return "none" if value is None else str(value)
