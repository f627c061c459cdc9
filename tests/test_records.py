"""Game records: write, read, replay; every kind of damage gives one clear error."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import fingerprint
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.record import load_file, loads
from umtali.games.umtali.rules import RuleSet
from umtali.kernel.players import MatchError
from umtali.kernel.record import RecordError, dumps, record_of, save_file


def lesson_game() -> Match:
    game = Match(kind="game", first_dealer=1)
    for lesson in LESSONS:
        lesson.replay(game.new_hand(lesson.deck()))
    return game


def tampered(change: Any) -> str:
    data = record_of(lesson_game())
    change(data)
    return json.dumps(data, ensure_ascii=False)


def test_the_lesson_game_round_trips() -> None:
    game = lesson_game()
    again = loads(dumps(game))
    assert [o.scores for o in again.finished_outcomes()] == [
        (31, 28),
        (40, 22),
        (33, 52),
        (55, 8),
    ]
    assert again.game_totals(0) == (159, 110)
    assert again.winner() == 0
    assert [fingerprint(h) for h in again.hands] == [fingerprint(h) for h in game.hands]


def test_save_and_load_a_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_file(lesson_game(), path)
    assert load_file(path).game_totals(0) == (159, 110)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary left behind


def test_an_unfinished_hand_loads_and_plays_on() -> None:
    game = Match(kind="game", first_dealer=1)
    hand = game.new_hand(LESSONS[0].deck())
    for text in LESSONS[0].turns[0].moves:
        hand.push_text(text)
    again = loads(dumps(game))
    current = again.current
    assert current is not None
    assert fingerprint(current) == fingerprint(hand)
    current.push_text("draw")  # Player 1 draws 4♣, as in the book
    assert current.hand(0).mask & (1 << 0 * 13 + 3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the record is empty"),
        ("{ 1: 2 }", "not valid JSON"),
        ('{"format": "umtali-record", "version": 1, "match": "game"', r"cut short \(byte 57\)"),
        ("[1, 2]", "a record is a JSON object"),
        ('{"format": "chess"}', "not an Umtali record"),
        ('{"format": "umtali-record", "version": 7}', "version 7 is not supported"),
        ('{"format": "umtali-record", "version": 1}', "no 'match'"),
        ("hello", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"version": ' + "9" * 5000 + "}", "a number too long"),
    ],
)
def test_malformed_records_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)


def test_truncated_file_is_refused() -> None:
    text = dumps(lesson_game())
    with pytest.raises(RecordError, match="cut short"):
        loads(text[: len(text) // 2])


@pytest.mark.parametrize("keep", [1, 40, 0.25, 0.5, 0.99, -1])
def test_a_record_cut_short_says_at_which_byte(keep: float) -> None:
    # Cut anywhere (in a string, after a number, after a closing bracket, just before
    # the last one), the message gives the byte where the text stops: bytes, not
    # characters, since every card's suit takes three bytes in UTF-8.
    text = dumps(lesson_game())
    cut = text[: int(len(text) * keep) if isinstance(keep, float) else keep]
    if keep == -1:
        cut = text.rstrip()[:-1]
    end = len(cut.rstrip().encode("utf-8"))
    if any(suit in cut for suit in "♠♥♦♣"):  # the suits do count apart
        assert end > len(cut.rstrip())
    with pytest.raises(RecordError) as refused:
        loads(cut)
    assert str(refused.value).startswith(f"the record is cut short (byte {end})")


def test_text_that_ends_whole_but_is_malformed_is_not_cut_short() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        loads('{"format": "umtali-record", "version": 1,, "match": "game"}')


def test_an_illegal_move_names_hand_move_and_rule() -> None:
    # Hand 2, turn 1: the dealer may not lay K♦ Q♦ 10♦ as a meld: no such meld exists.
    def change(data: dict[str, Any]) -> None:
        data["hands"][1]["moves"][1] = "meld 9♠ 8♠"

    with pytest.raises(RecordError, match=r"hand 2, move 2 'meld 9♠ 8♠': two cards make a meld"):
        loads(tampered(change))


def test_text_that_is_no_move_is_named() -> None:
    def change(data: dict[str, Any]) -> None:
        data["hands"][0]["moves"][3] = "discard the five"

    with pytest.raises(RecordError, match=r"hand 1, move 4 'discard the five': .*is not a move"):
        loads(tampered(change))


def test_a_changed_score_is_caught() -> None:
    def change(data: dict[str, Any]) -> None:
        data["hands"][2]["scores"] = [33, 53]

    with pytest.raises(
        RecordError, match=r"hand 3: the record says \[33, 53\] but the moves score \[33, 52\]"
    ):
        loads(tampered(change))


def test_a_deck_with_a_repeated_card_is_caught() -> None:
    def change(data: dict[str, Any]) -> None:
        data["hands"][0]["deck"][5] = data["hands"][0]["deck"][6]

    with pytest.raises(RecordError, match="hand 1: deck: deck position 6 repeats"):
        loads(tampered(change))


def test_a_card_that_is_no_card_is_caught() -> None:
    def change(data: dict[str, Any]) -> None:
        data["hands"][3]["deck"][0] = "Zz"

    with pytest.raises(RecordError, match="hand 4: deck: 'Zz' is not a card"):
        loads(tampered(change))


def test_the_wrong_dealer_is_caught() -> None:
    def change(data: dict[str, Any]) -> None:
        data["hands"][1]["dealer"] = 1

    with pytest.raises(RecordError, match=r"hand 2: .*player 1 deals.*player 0 \(R1\)"):
        loads(tampered(change))


def test_unknown_rule_options_are_refused() -> None:
    def change(data: dict[str, Any]) -> None:
        data["rules"]["jokers"] = True

    with pytest.raises(RecordError, match="unknown rule option"):
        loads(tampered(change))


def test_a_hand_after_the_game_is_over_is_refused() -> None:
    def change(data: dict[str, Any]) -> None:
        data["hands"].append(dict(data["hands"][0], dealer=0))

    with pytest.raises(RecordError, match="hand 5 is recorded after the game was over"):
        loads(tampered(change))


def test_an_unfinished_hand_cannot_be_followed() -> None:
    def change(data: dict[str, Any]) -> None:
        data["hands"][0]["moves"] = data["hands"][0]["moves"][:5]
        del data["hands"][0]["scores"]

    with pytest.raises(RecordError, match="hand 1 is unfinished, but another hand follows"):
        loads(tampered(change))


def test_moves_after_the_end_are_refused() -> None:
    def change(data: dict[str, Any]) -> None:
        data["hands"][0]["moves"].append("draw")

    with pytest.raises(RecordError, match="the hand was already over"):
        loads(tampered(change))


@pytest.mark.parametrize("kind", ["missing", "directory", "binary"])
def test_unreadable_files_are_refused(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "record.json"
    if kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError):
        load_file(path)


def test_a_game_under_house_rules_round_trips() -> None:
    # A variant with a name of its own is no preset: the record carries every option.
    house = RuleSet(name="house", take_two=False, marriage_multiplier=3)
    game = Match(house, kind="hand", first_dealer=0)
    hand = game.new_hand(LESSONS[0].deck())
    hand.push_text("give")
    assert loads(dumps(game)).rules == house


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["rules"].update(preset=[]),
            "the rules preset must be a name of at most 40 characters, not \\[\\]",
        ),
        (lambda d: d["rules"].update(preset="gin"), "unknown rules preset 'gin' for rules named"),
        (
            lambda d: d.update(rules={"preset": "gin", "take_two": False}),
            "unknown rules preset 'gin'.*missing: compulsory_play",
        ),
        (lambda d: d.update(comment="hi"), "the record has unknown key 'comment'"),
        (lambda d: d["hands"][0].update(note=1), "hand 1 has unknown key 'note'"),
        (lambda d: d["hands"][0]["deck"].__setitem__(0, 5), "deck position 0 holds 5"),
        (
            lambda d: d["hands"][0].update(scores=[31.0, 28]),
            "'scores' must be whole numbers, one for each seat",
        ),
        (
            lambda d: d["hands"][0].update(scores=[31, True]),
            "'scores' must be whole numbers, one for each seat",
        ),
    ],
)
def test_tampered_fields_are_named(change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(tampered(change))


# -- the digest ------------------------------------------------------------------------


def canonical_digest(data: dict[str, Any]) -> str:
    """The digest as docs/RULES.md Part 5 defines it, computed here independently."""
    rest = {k: v for k, v in data.items() if k != "digest"}
    text = json.dumps(rest, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_saved_record_carries_its_digest_first() -> None:
    text = dumps(lesson_game())
    data = json.loads(text)
    assert next(iter(data)) == "digest"
    assert data["digest"] == canonical_digest(data)
    assert "digest" not in record_of(lesson_game())  # the plain data has none
    # Deleting the digest's line (the second) leaves valid JSON: a hand-written record.
    lines = text.splitlines()
    assert lines[1].startswith(' "digest": "sha256:')
    assert loads("\n".join(lines[:1] + lines[2:])).game_totals(0) == (159, 110)


def test_an_edit_after_saving_is_refused_as_such() -> None:
    text = dumps(lesson_game()).replace('"Player 1"', '"Mallory"')
    with pytest.raises(
        RecordError, match="the record was changed after it was saved: its digest does not match"
    ):
        loads(text)


def test_an_edited_unfinished_stock_is_refused() -> None:
    # The case of the issue: reorder the stock of an unfinished hand, then play on.
    game = Match(kind="game", first_dealer=1)
    hand = game.new_hand(LESSONS[0].deck())
    for text in LESSONS[0].turns[0].moves:
        hand.push_text(text)
    data = json.loads(dumps(game))
    deck = data["hands"][0]["deck"]
    deck[-1], deck[-2] = deck[-2], deck[-1]
    with pytest.raises(RecordError, match="digest does not match"):
        loads(json.dumps(data, ensure_ascii=False))


def test_the_digest_is_of_the_data_not_of_its_layout() -> None:
    data = json.loads(dumps(lesson_game()))
    reordered = dict(reversed(list(data.items())))
    assert loads(json.dumps(reordered)).game_totals(0) == (159, 110)  # ASCII escapes, one line


@pytest.mark.parametrize("digest", ["", "sha256:XYZ", "md5:" + "0" * 32, 7, None])
def test_a_malformed_digest_is_named(digest: object) -> None:
    data = json.loads(dumps(lesson_game()))
    data["digest"] = digest
    with pytest.raises(RecordError, match="'digest' must be 'sha256:' and 64 hex digits"):
        loads(json.dumps(data))


# -- hostile text ------------------------------------------------------------------------


def edited_record(change: Any) -> str:
    """A saved record edited by ``change``, its digest dropped (a hand-written record)."""
    data = json.loads(dumps(lesson_game()))
    del data["digest"]
    change(data)
    return json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["players"].__setitem__(0, "\udcff"), r"players\[0\]"),
        (lambda d: d["players"].__setitem__(1, "Bob\ud800"), r"players\[1\]"),
        (lambda d: d["meta"].update(note="\udcff"), r"meta\['note'\]"),
        (lambda d: d["meta"].update({"\udcff": 1}), "meta holds a key"),
        (
            lambda d: d["meta"].update(deep={"a": [1, ["\udfff"]]}),
            r"meta\['deep'\]\['a'\]\[1\]\[0\]",
        ),
        (
            lambda d: d["hands"][0]["moves"].__setitem__(2, "draw\udcff"),
            r"hands\[0\]\['moves'\]\[2\]",
        ),
        (lambda d: d["rules"].update(name="\udcff"), r"rules\['name'\]"),
    ],
)
def test_text_that_is_not_unicode_is_refused_on_load(change: Any, where: str) -> None:
    # Such text loads into Python but cannot be printed or saved as UTF-8 afterwards.
    text = edited_record(change)
    with pytest.raises(RecordError, match=where + ".*half of a surrogate pair") as refused:
        loads(text)
    str(refused.value).encode("utf-8")  # the message itself prints anywhere


BAD_NAMES = [
    ("", "is blank"),
    ("   ", "is blank"),
    ("A" * 41, "has 41 characters; a name has at most 40"),
    ("Ann\nBob", "U\\+000A"),
    ("Ann\r", "U\\+000D"),
    ("\x1b[2JAnn", "U\\+001B"),
    ("Ann\u202eboB", "U\\+202E"),  # right-to-left override
    ("An\u200bn", "U\\+200B"),  # zero-width space
    ("Ann\u2028Bob", "U\\+2028"),  # line separator
    ("Ann\x85", "U\\+0085"),  # next line
]


@pytest.mark.parametrize(("name", "message"), BAD_NAMES)
def test_bad_player_names_are_refused_by_match(name: str, message: str) -> None:
    with pytest.raises(MatchError, match="Player 2's name.*" + message):
        Match(players=("Ann", name))


@pytest.mark.parametrize(("name", "message"), BAD_NAMES)
def test_bad_player_names_are_refused_on_load(name: str, message: str) -> None:
    text = edited_record(lambda d: d["players"].__setitem__(0, name))
    with pytest.raises(RecordError, match="'players': Player 1's name.*" + message):
        loads(text)


@pytest.mark.parametrize("name", ["Ann", "Zoë Ndlovu", "Computer (expert)", "陈静", "A" * 40])
def test_ordinary_names_round_trip(name: str) -> None:
    game = Match(kind="hand", players=(name, "Player 2"))
    assert loads(dumps(game)).players == (name, "Player 2")


def test_match_refuses_a_string_as_its_two_players() -> None:
    with pytest.raises(MatchError, match="two players"):
        Match(players="AB")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"x": 1e400', "holds inf, which JSON cannot write"),
        ('"x": NaN', "holds nan, which JSON cannot write"),
        ('"x": -Infinity', "holds -inf, which JSON cannot write"),
        ('"x": ' + "[" * 30 + "]" * 30, "nested too deeply .more than 20 levels"),
        (
            '"x": "' + "y" * 70_000 + '"',
            "'meta' takes 70,008 bytes of JSON; it may take at most 65,536",
        ),
        ('"x": 1, "x": 2', "the key 'x' twice in one object"),
    ],
)
def test_meta_is_any_json_within_bounds(text: str, message: str) -> None:
    record = edited_record(lambda d: d["meta"].update(PLACEHOLDER=0))
    with pytest.raises(RecordError, match=message):
        loads(record.replace('"PLACEHOLDER": 0', text))


def test_meta_of_any_json_round_trips() -> None:
    meta = {"seed": 7, "notes": ["é", {"a": None, "b": [1.5, -2, True]}], "": "", "ü": 10**40}
    game = Match(kind="hand", meta=meta)
    again = loads(dumps(game))
    assert again.meta == meta
    assert dumps(again) == dumps(game)


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ({"s": {1, 2}}, r"meta\['s'\] holds a set, which JSON cannot write"),
        ({"n": float("nan")}, r"meta\['n'\] holds nan"),
        ({1: "one"}, "meta has the key 1; the keys of an object are text"),
        ({"t": "\udcff"}, "half of a surrogate pair"),
        ({"big": 10**5000}, "a number of thousands of digits"),
        ({"deep": [[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]}, "nested too deeply"),
        ({"blob": "x" * 100_000}, "'meta' takes 100,011 bytes"),
    ],
)
def test_a_match_whose_meta_no_record_can_hold_is_not_written(
    meta: dict[Any, Any], message: str
) -> None:
    game = Match(kind="hand", meta=meta)
    with pytest.raises(RecordError, match="this match cannot be saved as a record: .*" + message):
        dumps(game)


# -- long input in messages ------------------------------------------------------------

HUGE = "x" * 5_000_000


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["hands"][0]["moves"].__setitem__(3, HUGE),
        lambda d: d["hands"][0]["moves"].__setitem__(3, "discard " + HUGE),
        lambda d: d["hands"][0]["deck"].__setitem__(3, HUGE),
        lambda d: d["hands"][0]["deck"].__setitem__(3, [HUGE]),
        lambda d: d["hands"][0].update(scores=[HUGE, 1]),
        lambda d: d["hands"][0].update(scores=list(range(1_000_000))),
        lambda d: d["hands"][0].update(dealer=10**3000),
        lambda d: d["hands"][0].update({HUGE: 1}),
        lambda d: d.update({HUGE: 1}),
        lambda d: d.update({f"k{i}": 1 for i in range(100_000)}),
        lambda d: d.update(match=HUGE),
        lambda d: d.update(first_dealer=10**3000),
        lambda d: d.update(players=[HUGE, "B"]),
        lambda d: d.update(meta=[HUGE]),
        lambda d: d["rules"].update(preset=HUGE),
        lambda d: d["rules"].update(name=HUGE),
        lambda d: d["rules"].update(take_two=HUGE),
        lambda d: d["rules"].update(turn_cap=10**3000),
        lambda d: d["rules"].update({HUGE: 1}),
        lambda d: d["hands"].__setitem__(0, HUGE),
    ],
)
def test_messages_quote_only_a_little_of_huge_input(change: Any) -> None:
    with pytest.raises(RecordError) as refused:
        loads(edited_record(change))
    # Short, whatever the input; an unknown rule option's message also lists the known
    # options, which take some 200 characters of their own.
    assert len(str(refused.value)) < 500, str(refused.value)[:600]


def test_a_huge_digest_is_quoted_short() -> None:
    data = json.loads(dumps(lesson_game()))
    data["digest"] = HUGE
    with pytest.raises(RecordError) as refused:
        loads(json.dumps(data))
    assert len(str(refused.value)) < 300


# -- reading files of any kind ------------------------------------------------------------

LIMIT = 16 * 1024 * 1024


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_file_is_read_only_to_the_limit() -> None:
    with pytest.raises(RecordError, match="more than 16 MiB"):
        load_file("/dev/zero")


def feed(fd_or_path: int | Path, data: bytes, chunk: int = 4096) -> threading.Thread:
    """Write ``data`` into a pipe (its write end, or a FIFO's path) from a thread, a
    little at a time, and stop quietly when the reader hangs up."""

    def write() -> None:
        fd = fd_or_path if isinstance(fd_or_path, int) else os.open(fd_or_path, os.O_WRONLY)
        try:
            for start in range(0, len(data), chunk):
                os.write(fd, data[start : start + chunk])
        except BrokenPipeError:
            pass  # the reader had read enough
        finally:
            os.close(fd)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


needs_dev_fd = pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@needs_dev_fd
def test_a_record_arrives_through_a_pipe() -> None:
    read_end, write_end = os.pipe()
    try:
        writer = feed(write_end, dumps(lesson_game()).encode("utf-8"), chunk=100)
        assert load_file(f"/dev/fd/{read_end}").game_totals(0) == (159, 110)
        writer.join(5)
    finally:
        os.close(read_end)


@needs_dev_fd
def test_a_long_pipe_is_not_read_whole() -> None:
    read_end, write_end = os.pipe()
    try:
        # As a 300 MB pipe would: 20 MiB of spaces, of which only the first 16 MiB are read.
        writer = feed(write_end, b" " * (20 * 1024 * 1024), chunk=1 << 16)
        with pytest.raises(RecordError, match="more than 16 MiB"):
            load_file(f"/dev/fd/{read_end}")
    finally:
        os.close(read_end)  # the writer now gets a broken pipe and stops
    writer.join(5)
    assert not writer.is_alive()


@needs_fifo
def test_a_record_arrives_through_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    writer = feed(fifo, dumps(lesson_game()).encode("utf-8"), chunk=1000)
    assert load_file(fifo).game_totals(0) == (159, 110)
    writer.join(5)


@needs_fifo
def test_an_overlong_fifo_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    writer = feed(fifo, b"{" + b" " * (LIMIT + 10), chunk=1 << 16)
    with pytest.raises(RecordError, match="more than 16 MiB"):
        load_file(fifo)
    writer.join(5)
    assert not writer.is_alive()


def test_a_file_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    text = dumps(lesson_game())
    path = tmp_path / "padded.json"
    path.write_bytes(text.encode("utf-8") + b" " * (LIMIT - len(text.encode("utf-8"))))
    assert load_file(path).game_totals(0) == (159, 110)
    with path.open("ab") as f:
        f.write(b" ")
    with pytest.raises(RecordError, match="more than 16 MiB"):
        load_file(path)


def test_a_byte_order_mark_is_allowed_and_bad_bytes_are_named(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + dumps(lesson_game()).encode("utf-8"))
    assert load_file(path).game_totals(0) == (159, 110)
    path.write_bytes(b'{"format": "umtali-record", "x": "\xed\xb3\xbf"}')  # an encoded surrogate
    with pytest.raises(RecordError, match=r"it is not UTF-8 text \(byte 34 is not\)"):
        load_file(path)


def test_a_file_name_with_a_nul_is_refused() -> None:
    with pytest.raises(RecordError, match="NUL"):
        load_file("game\0.json")
