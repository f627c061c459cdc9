"""Writing files so that a crash, a full disk or a power cut never leaves half of one, and
deciding where a saved game may be written at all.

This is the I/O layer beside :mod:`umtali.kernel.record` (the rules core does no I/O).
:func:`write_atomically` writes the new text to a temporary file in the target's
folder, forces it to the disk, and only then renames it over the target, so the target
holds either its old text or its new text, never a mixture.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "game.json", "{}\\n")
>>> (folder / "game.json").read_text(), oct((folder / "game.json").stat().st_mode & 0o777)
('{}\\n', '0o600')

Before a game is played into a file, :func:`check_save_path` tells whether it may be:

* a file that already exists is replaced only when the user asked for it (``force``),
  or when it is the game being played on (``resuming``);
* while a program keeps a game in a file, it holds a :class:`SaveLock` on that file, and
  a second program that wants to play on in the same file is refused
  (:class:`FileInUseError`) instead of the two overwriting each other's moves.

:func:`reserve_default_path` names a new file when the user gave none.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import tempfile
import time
from pathlib import Path
from typing import Final

__all__ = [
    "NEW_FILE_MODE",
    "FileInUseError",
    "SaveLock",
    "SavePathError",
    "check_save_path",
    "os_reason",
    "reserve_default_path",
    "write_atomically",
]

try:  # POSIX; elsewhere the lock is a no-op (and says so in its docstring)
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

NEW_FILE_MODE: Final = 0o600
"""The permissions of a new file: its owner's only. A saved game holds both players'
hidden cards and the order of the stock, which is nobody else's business."""


def write_atomically(
    path: str | os.PathLike[str], text: str, *, new_file_mode: int = NEW_FILE_MODE
) -> None:
    """Replace the file at ``path`` with ``text`` (UTF-8), all at once.

    - The text goes to ``.<name>.<pid>.<random>.tmp`` in the same folder (a rename is
      atomic only within one file system), is flushed and ``fsync``-ed, then renamed over
      the target; the folder is ``fsync``-ed after the rename so the new name lasts too.
    - An existing target keeps its permission bits; a new one gets ``new_file_mode``
      (narrowed by the umask as usual).
    - If ``path`` is a symbolic link, the file it points to is replaced and the link
      stays a link. A folder, a device, a pipe or a socket is not replaced (``OSError``).
    - If anything fails, the temporary file is removed and the error (an ``OSError``, or
      ``UnicodeEncodeError`` for text that is no Unicode) is raised; the target is as it
      was, unless only the folder's ``fsync`` after the rename failed.
    - Temporary files for the same target left by processes that have died (a crash, a
      power cut) are removed first. The pid in a name tells whose file it is; the files
      of live processes, this one included, are left alone.
    """
    data = text.encode("utf-8")  # before any file is made: bad text leaves nothing behind
    target = _final_target(Path(path))
    folder = target.parent
    _remove_orphans(folder, target.name)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        mode = None
    else:
        _refuse_special(target, info.st_mode)
        mode = stat.S_IMODE(info.st_mode)
    tmp = folder / f".{_stem(target.name)}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags, new_file_mode if mode is None else 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            if mode is not None:
                # Set exactly, not through the umask: the file keeps the mode it had.
                os.fchmod(f.fileno(), mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_folder(folder)


def _refuse_special(target: Path, st_mode: int) -> None:
    """Refuse to rename a file over a folder, a device, a pipe or a socket: replacing
    ``/dev/null`` (a root can) would break the system, and none of them is a save."""
    if stat.S_ISDIR(st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    if not stat.S_ISREG(st_mode):
        raise OSError(
            errno.EINVAL, "it is not a regular file (a device, a pipe or a socket)", str(target)
        )


def _final_target(path: Path) -> Path:
    """The file a write to ``path`` should replace: the end of its chain of links.

    Renaming over a link would turn it into a plain file and leave the file it pointed
    to unchanged, so the link is followed instead.
    """
    if not path.is_symlink():
        return path
    real = Path(os.path.realpath(path))
    if real.is_symlink():  # realpath gives up inside a loop of links
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
    return real


def _stem(name: str) -> str:
    """The target's name as its temporary files carry it, cut so that the whole name
    stays within the 255 bytes most file systems allow."""
    while len(name.encode("utf-8", "surrogateescape")) > 200:
        name = name[:-1]
    return name


def _temp_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(_stem(name))}\.(\d+)\.[0-9a-f]+\.tmp")


def _remove_orphans(folder: Path, name: str) -> None:
    """Remove temporary files for ``name`` whose writer no longer exists.

    Best effort: a folder that cannot be listed is left for the write itself to report.
    A pid in the name is checked on this machine only, so a folder shared with another
    machine or another pid namespace may keep, or (if a pid is reused) lose, a file of
    theirs; losing one makes that writer's save fail, never its target's text.
    """
    pattern = _temp_pattern(name)
    prefix = f".{_stem(name)}."
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(prefix)]
    except OSError:
        return
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        if found is None or not entry.is_file(follow_symlinks=False):
            continue
        pid = int(found.group(1))
        if pid == os.getpid() or _is_alive(pid):
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)


def _is_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (signal 0 checks without sending anything)."""
    if pid <= 0:
        return True  # 0 and negatives name process groups: never treat them as dead
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    except (OverflowError, OSError):
        return True  # a pid the system cannot even ask about: leave the file alone
    return True


def _fsync_folder(folder: Path) -> None:
    """Force the folder's entry for the renamed file to the disk, where the system can."""
    if not hasattr(os, "O_DIRECTORY"):
        return  # Windows cannot open a folder to fsync it
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError as e:
        # Some file systems cannot fsync a folder (EINVAL); the file itself is on the
        # disk and in place, so that is no reason to call the save a failure.
        if e.errno not in (errno.EINVAL, errno.EOPNOTSUPP):
            raise
    finally:
        os.close(fd)


# -- where a game may be saved ----------------------------------------------------------------


class SavePathError(ValueError):
    """A file that a game or record cannot be saved in; the message says why."""


class FileInUseError(SavePathError):
    """The file is kept by another program playing on in it: ``holder`` is its process
    id, when the lock's companion file names one."""

    def __init__(self, path: Path, holder: int | None) -> None:
        process = f" (process {holder})" if holder else ""
        super().__init__(f"{path} is locked by another program{process}")
        self.path = path
        self.holder = holder


def os_reason(error: OSError) -> str:
    """What the system says went wrong, without the error number."""
    return str(error.strerror or error)


def check_save_path(
    path: Path,
    *,
    resuming: Path | None = None,
    force: bool = False,
    what: str = "the record",
    overwrite_note: str = "saving would write over it",
) -> None:
    """Refuse (:class:`SavePathError`) a file ``what`` could not be saved in: a
    folder, a file in a missing or unwritable folder, or an existing file (it would be
    overwritten) unless it is the one being resumed or ``force`` is given.
    ``overwrite_note`` ends the message about an existing file (a front end says there
    how its user may go on)."""
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
    umtali.kernel.files.FileInUseError: ...g.json is locked by another program (process ...)
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
                raise FileInUseError(path, holder) from None
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
