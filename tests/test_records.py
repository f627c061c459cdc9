"""Game records: write, read, replay; every kind of damage gives one clear error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import fingerprint
from umtali.lessons import LESSONS
from umtali.match import Match
from umtali.record import RecordError, dumps, load_file, loads, record_of, save_file
from umtali.rules import RuleSet


def lesson_game() -> Match:
    game = Match(kind="game", first_dealer=1)
    for lesson in LESSONS:
        hand = game.new_hand(lesson.deck())
        for turn in lesson.turns:
            for text in turn.moves:
                hand.push_text(text)
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
        ('{"format": "umtali-record", "version": 1, "match": "game"', "truncated"),
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
    with pytest.raises(RecordError, match="truncated"):
        loads(text[: len(text) // 2])


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
        (lambda d: d["rules"].update(preset=[]), "the rules preset must be a name, not \\[\\]"),
        (lambda d: d["rules"].update(preset="gin"), "unknown rules preset 'gin' for rules named"),
        (
            lambda d: d.update(rules={"preset": "gin", "take_two": False}),
            "unknown rules preset 'gin'.*missing: compulsory_play",
        ),
        (lambda d: d.update(comment="hi"), "the record has unknown key\\(s\\) 'comment'"),
        (lambda d: d["hands"][0].update(note=1), "hand 1 has unknown key\\(s\\) 'note'"),
        (lambda d: d["hands"][0]["deck"].__setitem__(0, 5), "deck position 0 holds 5"),
        (lambda d: d["hands"][0].update(scores=[31.0, 28]), "'scores' must be two whole numbers"),
        (lambda d: d["hands"][0].update(scores=[31, True]), "'scores' must be two whole numbers"),
    ],
)
def test_tampered_fields_are_named(change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(tampered(change))
