"""Observations (:mod:`umtali.rl.observation`) against what a player may see: every
array is checked, state by state, against the :class:`PlayerView` of that seat and the
cards hidden from him, worked out from the true state (tests/test_view.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest

from tests.helpers import c, cards, play
from tests.test_view import hidden_from
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.melds import ColumnKind
from umtali.games.umtali.moves import Move
from umtali.games.umtali.research.actions import (
    DISCARD_DOWN,
    NUM_ACTIONS,
    PAIR,
    PAIR_COLUMNS,
    block_of,
    index_of,
    mask_of_view,
    move_of,
)
from umtali.games.umtali.research.observation import (
    CARD_PLANES,
    COUNTS,
    FACE_DOWN_ENTRY,
    FLAGS,
    HIDDEN_DISCARD,
    HIDDEN_PAIR_DISCARD,
    HISTORY_COLUMNS,
    NUM_TOKENS,
    Observer,
    count_bounds,
    history_features,
    max_moves,
)
from umtali.games.umtali.rules import PRESETS, STANDARD, RuleSet
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terms import FACE_DOWN, PILE_CARD, Phase
from umtali.games.umtali.view import PlayerView, determinize
from umtali.kernel.cards import ALL_CARDS
from umtali.kernel.deck import shuffled_deck
from umtali.rl.shared import ENCODINGS, EncodingVersion

PLACED = (
    "hand",
    *(f"own_{k.label}" for k in ColumnKind),
    *(f"opponent_{k.label}" for k in ColumnKind),
    "pile_seen",
    "top_discard",
    "second_discard",
    "opponent_holds",
    "taken_by_me",
    "taken_by_opponent",
    "taken_this_turn",
)
"""The rows that say where a card is: none may name a card hidden from the viewer. (The
others say what the viewer cannot place, or what the table or the opponent cannot
hold.)"""


COLUMN_KINDS = tuple(ColumnKind)  # iterating the enum itself costs more, at every state
KIND_ROWS = {
    (who, kind): f"{who}_{kind.label}" for who in ("own", "opponent") for kind in ColumnKind
}
"""The row of each side's columns of each kind."""


def masks_of_rows(rows: npt.NDArray[np.uint8]) -> list[int]:
    """Each row of a ``cards`` array as the card mask it marks."""
    packed = np.packbits(rows, axis=1, bitorder="little").tobytes()  # 7 bytes a row
    return [int.from_bytes(packed[i : i + 7], "little") for i in range(0, len(packed), 7)]


def hidden_mask(hand: HandState, seat: int) -> int:
    """The cards hidden from ``seat``, as tests/test_view.py's ``hidden_from`` works them
    out; read off the hands and the stock alone while no discard lies face down (the
    history, which it scans for those, then has nothing more to add)."""
    if any(e & FACE_DOWN for e in hand.pile):
        hidden = 0
        for card in hidden_from(hand, seat):
            hidden |= 1 << card
        return hidden
    other = 1 - seat
    hidden = hand.hands[other] & ~hand.ever_taken[other]
    for card in hand.stock_cards():
        hidden |= 1 << card
    return hidden


def check_against_view(hand: HandState, seat: int, obs: dict[str, npt.NDArray[np.generic]]) -> None:
    """Every array of ``obs`` is what ``seat``'s view shows, and no row that places a
    card places one hidden from him."""
    view = PlayerView.of(hand, seat, with_history=False)
    rows = dict(zip(CARD_PLANES, masks_of_rows(obs["cards"].astype(np.uint8)), strict=True))
    hidden = hidden_mask(hand, seat)
    for name in PLACED:
        assert not rows[name] & hidden, f"{name} shows a card hidden from the viewer"
    assert rows["hand"] == view.hand.mask
    for who, side in (("own", view.tables[seat]), ("opponent", view.tables[1 - seat])):
        shown = dict.fromkeys(COLUMN_KINDS, 0)
        for column in side:
            shown[column.kind] |= column.cards.mask
        for kind, mask in shown.items():
            assert rows[KIND_ROWS[who, kind]] == mask
    seen_on_pile = 0
    for on_pile in view.discard_pile:
        if on_pile is not None:
            seen_on_pile |= 1 << on_pile
    assert rows["pile_seen"] == seen_on_pile
    face_down = [bool(e & FACE_DOWN) for e in hand.pile]  # public: anyone sees a card's back
    expected_pile = []
    for on_pile, down in zip(view.discard_pile, face_down, strict=True):
        if down:
            expected_pile.append(FACE_DOWN_ENTRY)
        else:
            assert on_pile is not None  # a face-up card is in plain sight
            expected_pile.append(on_pile + 1)
    assert obs["pile"].tolist() == expected_pile + [0] * (52 - len(expected_pile))
    top = second = 0
    if hand.pile and not face_down[-1]:
        top = 1 << (hand.pile[-1] & PILE_CARD)  # a face-up card: the view shows it
        if len(hand.pile) > 1 and not face_down[-2]:
            second = 1 << (hand.pile[-2] & PILE_CARD)
    assert (rows["top_discard"], rows["second_discard"]) == (top, second)
    assert rows["opponent_holds"] == view.opponent_known.mask
    assert rows["opponent_cannot_hold"] == view.opponent_excluded.mask
    assert rows["unseen"] == view.unseen().mask
    assert rows["taken_by_me"] == view.taken_from_pile[seat].mask
    assert rows["taken_by_opponent"] == view.taken_from_pile[1 - seat].mask
    assert rows["taken_this_turn"] == view.taken_this_turn.mask
    assert rows["table_accepts"] == view.open_mask()
    counts = dict(zip(COUNTS, obs["counts"].tolist(), strict=True))
    assert counts == {
        "stock": view.stock_size,
        "hand_size": len(view.hand),
        "opponent_hand_size": view.opponent_hand_size,
        "pile_size": len(view.discard_pile),
        "turn": view.turn,
        "points": view.points[seat],
        "opponent_points": view.points[1 - seat],
        "game_score": view.game_scores[seat],
        "opponent_game_score": view.game_scores[1 - seat],
        "hands_left": view.hands_left,
    }
    flags = dict(zip(FLAGS, obs["flags"].astype(bool).tolist(), strict=True))
    assert flags == {
        "choose": view.phase == Phase.CHOOSE,
        "draw": view.phase == Phase.DRAW,
        "play": view.phase == Phase.PLAY,
        "over": view.phase == Phase.OVER,
        "to_move": bool(view.legal),
        "dealer": view.dealer == seat,
        "eleventh": view.eleventh == seat,
        "opponent_eleventh": view.eleventh == 1 - seat,
        "last_turn": view.last_turn,
        "went_out": view.went_out == seat,
        "opponent_went_out": view.went_out == 1 - seat,
        "took_two": view.took_two,
        "opponent_meld_free": view.opponent_meld_free,
    }
    assert (obs["action_mask"].astype(bool) == mask_of_view(view)).all()


def test_no_observation_of_500_random_hands_shows_a_hidden_card() -> None:
    # v0's arrays against the view; v1 is v0's encoded again (a test below).
    observer = Observer(encoding="v0")
    rng = random.Random(2026)
    states = 0
    for hand in random_states(rng, 500):
        for seat in (0, 1):
            obs = observer.observe(hand, seat)
            check_against_view(hand, seat, obs)
        states += 1
    assert states > 20_000


def random_states(rng: random.Random, hands: int, rules: RuleSet = STANDARD) -> Iterator[HandState]:
    """Every state of ``hands`` hands played at random, the last of each included (the
    same object, moved on after each)."""
    for _ in range(hands):
        hand = HandState(shuffled_deck(rng), rng.randrange(2), rules)
        while True:
            yield hand
            if hand.is_over():
                break
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_another_deal_of_the_unseen_cards_gives_the_same_observation(
    encoding: EncodingVersion,
) -> None:
    # The other way round: deal the cards the viewer cannot see anew (determinize), and
    # nothing he observes may change. (Face-down discards are left out: the world keeps
    # the viewer's own face-down card face down, but it has no history to tell whose it
    # is, and the observation reads that from the history.)
    observer = Observer(encoding=encoding)
    rng = random.Random(7)
    compared = 0
    for _ in range(150):
        hand = HandState(shuffled_deck(rng), rng.randrange(2))
        while not hand.is_over():
            if not any(e & FACE_DOWN for e in hand.pile):
                for seat in (0, 1):
                    world = determinize(PlayerView.of(hand, seat), rng)
                    mine, theirs = observer.observe(hand, seat), observer.observe(world, seat)
                    for name, array in mine.items():
                        assert (array == theirs[name]).all(), name
                    compared += 1
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
    assert compared > 5000


def test_the_opening_of_lesson_one_as_player_1_sees_it() -> None:
    # Player 2 dealt and kept the 11th card; his opening turn laid K♠ K♥ K♣ and 3♥ 2♥ A♥
    # and discarded 5♥. Player 1 holds 5♣ 10♣ J♦ Q♦ 6♥ 10♥ 5♠ 6♠ 7♠ J♠ and is to draw.
    hand = LESSONS[0].replay(turn=2)
    obs = Observer(encoding="v0").observe(hand, 0)
    row = dict(zip(CARD_PLANES, masks_of_rows(obs["cards"].astype(np.uint8)), strict=True))
    assert row["hand"] == cards("5c 10c Jd Qd 6h 10h 5s 6s 7s Js").mask
    assert row["opponent_group"] == cards("Ks Kh Kc").mask
    assert row["opponent_sequence"] == cards("3h 2h Ah").mask
    assert row["own_sequence"] == row["own_group"] == 0
    assert row["pile_seen"] == row["top_discard"] == cards("5h").mask
    assert row["second_discard"] == 0
    # He cannot place the 31 stock cards and Player 2's four: 52 - 10 - 6 - 1.
    assert row["unseen"].bit_count() == 35
    # Player 2's opening turn left him nothing playable: no Jack, no king, nothing next
    # to his ace-to-three.
    assert row["opponent_cannot_hold"] & cards("Jc Jh Kd 4h").mask == cards("Jc Jh Kd 4h").mask
    assert obs["pile"][:2].tolist() == [c("5h") + 1, 0]
    counts = dict(zip(COUNTS, obs["counts"].tolist(), strict=True))
    assert (counts["stock"], counts["opponent_hand_size"]) == (31, 4)
    assert counts["opponent_points"] == 3 * 5 + 3  # three kings; A♥ 2♥ 3♥
    flags = {f for f, v in zip(FLAGS, obs["flags"].tolist(), strict=True) if v}
    assert flags == {"draw", "to_move", "opponent_eleventh", "opponent_meld_free"}


def test_the_history_hides_the_opponents_face_down_discard_only() -> None:
    rng = random.Random(5)
    found = 0
    observer = Observer(perfect_recall=True, encoding="v0")
    for _ in range(400):
        hand = HandState(shuffled_deck(rng), rng.randrange(2))
        while not hand.is_over():
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
        down = {(p, a) for p, a in hand.history if Move.from_action(a).face_down}
        if not down:
            continue
        found += 1
        for seat in (0, 1):
            rows = observer.observe(hand, seat)["history"]
            assert len(hand.history) <= max_moves()
            for i, (actor, action) in enumerate(hand.history):
                who, token = rows[i].tolist()
                index = index_of(action)
                assert who == (1 if actor == seat else 2)
                if actor == seat or (actor, action) not in down:
                    assert token == index
                elif index < PAIR:
                    assert index >= DISCARD_DOWN
                    assert token == HIDDEN_DISCARD
                else:
                    pair = PAIR_COLUMNS.index(action >> 4 & ALL_CARDS)
                    assert token == HIDDEN_PAIR_DISCARD + pair
            assert not rows[len(hand.history) :].any()
    assert found > 20


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_flat_observation_holds_the_same_arrays_in_order(encoding: EncodingVersion) -> None:
    rng = random.Random(11)
    nested = Observer(perfect_recall=True, encoding=encoding)
    flat = Observer(perfect_recall=True, flat=True, encoding=encoding)
    hand = HandState(shuffled_deck(rng), 1)
    while not hand.is_over():
        for seat in (0, 1):
            arrays = nested.observe(hand, seat, (30, 12), 2)
            vector = flat.observe(hand, seat, (30, 12), 2)
            assert nested.space.contains(arrays)
            assert flat.space.contains(vector)
            assert (vector["action_mask"] == arrays["action_mask"]).all()
            for name, where in flat.parts.items():
                assert (vector["observation"][where] == arrays[name].ravel()).all(), name
        legal = hand.legal_actions()
        hand.push(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("hands", [1, 2])
@pytest.mark.parametrize("flat", [False, True])
def test_an_observer_kept_from_move_to_move_sees_what_a_new_one_sees(
    flat: bool, hands: int
) -> None:
    # The observer works out only what changed since its last observation (the pile's
    # rows among them: one hand makes the small changes, a discard or a take); two hands
    # observed in turn make every change a big one too.
    rng = random.Random(5)
    kept = Observer(flat=flat, perfect_recall=True)
    earlier: list[
        tuple[dict[str, npt.NDArray[np.generic]], dict[str, npt.NDArray[np.generic]]]
    ] = []
    for _ in range(4 if hands == 1 else 1):  # one hand after another, or two in turn
        played = [HandState(shuffled_deck(rng), d) for d in range(hands)]
        while not all(hand.is_over() for hand in played):
            for hand in played:
                for seat in (0, 1):
                    seen = kept.observe(hand, seat)
                    fresh = Observer(flat=flat, perfect_recall=True).observe(hand, seat)
                    assert seen.keys() == fresh.keys()
                    for name in seen:
                        assert (seen[name] == fresh[name]).all(), name
                    earlier.append((seen, {k: v.copy() for k, v in seen.items()}))
                if not hand.is_over():
                    legal = hand.legal_actions()
                    hand.push(legal[rng.randrange(len(legal))])
    # Every observation handed out is its own: later ones did not change it.
    for seen, copy in earlier:
        assert all((seen[k] == copy[k]).all() for k in seen)
    assert len(earlier) > 50 * hands


def test_an_observer_refuses_a_hand_of_other_rules() -> None:
    hand = HandState.from_seed(1, rules=RuleSet(take_two=False, name="no-take-two"))
    with pytest.raises(ValueError, match="make an Observer of the hand's rules"):
        Observer().observe(hand, 0)
    assert Observer(hand.rules).space.contains(Observer(hand.rules).observe(hand, 1))


def test_a_hand_at_its_opening_shows_the_dealers_choice() -> None:
    hand = HandState.from_seed(4, dealer=1)
    obs = Observer().observe(hand, 1)
    assert obs["action_mask"].sum() == 2  # keep or give
    # Nothing is dealt before the choice: no card in hand, every card unseen.
    unseen = CARD_PLANES.index("unseen")
    assert obs["cards"].sum() == obs["cards"][unseen].sum() == 52
    play(hand, "give")
    assert Observer(encoding="v0").observe(hand, 1)["counts"][1] == 10  # the dealer holds 10
    assert Observer().observe(hand, 1)["counts"][1] == 10 / 52  # v1: over its bound


# -- v1: the arrays a network reads ---------------------------------------------------------
def v1_of_v0(
    v0: dict[str, npt.NDArray[np.generic]], rules: RuleSet
) -> dict[str, npt.NDArray[np.generic]]:
    """v1's arrays worked out from v0's, the long way: the pile one-hot a row a place,
    the counts over their bounds, a history row's mover and its token's columns."""
    pile = np.zeros((52, 53), np.uint8)
    for place, entry in enumerate(v0["pile"].tolist()):
        if entry:
            pile[place, entry - 1] = 1  # a card's column, or the last for face down
    found = {
        "cards": v0["cards"],
        "pile": pile,
        "counts": v0["counts"] / count_bounds(rules).astype(np.float32),
        "flags": v0["flags"],
        "action_mask": v0["action_mask"],
    }
    if "history" in v0:
        history = np.zeros((len(v0["history"]), len(HISTORY_COLUMNS)), np.uint8)
        for i, (who, token) in enumerate(v0["history"].tolist()):
            if who:
                history[i, who - 1] = 1
                history[i, 2:] = history_features()[token]
        found["history"] = history
    return found


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=list(PRESETS))
def test_v1_is_v0_encoded_again_every_entry_in_0_to_1(rules: RuleSet) -> None:
    v0 = Observer(rules, perfect_recall=True, encoding="v0")
    v1 = Observer(rules, perfect_recall=True)
    flat = Observer(rules, perfect_recall=True, flat=True)
    rng = random.Random(3)
    states = 0
    for hand in random_states(rng, 8, rules):
        for seat in (0, 1):
            expected = v1_of_v0(v0.observe(hand, seat, (200, 31), 1), rules)
            obs = v1.observe(hand, seat, (200, 31), 1)
            assert v1.space.contains(obs)
            for name, array in expected.items():
                assert np.allclose(obs[name], array), name
            vector = flat.observe(hand, seat, (200, 31), 1)["observation"]
            assert flat.space.contains({"observation": vector, "action_mask": obs["action_mask"]})
            assert vector.min() >= 0.0
            assert vector.max() <= 1.0
        states += 1
    assert states > 300


def test_v1s_shapes_are_the_documented_ones() -> None:
    assert Observer(flat=True).space["observation"].shape == (3871,)
    assert Observer(flat=True, perfect_recall=True).space["observation"].shape == (34216,)
    spaces = Observer(perfect_recall=True).space
    assert {name: box.shape for name, box in spaces.items()} == {
        "cards": (21, 52),
        "pile": (52, 53),
        "counts": (10,),
        "flags": (13,),
        "history": (255, 119),
        "action_mask": (14272,),
    }


def test_v1s_history_columns_tell_every_token_apart_and_hide_the_hidden_card() -> None:
    table = history_features()
    assert table.shape == (NUM_TOKENS, len(HISTORY_COLUMNS) - 2)
    assert len(np.unique(table, axis=0)) == NUM_TOKENS  # a row names one move: nothing lost
    column = {name: i - 2 for i, name in enumerate(HISTORY_COLUMNS)}
    cards = slice(column["card_0"], column["card_51"] + 1)
    seconds = slice(column["second_0"], column["second_51"] + 1)
    for index in range(NUM_ACTIONS):
        move = move_of(index)
        row = table[index]
        assert row[column[block_of(index).name.lower()]] == 1
        assert row[: column["face_down"]].sum() == 1  # one block
        shown = {*move.cards, *(c for c in (move.target, move.discard) if c is not None)}
        both = row[cards] | row[seconds]
        assert set(np.flatnonzero(both).tolist()) == shown, move
        assert row[column["hidden"]] == 0
    hidden = table[HIDDEN_DISCARD]
    assert hidden[column["discard_down"]] == hidden[column["hidden"]] == 1
    assert not hidden[cards].any()
    assert not hidden[seconds].any()
    for n, pair in enumerate(PAIR_COLUMNS):
        row = table[HIDDEN_PAIR_DISCARD + n]
        assert row[column["pair"]] == row[column["face_down"]] == row[column["hidden"]] == 1
        assert sum(1 << c for c in np.flatnonzero(row[cards]).tolist()) == pair
        assert not row[seconds].any()
