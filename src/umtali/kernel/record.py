"""Game records: versioned JSON that writes, reads and replays a match of any game exactly.

Every record has the same envelope: its ``format`` and ``version``, the ``game`` it is a
record of (left out for Umtali, as every record was before there was a choice), its
``rules``, ``players`` and ``meta``, and its ``hands``, each with its dealer, its deck
order, its moves in notation and, once over, its scores. The rest of the head (how long
the match is, who dealt first, how a party was seated) is the game's: the registry
(:mod:`umtali.games`) hands the record to the game's own body
(:class:`~umtali.games.api.RecordBody`). Reading replays every move through the game's
engine, so a record that loads is a record of a legal game; anything wrong raises one
:class:`RecordError` naming the hand, the move and the rule, and nothing is returned
half-built.

>>> from umtali.games.umtali.lessons import LESSONS
>>> from umtali.games.umtali.match import Match
>>> game = Match(kind="game", first_dealer=1)
>>> for lesson in LESSONS:
...     _ = lesson.replay(game.new_hand(lesson.deck()))
>>> again = loads_any(dumps(game))
>>> again.game_totals(0), [h.outcome().scores for h in again.hands][:2]
((159, 110), [(31, 28), (40, 22)])

A record written by :func:`dumps` carries a digest of its contents, so a saved record
that was edited afterwards is refused as such:

>>> edited = dumps(game).replace("play 10♦ off J♦", "play 8♦ off J♦", 1)
>>> loads_any(edited)
Traceback (most recent call last):
...
umtali.kernel.record.RecordError: the record was changed after it was saved: its digest does not match; use the file as it was saved, or delete its 'digest' line to read it as a hand-written record

A record without a digest (written by hand, or by an older version) is replayed, and
the replay finds what is wrong with it:

>>> import json
>>> data = json.loads(edited)
>>> del data["digest"]
>>> loads_any(json.dumps(data))
Traceback (most recent call last):
...
umtali.kernel.record.RecordError: hand 1, move 13 'play 8♦ off J♦': 8♦ is not in Player 2's hand

A game's record body builds on the toolkit here: :func:`read_field`,
:func:`refuse_unknown_keys`, :func:`read_seating`, :func:`rule_options`, :func:`named`,
:func:`hand_entry`, and :func:`replay_hands` with a :class:`Replayer` (a game of two:
:class:`TwoPlayers`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Final, Generic, Protocol, TypeVar

from umtali import games as registry
from umtali.kernel.cards import ALL_CARDS, InvalidCardError, card_ascii, parse_card, quoted
from umtali.kernel.deck import InvalidDeckError, check_deck
from umtali.kernel.files import write_atomically
from umtali.kernel.players import MAX_NAME_LENGTH, MatchError
from umtali.kernel.rules import InvalidRulesError

__all__ = [
    "ENVELOPE_KEYS",
    "HAND_KEYS",
    "MAX_CARD_TEXT",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RecordError",
    "Replayer",
    "TwoPlayers",
    "after_colon",
    "check_meta",
    "clip",
    "dumps",
    "hand_entry",
    "load_any_bytes",
    "load_any_file",
    "loads_any",
    "named",
    "preset_rules",
    "read_field",
    "read_meta",
    "read_seating",
    "record_digest",
    "record_of",
    "refuse_unknown_keys",
    "replay_any",
    "replay_hand",
    "replay_hands",
    "rule_options",
    "save_file",
]

RECORD_FORMAT: Final = "umtali-record"
RECORD_VERSION: Final = 1
_MAX_RECORD_BYTES: Final = 16 * 1024 * 1024
"""The most a record file may hold. A whole session's record is a few tens of KiB, so
this refuses only what is no record at all, before it fills the memory."""

_MAX_DEPTH: Final = 20
"""How deeply lists and objects may nest. A record's own fields need four levels (the
record, its hands, a hand, its moves); the rest is room for ``meta``."""

_MAX_META_BYTES: Final = 64 * 1024
"""The most ``meta`` may hold, as compact JSON: an interface's few facts, not a payload."""

_MAX_INT_BITS: Final = 13_000
"""About 3,900 digits: Python refuses to read or write whole numbers much longer (4,300
digits) as text, so a longer one could be neither saved nor loaded."""

_MAX_MOVE_TEXT: Final = 64
"""The longest move text replayed: the longest move (``meld 10♠ 9♠ … A♠``) has 35
characters, and a hand-written one may add commas and spaces."""

_MAX_RULE_NUMBER: Final = 1_000_000
"""A bound far above any rule option's range, so that a rules message never quotes a
number of thousands of digits."""

MAX_CARD_TEXT: Final = 10
"""The longest card name replayed (``'10h'``, ``' K♠ '`` with room for spaces)."""

_MAX_WHERE_CHARS: Final = 80
"""How much of a value's place in the record a message shows (keys are input too)."""

_MAX_REASON_CHARS: Final = 300
"""How much of a message from the engine (cards, notation, rules) a record error keeps."""

_DIGEST_ALGORITHM: Final = "sha256"
_DIGEST_FORM: Final = re.compile(r"sha256:[0-9a-f]{64}")

ENVELOPE_KEYS: Final = frozenset(
    ("format", "version", "game", "rules", "players", "meta", "hands", "digest")
)
"""The keys every record may have; the rest of its head is its game's
(:attr:`~umtali.games.api.GameSpec.record_head`)."""

HAND_KEYS: Final = frozenset(("dealer", "deck", "moves", "scores"))
"""The keys of a hand of a game of two."""


class RecordError(ValueError):
    """A record that cannot be read: malformed, truncated, tampered or illegal; or a
    match that cannot be written as one."""


# -- writing -------------------------------------------------------------------------------


def record_of(match: object) -> dict[str, Any]:
    """The record of ``match`` (of any registered game) as plain JSON data, without a
    digest (:func:`dumps` adds one): the envelope, then what its game writes. A record of
    any game but Umtali names it in ``"game"``."""
    try:
        spec = registry.spec_of(match)
    except LookupError:
        raise RecordError(
            f"a {type(match).__name__} is a match of no registered game: it has no record"
        ) from None
    named_game = {} if spec.name == registry.DEFAULT_GAME else {"game": spec.name}
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        **named_game,
        **spec.body().write(match),
    }


class _Scored(Protocol):
    """A finished hand's outcome, of any game: a score a seat of the hand."""

    @property
    def scores(self) -> Sequence[int]: ...


def hand_entry(
    dealer: int, deck: Sequence[int], moves: list[str], outcome: _Scored | None
) -> dict[str, Any]:
    """A hand of a record: its dealer, its deck, its moves, and its scores once over."""
    entry: dict[str, Any] = {
        "dealer": dealer,
        "deck": [card_ascii(c) for c in deck],
        "moves": moves,
    }
    if outcome is not None:
        entry["scores"] = list(outcome.scores)
    return entry


def record_digest(data: Mapping[str, Any]) -> str:
    """The digest of record data: ``"sha256:"`` and the SHA-256, in hex, of the record's
    canonical JSON without its ``digest`` key (keys sorted, no spaces, UTF-8).

    It is computed over the data, not over the file's bytes, so a file that is only
    re-indented or has its keys reordered keeps its digest. It detects accidental and
    casual edits; it is no signature, since anyone can compute it again.

    >>> data = {"version": 1, "format": "umtali-record", "digest": "sha256:..."}
    >>> canonical = '{"format":"umtali-record","version":1}'
    >>> record_digest(data) == "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()
    True
    """
    canonical = json.dumps(
        {key: value for key, value in data.items() if key != "digest"},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )
    return f"{_DIGEST_ALGORITHM}:{hashlib.sha256(canonical.encode('utf-8')).hexdigest()}"


def dumps(match: object) -> str:
    """The record of ``match`` (of any game) as JSON text, with its digest.

    Raises :class:`RecordError` if the match holds what a record cannot:
    ``meta`` with values JSON has no form for (a set, ``nan``, an object with number
    keys), text that is not Unicode (a lone surrogate), or ``meta`` nested too deeply or
    too large. Whatever this writes, :func:`loads_any` reads back.
    """
    data = record_of(match)
    try:
        _check_values(data)
        check_meta(data["meta"])
    except RecordError as e:
        raise RecordError(f"this match cannot be saved as a record: {e}") from None
    # The digest goes first, on a line of its own: deleting that line leaves valid JSON.
    data = {"digest": record_digest(data), **data}
    return json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def save_file(match: object, path: str | os.PathLike[str]) -> None:
    """Write the record to ``path`` atomically: a crash never leaves half a file.

    See :func:`umtali.kernel.files.write_atomically` for what that means (a symbolic
    link is followed, an existing file keeps its permissions, a new one is its owner's
    only). Raises :class:`RecordError` (from :func:`dumps`, before any file is touched)
    or ``OSError``.
    """
    write_atomically(path, dumps(match))


# -- reading ---------------------------------------------------------------------------------


def load_any_file(path: str | os.PathLike[str], *, game: str | None = None) -> Any:
    """Read and replay the record in ``path``, of any game (only of ``game`` when it is
    given: a record of another is refused by name); every failure is a
    :class:`RecordError`.

    At most 16 MiB are read, whatever the file is: a pipe, ``/dev/stdin`` or
    ``/dev/zero`` are read only that far, since their size is known only at their end.
    The bytes must be UTF-8 (a byte-order mark is allowed and skipped).
    """
    try:
        with open(path, "rb") as f:
            raw = _read_at_most(f, _MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError("no such file") from None
    except IsADirectoryError:
        raise RecordError("it is a directory, not a record file") from None
    except OSError as e:
        raise RecordError(f"it cannot be read ({e.strerror or e})") from None
    except ValueError:  # a path with a NUL character in it
        raise RecordError("that is no file name: it holds a NUL character") from None
    return load_any_bytes(raw, game=game)


def load_any_bytes(raw: bytes, *, game: str | None = None) -> Any:
    """Read and replay a record given as the bytes of its file (an upload, say): at most
    16 MiB, UTF-8 (a byte-order mark is allowed and skipped); every failure is a
    :class:`RecordError`.

    >>> load_any_bytes(b"\\xff{}")
    Traceback (most recent call last):
    ...
    umtali.kernel.record.RecordError: it is not UTF-8 text (byte 0 is not), so not a game record
    """
    if len(raw) > _MAX_RECORD_BYTES:
        raise RecordError(
            "it holds more than 16 MiB, too much for a game record (a whole session's"
            " record takes a few tens of KiB)"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(
            f"it is not UTF-8 text (byte {e.start:,} is not), so not a game record"
        ) from None
    return loads_any(text, game=game)


def _read_at_most(f: IO[bytes], limit: int) -> bytes:
    """Up to ``limit`` bytes of ``f``: a pipe may hand them over a little at a time."""
    parts = []
    total = 0
    while total < limit:
        chunk = f.read(min(1 << 20, limit - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    return b"".join(parts)


def loads_any(text: str, *, game: str | None = None) -> Any:
    """Read and replay a record of any game (only of ``game`` when given) from JSON text.

    Text cut short is told apart from text that is no JSON, with the byte (of its UTF-8
    encoding) where it stops:

    >>> loads_any('{"format": "umtali-record", "players": ["Ann", "Bö')
    Traceback (most recent call last):
    ...
    umtali.kernel.record.RecordError: the record is cut short (byte 51): its text stops before the record is complete
    """
    if not text.strip():
        raise RecordError("the record is empty")
    try:
        data = json.loads(text, object_pairs_hook=_object_without_repeats)
    except RecordError:
        raise
    except json.JSONDecodeError as e:
        # A record is one object: text that opens one and runs out before it closes (the
        # reader wants more at its very end, or a string is still open there) was cut
        # short, as by a full disk or a copy stopped half-way.
        content = text.rstrip()
        if content.lstrip().startswith("{") and (
            e.pos >= len(content) or e.msg.startswith("Unterminated string")
        ):
            # Counted in bytes: the size a file shows, whatever the cards' suits take.
            end = len(content.encode("utf-8", "surrogatepass"))
            raise RecordError(
                f"the record is cut short (byte {end}): its text stops before the record"
                " is complete"
            ) from None
        raise RecordError(
            f"the record is not valid JSON: {e.msg.rstrip()}, at line {e.lineno}, column {e.colno}"
        ) from None
    except RecursionError:
        raise RecordError(
            "the record is not a game record: its JSON is nested too deeply"
        ) from None
    except ValueError:  # Python refuses numbers of thousands of digits
        raise RecordError("the record is not a game record: it holds a number too long") from None
    return replay_any(data, game=game)


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused if a key repeats: JSON readers differ on which one wins,
    so a record with two ``moves`` could replay one way here and another elsewhere."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise RecordError(
                    f"the record gives the key {quoted(key)} twice in one object;"
                    " each key may appear once"
                )
            seen.add(key)
    return data


def read_field(data: dict[str, Any], key: str, kind: type, where: str = "the record") -> Any:
    """``data[key]``, refused unless it is there and of ``kind`` (a whole number is not
    ``true``)."""
    if key not in data:
        raise RecordError(f"{where} has no {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: {key!r} must be {_kind_name(kind)}, not {quoted(value)}")
    return value


def _unknown(noun: str, keys: list[str]) -> str:
    """ "unknown key" or "unknown keys", as many as there are."""
    return f"unknown {noun}{'' if len(keys) == 1 else 's'}"


def _first_few(keys: list[str]) -> str:
    """Up to three keys, quoted short, and how many more: a message stays short however
    many unknown keys a hostile record brings."""
    shown = ", ".join(quoted(key) for key in keys[:3])
    return shown + (f" and {len(keys) - 3:,} more" if len(keys) > 3 else "")


def refuse_unknown_keys(data: dict[str, Any], known: frozenset[str], where: str) -> None:
    """A key this version does not write is a sign of tampering or of a newer format."""
    unknown = sorted(map(str, set(data) - known))
    if unknown:
        raise RecordError(
            f"{where} has {_unknown('key', unknown)} {_first_few(unknown)};"
            f" version {RECORD_VERSION} records have {', '.join(sorted(known))}"
        )


def _kind_name(kind: type) -> str:
    return {int: "a whole number", str: "text", list: "a list", dict: "an object"}.get(
        kind, kind.__name__
    )


def replay_any(data: object, *, game: str | None = None) -> Any:
    """Replay record data (as :func:`record_of` gives, or JSON reads) of any game (only of
    ``game`` when given), checking its envelope and its digest if it has one; its game's
    body (:class:`~umtali.games.api.RecordBody`) replays the rest."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an Umtali record: 'format' must be {RECORD_FORMAT!r}")
    version = read_field(data, "version", int)
    if version != RECORD_VERSION:
        raise RecordError(
            f"record version {quoted(version)} is not supported; this program reads version"
            f" {RECORD_VERSION}"
        )
    _check_values(data)
    _check_digest(data)
    name = data.get("game", registry.DEFAULT_GAME)
    try:
        spec = registry.get(name)
    except LookupError:
        raise RecordError(
            f"'game' must be one of {', '.join(registry.names())} (or left out, for"
            f" {registry.get(registry.DEFAULT_GAME).title}), not {quoted(name)}"
        ) from None
    if game is not None and name != game:
        raise RecordError(f"it is a record of {spec.title}, not of {registry.get(game).title}")
    refuse_unknown_keys(data, ENVELOPE_KEYS | spec.record_head, "the record")
    return spec.body().read(data)


_M = TypeVar("_M")


def named(make: Callable[[], _M]) -> _M:
    """The match ``make`` builds, its players' names refused as the record's fault."""
    try:
        return make()
    except MatchError as e:
        raise RecordError(f"'players': {clip(str(e))}") from None


def read_seating(data: dict[str, Any], seats: int = 2) -> tuple[list[Any], int, dict[str, Any]]:
    """The players, the first dealer and ``meta``, as games of ``seats`` keep them."""
    players = read_field(data, "players", list)
    first_dealer = read_field(data, "first_dealer", int)
    if not 0 <= first_dealer < seats:
        choices = " or ".join((", ".join(map(str, range(seats - 1))), str(seats - 1)))
        raise RecordError(f"'first_dealer' must be {choices}, not {quoted(first_dealer)}")
    return players, first_dealer, read_meta(data)


def read_meta(data: dict[str, Any]) -> dict[str, Any]:
    """``meta``: an object of facts an interface keeps, within bounds."""
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError(f"'meta' must be an object with text keys, not {quoted(meta)}")
    check_meta(meta)
    return meta


def rule_options(rules: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The rules object, refused here if it holds what no rule option is (an unknown
    key of the ``known``, a long text, a list), so the rules' own messages never quote
    much input."""
    unknown = sorted(set(rules) - known)
    if unknown:
        raise RecordError(
            f"rules: {_unknown('rule option', unknown)} {_first_few(unknown)};"
            f" known: {', '.join(sorted(known))}"
        )
    for key, value in rules.items():
        if key in ("preset", "name"):
            if not isinstance(value, str) or len(value) > MAX_NAME_LENGTH:
                raise RecordError(
                    f"rules: the rules {key} must be a name of at most {MAX_NAME_LENGTH}"
                    f" characters, not {quoted(value)}"
                )
        elif not (
            isinstance(value, bool)
            or (isinstance(value, int) and abs(value) <= _MAX_RULE_NUMBER)
            or (isinstance(value, str) and len(value) <= MAX_NAME_LENGTH)
        ):
            raise RecordError(
                f"rules: {key!r} must be true or false, a whole number or one of its named"
                f" choices, not {quoted(value)}"
            )
    return rules


def preset_rules(options: Mapping[str, Any], presets: Mapping[str, Any], default: str) -> Any:
    """A game's rules from a record's ``options`` (checked by :func:`rule_options`):
    ``preset`` (``default`` where it is missing) names one of ``presets``, and the other
    keys override it. :class:`RecordError` for an unknown preset or an option its rules
    refuse.

    >>> import dataclasses
    >>> @dataclasses.dataclass(frozen=True)
    ... class Rules:
    ...     name: str = "plain"
    ...     target: int = 100
    >>> preset_rules({"preset": "plain", "target": 50}, {"plain": Rules()}, "plain")
    Rules(name='plain', target=50)
    >>> preset_rules({"preset": "fancy"}, {"plain": Rules()}, "plain")
    Traceback (most recent call last):
    ...
    umtali.kernel.record.RecordError: rules: no variant 'fancy'; the variants are plain
    """
    options = dict(options)
    preset = options.pop("preset", default)
    if not isinstance(preset, str) or preset not in presets:
        raise RecordError(
            f"rules: no variant {quoted(preset)}; the variants are {', '.join(presets)}"
        )
    try:
        return dataclasses.replace(presets[preset], **options)
    except (InvalidRulesError, TypeError) as e:
        raise RecordError(f"rules: {clip(str(e))}") from None


# -- replaying hands ---------------------------------------------------------------------------


class Replayer(Protocol):
    """What replaying a hand needs of a game, the rest being the same for every game: the
    match's ``kind``, the keys its hands have, the cards its deck holds, and how it
    seats, deals, plays and scores the hand under way."""

    @property
    def kind(self) -> str: ...
    @property
    def hand_keys(self) -> frozenset[str]: ...
    @property
    def deck_cards(self) -> int:
        """The cards a deck holds, as a mask (all 52: ``ALL_CARDS``)."""

    def ready(self) -> None:
        """Make ready for the next hand (a party game counts the deal just played)."""

    def check_seats(self, entry: dict[str, Any], where: str) -> None:
        """Refuse a hand recorded at seats other than the game gives it."""

    def is_over(self) -> bool: ...
    def next_dealer(self) -> int: ...
    def dealer_rule(self, expected: int) -> str: ...
    def deal(self, deck: tuple[int, ...]) -> None: ...
    def hand_is_over(self) -> bool: ...
    def push_text(self, text: str) -> None:
        """Play a move; a refused one raises ``ValueError`` (the reason)."""

    def scores(self) -> Sequence[int] | None: ...


class _PlayedHand(Protocol):
    def is_over(self) -> bool: ...


_HandT = TypeVar("_HandT", bound=_PlayedHand)
_H_co = TypeVar("_H_co", covariant=True)


class _HandByHand(Protocol[_H_co]):
    """A match of a game for two, as its replay deals it."""

    def is_over(self) -> bool: ...
    def next_dealer(self) -> int: ...
    def new_hand(self, deck: Sequence[int]) -> _H_co: ...


class TwoPlayers(Generic[_HandT]):
    """The :class:`Replayer` of a game for two, as far as such games are alike: the same
    two players play every hand, dealt by the match, one after the other. A game adds
    its ``kind``, ``dealer_rule``, ``push_text`` and ``scores``."""

    hand_keys: frozenset[str] = HAND_KEYS
    deck_cards: int = ALL_CARDS

    def __init__(self, match: _HandByHand[_HandT]) -> None:
        self.match = match
        self.hand: _HandT | None = None

    def ready(self) -> None:
        pass

    def check_seats(self, entry: dict[str, Any], where: str) -> None:
        pass

    def is_over(self) -> bool:
        return self.match.is_over()

    def next_dealer(self) -> int:
        return self.match.next_dealer()

    def deal(self, deck: tuple[int, ...]) -> None:
        self.hand = self.match.new_hand(deck)

    def played(self) -> _HandT:
        """The hand dealt last."""
        assert self.hand is not None
        return self.hand

    def hand_is_over(self) -> bool:
        return self.played().is_over()


def replay_hands(game: Replayer, hands: list[Any]) -> None:
    """Replay the ``hands`` of a game, one after the other (the last may be unfinished)."""
    for number, entry in enumerate(hands, start=1):
        replay_hand(game, number, entry, last=number == len(hands))


def replay_hand(game: Replayer, number: int, entry: object, last: bool) -> None:
    where = f"hand {number}"
    if not isinstance(entry, dict):
        raise RecordError(f"{where} must be an object, not {quoted(entry)}")
    game.ready()
    if game.is_over():
        raise RecordError(f"{where} is recorded after the {game.kind} was over")
    game.check_seats(entry, where)
    dealer = read_field(entry, "dealer", int, where)
    expected = game.next_dealer()
    if dealer != expected:
        raise RecordError(
            f"{where}: the record says player {quoted(dealer)} deals, but"
            f" {game.dealer_rule(expected)}"
        )
    refuse_unknown_keys(entry, game.hand_keys, where)
    names = read_field(entry, "deck", list, where)
    size = game.deck_cards.bit_count()
    if len(names) != size:
        raise RecordError(f"{where}: deck: a deck has {size} cards, this one {len(names):,}")
    for i, name in enumerate(names):
        if not isinstance(name, str) or len(name) > MAX_CARD_TEXT:
            raise RecordError(
                f"{where}: deck position {i} holds {quoted(name)}, not a card like 'Ks'"
            )
    try:
        deck = check_deck([parse_card(t) for t in names], game.deck_cards)
    except (InvalidCardError, InvalidDeckError) as e:
        raise RecordError(f"{where}: deck: {clip(str(e))}") from None
    game.deal(deck)
    moves = read_field(entry, "moves", list, where)
    for i, text in enumerate(moves, start=1):
        if not isinstance(text, str):
            raise RecordError(f"{where}, move {i}: {quoted(text)} is not a move in notation")
        if game.hand_is_over():
            raise RecordError(f"{where}, move {i} {quoted(text)}: the hand was already over")
        if len(text) > _MAX_MOVE_TEXT:
            raise RecordError(
                f"{where}, move {i} {quoted(text)}: a move in notation has at most"
                f" {_MAX_MOVE_TEXT} characters"
            )
        try:
            game.push_text(text)
        except ValueError as e:
            raise RecordError(f"{where}, move {i} {quoted(text)}: {clip(str(e))}") from None
    outcome = game.scores()
    if "scores" in entry:
        scores = entry["scores"]
        if not (
            isinstance(scores, list)
            and len(scores) <= 4
            and all(type(x) is int for x in scores)  # not a bool, not 31.0
        ):
            raise RecordError(
                f"{where}: 'scores' must be whole numbers, one for each seat at the hand,"
                f" not {quoted(scores)}"
            )
        if outcome is None:
            raise RecordError(f"{where}: the record gives scores but the moves do not end the hand")
        if scores != list(outcome):
            raise RecordError(
                f"{where}: the record says {quoted(scores)} but the moves score {list(outcome)!r}"
            )
    elif outcome is not None:
        raise RecordError(f"{where}: the hand is over but the record gives no scores")
    if outcome is None and not last:
        raise RecordError(f"{where} is unfinished, but another hand follows it")


# -- values any record may hold ------------------------------------------------------------

_Path = tuple[str | int, ...]


def _check_values(data: dict[str, Any]) -> None:
    """Refuse what no record may hold, wherever it is: text that is not Unicode, numbers
    JSON cannot write, values that are not JSON, nesting deeper than ``_MAX_DEPTH``.

    This walks the data with a list, not by recursion, so no depth of nesting can
    exhaust Python's stack.
    """
    stack: list[tuple[Any, _Path]] = [(data, ())]
    while stack:
        container, path = stack.pop()
        if len(path) >= _MAX_DEPTH:
            raise RecordError(
                f"the record is not a game record: its JSON is nested too deeply (more than"
                f" {_MAX_DEPTH} levels, at {_where(path)})"
            )
        items: Any
        if isinstance(container, dict):
            for key in container:
                if not isinstance(key, str):
                    raise RecordError(
                        f"{_where(path)} has the key {quoted(key)}; the keys of an object are text"
                    )
                _check_text(key, path, "a key")
            items = container.items()
        else:
            items = enumerate(container)
        for key, value in items:
            if isinstance(value, str):
                _check_text(value, (*path, key))
            elif isinstance(value, dict | list | tuple):
                stack.append((value, (*path, key)))
            elif isinstance(value, bool) or value is None:
                pass
            elif isinstance(value, int):
                if value.bit_length() > _MAX_INT_BITS:
                    raise RecordError(
                        f"{_where((*path, key))} holds a number of thousands of digits;"
                        " a record's numbers have at most 3,900"
                    )
            elif isinstance(value, float):
                if not math.isfinite(value):
                    raise RecordError(
                        f"{_where((*path, key))} holds {value!r}, which JSON cannot"
                        " write (a number like 1e400 reads as inf); give a finite number"
                    )
            else:
                raise RecordError(
                    f"{_where((*path, key))} holds a {type(value).__name__}, which JSON"
                    " cannot write; give text, a number, true/false, null, a list or an"
                    " object"
                )


def _check_text(text: str, path: _Path, what: str = "text") -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise RecordError(
            f"{_where(path)} holds {what} with U+{ord(text[e.start]):04X}, half of a"
            " surrogate pair, which is no character; a record holds Unicode text only"
        ) from None


def check_meta(meta: dict[str, Any]) -> None:
    """``meta`` is free-form, within bounds: at most ``_MAX_META_BYTES`` of JSON."""
    size = len(
        json.dumps(meta, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    )
    if size > _MAX_META_BYTES:
        raise RecordError(
            f"'meta' takes {size:,} bytes of JSON; it may take at most {_MAX_META_BYTES:,}"
        )


def _check_digest(data: dict[str, Any]) -> None:
    """Refuse a record whose digest does not match it; a record without one passes."""
    if "digest" not in data:
        return
    given = data["digest"]
    if not isinstance(given, str) or not _DIGEST_FORM.fullmatch(given):
        raise RecordError(f"'digest' must be 'sha256:' and 64 hex digits, not {quoted(given)}")
    if given != record_digest(data):
        raise RecordError(
            "the record was changed after it was saved: its digest does not match; use the"
            " file as it was saved, or delete its 'digest' line to read it as a"
            " hand-written record"
        )


# -- input in messages ---------------------------------------------------------------------


def clip(message: str) -> str:
    """A message from the engine, cut if long: it may quote input of its own."""
    if len(message) <= _MAX_REASON_CHARS:
        return message
    return message[:_MAX_REASON_CHARS] + "…"


def _known_keys() -> frozenset[str]:
    """The head keys a record of some registered game may have."""
    return ENVELOPE_KEYS.union(*(spec.record_head for spec in registry.games()))


def _where(path: _Path) -> str:
    """Where a value sits in the record, counting from 0 as JSON tools do:
    ``meta['seed']``, ``hands[0]['moves'][3]``."""
    if not path:
        return "the record"
    first, rest = path[0], path[1:]
    if not (isinstance(first, str) and first in _known_keys()):
        first, rest = "", path
    text = str(first) + "".join(f"[{quoted(key)}]" for key in rest)
    return text if len(text) <= _MAX_WHERE_CHARS else text[:_MAX_WHERE_CHARS] + "…"


def after_colon(message: str) -> str:
    # "'play 8♦ off J♦' is not allowed now: reason" → "reason"; keep other messages whole.
    _head, sep, tail = message.partition(" is not allowed now: ")
    return tail if sep else message
