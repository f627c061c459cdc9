"""Mutated records: whatever is done to a real record, reading it either refuses it with a
:class:`RecordError` or returns a match that is saved and read back unchanged.

Hypothesis takes real records (the book's lesson game, an unfinished hand, games and a
session between random players), changes them at the JSON level (keys deleted or added,
values replaced by any JSON, cards swapped or repeated, move text edited, huge text and
numbers, deep nesting, lone surrogates), sometimes keeps the now stale digest, drops it
or computes it again, and also damages the text and the bytes themselves.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import play_randomly
from tests.test_records import lesson_game
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match, MatchKind
from umtali.games.umtali.record import load_file, loads
from umtali.kernel.deck import shuffled_deck
from umtali.kernel.record import RecordError, dumps

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def random_match(seed: int, kind: MatchKind, hands: int) -> Match:
    """A match between random players, stopped after ``hands`` hands (or at its end);
    the last hand is left half played when the seed is odd."""
    rng = random.Random(seed)
    match = Match(kind=kind, first_dealer=rng.randrange(2), meta={"seed": seed, "by": "fuzz"})
    for _ in range(hands):
        if match.is_over():
            break
        hand = match.new_hand(shuffled_deck(rng))
        play_randomly(hand, rng)
    if seed % 2 and not match.is_over():
        hand = match.new_hand(shuffled_deck(rng))
        play_randomly(hand, rng, max_moves=rng.randrange(1, 30))
    return match


def unfinished_lesson() -> Match:
    game = Match(kind="game", first_dealer=1, players=("Ann", "Bob"))
    hand = game.new_hand(LESSONS[0].deck())
    for text in LESSONS[0].turns[0].moves:
        hand.push_text(text)
    return game


BASES = [
    dumps(lesson_game()),
    dumps(unfinished_lesson()),
    dumps(random_match(1, "hand", 1)),
    dumps(random_match(2, "game", 4)),
    dumps(random_match(3, "session", 3)),
]


def digest_of(data: dict[str, Any]) -> str:
    """The digest as docs/RULES.md Part 5 defines it."""
    rest = {k: v for k, v in data.items() if k != "digest"}
    text = json.dumps(rest, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def assert_only_documented_outcomes(read: Callable[[], Match]) -> None:
    """``read`` refuses with a RecordError, or gives a match that round-trips."""
    try:
        match = read()
    except RecordError as e:
        refusal = str(e)
    else:
        text = dumps(match)  # whatever loads accepts, dumps writes
        assert dumps(loads(text)) == text
        return
    refusal.encode("utf-8")  # the message prints anywhere
    assert len(refusal) < 600, refusal[:1000]


# -- what a mutation puts in -------------------------------------------------------------

texts = st.one_of(
    st.text(max_size=20),
    st.text(st.characters(categories=["Cs", "Cc", "Cf", "Zl"]), min_size=1, max_size=3),
    st.sampled_from(["", " ", "Ks", "10h", "K♠", "draw", "keep", "give", "take", "discard 5h"]),
    st.integers(1, 2_000_000).map(lambda n: "x" * n),
)
numbers = st.one_of(
    st.integers(-3, 60),
    st.integers(),
    st.integers(1, 4000).map(lambda n: 10**n),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 31.0, -0.0, 1e400]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


def deeply_nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def pick_container(draw: st.DrawFn, data: Any) -> Any:
    """A list or object somewhere in ``data``, the deeper ones as likely as the root."""
    node = data
    while True:
        children = list(node.values()) if isinstance(node, dict) else list(node)
        inner = [c for c in children if isinstance(c, dict | list) and c]
        if not inner or draw(st.booleans()):
            return node
        node = inner[draw(st.integers(0, len(inner) - 1))]


@st.composite
def mutate(draw: st.DrawFn, data: Any) -> None:
    """Change ``data`` in place, once."""
    node = pick_container(draw, data)
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    op = draw(
        st.sampled_from(
            ["delete", "replace", "swap", "repeat", "edit text", "edit number", "nest", "add"]
        )
    )
    if not keys:
        op = "add"
    key: Any = draw(st.sampled_from(keys)) if keys else None
    if op == "delete":
        del node[key]
    elif op == "replace":
        node[key] = draw(json_values)
    elif op == "swap" and len(keys) > 1:
        other = draw(st.sampled_from(keys))
        node[key], node[other] = node[other], node[key]
    elif op == "repeat" and isinstance(node, list):
        node.insert(draw(st.integers(0, len(node))), node[key])
    elif op == "edit text" and isinstance(node[key], str):
        text = node[key]
        cut = draw(st.integers(0, len(text)))
        node[key] = draw(
            st.sampled_from(
                [
                    text[:cut],
                    text[:cut] + draw(texts) + text[cut:],
                    text[:cut] + "\udcff" + text[cut:],
                    text.upper(),
                    text.replace("♠", "♣"),
                ]
            )
        )
    elif op == "edit number" and type(node[key]) is int:
        node[key] = draw(st.sampled_from([node[key] + 1, node[key] - 1, -node[key], 10**300]))
    elif op == "nest":
        node[key] = deeply_nested(draw(st.integers(1, 60)))
    elif isinstance(node, dict):
        node[draw(st.text(max_size=10))] = draw(json_values)
    else:
        node.insert(draw(st.integers(0, len(node))), draw(json_values))


CARD_TEXT = re.compile(r"(10|[2-9AJQK])([♠♥♦♣])")


@st.composite
def mutate_hand(draw: st.DrawFn, data: Any) -> None:
    """Change one hand's deck, moves or scores the way an edit by hand would."""
    hands = data["hands"]
    if not hands:
        return
    hand = hands[draw(st.integers(0, len(hands) - 1))]
    deck, moves = hand["deck"], hand["moves"]
    i, j = draw(st.integers(0, 51)), draw(st.integers(0, 51))
    op = draw(
        st.sampled_from(
            [
                "swap cards",
                "repeat card",
                "rename card",
                "swap moves",
                "drop move",
                "repeat move",
                "edit move",
                "change card in move",
                "scores",
                "drop scores",
            ]
        )
    )
    if op == "swap cards":
        deck[i], deck[j] = deck[j], deck[i]
    elif op == "repeat card":
        deck[i] = deck[j]
    elif op == "rename card":
        deck[i] = draw(
            st.sampled_from(
                [deck[i].lower(), deck[i].upper(), "T" + deck[i][-1:], deck[i] + " ", "Jk", ""]
            )
        )
    elif op == "scores":
        hand["scores"] = draw(st.lists(numbers, min_size=0, max_size=3))
    elif op == "drop scores":
        hand.pop("scores", None)
    elif moves:
        k, m = draw(st.integers(0, len(moves) - 1)), draw(st.integers(0, len(moves) - 1))
        if op == "swap moves":
            moves[k], moves[m] = moves[m], moves[k]
        elif op == "drop move":
            del moves[k]
        elif op == "repeat move":
            moves.insert(k, moves[m])
        elif op == "edit move":
            moves[k] = draw(
                st.sampled_from(
                    [
                        moves[k] + " down",
                        moves[k].partition(" ")[0],
                        moves[k].replace(" ", ", "),
                        draw(texts),
                    ]
                )
            )
        else:
            rank = draw(st.sampled_from(["A", "5", "10", "J", "K", "1", "X"]))
            moves[k] = CARD_TEXT.sub(lambda found: rank + found.group(2), moves[k], count=1)


@st.composite
def mutated_records(draw: st.DrawFn) -> str:
    data = json.loads(draw(st.sampled_from(BASES)))
    # Edits by hand first, while the record still has the shape of one; then any edits.
    by_hand, anywhere = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    for _ in range(by_hand):
        draw(mutate_hand(data))
    for _ in range(anywhere if by_hand else max(anywhere, 1)):
        draw(mutate(data))
    digest = draw(st.sampled_from(["recompute", "drop", "keep"]))
    if isinstance(data, dict):
        if digest == "drop":
            data.pop("digest", None)
        elif digest == "recompute":
            # Values no JSON can hold leave the digest as it was.
            with contextlib.suppress(TypeError, ValueError):
                data["digest"] = digest_of(data)
    return json.dumps(data, ensure_ascii=draw(st.booleans()))


@FUZZ
@given(mutated_records())
def test_a_mutated_record_is_refused_or_round_trips(text: str) -> None:
    assert_only_documented_outcomes(lambda: loads(text))


@st.composite
def damaged_bytes(draw: st.DrawFn) -> bytes:
    raw = bytearray(draw(st.sampled_from(BASES)).encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(raw)))
        op = draw(st.sampled_from(["cut", "insert", "overwrite", "delete"]))
        if op == "cut":
            del raw[at:]
        elif op == "insert":
            raw[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == "overwrite":
            piece = draw(st.binary(min_size=1, max_size=4))
            raw[at : at + len(piece)] = piece
        else:
            del raw[at : at + draw(st.integers(1, 50))]
    return bytes(raw)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One folder for the module: hypothesis runs many examples in one test call.
    return tmp_path_factory.mktemp("fuzz")


@settings(FUZZ, max_examples=100)
@given(raw=damaged_bytes())
def test_damaged_bytes_in_a_file_are_refused_or_round_trip(folder: Path, raw: bytes) -> None:
    path = folder / "record.json"
    path.write_bytes(raw)
    assert_only_documented_outcomes(lambda: load_file(path))


@settings(FUZZ, max_examples=100)
@given(damaged_bytes())
def test_damaged_text_is_refused_or_round_trips(raw: bytes) -> None:
    # Undecodable bytes become lone surrogates, which loads sees as raw text.
    text = raw.decode("utf-8", "surrogateescape")
    assert_only_documented_outcomes(lambda: loads(text))
