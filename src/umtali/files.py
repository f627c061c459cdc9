"""Writing files so that a crash, a full disk or a power cut never leaves half of one.

This is the I/O layer beside :mod:`umtali.record` (the rules core does no I/O).
:func:`write_atomically` writes the new text to a temporary file in the target's
folder, forces it to the disk, and only then renames it over the target, so the target
holds either its old text or its new text, never a mixture.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "game.json", "{}\\n")
>>> (folder / "game.json").read_text(), oct((folder / "game.json").stat().st_mode & 0o777)
('{}\\n', '0o600')
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Final

__all__ = ["NEW_FILE_MODE", "write_atomically"]

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
