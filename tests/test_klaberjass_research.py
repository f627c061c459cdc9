"""Klaberjass through the research interfaces (umtali.games.klaberjass.research): the
peers' own checkers on its PettingZoo, Gymnasium and OpenSpiel forms, the action space
against the engine, rewards against the engine's scores, batches against a lone
observer, and a scan proving that no observation tells a seat a card it has not seen."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pytest

import umtali.rl.openspiel  # noqa: F401 - registers every game's OpenSpiel game
from tests.research_checks import (
    check_batch_margins,
    check_bench,
    check_episode_against,
    check_illegal_action,
    check_legal_arrays,
    check_margin_paid,
    check_masks,
    check_openspiel_parameters,
    check_opponent_sees_its_view,
    check_parallel_batch,
    check_resampling,
    check_returns,
    check_same_sights,
    ismcts_decisions,
    play_a_game,
    play_openspiel,
    redeals,
)
from umtali.games.klaberjass.bots import BOTS
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import KlaberjassMove
from umtali.games.klaberjass.research import ENCODING, MODULES, rules_of
from umtali.games.klaberjass.research.actions import (
    CARDS,
    ENGINE_ACTIONS,
    NUM_ACTIONS,
    PLAY,
    ActionSpaceError,
    action_text,
    engine_action,
    index_of,
    legal_indices,
    move_of,
)
from umtali.games.klaberjass.research.episode import Episode, first_dealt
from umtali.games.klaberjass.research.observation import (
    CARD_PLANES,
    COUNTS,
    FLAGS,
    MAX_MOVES,
    MAX_SCORE,
    Observer,
    count_bounds,
)
from umtali.games.klaberjass.research.openspiel import (
    GAME_NAME,
    KlaberjassState,
    play_indices,
)
from umtali.games.klaberjass.research.vector import HandBatch
from umtali.games.klaberjass.rules import BOOK, CLASSIC_SCHMEISS, KLABERJASS_PRESETS
from umtali.games.klaberjass.terms import DECK
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.deck import shuffled_deck
from umtali.rl.encoding import RewardKind, research
from umtali.rl.shared import EncodingVersion

GAME = "klaberjass"

# PettingZoo's checkers warn of a dict observation and of an all-zero mask (an agent
# whose episode has ended); Gymnasium's of an 'ansi' text with no frame rate.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array",
    "ignore:Action mask numpy array is all zeros",
    "ignore:.*No render fps was declared",
)


def random_hand(seed: int, rules: Any = BOOK) -> tuple[KlaberjassMatch, random.Random]:
    rng = random.Random(seed)
    match = KlaberjassMatch(rules, first_dealer=rng.randrange(2))
    match.new_hand(shuffled_deck(rng, DECK))
    return match, rng


# -- the peers' checkers -------------------------------------------------------------------


# (the peers' own checkers: tests/test_research_peers.py)


# -- the action space ----------------------------------------------------------------------


def test_every_index_round_trips_through_the_engine_and_its_notation() -> None:
    assert len(set(ENGINE_ACTIONS)) == NUM_ACTIONS
    for index in range(NUM_ACTIONS):
        move = move_of(index)
        assert index_of(move) == index_of(engine_action(index)) == index
        assert action_text(index) == move.text()
        assert KlaberjassMove.parse(action_text(index)) == move
    assert [action_text(PLAY + place) for place in (0, 1, 7)] == ["play A♣", "play 7♣", "play K♣"]
    assert len(CARDS) == 32
    with pytest.raises(ActionSpaceError, match=r"an int 0\.\.42"):
        engine_action(NUM_ACTIONS)
    with pytest.raises(ActionSpaceError, match="no move the rules could ever offer"):
        index_of(KlaberjassMove.parse("play 2h"))


@pytest.mark.parametrize("rules", list(KLABERJASS_PRESETS))
def test_masks_agree_with_the_engines_legal_moves(rules: str) -> None:
    observer = Observer(rules_of(rules))
    seen: set[int] = set()
    for seed in range(60):
        episode = Episode(random.Random(seed), rules_of(rules), observer=observer)
        rng = random.Random(seed)
        while True:
            hand = episode.hand
            legal = [index_of(action) for action in hand.legal_actions()]
            assert episode.legal() == legal == legal_indices(hand)
            check_masks(episode, legal, hand.to_move())
            for index in range(NUM_ACTIONS):
                assert episode.is_legal(index) == (engine_action(index) in hand.legal_actions())
            seen.update(legal)
            if episode.step(rng.choice(legal)) is not None:
                break
    wanted = set(range(NUM_ACTIONS))
    if not rules_of(rules).schmeiss:
        wanted -= {index_of(KlaberjassMove.parse(w)) for w in ("schmeiss", "accept", "refuse")}
    assert seen == wanted  # random play reaches every move the rules offer


# -- episodes and rewards ------------------------------------------------------------------


def test_a_hand_pays_each_player_his_score_margin() -> None:
    results = set()
    for seed in range(200):
        episode = Episode(random.Random(seed), rules_of("schmeiss"))
        rng = random.Random(seed + 1)
        rewards = None
        while rewards is None:
            rewards = episode.step(rng.choice(episode.legal()))
        outcome = episode.hand.outcome()
        assert outcome is not None
        check_margin_paid(episode, rewards, outcome.scores)
        assert abs(rewards[0]) <= MAX_SCORE
        results.add(outcome.result)
    assert results == {"made", "failed", "tied", "thrown_in"}


def test_a_game_pays_its_winner_one_and_is_played_to_the_target() -> None:
    for seed in range(6):
        episode = Episode(random.Random(seed), reward="game", observer=Observer(encoding="v0"))
        rng = random.Random(seed)
        rewards = play_a_game(
            episode, rng, lambda episode, rng: rng.choice(episode.legal()), COUNTS.index("total")
        )
        match = episode.match
        assert match.is_over()
        assert len(match.hands) > 1
        assert max(match.totals()) >= BOOK.game_target
        assert rewards == ((1.0, -1.0) if match.winner() == 0 else (-1.0, 1.0))


def test_an_illegal_action_is_refused_loses_or_is_ignored() -> None:
    # No card is played during the bidding:
    check_illegal_action(GAME, PLAY, r"action 11 \('play A♣'\) is not legal for player", -300.0)


# Every level of BOTS, read when the tests are collected (a level added there is tried at
# once): a hand against each, and a whole game against the quick ones.
@pytest.mark.parametrize("level", list(BOTS))
def test_an_episode_against_each_level_pays_the_agents_margin(level: str) -> None:
    kinds: list[RewardKind] = ["margin", "game"] if level in ("random", "greedy") else ["margin"]
    check_episode_against(GAME, level, kinds)


def test_the_computer_chooses_from_its_view_only() -> None:
    check_opponent_sees_its_view(
        GAME, Episode(random.Random(8)), lambda e: KlaberjassView.of(e.match, e.to_move), move_of
    )


def test_the_encoding_checks_what_it_is_given() -> None:
    assert rules_of("classic-schmeiss") is CLASSIC_SCHMEISS
    with pytest.raises(ValueError, match="preset's name"):
        rules_of("french")
    with pytest.raises(ValueError, match="has no module 'policy'"):
        ENCODING.module("policy")  # a policy is Umtali's alone
    assert [ENCODING.module(name).__name__.rsplit(".", 1)[1] for name in MODULES] == list(MODULES)
    with pytest.raises(TypeError, match="Klaberjass observer"):
        ENCODING.episode(random.Random(1), research("umtali").observer())
    match, _ = random_hand(1, BOOK)
    with pytest.raises(ValueError, match="under the rules 'classic'"):
        Observer(rules_of("classic")).observe(match, 0)
    match.hands[-1].push(KlaberjassMove.parse("take"))
    with pytest.raises(ValueError, match="dealt="):
        Observer().observe(match, 0)


def test_the_observation_shows_the_hand_as_the_view_does() -> None:
    match, rng = random_hand(5)
    hand = match.hands[-1]
    dealt = first_dealt(match)
    observer = Observer(flat=False, perfect_recall=True, encoding="v0")
    flat = Observer(flat=True, perfect_recall=True, encoding="v0")
    while not hand.is_over():
        for seat in (0, 1):
            view = KlaberjassView.of(match, seat)
            obs = observer.observe(match, seat, dealt[seat])
            assert observer.space.contains(obs)
            cards = obs["cards"]
            places = {
                name: {CARDS[p] for p in np.flatnonzero(row)}
                for name, row in zip(CARD_PLANES, cards, strict=True)
            }
            assert places["hand"] == {c for c in CARDS if view.hand >> c & 1}
            assert len(places["dealt"]) == 6
            assert obs["counts"][COUNTS.index("moves")] == len(view.history)
            assert obs["flags"][FLAGS.index(view.phase)] == 1
            assert obs["flags"][:6].sum() == 1
            # Every card is in exactly one of: hand, played, known elsewhere, unseen.
            where = ("hand", "played_by_me", "played_by_other", "other_holds", "unseen")
            placed = [places[name] for name in where]
            dead = places["turned_up"] | places["bottom"] | places["given_seven"]
            assert sum(len(p) for p in placed) + len(dead - set().union(*placed)) == 32
            vector = flat.observe(match, seat, dealt[seat])["observation"]
            parts = [obs[name].ravel() for name in ("cards", "counts", "flags", "history")]
            assert (vector == np.concatenate(parts).astype(np.float32)).all()
            rows = obs["history"][: len(view.history)]
            assert rows[:, 0].tolist() == [1 if m == seat else 2 for m, _ in view.history]
        hand.push(rng.choice(hand.legal_actions()))
    assert MAX_MOVES == 23


def test_v1_is_v0_encoded_again_every_entry_in_0_to_1() -> None:
    """v1: the counts mapped from their bounds onto [0, 1] (the totals and the pot by
    the game's target, 1 beyond it), the history's mover and action one-hot."""
    match, rng = random_hand(8, CLASSIC_SCHMEISS)
    hand = match.hands[-1]
    dealt = first_dealt(match)
    v0 = Observer(CLASSIC_SCHMEISS, flat=False, perfect_recall=True, encoding="v0")
    v1 = Observer(CLASSIC_SCHMEISS, flat=False, perfect_recall=True)
    flat = Observer(CLASSIC_SCHMEISS, flat=True, perfect_recall=True)
    low, high = count_bounds(CLASSIC_SCHMEISS, "v1")
    assert flat.space["observation"].shape == (1457,)
    assert Observer(flat=True).space["observation"].shape == (422,)
    while True:
        for seat in (0, 1):
            old = v0.observe(match, seat, dealt[seat])
            new = v1.observe(match, seat, dealt[seat])
            assert v1.space.contains(new)
            assert (new["cards"] == old["cards"]).all()
            assert (new["flags"] == old["flags"]).all()
            expected = np.clip((old["counts"].astype(np.float64) - low) / (high - low), 0, 1)
            assert np.allclose(new["counts"], expected)
            history = np.zeros((MAX_MOVES, 2 + NUM_ACTIONS), np.uint8)
            for i, (who, index) in enumerate(old["history"].tolist()):
                if who:
                    history[i, who - 1] = history[i, 2 + index] = 1
            assert (new["history"] == history).all()
            vector = flat.observe(match, seat, dealt[seat])["observation"]
            assert vector.min() >= 0.0
            assert vector.max() <= 1.0
        if hand.is_over():
            break
        hand.push(rng.choice(hand.legal_actions()))


# -- what no seat may see: a scan ------------------------------------------------------------


def _shown_by_the_rules(view: KlaberjassView) -> tuple[object, ...]:
    """What the rules tell ``view``'s seat of the cards he has not seen: whether the
    other holds the 7 of trump (he is asked to exchange it, or play begins), who
    scores sequences and with which cards, bella, and the hand's score."""
    return (
        view.phase,
        view.to_move,
        view.sequence_points,
        view.sequence_cards,
        view.bella,
        view.outcome,
    )


def other_deals(
    match: KlaberjassMatch, seat: int, rng: random.Random, count: int
) -> list[KlaberjassMatch]:
    """``count`` matches dealt from ``match``'s deck with every card ``seat`` has not
    seen shuffled among the places such cards lie in (the other's hand, the stock), the
    same moves replayed; those under which a move is illegal, or the rules show ``seat``
    another fact of the other hand (:func:`_shown_by_the_rules`), are left out. Every
    card ``seat`` ever held is in his hand, played, or the 7 he gave in an exchange."""
    hand = match.hands[-1]
    view = KlaberjassView.of(match, seat)
    seen = view.hand | view.played | 1 << view.turned_up
    seen |= view.sequence_cards | (0 if view.bottom is None else 1 << view.bottom)
    seen |= 0 if view.given_seven is None else 1 << view.given_seven
    free = [at for at, card in enumerate(hand.deck) if not seen >> card & 1]
    shown = _shown_by_the_rules(view)
    new = partial(KlaberjassMatch, match.rules, first_dealer=hand.dealer)
    return [
        other
        for other in redeals(hand.deck, free, hand.history, new, rng, count)
        if _shown_by_the_rules(KlaberjassView.of(other, seat)) == shown
    ]


def scan_for_secrets(seeds: range, deals: int) -> tuple[int, int]:
    """For a hand of each seed, played at random to a random point and seen by a random
    seat, compare what the seat is shown with what it is shown after ``deals`` other
    deals of the cards it has not seen (:func:`other_deals`): every observation array
    (flat with the history, and as a dict), and OpenSpiel's information state and
    observation, tensor and string. How many comparisons, and how many of them had
    the other hand dealt otherwise."""
    observers = [
        Observer(BOOK, flat=True, perfect_recall=True),
        Observer(BOOK, flat=False, perfect_recall=False),
        Observer(BOOK, flat=True, perfect_recall=True, encoding="v0"),
    ]
    games = [pyspiel.load_game(GAME_NAME, {"dealer": dealer}) for dealer in (0, 1)]
    rng = random.Random(seeds.start)
    compared = differing = 0
    for seed in seeds:
        match, play_rng = random_hand(seed)
        hand = match.hands[-1]
        seat = play_rng.randrange(2)
        dealt = first_dealt(match)[seat]  # the same in every other deal: his cards stay
        stop = play_rng.randrange(MAX_MOVES + 1)
        while not hand.is_over() and len(hand.history) < stop:
            hand.push(play_rng.choice(hand.legal_actions()))
        real = [observer.observe(match, seat, dealt) for observer in observers]
        game = games[hand.dealer]
        moves = [index_of(action) for _, action in hand.history]
        spiel = play_indices(game, [CARDS.index(c) for c in hand.deck], moves)
        assert spiel is not None
        for other in other_deals(match, seat, rng, deals):
            differing += other.hands[-1].hands[1 - seat] != hand.hands[1 - seat]
            for observer, obs in zip(observers, real, strict=True):
                again = observer.observe(other, seat, dealt)
                for name, array in obs.items():
                    assert (again[name] == array).all(), (seed, seat, name)
            deal = [CARDS.index(c) for c in other.hands[-1].deck]
            check_same_sights(play_indices(game, deal, moves), spiel, seat)
            compared += 1
    return compared, differing


def test_no_observation_changes_when_the_unseen_cards_are_dealt_otherwise() -> None:
    compared, differing = scan_for_secrets(range(50), 6)
    assert compared > 120
    assert differing > 80


def test_no_observation_of_300_hands_changes_when_the_unseen_cards_are_dealt_otherwise() -> None:
    compared, differing = scan_for_secrets(range(1000, 1300), 8)
    assert compared > 1000
    assert differing > 750


# -- batches ---------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["v0", "v1"])
def test_every_batch_row_is_what_a_lone_observer_sees_and_pays_its_margin(
    encoding: EncodingVersion,
) -> None:
    batch = HandBatch(5, seed=3, rules=CLASSIC_SCHMEISS, encoding=encoding)
    obs = batch.reset()
    observer = Observer(CLASSIC_SCHMEISS, encoding=encoding)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(150):
        for row in range(batch.n):
            match = batch.matches[row]
            seat = int(batch.to_move[row])
            assert match.hands[-1].player == seat
            if not match.hands[-1].history:
                assert batch.dealt[row] == first_dealt(match)
            alone = observer.observe(match, seat, batch.dealt[row][seat])
            for name, array in alone.items():
                assert obs[name][row].dtype == array.dtype, name
                assert (obs[name][row] == array).all(), name
            assert batch.legal[row] == legal_indices(match.hands[-1])
        before = [m.hands[-1] for m in batch.matches]
        obs, rewards, done = batch.step(batch.sample_actions(rng))
        ended += check_batch_margins(rewards, done, before, lambda hand: hand.outcome())
    assert ended == batch.hands_played > 20
    check_legal_arrays(batch)


def test_a_batch_refuses_an_illegal_action_and_deals_alike_from_a_seed() -> None:
    check_parallel_batch(GAME, lambda n, seed: HandBatch(n, seed=seed, encoding="v1"), "v1")


def test_the_parallel_batch_steps_klaberjass_rows_as_lone_batches_do() -> None:
    check_parallel_batch(GAME, lambda n, seed: HandBatch(n, seed=seed))  # v1, the default
    check_parallel_batch(GAME, lambda n, seed: HandBatch(n, seed=seed, encoding="v0"), "v0")


def test_the_bench_races_klaberjass_environments() -> None:
    check_bench(GAME)


# -- OpenSpiel -------------------------------------------------------------------------------


def test_openspiel_returns_are_the_engines_scores() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "schmeiss", "dealer": 1})
    assert (game.num_distinct_actions(), game.max_chance_outcomes()) == (43, 32)
    assert (game.min_utility(), game.max_utility(), game.max_game_length()) == (-282, 282, 23)
    rng = random.Random(4)
    for _ in range(100):
        state = play_openspiel(game, rng, lambda state: rng.choice(state.legal_actions()))
        assert isinstance(state, KlaberjassState)
        hand = state.table.hand
        assert hand is not None
        outcome = hand.outcome()
        assert outcome is not None
        assert hand.dealer == 1
        check_returns(state, outcome.scores)
        replayed = play_indices(
            game, [CARDS.index(c) for c in hand.deck], [index_of(a) for _, a in hand.history]
        )
        assert replayed is not None
        assert replayed.returns() == state.returns()
        assert state.history() == replayed.history()


def test_openspiels_ismcts_plays_a_hand_through_resampling() -> None:
    # OpenSpiel's Python IS-MCTS deals the hidden cards again at every simulation
    # (resample_from_infostate): it plays player 0 through a whole hand.
    state, decisions = ismcts_decisions(GAME_NAME, simulations=8)
    assert decisions >= 1
    assert sum(state.returns()) == 0


def test_openspiel_refuses_unknown_parameters() -> None:
    check_openspiel_parameters(GAME_NAME, "french")


def test_resampling_keeps_what_the_player_knows() -> None:
    check_resampling(GAME_NAME, 20)
