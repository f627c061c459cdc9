"""The games API (layer 3): what a game tells the rest of the program about itself, and
what every front end plays it through.

* :class:`GameSpec`: a game's fixed facts (its name, title, seat counts, variants,
  computer levels, match lengths) and, as ``"module:attr"`` texts resolved only when
  asked for, where its parts live: its record body, its sessions, its replay, its
  terminal screen, its browser table. The inner layers never import the outer ones:
  the registry (:mod:`umtali.games`) hands a front end the part it asks for.
* :class:`Session`: a game at a table, two to four seats, each a person or a computer
  level. The terminal, the server, the arena and ``umtali demo`` play every game
  through it and name none.
* The answers a session gives (:class:`Accepted`, :class:`Refused`, :class:`Hint`,
  :class:`BotMove`, :class:`Recap`, :class:`Played`) and the error of a computer that
  breaks the rules (:class:`BotError`).
* :class:`Deadline`: the moment by which a computer's decision is due (its thinking
  budget); a bot that searches stops there with the best it has found.
* :class:`RecordBody`: how a game writes its part of a record and reads it back; the
  envelope (format, version, digest, checks) is :mod:`umtali.kernel.record`'s.

A replay is told in the one vocabulary of :mod:`umtali.games.events`.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final, Generic, Protocol, TypeVar, runtime_checkable

from umtali.kernel.cards import ALL_CARDS
from umtali.kernel.english import sentence
from umtali.kernel.seeds import Seed

__all__ = [
    "Accepted",
    "BotError",
    "BotMove",
    "Deadline",
    "DealDue",
    "GameSpec",
    "Guard",
    "Hint",
    "HookError",
    "MoveT",
    "Notated",
    "Played",
    "Position",
    "Recap",
    "RecordBody",
    "Refused",
    "Session",
    "SessionMaker",
    "resolve",
]


# -- answers any session gives -------------------------------------------------------------


@runtime_checkable
class Notated(Protocol):
    """A move of any game: it writes itself in its game's notation."""

    def text(self) -> str: ...


MoveT = TypeVar("MoveT", bound=Notated)
"""The move of the game a session plays."""


@dataclass(frozen=True)
class Accepted(Generic[MoveT]):
    """Done: a move played or taken back; ``sentence`` tells it to its player."""

    move: MoveT
    sentence: str


@dataclass(frozen=True)
class BotMove(Generic[MoveT]):
    """A move the computer played: its seat (the game's player), the move, where it stands
    in its hand's history, and how long the choice took (seconds)."""

    seat: int
    move: MoveT
    index: int
    seconds: float


@dataclass(frozen=True)
class Deadline:
    """When a computer's decision is due: ``at``, on the time of ``clock`` (seconds).

    A bot that searches (samples deals and plays them out) looks at it between two
    samples and, once it has :meth:`passed`, chooses from what it has found so far;
    a bot that does not search ignores it. The clock is handed in, so a test can
    drive it without waiting.

    >>> now = [10.0]
    >>> deadline = Deadline.after(0.5, clock=lambda: now[0])
    >>> deadline.passed(), deadline.left()
    (False, 0.5)
    >>> now[0] = 10.5
    >>> deadline.passed(), deadline.left()
    (True, 0.0)
    """

    at: float
    clock: Callable[[], float] = time.perf_counter

    @classmethod
    def after(cls, seconds: float, *, clock: Callable[[], float] = time.perf_counter) -> Deadline:
        """The deadline ``seconds`` from now on ``clock``."""
        if not seconds >= 0:
            raise ValueError(f"a thinking budget is a number of seconds, not {seconds!r}")
        return cls(clock() + seconds, clock)

    def passed(self) -> bool:
        """Whether the decision is due now."""
        return self.clock() >= self.at

    def left(self) -> float:
        """Seconds until it is due (0 once it has passed)."""
        return max(0.0, self.at - self.clock())


@dataclass(frozen=True)
class Hint(Generic[MoveT]):
    """The move the hint level would make, and why, in words for the player."""

    move: MoveT
    level: str
    why: str


@dataclass(frozen=True)
class Refused:
    """Nothing was done; ``reason`` says why, addressed to the player. ``rules``: the
    ids of the rules the move breaks (``("R4",)``), anchors on the game's rules page
    (:attr:`GameSpec.rules_text`), which a front end may link to; the reason never
    names them."""

    reason: str
    rules: tuple[str, ...] = ()

    @property
    def sentence(self) -> str:
        """The reason as a sentence of its own.

        >>> Refused("it is not your turn").sentence, Refused("You cannot draw now.").sentence
        ('It is not your turn.', 'You cannot draw now.')
        """
        return sentence(self.reason)


@dataclass(frozen=True)
class Recap:
    """The other players' moves since ``reader``'s last one in a hand, as he saw them;
    ``since_own_move`` is false when he has not moved yet in that hand."""

    reader: int
    since_own_move: bool
    lines: tuple[str, ...]

    @classmethod
    def told(
        cls, reader: int, history: Sequence[tuple[int, object]], tell: Callable[[int], str]
    ) -> Recap:
        """The recap of a hand whose moves are ``history`` (who moved, and the move):
        ``tell(i)`` is move ``i`` as ``reader`` saw it.

        >>> Recap.told(0, [(1, 5), (0, 7), (1, 8), (1, 9)], lambda i: f"move {i}")
        Recap(reader=0, since_own_move=True, lines=('move 2', 'move 3'))
        """
        mine = [i for i, (actor, _) in enumerate(history) if actor == reader]
        since = mine[-1] + 1 if mine else 0
        lines = tuple(tell(i) for i in range(since, len(history)) if history[i][0] != reader)
        return cls(reader, bool(mine), lines)


@dataclass(frozen=True)
class Played:
    """A move as it is stored: the hand it was played in (its index among the match's
    hands, from 0), its index in that hand, its text in notation, and the hand's scores
    when it ended the hand (one a seat of the hand)."""

    hand_index: int
    move_index: int
    text: str
    scores: tuple[int, ...] | None


@dataclass(frozen=True)
class DealDue:
    """A hand the next deal makes: who deals it, and which of the game's players sit at
    its seats (``None``: all of them, in order). A game of three or four may deal at
    more than one table at once."""

    dealer: int
    players: tuple[int, ...] | None = None


class BotError(Exception):
    """A computer player that failed (raised) or chose a move that is not legal;
    ``seat``, ``hand_index`` and ``move_index`` say where, ``what`` what went wrong."""

    def __init__(self, seat: int, hand_index: int, move_index: int, what: str) -> None:
        super().__init__(f"hand {hand_index + 1}, decision {move_index + 1}: {what}")
        self.seat = seat
        self.hand_index = hand_index
        self.move_index = move_index
        self.what = what


Guard = Callable[[], AbstractContextManager[object]]
"""What a front end gives to keep a change whole: a context manager to enter around it."""


# -- the session -------------------------------------------------------------------------------


class Position(Protocol):
    """A hand as its game's engine holds it: the legal moves as small ints, each played by
    ``push`` and taken back by ``pop`` (the engine's own undo, python-chess's idiom)."""

    def legal_actions(self) -> list[int]: ...
    def push(self, move: Any) -> None: ...
    def pop(self) -> Any: ...


class Session(Protocol):
    """A game at a table, as every front end plays it: two to four seats, each a person
    (``None`` in :attr:`levels`) or a computer level. Seats are the game's players,
    numbered from 0; a game of three or four plays each hand at a table of two, and the
    session says which hand a seat is playing.

    Nothing here does I/O. A front end asks whose move is awaited, shows that seat its
    view, sends back what was typed (:meth:`submit`) and lets the computer move
    (:meth:`bot_move`); a change it must not see half done it wraps in :attr:`guard`.
    """

    @property
    def game(self) -> str:
        """The game's registered name (:class:`GameSpec`)."""

    @property
    def seed(self) -> Seed:
        """The seed of the deals (unless the server deals from its own shuffle) and of
        every computer decision (:mod:`umtali.kernel.seeds`)."""

    @property
    def levels(self) -> tuple[str | None, ...]:
        """The computer's level in each seat, ``None`` for a person."""

    @property
    def humans(self) -> frozenset[int]:
        """The seats of people."""

    @property
    def hint_level(self) -> str:
        """The level whose choice :meth:`hint` gives."""

    @property
    def guard(self) -> Guard:
        """Entered around every change of the match (a deal, a move) and every save."""

    @property
    def match(self) -> Any:
        """What a record keeps: the game's match object, written by its record body."""

    @property
    def size(self) -> int:
        """How many seats (players) the game has."""

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, as the record keeps them."""

    @property
    def moved_by_person(self) -> bool:
        """Whether a person has played a move: until then a new game is not worth keeping."""

    @property
    def hotseat(self) -> bool:
        """Several people at one screen: it is hidden between them."""

    @property
    def version(self) -> int:
        """Grows with every change of the match (a hand dealt, a move played)."""

    def is_over(self) -> bool:
        """Whether the match is over."""

    def needs_deal(self) -> bool:
        """Whether the next step is dealing (no hand of the deal under way is left)."""

    def deals_due(self) -> tuple[DealDue, ...]:
        """The hands the next deal makes, in the order :meth:`deal` deals them (empty
        when no deal is due)."""

    def deal(self, decks: Sequence[Sequence[int]] | None = None) -> object:
        """Make the next deal: one deck for each of :meth:`deals_due`, from the seed
        when ``decks`` is ``None`` (a server deals from its own secure shuffle)."""

    def waiting(self) -> tuple[int, ...]:
        """The seats whose move is awaited now (more than one when hands are played at
        two tables at once); empty between hands and once the match is over."""

    def to_move(self) -> int | None:
        """The first seat of :meth:`waiting`, or ``None``."""

    def computer_to_move(self) -> int | None:
        """A seat the computer plays whose move is awaited, if any (:meth:`bot_move`
        plays it)."""

    def view(self, seat: int) -> Any:
        """What ``seat`` may see of the hand it plays (or last played): the game's view,
        which holds no card hidden from it."""

    def names_for(self, reader: int) -> tuple[str, ...]:
        """The players' names as ``reader`` is addressed: himself as "You"."""

    def opponent_of(self, seat: int) -> int | None:
        """The player ``seat`` plays against in the hand it plays (or last played);
        ``None`` before it has played one."""

    def check(self, seat: int, move: Any) -> Accepted[Any] | Refused:
        """Whether ``move`` (a move, or text) is one ``seat`` may make now, without
        playing it (what "why not?" asks)."""

    def submit(self, seat: int, move: Any) -> Accepted[Any] | Refused:
        """Play ``move`` (a move, or text in notation) for ``seat``: what was done, or
        why nothing was."""

    def follow(self, hand_index: int, move: str) -> Accepted[Any] | Refused:
        """Play ``move`` (text in notation) at hand ``hand_index`` for whoever is to move
        there, person or computer: a move read back from where another process stored
        it. Refused, with nothing changed, when that hand is not under way or the move
        is not its next legal one."""

    def bot_move(self, *, budget: float | None = None) -> BotMove[Any]:
        """Let the computer play the seat of :meth:`computer_to_move`; :class:`BotError`
        if it fails or breaks the rules. ``budget``: the seconds it may think (its
        :class:`Deadline`), ``None`` for as long as its level takes (the same move
        for the same seed, whatever the machine)."""

    def last_played(self) -> Played:
        """The move played last, as it is stored."""

    def hint(self, seat: int, *, budget: float | None = None) -> Hint[Any] | Refused:
        """The move the hint level would make for ``seat`` now, and why; refused when it
        is not his move. Asking changes nothing the computer does later. ``budget`` as
        for :meth:`bot_move`."""

    def undo(self, seat: int, *, consent: bool = False) -> Accepted[Any] | Refused:
        """Take back ``seat``'s last move where the game's rule of undo allows."""

    def recap(self, reader: int, hand_index: int = -1) -> Recap:
        """The other player's moves since ``reader``'s last one in a hand he played."""

    def result(self, names: Sequence[str]) -> str:
        """The sentence that ends the match: who won it."""

    def rematch(self, seed: int, *, guard: Guard | None = None) -> Session:
        """A new match with the same seats, levels and rules, dealt from ``seed``."""

    def record(self) -> str:
        """The record of the match so far, as JSON text."""

    def positions(self) -> tuple[Position, ...]:
        """The hands under way, as the engine holds them (one, or one a table), for
        tools that search them. A move pushed on one bypasses the session: pop it again
        before the session is used."""


class SessionMaker(Protocol):
    """How a game's sessions are made: new, between computers, from a record a player
    kept, and from what a server stored."""

    def new(
        self,
        *,
        seed: int,
        humans: Iterable[int],
        seats: int,
        level: str | None = None,
        variant: str | None = None,
        length: str | None = None,
        guard: Guard | None = None,
    ) -> Session:
        """A new match: ``seats`` players, the people in ``humans``, the computer at
        ``level`` in the others (the game's default when ``None``), to ``variant``'s
        rules, as long as ``length`` (one of :attr:`GameSpec.lengths`). ``ValueError``
        (a clear sentence) for what the game does not offer."""

    def between_bots(
        self,
        levels: Sequence[str],
        seed: Seed,
        *,
        variant: str | None = None,
        length: str | None = None,
        players: Sequence[str] | None = None,
    ) -> Session:
        """A match between computer ``levels``, one a seat (the arena's games)."""

    def of_record(self, match: Any, *, guard: Guard | None = None) -> Session:
        """The session of a match ``umtali play`` kept: its seats read from its ``meta``,
        its decks checked against its seed (``SeatsError``)."""

    def stored(
        self,
        match: Any,
        *,
        handed_over: frozenset[int] = frozenset(),
        hint_level: str | None = None,
    ) -> Session:
        """The session of a match a server stored, dealt from its own shuffle: its seats
        from ``meta``, the people's seats in ``handed_over`` played by the computer."""

    def persons(self, match: Any) -> frozenset[int]:
        """The seats of ``match`` that people play."""


# -- records -----------------------------------------------------------------------------------


class RecordBody(Protocol):
    """A game's part of a record: :mod:`umtali.kernel.record` writes and checks the
    envelope every record shares and hands the rest to the game.

    A record's head keys besides the envelope (``format``, ``version``, ``digest``,
    ``game``, ``rules``, ``players``, ``meta``, ``hands``) are the game's: ``match``
    (the length of a match), ``first_dealer``, ``party``."""

    def owns(self, match: object) -> bool:
        """Whether ``match`` is one of this game's (what :func:`dumps` is handed)."""

    def write(self, match: Any) -> dict[str, Any]:
        """The record of ``match`` without the envelope's ``format``, ``version``,
        ``game`` and ``digest``: its head keys in order, then ``hands``."""

    def read(self, data: dict[str, Any]) -> Any:
        """The match ``data`` records, every move replayed through the engine; a record
        that is wrong raises ``RecordError`` saying where and why."""


# -- the spec ----------------------------------------------------------------------------------


class HookError(LookupError):
    """A game names a part it does not have, or one that cannot be found."""


def resolve(hook: str) -> Any:
    """The object a ``"module:attr"`` text names, imported when asked for.

    >>> resolve("umtali.kernel.cards:card_name")(0)
    'A♣'
    """
    module, sep, attr = hook.partition(":")
    if not sep or not module or not attr:
        raise HookError(f"a hook is written 'module:attr', not {hook!r}")
    found: Any = importlib.import_module(module)
    for part in attr.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise HookError(f"{module} has no {attr!r} (the hook {hook!r})") from None
    return found


_HOOKS: Final = ("terminal", "table", "research", "arena", "review", "puzzles")


@dataclass(frozen=True)
class GameSpec:
    """One game, as the registry (:mod:`umtali.games`) holds it.

    Attributes:
        name: how records, URLs and options name it (``"umtali"``); lower-case letters.
        title: how players name it (``"Gin Rummy"``).
        summary: one sentence on what it is, for the home page and ``--help``.
        seat_counts: how many players it may have, the usual first.
        variants: its presets of rule options, by name, the default first.
        levels: its computer levels, weakest first.
        default_level: the level played (and whose hints are given) unless told.
        lengths: how long a match may be (``"game"``: to its rules' end; Umtali also
            has ``"hand"`` and ``"session"``), the default first.
        record_head: the head keys its records hold besides the envelope's.
        deck_size: how many cards a hand's deck holds.
        deck_cards: which cards they are, as a mask of :mod:`umtali.kernel.cards`
            (the whole pack of 52 unless told): what a server shuffles for a deal.
        sessions: hook to its :class:`SessionMaker`.
        record: hook to its :class:`RecordBody`.
        events: hook to ``events(match, names) -> Iterator[Event]``, a record told
            turn by turn (:mod:`umtali.games.events`).
        terminal: hook to its screen at the terminal (``umtali play``, replays).
        table: hook to its browser table (what a seat is sent, a replay's steps).
        research: hook to its research encoding, where it has one.
        arena: hook to what the arena adds for it (its own figures, its engine's
            benchmark), where it has one: the arena plays any game without.
        static: the folder under the server's ``/static/games/`` with its table's
            browser code (``table.js``), where it has one.
        review: hook to its game review (a :class:`umtali.learn.review.Reviewer`:
            each decision of a finished hand weighed by playouts from the player's
            own view), where it has one.
        puzzles: hook to its puzzles (a :class:`umtali.learn.puzzles.PuzzleMaker`:
            positions from computer games where one move is clearly best, the shipped
            ones and how to make more), where it has them.
        rules_text: its rules in Markdown, as ``"package:file"`` (its own folder's
            ``RULES.md``): the server's page ``/rules/<name>``, where a refusal's rule
            links to. A line ``<a id="r4"></a>`` before a heading names the anchor of the
            rule a refusal cites as ``"R4"``.
    """

    name: str
    title: str
    summary: str
    seat_counts: tuple[int, ...]
    variants: tuple[str, ...]
    levels: tuple[str, ...]
    default_level: str
    sessions: str
    record: str
    events: str
    lengths: tuple[str, ...] = ("game",)
    record_head: frozenset[str] = frozenset(("first_dealer",))
    deck_size: int = 52
    deck_cards: int = ALL_CARDS
    terminal: str | None = None
    table: str | None = None
    research: str | None = None
    arena: str | None = None
    static: str | None = None
    rules_text: str | None = None
    review: str | None = None
    puzzles: str | None = None
    _resolved: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.name.isascii() or not self.name.isalpha() or not self.name.islower():
            raise ValueError(f"a game's name is lower-case letters, not {self.name!r}")
        for what, names in (("variant", self.variants), ("level", self.levels)):
            if not names:
                raise ValueError(f"{self.name}: a game has at least one {what}")
        if self.default_level not in self.levels:
            raise ValueError(f"{self.name}: the default level is one of {self.levels}")
        if not self.seat_counts or not all(2 <= n <= 4 for n in self.seat_counts):
            raise ValueError(f"{self.name}: a game has two to four seats, not {self.seat_counts}")
        if not self.lengths:
            raise ValueError(f"{self.name}: a game has at least one length")
        if self.deck_cards.bit_count() != self.deck_size or not 0 < self.deck_cards <= ALL_CARDS:
            raise ValueError(
                f"{self.name}: its deck's cards (deck_cards) are {self.deck_size} of the 52"
            )

    def _hook(self, which: str) -> Any:
        hook = getattr(self, which)
        if hook is None:
            raise HookError(f"{self.title} has no {which}")
        if which not in self._resolved:
            self._resolved[which] = resolve(hook)
        return self._resolved[which]

    def maker(self) -> SessionMaker:
        """How its sessions are made."""
        maker: SessionMaker = self._hook("sessions")
        return maker

    def body(self) -> RecordBody:
        """How its records are written and read."""
        body: RecordBody = self._hook("record")
        return body

    def tell(self, match: Any, names: Sequence[str] | None = None) -> Iterator[Any]:
        """``match`` told turn by turn (:mod:`umtali.games.events`); ``names``: the
        players as the front end shows them."""
        told: Iterator[Any] = self._hook("events")(match, names)
        return told

    def hook(self, which: str) -> Any:
        """One of its front ends' parts: ``terminal``, ``table``, ``research``,
        ``arena``, ``review`` or ``puzzles`` (:class:`HookError` if it has none)."""
        if which not in _HOOKS:
            raise HookError(f"no hook {which!r}: {', '.join(_HOOKS)}")
        return self._hook(which)

    def has(self, which: str) -> bool:
        """Whether it has the front end's part ``which``."""
        return getattr(self, which, None) is not None

    def rules_markdown(self) -> str:
        """Its rules, the Markdown text of :attr:`rules_text` (:class:`HookError` if it
        has none)."""
        if self.rules_text is None:
            raise HookError(f"{self.title} has no rules text")
        package, _, name = self.rules_text.partition(":")
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")

    def check_level(self, level: str) -> str:
        """``level`` if it is one of the game's, else ``ValueError`` naming them."""
        if level not in self.levels:
            raise ValueError(
                f"unknown {self.title} computer level {level!r}; choose from"
                f" {', '.join(self.levels)}"
            )
        return level

    def check_variant(self, variant: str) -> str:
        """``variant`` if it is one of the game's, else ``ValueError`` naming them."""
        if variant not in self.variants:
            raise ValueError(
                f"{self.title} has no variant {variant!r}; choose from {', '.join(self.variants)}"
            )
        return variant
