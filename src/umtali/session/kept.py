"""A play session kept in a file (layer 5): the file a game is saved in after every hand,
the lock held on it while the game is played, where the game goes when that file cannot
be written, and whether a game is worth keeping at all.

No front end's words are here: a failure is an ``OSError`` or an exception whose message
says what went wrong, and a front end adds how its user may go on (a command's options,
say). The saves themselves go through :func:`umtali.kernel.record.save_file` (atomically), each
inside the session's ``guard``, so that a front end can keep a save whole as it keeps a
move whole.

>>> import tempfile
>>> from umtali.games.umtali.session import PlaySession
>>> folder = Path(tempfile.mkdtemp())
>>> kept = KeptGame(PlaySession.new(seed=5, humans={0}), None)
>>> kept.worth_saving  # a new game with no file: nobody has moved yet
False
>>> kept.save_anywhere(print, folders=(folder,)).name.startswith("umtali-")
True
>>> kept.worth_saving, kept.path == kept.lock.path
(True, True)
>>> kept.close()
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from umtali import games
from umtali.games.api import Guard, Session
from umtali.kernel.files import SaveLock, SavePathError, os_reason, reserve_default_path
from umtali.kernel.record import RecordError, load_any_file, save_file
from umtali.session.shared import SeatsError

__all__ = ["KeptGame", "KeptSession", "ResumeError"]

KeptSession = Session
"""A session a file can keep: of any game, for any number of seats. Each keeps its seats
and seed in the record's ``meta``, so any is resumed the same way."""


class ResumeError(Exception):
    """A saved game that cannot be played on; the message says why."""


class KeptGame:
    """A play session of any game (:class:`~umtali.games.api.Session`) and the file it is
    kept in.

    Args:
        session: the game.
        path: the file it is saved in after every hand, ``None`` until it is saved.
        lock: the lock held on ``path`` while the game is played (see :meth:`close`).
        resumed: the game was read from a file (so it is worth saving however it stops).
    """

    def __init__(
        self,
        session: KeptSession,
        path: Path | None,
        lock: SaveLock | None = None,
        *,
        resumed: bool = False,
    ) -> None:
        self.session = session
        self.path = path
        self.lock = lock
        self._kept = resumed or path is not None

    @classmethod
    def resume(cls, record: str, lock: SaveLock, *, guard: Guard) -> KeptGame:
        """The game saved in the file ``record`` (of any game, for any number of players:
        the record says which), checked whole, to be kept in the file
        ``lock`` holds. The lock is taken before the record is read, so that no other
        game can save into that file between the reading and the playing; it is
        released here when the game cannot be played on (:class:`ResumeError`).
        ``guard``: the session's (see :class:`~umtali.games.api.Session`)."""
        try:
            try:
                match = load_any_file(record)
            except RecordError as e:
                raise ResumeError(f"cannot resume {record}: {e}") from None
            if match.is_over():
                raise ResumeError(f"the game in {record} is already over")
            try:
                session = games.spec_of(match).maker().of_record(match, guard=guard)
            except SeatsError as e:
                raise ResumeError(f"cannot resume {record}: {e}") from None
            return cls(session, lock.path, lock, resumed=True)
        except BaseException:
            lock.release()
            raise

    @property
    def worth_saving(self) -> bool:
        """Whether stopping should save the game: a new game with no file, stopped
        before a person made a move, is not kept (so that saves do not pile up)."""
        return self._kept or self.session.moved_by_person

    def autosave(self) -> None:
        """Save the game to its file, if it has one (after every hand). Raises
        ``OSError`` when the file cannot be written; the game is then kept in memory, and
        :meth:`save_anywhere` may put it elsewhere."""
        if self.path is not None:
            with self.session.guard():
                save_file(self.session.match, self.path)

    def save_anywhere(
        self,
        tell: Callable[[str], None],
        folders: Sequence[Path] | None = None,
    ) -> Path | None:
        """Save the game: to its file, else (or if that fails) to a new
        ``umtali-DATE-TIME.json`` in the first of ``folders`` where one can be written
        (here, else the system's temporary folder), which is then where the game is
        kept. The path, or ``None`` if nothing could be written; each failure is told as
        a sentence with ``tell``."""
        match = self.session.match
        if self.path is not None:
            try:
                with self.session.guard():
                    save_file(match, self.path)
                self._kept = True
                return self.path
            except OSError as e:
                tell(f"The game could not be saved to {self.path}: {os_reason(e)}.")
        if folders is None:
            folders = (Path(), Path(tempfile.gettempdir()))
        for folder in folders:
            try:
                path = reserve_default_path(folder)
            except OSError as e:
                tell(f"The game could not be saved in {folder}: {os_reason(e)}.")
                continue
            try:
                with self.session.guard():
                    save_file(match, path)
            except OSError as e:
                path.unlink(missing_ok=True)
                tell(f"The game could not be saved to {path}: {os_reason(e)}.")
                continue
            self._keep_in(path)
            self._kept = True
            return path
        return None

    def _keep_in(self, path: Path) -> None:
        """From now on keep the game in ``path`` (a new file this game made), holding its
        lock instead of the old file's; if it cannot be locked, the old file stays the
        one saved after every hand."""
        try:
            lock = SaveLock.acquire(path)
        except SavePathError:
            return
        if self.lock is not None:
            self.lock.release()
        self.lock, self.path = lock, path

    def close(self) -> None:
        """Let go of the file the game is kept in (another program may now resume it)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None
