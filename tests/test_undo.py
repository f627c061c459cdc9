"""Undo, checked from outside the engine's own lists.

``pop`` restores the fields that ``_UNDO_FIELDS`` names, cut by move kind. These tests
read the state's ``__slots__`` instead, so a field missing from those lists cannot hide:
every slot is either fixed, history, or undone; each kind's list holds every field that
kind was seen to change; and for each undone field, a copy of the engine that forgets it
is caught by the pop-everything check.
"""

from __future__ import annotations

import random
from operator import attrgetter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import umtali.games.umtali.state as engine
from tests.helpers import fingerprint, random_hand
from umtali.games.umtali.moves import KIND_MASK, MoveKind
from umtali.games.umtali.state import HandState

SEEDS = range(40)
"""Deals tried for a forgotten field: each field must be caught within these."""


def play_and_pop_everything(seed: int) -> tuple[HandState, dict[str, object]]:
    """Deal ``seed``, play it to the end at random and pop every move: the state, and
    every slot of it as it was before the first move (the legal-move cache filled, since
    pop brings that back too)."""
    state = random_hand(seed)
    rng = random.Random(seed)
    state.legal_actions()
    start = {name: getattr(state, name) for name in HandState.__slots__}
    while not state.is_over():
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])
    while state.history:
        state.pop()
    return state, start


def slots_not_restored(seed: int) -> list[str]:
    """The slots that differ after :func:`play_and_pop_everything`."""
    state, start = play_and_pop_everything(seed)
    return [name for name in HandState.__slots__ if getattr(state, name) != start[name]]


def test_every_slot_is_fixed_history_or_undone() -> None:
    fixed = set(engine._FIXED_FIELDS)
    history = set(engine._HISTORY_FIELDS)
    undone = set(engine._UNDO_FIELDS)
    assert set(engine._CACHE_FIELDS) <= undone, "pop restores the caches too"
    assert not fixed & undone, "a fixed field is undone"
    assert not history & undone, "the history is undone by pop itself"
    assert not fixed & history
    assert fixed | history | undone == set(HandState.__slots__), (
        "a slot that is in no list: a move may change it and pop would not restore it"
    )
    assert len(engine._UNDO_FIELDS) == len(undone), "a field listed twice"


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_each_move_changes_only_what_its_kind_saves(seed: int) -> None:
    # A field a kind changes but does not save would come back wrong after pop.
    state = random_hand(seed)
    rng = random.Random(seed)
    while not state.is_over():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        before = {name: getattr(state, name) for name in HandState.__slots__}
        state.push(action)
        changed = {
            name
            for name in HandState.__slots__
            if getattr(state, name) is not before[name] and getattr(state, name) != before[name]
        }
        saved = set(engine._UNDO_BY_KIND[action & KIND_MASK])
        kind = MoveKind(action & KIND_MASK).name
        assert changed - set(engine._HISTORY_FIELDS) <= saved, (kind, changed - saved)
        assert not changed & set(engine._FIXED_FIELDS), (kind, changed)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_popping_a_whole_hand_restores_every_slot(seed: int) -> None:
    fresh = random_hand(seed)
    state, _ = play_and_pop_everything(seed)
    assert fingerprint(state) == fingerprint(fresh)
    assert slots_not_restored(seed) == []


@pytest.mark.parametrize("forgotten", engine._UNDO_FIELDS)
def test_a_field_left_out_of_the_undo_list_is_caught(
    forgotten: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The engine with one field fewer in its undo list, everywhere it is read.
    fields = tuple(f for f in engine._UNDO_FIELDS if f != forgotten)
    by_kind = engine._undo_by_kind(fields)
    monkeypatch.setattr(engine, "_UNDO_FIELDS", fields)
    monkeypatch.setattr(engine, "_UNDO_BY_KIND", by_kind)
    monkeypatch.setattr(engine, "_SNAPSHOT_BY_KIND", tuple(attrgetter(*f) for f in by_kind))
    caught = next((seed for seed in SEEDS if forgotten in slots_not_restored(seed)), None)
    assert caught is not None, f"popping whole hands never noticed {forgotten!r} left out"
