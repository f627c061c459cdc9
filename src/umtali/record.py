"""Game records: versioned JSON that writes, reads and replays a match exactly.

A record holds the rules, the players, the first dealer, and for each hand its dealer,
its deck order and its moves in notation (with the scores once the hand is over).
Reading replays every move through the engine, so a record that loads is a record of a
legal game; anything wrong raises one :class:`RecordError` naming the hand, the move and
the rule, and nothing is returned half-built.

>>> from umtali.lessons import LESSONS
>>> game = Match(kind="game", first_dealer=1)
>>> for lesson in LESSONS:
...     hand = game.new_hand(lesson.deck())
...     for turn in lesson.turns:
...         for text in turn.moves:
...             _ = hand.push_text(text)
>>> again = loads(dumps(game))
>>> again.game_totals(0), [h.outcome().scores for h in again.hands][:2]
((159, 110), [(31, 28), (40, 22)])
>>> bad = dumps(game).replace("play 10♦ off J♦", "play 8♦ off J♦", 1)
>>> loads(bad)
Traceback (most recent call last):
...
umtali.record.RecordError: hand 1, move 13 'play 8♦ off J♦': 8♦ is not in Player 2's hand
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Final

from umtali.cards import InvalidCardError, card_ascii, parse_card
from umtali.deck import InvalidDeckError, check_deck
from umtali.match import MATCH_KINDS, Match, MatchError
from umtali.moves import IllegalMoveError, InvalidMoveError
from umtali.rules import InvalidRulesError, RuleSet

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RecordError",
    "dumps",
    "load_file",
    "loads",
    "record_of",
    "replay",
    "save_file",
]

RECORD_FORMAT: Final = "umtali-record"
RECORD_VERSION: Final = 1
_MAX_RECORD_BYTES: Final = 16 * 1024 * 1024


class RecordError(ValueError):
    """A record that cannot be read: malformed, truncated, tampered or illegal."""


def record_of(match: Match) -> dict[str, Any]:
    """The record of ``match`` as plain JSON data."""
    hands = []
    for hand in match.hands:
        entry: dict[str, Any] = {
            "dealer": hand.dealer,
            "deck": [card_ascii(c) for c in hand.deck],
            "moves": [m.text() for m in hand.moves_played()],
        }
        outcome = hand.outcome()
        if outcome is not None:
            entry["scores"] = list(outcome.scores)
        hands.append(entry)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "match": match.kind,
        "rules": {"preset": match.rules.name, **match.rules.to_dict()},
        "players": list(match.players),
        "first_dealer": match.first_dealer,
        "meta": match.meta,
        "hands": hands,
    }


def dumps(match: Match) -> str:
    """The record of ``match`` as JSON text."""
    return json.dumps(record_of(match), ensure_ascii=False, indent=1) + "\n"


def save_file(match: Match, path: str | os.PathLike[str]) -> None:
    """Write the record to ``path`` atomically: a crash never leaves half a file."""
    target = Path(path)
    text = dumps(match)
    fd, tmp = tempfile.mkstemp(prefix=".umtali-", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_file(path: str | os.PathLike[str]) -> Match:
    """Read and replay the record in ``path``."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > _MAX_RECORD_BYTES:
            raise RecordError(f"{size} bytes is too large for a game record")
        text = p.read_text(encoding="utf-8")
    except RecordError:
        raise
    except FileNotFoundError:
        raise RecordError("no such file") from None
    except IsADirectoryError:
        raise RecordError("it is a directory, not a record file") from None
    except UnicodeDecodeError:
        raise RecordError("it is not UTF-8 text, so not a game record") from None
    except OSError as e:
        raise RecordError(f"it cannot be read ({e.strerror})") from None
    return loads(text)


def loads(text: str) -> Match:
    """Read and replay a record from JSON text."""
    if not text.strip():
        raise RecordError("the record is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        # A record is one object: text that opens one and never closes it was cut short.
        stripped = text.strip()
        cut = stripped.startswith("{") and not stripped.endswith("}")
        what = "truncated" if cut else "not valid JSON"
        raise RecordError(
            f"the record is {what}: {e.msg.rstrip()}, at line {e.lineno}, column {e.colno}"
        ) from None
    except RecursionError:
        raise RecordError(
            "the record is not a game record: its JSON is nested too deeply"
        ) from None
    except ValueError:  # Python refuses numbers of thousands of digits
        raise RecordError("the record is not a game record: it holds a number too long") from None
    return replay(data)


def _field(data: dict[str, Any], key: str, kind: type, where: str = "the record") -> Any:
    if key not in data:
        raise RecordError(f"{where} has no {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: {key!r} must be {_kind_name(kind)}, not {value!r}")
    return value


_RECORD_KEYS: Final = frozenset(
    ("format", "version", "match", "rules", "players", "first_dealer", "meta", "hands")
)
_HAND_KEYS: Final = frozenset(("dealer", "deck", "moves", "scores"))


def _refuse_unknown_keys(data: dict[str, Any], known: frozenset[str], where: str) -> None:
    """A key this version does not write is a sign of tampering or of a newer format."""
    unknown = sorted(map(str, set(data) - known))
    if unknown:
        raise RecordError(
            f"{where} has unknown key(s) {', '.join(map(repr, unknown))};"
            f" version {RECORD_VERSION} records have {', '.join(sorted(known))}"
        )


def _kind_name(kind: type) -> str:
    return {int: "a whole number", str: "text", list: "a list", dict: "an object"}.get(
        kind, kind.__name__
    )


def replay(data: object) -> Match:
    """Replay record data (as :func:`record_of` gives) into a :class:`Match`."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an Umtali record: 'format' must be {RECORD_FORMAT!r}")
    _refuse_unknown_keys(data, _RECORD_KEYS, "the record")
    version = _field(data, "version", int)
    if version != RECORD_VERSION:
        raise RecordError(
            f"record version {version} is not supported; this program reads version"
            f" {RECORD_VERSION}"
        )
    kind = _field(data, "match", str)
    if kind not in MATCH_KINDS:
        raise RecordError(f"'match' must be one of {', '.join(MATCH_KINDS)}, not {kind!r}")
    try:
        rules = RuleSet.from_dict(_field(data, "rules", dict))
    except InvalidRulesError as e:
        raise RecordError(f"rules: {e}") from None
    players = _field(data, "players", list)
    first_dealer = _field(data, "first_dealer", int)
    meta = data.get("meta", {})
    if not isinstance(meta, dict) or not all(isinstance(k, str) for k in meta):
        raise RecordError("'meta' must be an object with text keys")
    try:
        match = Match(rules, kind=kind, first_dealer=first_dealer, players=players, meta=meta)
    except MatchError as e:
        raise RecordError(str(e)) from None
    hands = _field(data, "hands", list)
    for number, entry in enumerate(hands, start=1):
        _replay_hand(match, number, entry, last=number == len(hands))
    return match


def _replay_hand(match: Match, number: int, entry: object, last: bool) -> None:
    where = f"hand {number}"
    if not isinstance(entry, dict):
        raise RecordError(f"{where} must be an object")
    if match.is_over():
        raise RecordError(f"{where} is recorded after the {match.kind} was over")
    dealer = _field(entry, "dealer", int, where)
    expected = match.next_dealer()
    if dealer != expected:
        raise RecordError(
            f"{where}: the record says player {dealer} deals, but the winner of the last"
            f" hand (or the first dealer) is player {expected} (R1)"
        )
    _refuse_unknown_keys(entry, _HAND_KEYS, where)
    names = _field(entry, "deck", list, where)
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise RecordError(f"{where}: deck position {i} holds {name!r}, not a card like 'Ks'")
    try:
        deck = check_deck([parse_card(t) for t in names])
    except (InvalidCardError, InvalidDeckError) as e:
        raise RecordError(f"{where}: deck: {e}") from None
    hand = match.new_hand(deck)
    moves = _field(entry, "moves", list, where)
    for i, text in enumerate(moves, start=1):
        if not isinstance(text, str):
            raise RecordError(f"{where}, move {i}: {text!r} is not a move in notation")
        if hand.is_over():
            raise RecordError(f"{where}, move {i} {text!r}: the hand was already over")
        try:
            hand.push_text(text)
        except (InvalidMoveError, IllegalMoveError) as e:
            raise RecordError(f"{where}, move {i} {text!r}: {_after_colon(str(e))}") from None
    outcome = hand.outcome()
    if "scores" in entry:
        scores = entry["scores"]
        if not (
            isinstance(scores, list)
            and len(scores) == 2
            and all(type(x) is int for x in scores)  # not a bool, not 31.0
        ):
            raise RecordError(f"{where}: 'scores' must be two whole numbers, not {scores!r}")
        if outcome is None:
            raise RecordError(f"{where}: the record gives scores but the moves do not end the hand")
        if scores != list(outcome.scores):
            raise RecordError(
                f"{where}: the record says {scores!r} but the moves score {list(outcome.scores)!r}"
            )
    elif outcome is not None:
        raise RecordError(f"{where}: the hand is over but the record gives no scores")
    if outcome is None and not last:
        raise RecordError(f"{where} is unfinished, but another hand follows it")


def _after_colon(message: str) -> str:
    # "'play 8♦ off J♦' is not allowed now: reason" → "reason"; keep other messages whole.
    _head, sep, tail = message.partition(" is not allowed now: ")
    return tail if sep else message
