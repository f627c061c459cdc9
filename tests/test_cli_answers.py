"""Asking in the terminal until an answer can be read (:mod:`umtali.cli.answers`): the
loop ``umtali lesson`` and ``umtali quiz`` share. What the answers mean is tested in
tests/test_learn_answers.py."""

from __future__ import annotations

import pytest

from tests.scripted import typed_terminal
from umtali.cli.answers import ask_until_read
from umtali.cli.terminal import QuitRequested
from umtali.learn.answers import Unanswered, parse_yes_no


def test_answers_are_read_after_the_messages_of_the_tries() -> None:
    term, out = typed_terminal(["", "maybe", "yes"])
    assert ask_until_read(term, "Yes or no: ", parse_yes_no, "Answer yes or no.") is True
    text = out.getvalue()
    assert "No answer given." in text
    assert "I can't read that: 'maybe' is neither yes nor no" in text


def test_three_unreadable_answers_give_up() -> None:
    term, out = typed_terminal(["a", "b", "c", "yes"])
    verdict = ask_until_read(term, "Yes or no: ", parse_yes_no, "Answer yes or no.")
    assert verdict is Unanswered.NO_VALID_ANSWER
    assert out.getvalue().count("I can't read that") == 3


@pytest.mark.parametrize("word", ["quit", "Q", "exit"])
def test_a_quit_word_stops_before_anything_is_read(word: str) -> None:
    term, _ = typed_terminal([word])
    with pytest.raises(QuitRequested):
        ask_until_read(term, "Yes or no: ", parse_yes_no, "Answer yes or no.")


def test_end_of_input_stops() -> None:
    term, _ = typed_terminal([])
    with pytest.raises(QuitRequested):
        ask_until_read(term, "Yes or no: ", parse_yes_no, "Answer yes or no.")
