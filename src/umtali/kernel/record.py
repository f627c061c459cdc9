"""Game records: versioned JSON that writes, reads and replays a match exactly.

A record holds the rules, the players, the first dealer, and for each hand its dealer,
its deck order and its moves in notation (with the scores once the hand is over).
Reading replays every move through the engine, so a record that loads is a record of a
legal game; anything wrong raises one :class:`RecordError` naming the hand, the move and
the rule, and nothing is returned half-built.

>>> from umtali.games.umtali.lessons import LESSONS
>>> game = Match(kind="game", first_dealer=1)
>>> for lesson in LESSONS:
...     _ = lesson.replay(game.new_hand(lesson.deck()))
>>> again = loads(dumps(game))
>>> again.game_totals(0), [h.outcome().scores for h in again.hands][:2]
((159, 110), [(31, 28), (40, 22)])

A record written by :func:`dumps` carries a digest of its contents, so a saved record
that was edited afterwards is refused as such:

>>> edited = dumps(game).replace("play 10♦ off J♦", "play 8♦ off J♦", 1)
>>> loads(edited)
Traceback (most recent call last):
...
umtali.kernel.record.RecordError: the record was changed after it was saved: its digest does not match; use the file as it was saved, or delete its 'digest' line to read it as a hand-written record

A record without a digest (written by hand, or by an older version) is replayed, and
the replay finds what is wrong with it:

>>> import json
>>> data = json.loads(edited)
>>> del data["digest"]
>>> loads(json.dumps(data))
Traceback (most recent call last):
...
umtali.kernel.record.RecordError: hand 1, move 13 'play 8♦ off J♦': 8♦ is not in Player 2's hand
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Final, Generic, Literal, Protocol, TypeVar, overload

from umtali.games.gin.match import GinMatch, GinPartyMatch, SeatedHand
from umtali.games.gin.party import FourHandGame, GinPartyError, Table, ThreeHandGame, ThreeHandSeats
from umtali.games.gin.rules import GIN_PRESETS, GinRules
from umtali.games.gin.state import GinHand, GinMove, GinMoveError
from umtali.games.umtali.match import MATCH_KINDS, Match
from umtali.games.umtali.moves import IllegalMoveError, InvalidMoveError
from umtali.games.umtali.rules import InvalidRulesError, RuleSet
from umtali.games.umtali.state import HandState
from umtali.kernel.cards import InvalidCardError, card_ascii, parse_card, quoted
from umtali.kernel.deck import InvalidDeckError, check_deck
from umtali.kernel.files import write_atomically
from umtali.kernel.players import MAX_NAME_LENGTH, MatchError

__all__ = [
    "GAMES",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "AnyMatch",
    "AnyRecord",
    "RecordError",
    "dumps",
    "load_any_bytes",
    "load_any_file",
    "load_bytes",
    "load_file",
    "loads",
    "loads_any",
    "record_digest",
    "record_of",
    "replay",
    "replay_any",
    "save_file",
]

AnyMatch = Match | GinMatch
"""A match of either game a record holds: Umtali's :class:`~umtali.games.umtali.match.Match` or a
game of Gin Rummy (:class:`~umtali.games.gin.match.GinMatch`)."""

AnyRecord = AnyMatch | GinPartyMatch
"""Whatever a record may hold: a match of either game, or a game of three- or
four-hand Gin Rummy (:class:`~umtali.games.gin.match.GinPartyMatch`)."""

GAMES: Final = ("umtali", "gin")
"""The games a record may hold, as its ``"game"`` names them (absent: Umtali)."""

_PARTY: Final = "gin party"
"""What a reader is told to take, besides :data:`GAMES`, to read a record of three- or
four-hand Gin Rummy (``"game": "gin"`` with a ``"party"``)."""

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

_MAX_CARD_TEXT: Final = 10
"""The longest card name replayed (``'10h'``, ``' K♠ '`` with room for spaces)."""

_MAX_WHERE_CHARS: Final = 80
"""How much of a value's place in the record a message shows (keys are input too)."""

_MAX_REASON_CHARS: Final = 300
"""How much of a message from the engine (cards, notation, rules) a record error keeps."""

_DIGEST_ALGORITHM: Final = "sha256"
_DIGEST_FORM: Final = re.compile(r"sha256:[0-9a-f]{64}")


class RecordError(ValueError):
    """A record that cannot be read: malformed, truncated, tampered or illegal; or a
    match that cannot be written as one."""


def record_of(match: AnyRecord) -> dict[str, Any]:
    """The record of ``match`` (either game) as plain JSON data, without a digest
    (:func:`dumps` adds one). A Gin Rummy record says ``"game": "gin"`` and has no
    ``"match"``: a game of Gin Rummy is played to its rules' target. A record of three-
    or four-hand Gin Rummy has a ``"party"`` instead of a first dealer, and each hand
    its ``"seats"``."""
    if isinstance(match, GinMatch):
        return _gin_record_of(match)
    if isinstance(match, GinPartyMatch):
        return _party_record_of(match)
    hands = [
        _hand_entry(hand.dealer, hand.deck, [m.text() for m in hand.moves_played()], hand.outcome())
        for hand in match.hands
    ]
    rules = {"preset": match.rules.name, **match.rules.to_dict()}
    return _record({"match": match.kind}, rules, match, {"first_dealer": match.first_dealer}, hands)


class _Scored(Protocol):
    """A finished hand's outcome, of either game: its two scores."""

    @property
    def scores(self) -> tuple[int, int]: ...


class _Kept(Protocol):
    """A match of any game, as far as its record's head reads it."""

    @property
    def players(self) -> Sequence[str]: ...
    @property
    def meta(self) -> dict[str, Any]: ...


def _hand_entry(
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


def _record(
    game: dict[str, Any],
    rules: dict[str, Any],
    match: _Kept,
    seating: dict[str, Any],
    hands: list[dict[str, Any]],
) -> dict[str, Any]:
    """A whole record, its keys in the order every game writes them: what is played
    (``game``), the ``rules``, the players, how they are seated (``seating``: the first
    dealer, or a party game's draw), ``meta`` and the ``hands``."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        **game,
        "rules": rules,
        "players": list(match.players),
        **seating,
        "meta": match.meta,
        "hands": hands,
    }


def _gin_hand_record(hand: GinHand) -> dict[str, Any]:
    moves = [GinMove.of_action(action).text() for _, action in hand.history]
    return _hand_entry(hand.dealer, hand.deck, moves, hand.outcome)


def _gin_rules_record(rules: GinRules) -> dict[str, Any]:
    return {"preset": rules.name, **dataclasses.asdict(rules)}


def _gin_record_of(match: GinMatch) -> dict[str, Any]:
    hands = [_gin_hand_record(hand) for hand in match.hands]
    seating = {"first_dealer": match.first_dealer}
    return _record({"game": "gin"}, _gin_rules_record(match.rules), match, seating, hands)


def _party_record_of(match: GinPartyMatch) -> dict[str, Any]:
    game = match.game
    party: dict[str, Any] = {"size": match.size}
    if isinstance(game, ThreeHandGame):
        party["drawn"] = [card_ascii(card) for card in game.drawn]
    else:
        party["first_dealing_team"] = game.first_dealers
    hands = []
    for seated in match.hands:
        # The dealer is the party's player who dealt, as the seats are.
        entry = {"seats": list(seated.table.players), **_gin_hand_record(seated.hand)}
        entry["dealer"] = seated.table.dealer
        hands.append(entry)
    rules = _gin_rules_record(match.rules)
    return _record({"game": "gin"}, rules, match, {"party": party}, hands)


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


def dumps(match: AnyRecord) -> str:
    """The record of ``match`` (either game) as JSON text, with its digest.

    Raises :class:`RecordError` if the match holds what a record cannot:
    ``meta`` with values JSON has no form for (a set, ``nan``, an object with number
    keys), text that is not Unicode (a lone surrogate), or ``meta`` nested too deeply or
    too large. Whatever this writes, :func:`loads` reads back.
    """
    data = record_of(match)
    try:
        _check_values(data)
        _check_meta(data["meta"])
    except RecordError as e:
        raise RecordError(f"this match cannot be saved as a record: {e}") from None
    # The digest goes first, on a line of its own: deleting that line leaves valid JSON.
    data = {"digest": record_digest(data), **data}
    return json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def save_file(match: AnyRecord, path: str | os.PathLike[str]) -> None:
    """Write the record to ``path`` atomically: a crash never leaves half a file.

    See :func:`umtali.kernel.files.write_atomically` for what that means (a symbolic link is
    followed, an existing file keeps its permissions, a new one is its owner's only).
    Raises :class:`RecordError` (from :func:`dumps`, before any file is touched) or
    ``OSError``.
    """
    write_atomically(path, dumps(match))


def load_file(path: str | os.PathLike[str]) -> Match:
    """Read and replay the Umtali record in ``path``; every failure is a
    :class:`RecordError` (a record of Gin Rummy too: :func:`load_any_file` reads both).
    """
    return _only_umtali(_load_file(path, ("umtali",)))


@overload
def load_any_file(path: str | os.PathLike[str], *, parties: Literal[False] = False) -> AnyMatch: ...
@overload
def load_any_file(path: str | os.PathLike[str], *, parties: Literal[True]) -> AnyRecord: ...
def load_any_file(path: str | os.PathLike[str], *, parties: bool = False) -> AnyRecord:
    """Read and replay the record in ``path``, of either game; every failure is a
    :class:`RecordError`. A record of three- or four-hand Gin Rummy is read only with
    ``parties`` (a :class:`~umtali.games.gin.match.GinPartyMatch`), and refused without it.

    At most 16 MiB are read, whatever the file is: a pipe, ``/dev/stdin`` or
    ``/dev/zero`` are read only that far, since their size is known only at their end.
    The bytes must be UTF-8 (a byte-order mark is allowed and skipped).
    """
    return _load_file(path, _readable(parties))


def _readable(parties: bool) -> tuple[str, ...]:
    """What a reader of both games takes: :data:`GAMES`, and party games if asked."""
    return (*GAMES, _PARTY) if parties else GAMES


def _load_file(path: str | os.PathLike[str], games: tuple[str, ...]) -> AnyRecord:
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
    return _load_bytes(raw, games)


def load_bytes(raw: bytes) -> Match:
    """Read and replay an Umtali record given as the bytes of its file (an upload, say):
    at most 16 MiB, UTF-8 (a byte-order mark is allowed and skipped); every failure is a
    :class:`RecordError` (a record of Gin Rummy too: :func:`load_any_bytes` reads both).

    >>> load_bytes(b"\\xff{}")
    Traceback (most recent call last):
    ...
    umtali.kernel.record.RecordError: it is not UTF-8 text (byte 0 is not), so not a game record
    """
    return _only_umtali(_load_bytes(raw, ("umtali",)))


@overload
def load_any_bytes(raw: bytes, *, parties: Literal[False] = False) -> AnyMatch: ...
@overload
def load_any_bytes(raw: bytes, *, parties: Literal[True]) -> AnyRecord: ...
def load_any_bytes(raw: bytes, *, parties: bool = False) -> AnyRecord:
    """:func:`load_bytes` for a record of either game (and, with ``parties``, of three-
    or four-hand Gin Rummy)."""
    return _load_bytes(raw, _readable(parties))


def _load_bytes(raw: bytes, games: tuple[str, ...]) -> AnyRecord:
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
    return _loads(text, games)


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


def loads(text: str) -> Match:
    """Read and replay an Umtali record from JSON text (a record of Gin Rummy is refused:
    :func:`loads_any` reads both).

    Text cut short is told apart from text that is no JSON, with the byte (of its UTF-8
    encoding) where it stops:

    >>> loads('{"format": "umtali-record", "players": ["Ann", "Bö')
    Traceback (most recent call last):
    ...
    umtali.kernel.record.RecordError: the record is cut short (byte 51): its text stops before the record is complete
    """
    return _only_umtali(_loads(text, ("umtali",)))


@overload
def loads_any(text: str, *, parties: Literal[False] = False) -> AnyMatch: ...
@overload
def loads_any(text: str, *, parties: Literal[True]) -> AnyRecord: ...
def loads_any(text: str, *, parties: bool = False) -> AnyRecord:
    """Read and replay a record of either game from JSON text (and, with ``parties``, of
    three- or four-hand Gin Rummy).

    >>> from umtali.kernel.deck import seeded_deck
    >>> game = GinMatch(players=("Ann", "Bob"))
    >>> hand = game.new_hand(seeded_deck(7))
    >>> for move in ("pass", "take", "discard 9c"):
    ...     hand.push_text(move)
    >>> again = loads_any(dumps(game))
    >>> type(again).__name__, again.hands[0].history == hand.history
    ('GinMatch', True)
    """
    return _loads(text, _readable(parties))


def _loads(text: str, games: tuple[str, ...]) -> AnyRecord:
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
    return _replay(data, games)


def _only_umtali(match: AnyRecord) -> Match:
    # The reading refused any other game before replaying it.
    assert isinstance(match, Match)
    return match


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


def _field(data: dict[str, Any], key: str, kind: type, where: str = "the record") -> Any:
    if key not in data:
        raise RecordError(f"{where} has no {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: {key!r} must be {_kind_name(kind)}, not {quoted(value)}")
    return value


_RECORD_KEYS: Final = frozenset(
    (
        "format",
        "version",
        "game",
        "match",
        "rules",
        "players",
        "first_dealer",
        "meta",
        "hands",
        "digest",
    )
)


def _unknown(noun: str, keys: list[str]) -> str:
    """ "unknown key" or "unknown keys", as many as there are."""
    return f"unknown {noun}{'' if len(keys) == 1 else 's'}"


def _first_few(keys: list[str]) -> str:
    """Up to three keys, quoted short, and how many more: a message stays short however
    many unknown keys a hostile record brings."""
    shown = ", ".join(quoted(key) for key in keys[:3])
    return shown + (f" and {len(keys) - 3:,} more" if len(keys) > 3 else "")


def _refuse_unknown_keys(data: dict[str, Any], known: frozenset[str], where: str) -> None:
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


def replay(data: object) -> Match:
    """Replay Umtali record data (as :func:`record_of` gives, or JSON reads) into a
    :class:`Match`, checking its digest if it has one; a record of Gin Rummy is refused
    (:func:`replay_any` replays both)."""
    return _only_umtali(_replay(data, ("umtali",)))


@overload
def replay_any(data: object, *, parties: Literal[False] = False) -> AnyMatch: ...
@overload
def replay_any(data: object, *, parties: Literal[True]) -> AnyRecord: ...
def replay_any(data: object, *, parties: bool = False) -> AnyRecord:
    """Replay record data of either game: a :class:`Match`, or a :class:`GinMatch` for a
    record that says ``"game": "gin"``; with ``parties``, a :class:`GinPartyMatch` for
    one of three- or four-hand Gin Rummy."""
    return _replay(data, _readable(parties))


_GAME_NAMES: Final = {
    "umtali": "Umtali",
    "gin": "Gin Rummy",
    _PARTY: "three- or four-hand Gin Rummy",
}


def _replay(data: object, games: tuple[str, ...]) -> AnyRecord:
    """The envelope every record shares (its format, version, values and digest), then
    the game it names."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an Umtali record: 'format' must be {RECORD_FORMAT!r}")
    version = _field(data, "version", int)
    if version != RECORD_VERSION:
        raise RecordError(
            f"record version {quoted(version)} is not supported; this program reads version"
            f" {RECORD_VERSION}"
        )
    _check_values(data)
    _check_digest(data)
    game = data.get("game", "umtali")
    if game not in GAMES:
        raise RecordError(
            f"'game' must be one of {', '.join(GAMES)} (or left out, for Umtali), not"
            f" {quoted(game)}"
        )
    if game == "gin" and "party" in data:
        game = _PARTY
    if game not in games:
        wanted = " or ".join(_GAME_NAMES[g] for g in games)
        if game == _PARTY:
            raise RecordError(
                f"it is a record of {_GAME_NAMES[game]}; only a game of two ({wanted}) is read here"
            )
        raise RecordError(f"it is a record of {_GAME_NAMES[game]}, not of {wanted}")
    if game == _PARTY:
        return _replay_party(data)
    if game == "gin":
        return _replay_gin(data)
    _refuse_unknown_keys(data, _RECORD_KEYS, "the record")
    kind = _field(data, "match", str)
    if kind not in MATCH_KINDS:
        raise RecordError(f"'match' must be one of {', '.join(MATCH_KINDS)}, not {quoted(kind)}")
    try:
        rules = RuleSet.from_dict(_rule_options(_field(data, "rules", dict), _RULE_KEYS))
    except InvalidRulesError as e:
        raise RecordError(f"rules: {_clip(str(e))}") from None
    players, first_dealer, meta = _table(data)
    match = _named(
        lambda: Match(rules, kind=kind, first_dealer=first_dealer, players=players, meta=meta)
    )
    _replay_hands(_UmtaliHands(match), _field(data, "hands", list))
    return match


_M = TypeVar("_M")


def _named(make: Callable[[], _M]) -> _M:
    """The match ``make`` builds, its players' names refused as the record's fault."""
    try:
        return make()
    except MatchError as e:
        raise RecordError(f"'players': {_clip(str(e))}") from None


def _replay_hands(game: _Replayer, hands: list[Any]) -> None:
    """Replay the ``hands`` of a game for two, one after the other (the last may be
    unfinished)."""
    for number, entry in enumerate(hands, start=1):
        _replay_hand(game, number, entry, last=number == len(hands))


def _table(data: dict[str, Any]) -> tuple[list[Any], int, dict[str, Any]]:
    """The players, the first dealer and ``meta``, as both games keep them."""
    players = _field(data, "players", list)
    first_dealer = _field(data, "first_dealer", int)
    if first_dealer not in (0, 1):
        raise RecordError(f"'first_dealer' must be 0 or 1, not {quoted(first_dealer)}")
    return players, first_dealer, _meta(data)


def _meta(data: dict[str, Any]) -> dict[str, Any]:
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError(f"'meta' must be an object with text keys, not {quoted(meta)}")
    _check_meta(meta)
    return meta


_GIN_RECORD_KEYS: Final = _RECORD_KEYS - {"match"}
_GIN_RULE_KEYS: Final = frozenset(f.name for f in dataclasses.fields(GinRules)) | {"preset"}


def _replay_gin(data: dict[str, Any]) -> GinMatch:
    _refuse_unknown_keys(data, _GIN_RECORD_KEYS, "the record")
    rules = _gin_rules(_rule_options(_field(data, "rules", dict), _GIN_RULE_KEYS))
    players, first_dealer, meta = _table(data)
    match = _named(lambda: GinMatch(rules, first_dealer=first_dealer, players=players, meta=meta))
    _replay_hands(_GinHands(match), _field(data, "hands", list))
    return match


_PARTY_RECORD_KEYS: Final = (_GIN_RECORD_KEYS - {"first_dealer"}) | {"party"}
_PARTY_HAND_KEYS: Final = frozenset(("seats", "dealer", "deck", "moves", "scores"))


def _replay_party(data: dict[str, Any]) -> GinPartyMatch:
    """A record of three- or four-hand Gin Rummy, replayed through :mod:`umtali.games.gin.party`:
    every hand must sit at the seats the game gives it, dealt by the player it names."""
    _refuse_unknown_keys(data, _PARTY_RECORD_KEYS, "the record")
    rules = _gin_rules(_rule_options(_field(data, "rules", dict), _GIN_RULE_KEYS))
    players = _field(data, "players", list)
    game = _party_game(_field(data, "party", dict), rules, len(players))
    meta = _meta(data)
    match = _named(lambda: GinPartyMatch(game, players=players, meta=meta))
    hands = _field(data, "hands", list)
    per_deal = 2 if isinstance(game, FourHandGame) else 1
    if len(hands) % per_deal:
        raise RecordError(
            f"the record ends after hand {len(hands)}, the first of deal"
            f" {len(hands) // 2 + 1}: a deal of four-hand is two hands, one at each table,"
            " recorded together"
        )
    replayer = _PartyHands(match)
    last_deal = (len(hands) - 1) // per_deal
    for number, entry in enumerate(hands, start=1):
        # Both hands of a four-hand deal are played at once: either may be unfinished.
        last = (number - 1) // per_deal == last_deal
        _replay_hand(replayer, number, entry, last=last)
    replayer.ready()
    return match


def _party_game(
    party: dict[str, Any], rules: GinRules, players: int
) -> ThreeHandGame | FourHandGame:
    """The party game a record's ``"party"`` starts: three-hand with the cards ``"drawn"``
    for places, four-hand with the ``"first_dealing_team"``."""
    size = _field(party, "size", int, "'party'")
    if size not in (3, 4):
        raise RecordError(
            f"'party': 'size' is 3 (three-hand) or 4 (four-hand), not {quoted(size)}; a game"
            " of two has no 'party'"
        )
    if players != size:
        raise RecordError(f"'players': a game of {size} players has {size} names, not {players:,}")
    if size == 3:
        _refuse_unknown_keys(party, frozenset(("size", "drawn")), "'party'")
        names = _field(party, "drawn", list, "'party'")
        if len(names) != 3 or not all(
            isinstance(name, str) and len(name) <= _MAX_CARD_TEXT for name in names
        ):
            raise RecordError(
                f"'party': 'drawn' holds the three cards drawn for places, one per player,"
                f" like ['4h', 'Kc', '9s'], not {quoted(names)}"
            )
        try:
            drawn = tuple(parse_card(name) for name in names)
            return ThreeHandGame((drawn[0], drawn[1], drawn[2]), rules)
        except (InvalidCardError, GinPartyError) as e:
            raise RecordError(f"'party': 'drawn': {_clip(str(e))}") from None
    _refuse_unknown_keys(party, frozenset(("size", "first_dealing_team")), "'party'")
    team = _field(party, "first_dealing_team", int, "'party'")
    try:
        return FourHandGame(rules, first_dealers=team)
    except GinPartyError as e:
        raise RecordError(f"'party': 'first_dealing_team': {_clip(str(e))}") from None


def _gin_rules(options: dict[str, Any]) -> GinRules:
    """Gin Rummy's options from a record: ``preset`` names one of
    :data:`~umtali.games.gin.rules.GIN_PRESETS`, and the other keys override it."""
    options = dict(options)
    preset = options.pop("preset", options.get("name", "standard"))
    if preset not in GIN_PRESETS:
        raise RecordError(
            f"rules: {quoted(preset)} is no Gin Rummy preset; the presets are"
            f" {', '.join(sorted(GIN_PRESETS))}"
        )
    try:
        return dataclasses.replace(GIN_PRESETS[preset], **options)
    except InvalidRulesError as e:
        raise RecordError(f"rules: {_clip(str(e))}") from None


_RULE_KEYS: Final = frozenset(f.name for f in dataclasses.fields(RuleSet)) | {"preset"}


def _rule_options(rules: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
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


class _Replayer(Protocol):
    """What replaying a hand needs of a game, the rest being the same for every game: the
    match's ``kind``, the keys its hands have, and how it seats, deals, plays and scores
    the hand under way."""

    @property
    def kind(self) -> str: ...
    @property
    def hand_keys(self) -> frozenset[str]: ...

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

    def scores(self) -> tuple[int, int] | None: ...


class _PlayedHand(Protocol):
    def is_over(self) -> bool: ...
    def push_text(self, text: str) -> Any: ...


_HandT = TypeVar("_HandT", bound=_PlayedHand)
_H_co = TypeVar("_H_co", covariant=True)


class _HandByHand(Protocol[_H_co]):
    """A match of either game for two, as its replay deals it."""

    def is_over(self) -> bool: ...
    def next_dealer(self) -> int: ...
    def new_hand(self, deck: Sequence[int]) -> _H_co: ...


class _TwoPlayers(Generic[_HandT]):
    """What both two-player games share: the same two players play every hand, dealt
    by the match, one after the other."""

    hand_keys: frozenset[str] = frozenset(("dealer", "deck", "moves", "scores"))

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


class _UmtaliHands(_TwoPlayers[HandState]):
    def __init__(self, match: Match) -> None:
        super().__init__(match)
        self.kind = match.kind

    def dealer_rule(self, expected: int) -> str:
        return f"the winner of the last hand (or the first dealer) is player {expected} (R1)"

    def push_text(self, text: str) -> None:
        try:
            self.played().push_text(text)
        except (InvalidMoveError, IllegalMoveError) as e:
            raise ValueError(_after_colon(str(e))) from None

    def scores(self) -> tuple[int, int] | None:
        outcome = self.played().outcome()
        return None if outcome is None else outcome.scores


class _GinHands(_TwoPlayers[GinHand]):
    kind = "game"

    def dealer_rule(self, expected: int) -> str:
        return (
            f"the deal alternates (the same dealer deals again after a dead hand), so"
            f" player {expected} deals (ruling G)"
        )

    def push_text(self, text: str) -> None:
        _push_gin(self.played(), text)

    def scores(self) -> tuple[int, int] | None:
        outcome = self.played().outcome
        return None if outcome is None else outcome.scores


def _push_gin(hand: GinHand, text: str) -> None:
    """Play ``text`` on a hand of Gin Rummy; a refused move raises ``ValueError``."""
    try:
        hand.push_text(text)
    except GinMoveError as e:
        raise ValueError(str(e)) from None


class _PartyHands:
    """Hands of three- or four-hand Gin Rummy, each at the table the party game gives."""

    kind = "game"
    hand_keys = _PARTY_HAND_KEYS

    def __init__(self, match: GinPartyMatch) -> None:
        self.match = match
        self.seated: SeatedHand | None = None

    def ready(self) -> None:
        match = self.match
        if match.deal_complete() and all(s.hand.is_over() for s in match.under_way()):
            match.count()

    def _table(self) -> Table:
        return self.match.next_table()

    def check_seats(self, entry: dict[str, Any], where: str) -> None:
        seats = _field(entry, "seats", list, where)
        if len(seats) != 2 or any(type(player) is not int for player in seats):
            raise RecordError(
                f"{where}: 'seats' are the numbers of the two players at the hand's seats 0"
                f" and 1, like [2, 0], not {quoted(seats)}"
            )
        table = self._table()
        if seats == list(table.players):
            return
        lone, other = table.players
        current = self.match.seats()
        if isinstance(current, ThreeHandSeats):
            expected = (
                f"player {lone} plays alone against player {other}, player"
                f" {current.on_deck} on deck: a lone winner stays, and a lone loser gives"
                " his seat to the player on deck (ruling G)"
            )
        else:
            expected = (
                f"player {lone} plays player {other} at this table: partners change"
                " opponents every deal (ruling G)"
            )
        raise RecordError(
            f"{where}: the record seats players {quoted(seats)} at it, but {expected}"
        )

    def is_over(self) -> bool:
        return self.match.is_over()

    def next_dealer(self) -> int:
        return self._table().dealer

    def dealer_rule(self, expected: int) -> str:
        if self.match.size == 3:
            rule = (
                "the deal crosses the table after every hand that is not dead (the team's"
                " player deals the first)"
            )
        else:
            rule = "one team deals at both tables, and the teams take turns"
        return f"{rule}, so player {expected} deals (ruling G)"

    def deal(self, deck: tuple[int, ...]) -> None:
        self.seated = self.match.deal_next(deck)

    def hand_is_over(self) -> bool:
        assert self.seated is not None
        return self.seated.hand.is_over()

    def push_text(self, text: str) -> None:
        assert self.seated is not None
        _push_gin(self.seated.hand, text)

    def scores(self) -> tuple[int, int] | None:
        assert self.seated is not None
        outcome = self.seated.hand.outcome
        return None if outcome is None else outcome.scores


def _replay_hand(game: _Replayer, number: int, entry: object, last: bool) -> None:
    where = f"hand {number}"
    if not isinstance(entry, dict):
        raise RecordError(f"{where} must be an object, not {quoted(entry)}")
    game.ready()
    if game.is_over():
        raise RecordError(f"{where} is recorded after the {game.kind} was over")
    game.check_seats(entry, where)
    dealer = _field(entry, "dealer", int, where)
    expected = game.next_dealer()
    if dealer != expected:
        raise RecordError(
            f"{where}: the record says player {quoted(dealer)} deals, but"
            f" {game.dealer_rule(expected)}"
        )
    _refuse_unknown_keys(entry, game.hand_keys, where)
    names = _field(entry, "deck", list, where)
    if len(names) != 52:
        raise RecordError(f"{where}: deck: a deck has 52 cards, this one {len(names):,}")
    for i, name in enumerate(names):
        if not isinstance(name, str) or len(name) > _MAX_CARD_TEXT:
            raise RecordError(
                f"{where}: deck position {i} holds {quoted(name)}, not a card like 'Ks'"
            )
    try:
        deck = check_deck([parse_card(t) for t in names])
    except (InvalidCardError, InvalidDeckError) as e:
        raise RecordError(f"{where}: deck: {_clip(str(e))}") from None
    game.deal(deck)
    moves = _field(entry, "moves", list, where)
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
            raise RecordError(f"{where}, move {i} {quoted(text)}: {_clip(str(e))}") from None
    outcome = game.scores()
    if "scores" in entry:
        scores = entry["scores"]
        if not (
            isinstance(scores, list)
            and len(scores) == 2
            and all(type(x) is int for x in scores)  # not a bool, not 31.0
        ):
            raise RecordError(f"{where}: 'scores' must be two whole numbers, not {quoted(scores)}")
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


def _after_colon(message: str) -> str:
    # "'play 8♦ off J♦' is not allowed now: reason" → "reason"; keep other messages whole.
    _head, sep, tail = message.partition(" is not allowed now: ")
    return tail if sep else message


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


def _check_meta(meta: dict[str, Any]) -> None:
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


def _clip(message: str) -> str:
    """A message from the engine, cut if long: it may quote input of its own."""
    if len(message) <= _MAX_REASON_CHARS:
        return message
    return message[:_MAX_REASON_CHARS] + "…"


def _where(path: _Path) -> str:
    """Where a value sits in the record, counting from 0 as JSON tools do:
    ``meta['seed']``, ``hands[0]['moves'][3]``."""
    if not path:
        return "the record"
    first, rest = path[0], path[1:]
    if not (isinstance(first, str) and first in _RECORD_KEYS | {"party"}):
        first, rest = "", path
    text = str(first) + "".join(f"[{quoted(key)}]" for key in rest)
    return text if len(text) <= _MAX_WHERE_CHARS else text[:_MAX_WHERE_CHARS] + "…"
