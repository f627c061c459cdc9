"""Atomic writes: the target is whole before and after, whatever happens in between; and
where a game may be saved, with the lock that keeps two programs out of one file."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_records import lesson_game
from umtali.games.umtali.record import load_file
from umtali.kernel.files import (
    FileInUseError,
    SaveLock,
    SavePathError,
    check_save_path,
    reserve_default_path,
    write_atomically,
)
from umtali.kernel.record import RecordError, save_file
from umtali.sim.arena import run_arena

posix_only = pytest.mark.skipif(os.name != "posix", reason="modes, links and pids as on POSIX")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_text_is_written_and_nothing_else_is_left(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    write_atomically(target, "first\n")
    write_atomically(target, "second, é\n")
    assert target.read_text(encoding="utf-8") == "second, é\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@posix_only
def test_a_new_save_is_its_owners_only(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_file(lesson_game(), path)
    assert mode(path) == 0o600  # it holds both players' hidden cards


@posix_only
def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_file(lesson_game(), path)
    path.chmod(0o640)
    save_file(lesson_game(), path)
    assert mode(path) == 0o640
    path.chmod(0o604)  # even bits the umask would take away
    old = os.umask(0o077)
    try:
        write_atomically(path, "{}")
    finally:
        os.umask(old)
    assert mode(path) == 0o604


@posix_only
def test_a_link_stays_a_link_and_its_file_is_updated(tmp_path: Path) -> None:
    real = tmp_path / "games" / "real.json"
    real.parent.mkdir()
    real.write_text("old", encoding="utf-8")
    real.chmod(0o644)
    link = tmp_path / "link.json"
    link.symlink_to(Path("games") / "real.json")  # relative, as people make them
    save_file(lesson_game(), link)
    assert link.is_symlink()
    assert os.readlink(link) == str(Path("games") / "real.json")
    assert load_file(real).game_totals(0) == (159, 110)
    assert mode(real) == 0o644
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.json"]


@posix_only
def test_a_chain_of_links_and_a_dangling_link_are_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    (tmp_path / "b").symlink_to(real)  # dangling: real does not exist yet
    (tmp_path / "a").symlink_to(tmp_path / "b")
    write_atomically(tmp_path / "a", "text")
    assert (tmp_path / "a").is_symlink()
    assert (tmp_path / "b").is_symlink()
    assert real.read_text(encoding="utf-8") == "text"


@posix_only
def test_a_loop_of_links_is_an_error_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(OSError, match="symbolic links"):
        write_atomically(tmp_path / "a", "text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]
    assert (tmp_path / "a").is_symlink()


@posix_only
def test_a_folder_or_a_pipe_is_not_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        write_atomically(folder, "text")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        save_file(lesson_game(), fifo)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "pipe"]


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(child.stdout)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return pid
    pytest.skip("the child's pid was reused at once")


@posix_only
def test_temporaries_of_dead_writers_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    dead = tmp_path / f".game.json.{dead_pid()}.0123abcd.tmp"
    live = tmp_path / f".game.json.{os.getppid()}.0123abcd.tmp"  # our parent is alive
    mine = tmp_path / f".game.json.{os.getpid()}.0123abcd.tmp"  # another thread's, maybe
    other = tmp_path / f".other.json.{dead_pid()}.0123abcd.tmp"  # another target's
    unlike = tmp_path / ".game.json.notapid.tmp"  # not named by us
    for p in (dead, live, mine, other, unlike):
        p.write_text("half a record", encoding="utf-8")
    save_file(lesson_game(), path)
    assert not dead.exists()
    assert live.exists()
    assert mine.exists()
    assert other.exists()
    assert unlike.exists()


def test_a_failed_rename_leaves_no_temporary_and_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text("the old record", encoding="utf-8")

    def refuse(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        save_file(lesson_game(), path)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert path.read_text(encoding="utf-8") == "the old record"


def test_a_failed_write_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", refuse)
    with pytest.raises(OSError, match="Input/output error"):
        write_atomically(tmp_path / "out.txt", "text")
    assert list(tmp_path.iterdir()) == []


def test_text_that_is_no_unicode_touches_nothing(tmp_path: Path) -> None:
    with pytest.raises(UnicodeEncodeError):
        write_atomically(tmp_path / "out.txt", "bad \udcff")
    assert list(tmp_path.iterdir()) == []


def test_a_match_that_cannot_be_recorded_touches_nothing(tmp_path: Path) -> None:
    game = lesson_game()
    game.meta["bad"] = {1, 2}
    with pytest.raises(RecordError, match="holds a set"):
        save_file(game, tmp_path / "game.json")
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        save_file(lesson_game(), tmp_path / "no such folder" / "game.json")


@posix_only
def test_the_file_and_then_its_folder_are_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[tuple[str, int]] = []
    real_fsync = os.fsync

    def record(fd: int) -> None:
        info = os.fstat(fd)
        synced.append(("folder" if stat.S_ISDIR(info.st_mode) else "file", info.st_ino))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", record)
    path = tmp_path / "game.json"
    save_file(lesson_game(), path)
    assert synced == [("file", path.stat().st_ino), ("folder", tmp_path.stat().st_ino)]


@posix_only
def test_arena_results_are_written_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = run_arena("random", "random", 1, seed=1, jobs=1)
    path = tmp_path / "arena.json"
    path.write_text("old results", encoding="utf-8")
    path.chmod(0o644)
    synced: list[int] = []
    real_fsync = os.fsync

    def record(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", record)
    result.write_json(path)
    assert path.read_text(encoding="utf-8") == result.to_json()
    assert len(synced) == 2
    assert mode(path) == 0o644
    fresh = tmp_path / "fresh.json"
    old = os.umask(0o022)
    try:
        result.write_json(fresh)
    finally:
        os.umask(old)
    assert mode(fresh) == 0o644  # results are no secret: an ordinary new file


# -- where a game may be saved ----------------------------------------------------------------


def test_a_save_path_is_refused_with_the_reason(tmp_path: Path) -> None:
    existing = tmp_path / "game.json"
    existing.write_text("{}", encoding="utf-8")
    refusals = [
        (tmp_path, {}, "it is a folder; give a file name"),
        (tmp_path / "missing" / "game.json", {}, "the folder"),
        (existing / "game.json", {}, "is not a folder"),
        (existing, {}, f"{existing} already exists, and saving would write over it"),
        (existing, {"overwrite_note": "add --force"}, "already exists, and add --force"),
    ]
    for path, given, reason in refusals:
        with pytest.raises(SavePathError, match=reason):
            check_save_path(path, **given)  # type: ignore[arg-type]
    # Written over when asked, or when it is the game played on.
    check_save_path(existing, force=True)
    check_save_path(existing, resuming=existing)
    check_save_path(tmp_path / "new.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no probe left


@posix_only
def test_a_locked_file_names_the_process_that_holds_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    with SaveLock.acquire(path):
        with pytest.raises(FileInUseError) as refused:
            SaveLock.acquire(path)
        assert refused.value.holder == os.getpid()
        assert refused.value.path == path
        assert f"(process {os.getpid()})" in str(refused.value)
    assert not SaveLock.lock_path_of(path).exists()
    SaveLock.acquire(path).release()  # free again


def test_two_saves_in_the_same_second_get_two_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(time, "strftime", lambda _format: "20250101-120000")
    first = reserve_default_path(tmp_path)
    second = reserve_default_path(tmp_path)
    assert first.name == "umtali-20250101-120000.json"
    assert second.name == "umtali-20250101-120000-2.json"
    # Each name is taken at once, so that no other save can take it.
    assert first.exists()
    assert second.exists()
