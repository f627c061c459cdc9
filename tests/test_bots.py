"""Every bot plays whole games legally, from its player's view alone."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from typing import Any

import pytest

from umtali.games.umtali.bots import BOTS, Bot, ExpertBot, SearchBot, make_bot
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import CardSet, card_ascii, card_name, cards_of
from umtali.kernel.deck import seeded_deck


class Spy:
    """Wraps a bot; checks what it is handed and what it answers."""

    def __init__(self, bot: Bot, match: Match) -> None:
        self.bot = bot
        self.name = bot.name
        self.match = match
        self.calls = 0

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        hand = self.match.current
        assert hand is not None
        assert isinstance(view, PlayerView)
        for field in dataclasses.fields(view):
            assert not isinstance(getattr(view, field.name), HandState)
        opponent = 1 - view.player
        assert view.hand.mask == hand.hands[view.player]
        # Nothing of the opponent's hand beyond what he took from the pile in sight.
        assert not view.hand.mask & hand.hands[opponent]
        assert view.opponent_known.mask & ~hand.hands[opponent] == 0
        # No hidden card is named anywhere in what the bot is handed: not the opponent's
        # unknown cards, not the stock, not a face-down discard of the opponent's.
        hidden = hand.hands[opponent] & ~view.opponent_known.mask
        for card in hand.stock_cards():
            hidden |= 1 << card
        for card, face_down in hand.discard_pile():
            # A card he took from the pile in plain sight stays known when he lays it down.
            seen = view.taken_from_pile[opponent].mask >> card & 1
            if face_down and hand.out == opponent and not seen:
                hidden |= 1 << card
        data = view.to_dict()
        del data["opponent_excluded"]  # public: Jacks and what the table accepted
        text = json.dumps(data, ensure_ascii=False) + repr(
            dataclasses.replace(view, opponent_excluded=CardSet(0))
        )
        for card in cards_of(hidden):
            assert f'"{card_ascii(card)}"' not in text
            assert card_name(card) not in text
        move = self.bot.choose(view, rng)
        assert move in view.legal
        self.calls += 1
        return move


def play_game(levels: tuple[str, str], seed: int) -> Match:
    match = Match(kind="game", first_dealer=seed % 2)
    spies = [Spy(make_bot(levels[0]), match), Spy(make_bot(levels[1]), match)]
    while not match.is_over():
        hand = match.new_hand(seeded_deck(f"{seed}/{len(match.hands)}"))
        while not hand.is_over():
            p = hand.player
            hand.push(spies[p].choose(match.view(p), random.Random(len(hand.history))))
    return match


@pytest.mark.parametrize("level", ["random", "greedy", "expert"])
@pytest.mark.parametrize("opponent", ["random", "greedy", "expert"])
def test_a_level_plays_whole_games_legally(level: str, opponent: str) -> None:
    for seed in range(8):
        match = play_game((level, opponent), seed)
        assert match.is_over()
        assert len(match.finished_outcomes()) == 4


@pytest.mark.parametrize("game_chances", [False, True])
def test_search_plays_a_whole_game_legally(game_chances: bool) -> None:
    match = Match(kind="game", first_dealer=0)
    search = SearchBot(playouts=24, game_chances=game_chances)
    spies = [Spy(search, match), Spy(ExpertBot(), match)]
    while not match.is_over():
        hand = match.new_hand(seeded_deck(f"search game/{len(match.hands)}"))
        while not hand.is_over():
            p = hand.player
            hand.push(spies[p].choose(match.view(p), random.Random(len(hand.history))))
    assert len(match.finished_outcomes()) == 4
    assert spies[0].calls > 20


def test_search_plays_a_hand_legally_within_its_budget() -> None:
    match = Match(kind="hand", first_dealer=0)
    bot = SearchBot(playouts=12, max_ms=200)
    spy = Spy(bot, match)
    other = Spy(ExpertBot(), match)
    hand = match.new_hand(seeded_deck("search"))
    slowest = 0.0
    while not hand.is_over():
        p = hand.player
        start = time.perf_counter()
        move = (spy if p == 0 else other).choose(match.view(p), random.Random(len(hand.history)))
        if p == 0:
            slowest = max(slowest, time.perf_counter() - start)
        hand.push(move)
    assert spy.calls > 0
    assert slowest < 2.0  # 200 ms of playouts, plus one playout's overrun at most


class _CountingSearch(SearchBot):
    """A search that remembers how many moves its last decision played out."""

    def choose(self, view: PlayerView, rng: random.Random, **options: Any) -> Move:
        self.played = 0
        return super().choose(view, rng, **options)

    def _playout(
        self, state: HandState, move: Move, root: PlayerView, rng: random.Random, plies: list[int]
    ) -> float:
        before = plies[0]
        margin = super()._playout(state, move, root, rng, plies)
        self.played += plies[0] - before
        return margin


def test_the_search_stops_at_its_move_budget_and_plays_the_same_within_it() -> None:
    # Every decision of a hand, searched with a budget of 2,000 playout moves and with
    # none: the capped search stops within one deal's playouts of the budget, and where
    # the uncapped one played no more than the budget the two chose alike.
    hand = Match(kind="hand", first_dealer=1).new_hand(seeded_deck("plies"))
    capped = _CountingSearch(max_ms=float("inf"), max_plies=2_000)
    free = _CountingSearch(max_ms=float("inf"), max_plies=10**9)
    expert = ExpertBot()
    capped_decisions = alike = 0
    while not hand.is_over():
        view = PlayerView.of(hand, hand.player)
        if hand.player == 0 and len(view.legal) > 1:
            seed = len(hand.history)
            move = capped.choose(view, random.Random(seed))
            one_deal = 6 * 80  # six candidates, a playout shorter than a hand
            assert capped.played < 2_000 + one_deal
            unbounded = free.choose(view, random.Random(seed))
            if free.played <= 2_000:  # it stopped before the budget: so did the other
                assert unbounded == move
                alike += 1
            capped_decisions += capped.played >= 2_000
        else:
            move = expert.choose(view, random.Random(0))
        hand.push(move)
    assert capped_decisions > 0
    assert alike > 0
    with pytest.raises(ValueError, match="one move to play"):
        SearchBot(max_plies=0)


class _Witness(ExpertBot):
    """The expert, remembering the game context of every view it is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.contexts: set[tuple[tuple[int, int], int]] = set()

    def choose(self, view: PlayerView, rng: random.Random, **options: Any) -> Move:
        self.contexts.add((view.game_scores, view.hands_left))
        return super().choose(view, rng, **options)


def test_the_search_s_playouts_see_the_game_as_its_decision_does() -> None:
    # The second hand of a game, Player 1 ahead 41 to 27: the expert plays the last hand
    # otherwise (it chases when trailing and may decline to go out), so the playouts must
    # be told that two hands are still to come, and the totals, or they play every hand
    # as a game's last.
    totals, hands_left = (41, 27), 2
    hand = HandState(seeded_deck("context/1"), dealer=1)
    bot = SearchBot(max_ms=float("inf"), playouts=60, min_deals=4)
    bot.policy = witness = _Witness()
    searched = 0
    expert = ExpertBot()
    while not hand.is_over() and searched < 4:
        view = PlayerView.of(hand, hand.player, totals, hands_left)
        if hand.player == 0 and len(view.legal) > 1:
            witness.contexts.clear()
            move = bot.choose(view, random.Random(len(hand.history)))
            searched += bool(witness.contexts)
            assert witness.contexts <= {(totals, hands_left)}
        else:
            move = expert.choose(view, random.Random(0))
        hand.push(move)
    assert searched >= 2


class _ScriptedSearch(SearchBot):
    """A search whose playouts score each candidate by a script, with noise: the
    expert's choice and the third candidate alike, the second ten points worse."""

    MEANS = (0.0, -10.0, 0.0)

    def __init__(self, racing: bool) -> None:
        super().__init__(playouts=300, max_ms=float("inf"), racing=racing)
        self.noise = random.Random(5)
        self.played = [0, 0, 0]

    def _playout(
        self, state: HandState, move: Move, root: PlayerView, rng: random.Random, plies: list[int]
    ) -> float:
        i = next(i for i, m in enumerate(root.legal) if m == move)
        self.played[i] += 1
        plies[0] += 1
        return self.MEANS[i] + self.noise.gauss(0.0, 5.0)


@pytest.mark.parametrize("racing", [False, True])
def test_racing_plays_a_runner_up_settled_as_worse_no_more(racing: bool) -> None:
    # Three candidates: the second is settled as worse after the first twelve deals;
    # the third stays in doubt. Racing gives the second's playouts to the other two.
    hand = HandState(seeded_deck("racing"), dealer=0)
    while len(hand.legal_actions()) < 3:
        hand.push(ExpertBot().choose(PlayerView.of(hand, hand.player), random.Random(0)))
    view = PlayerView.of(hand, hand.player, (0, 0), 2)  # a hand of a game: points count
    bot = _ScriptedSearch(racing)
    move = bot._search(view, list(view.legal[:3]), random.Random(1), None)
    first, worse, doubtful = bot.played
    assert sum(bot.played) <= 300
    if racing:
        assert worse == bot.min_deals
        assert first == doubtful > 2 * bot.min_deals
    else:
        assert first == worse == doubtful
    assert move != view.legal[1]


class _GambleSearch(SearchBot):
    """A search whose playouts are scripted: the expert's choice a sure +8, the runner-up
    +15 on one deal in four and -20 on the others."""

    def __init__(self, stake: float) -> None:
        super().__init__(playouts=400, max_ms=float("inf"), last_hand_stake=stake)
        self.deals = 0

    def _playout(
        self, state: HandState, move: Move, root: PlayerView, rng: random.Random, plies: list[int]
    ) -> float:
        plies[0] += 1
        if move == root.legal[0]:
            self.deals += 1
            return 8.0
        return 15.0 if self.deals % 4 == 0 else -20.0


@pytest.mark.parametrize(("stake", "gambles"), [(30.0, False), (1000.0, True)])
def test_in_the_last_hand_the_stake_weighs_the_game_against_the_points(
    stake: float, gambles: bool
) -> None:
    # Ten behind before the game's last hand. A sure +8 loses the game by 2; the gamble
    # wins it one time in four (+15) and costs 20 points otherwise. On points, and at the
    # level's stake of 30, the sure +8 is better; when the game is all that counts
    # (a stake of 1,000, the points only breaking ties), the gamble is.
    hand = HandState(seeded_deck("racing"), dealer=0)
    while len(hand.legal_actions()) < 2:
        hand.push(ExpertBot().choose(PlayerView.of(hand, hand.player), random.Random(0)))
    me = hand.player
    view = PlayerView.of(hand, me, (0, 10) if me == 0 else (10, 0), 0)
    sure, gamble = view.legal[:2]
    move = _GambleSearch(stake)._search(view, [sure, gamble], random.Random(1), None)
    assert move == (gamble if gambles else sure)


def test_the_last_hand_s_stake_is_never_negative() -> None:
    with pytest.raises(ValueError, match="stake is 0 points or more, not -1"):
        SearchBot(last_hand_stake=-1.0)
    with pytest.raises(ValueError, match="not nan"):
        SearchBot(last_hand_stake=float("nan"))


def test_the_levels_are_registered_by_name() -> None:
    assert set(BOTS) == {"random", "greedy", "expert", "search"}
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        make_bot("genius")


def test_expert_keeps_the_eleventh_card_and_avoids_a_pair_on_the_top_discard() -> None:
    # Hand 4 after Player 1's draw of J♠ and plays: he holds 4♣ 2♣, the top discard is 4♦.
    # Discarding 4♣ on 4♦ would invite a take-two; the book's player throws the 2♣.
    from umtali.games.umtali.lessons import LESSONS

    lesson = LESSONS[3]
    hand = HandState(lesson.deck(), lesson.dealer)
    assert ExpertBot().choose(PlayerView.of(hand, 1), random.Random(0)) == Move.keep()
    lesson.replay(hand, turn=4, done=len(lesson.turns[3].moves) - 1)
    view = PlayerView.of(hand, 0)
    assert {str(m) for m in view.legal} == {"discard 4♣", "discard 2♣"}
    assert ExpertBot().choose(view, random.Random(0)) == Move.discard_card(
        hand.parse_move("discard 2c").cards[0]
    )


def test_expert_goes_out_face_down() -> None:
    # Hand 4, Player 1's last card 4♣ after playing 3♥: he goes out, face down.
    from umtali.games.umtali.lessons import LESSONS

    lesson = LESSONS[3]
    hand = lesson.replay(turn=6, done=len(lesson.turns[5].moves) - 1)
    move = ExpertBot().choose(PlayerView.of(hand, 0), random.Random(0))
    assert move.kind is MoveKind.DISCARD
    assert move.face_down
