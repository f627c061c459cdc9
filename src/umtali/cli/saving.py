"""Where the terminal keeps saved games: checking a file name before a game starts,
naming a new file, and a lock so that two programs never play on in the same file.

The record itself is written by :func:`umtali.record.save_file` (atomically, in place
of the old one). This module decides *whether* a file may be written at all:

* a file that already exists is replaced only when the user asked for it (``--force``),
  or when it is the game being played on (``--resume``);
* while ``umtali play`` keeps a game in a file, it holds a lock on that file, and a
  second ``umtali play --resume`` of the same file is refused instead of the two
  overwriting each other's moves.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import tempfile
import time
from pathlib import Path

__all__ = [
    "FileInUseError",
    "SaveLock",
    "SavePathError",
    "check_save_path",
    "os_reason",
    "reserve_default_path",
]

try:  # POSIX; elsewhere the lock is a no-op (and says so in its docstring)
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


class SavePathError(ValueError):
    """A file that a game or record cannot be saved in; the message says why."""


class FileInUseError(SavePathError):
    """The file is being played on by another ``umtali play``."""


def os_reason(error: OSError) -> str:
    """What the system says went wrong, without the error number."""
    return str(error.strerror or error)


def check_save_path(
    path: Path,
    *,
    resuming: Path | None = None,
    force: bool = False,
    what: str = "the record",
    overwrite_note: str = "saving would write over it; give another file name, or add"
    " --force to replace it",
) -> None:
    """Refuse (:class:`SavePathError`) a file ``what`` could not be saved in: a
    folder, a file in a missing or unwritable folder, or an existing file (it would be
    overwritten) unless it is the one being resumed or ``force`` is given.
    ``overwrite_note`` ends the message about an existing file."""
    where = f"cannot keep {what} in {path}"
    try:
        if path.is_dir():
            raise SavePathError(
                f"{where}: it is a folder; give a file name, like {path / 'game.json'}"
            )
        resumed = resuming is not None and path.exists() and path.samefile(resuming)
        if path.exists() and not (resumed or force):
            raise SavePathError(f"{path} already exists, and {overwrite_note}")
        folder = path.parent
        if not folder.exists():
            raise SavePathError(f"{where}: the folder {folder} does not exist")
        if not folder.is_dir():
            raise SavePathError(f"{where}: {folder} is not a folder")
        # The one sure test of a folder being writable is writing in it.
        try:
            fd, probe = tempfile.mkstemp(prefix=".umtali-", suffix=".tmp", dir=folder)
        except OSError as e:
            raise SavePathError(
                f"{where}: no file can be written in the folder {folder} ({os_reason(e)})"
            ) from None
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise SavePathError(f"{where}: {os_reason(e)}") from None
    except ValueError as e:
        if isinstance(e, SavePathError):
            raise
        # A NUL byte in the name, say.
        raise SavePathError(f"{where}: it is not a usable file name ({e})") from None


def reserve_default_path(folder: Path) -> Path:
    """A new ``umtali-DATE-TIME.json`` in ``folder``, created empty so that no other save
    takes the name: a second save within the same second gets ``-2``, then ``-3``..."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    number = 1
    while True:
        name = f"umtali-{stamp}.json" if number == 1 else f"umtali-{stamp}-{number}.json"
        path = folder / name
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            number += 1
            continue
        os.close(fd)
        return path


class SaveLock:
    """An exclusive lock on the file a game is kept in, held while the game is played.

    The lock is taken on a hidden companion file (``.NAME.lock`` beside ``NAME``), not on
    the record itself: each save replaces the record with a new file, and a lock on the
    old one would be lost with it. The companion holds the locker's process id, to name
    it in the refusal. The operating system drops the lock when the process ends, however
    it ends (even ``kill -9``), so a crash never leaves a game locked; the companion file
    is removed when the lock is released. Where ``fcntl`` does not exist (Windows), no
    lock is taken.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> first = SaveLock.acquire(folder / "g.json")
    >>> SaveLock.acquire(folder / "g.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    umtali.cli.saving.FileInUseError: ...g.json is being played in another umtali play (process ...)...
    >>> first.release()
    >>> SaveLock.acquire(folder / "g.json").release()
    """

    def __init__(self, path: Path, fd: int | None, lock_path: Path) -> None:
        self.path = path
        self._fd = fd
        self._lock_path = lock_path

    @staticmethod
    def lock_path_of(path: Path) -> Path:
        return path.parent / f".{path.name}.lock"

    @classmethod
    def acquire(cls, path: Path) -> SaveLock:
        """Lock ``path``, or raise :class:`FileInUseError` (another game holds it) or
        :class:`SavePathError` (its folder cannot hold the lock's file)."""
        lock_path = cls.lock_path_of(path)
        if fcntl is None:  # pragma: no cover - not on POSIX
            return cls(path, None, lock_path)
        while True:
            try:
                fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as e:
                raise SavePathError(f"cannot lock {path} for this game: {os_reason(e)}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _read_pid(fd)
                os.close(fd)
                process = f" (process {holder})" if holder else ""
                raise FileInUseError(
                    f"{path} is being played in another umtali play{process}; finish or quit"
                    " that game first, or keep this one in another file with"
                    f" --save OTHER_FILE (resuming {shlex.quote(str(path))} here too would"
                    " make the two overwrite each other)"
                ) from None
            # The holder before us may have removed the companion file between our open
            # and our lock: then our lock is on a file nobody else will see. Start again.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(lock_path))
            except OSError:
                same = False
            if same:
                break
            os.close(fd)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        return cls(path, fd, lock_path)

    def release(self) -> None:
        """Drop the lock and remove its companion file (idempotent)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            self._lock_path.unlink()  # while still held: nobody can be locking it now
        os.close(fd)

    def __enter__(self) -> SaveLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
