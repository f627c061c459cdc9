"""The ``search`` level: determinized Monte Carlo over the choices that matter.

At a draw, a discard or a meld-phase play, with more than one choice, it starts from the
expert's choice and its runners-up (the expert's best six discards, every way to draw, or
one play of each meld or card the meld phase could lay where the phase can end in more
than one hand). It deals the cards it cannot see in agreement with its view, the
opponent's hidden cards drawn from what his play says of them
(:class:`~umtali.games.umtali.bots.belief.Belief`: what he took, discarded and left on
the pile), plays every candidate out on that same deal to the end of the hand with the
expert policy for both players, and records each one's score difference (its hand score
minus the opponent's) against the expert's choice. It keeps the expert's choice unless
another candidate beats it clearly: by a mean margin of more than ``confidence``
standard errors. A playout is valued by its margin (the bot's hand score minus the
opponent's), except in the last hand of a game, where turning the game's result is
worth ``LAST_HAND_STAKE`` points more (and, with ``game_chances``, before it too, where a
playout is valued mostly by the chance of winning the game it leaves).

The search is anytime: the budget is a number of playouts, a number of moves played in
them (``max_plies``, which bounds the slowest decisions, those whose playouts are long,
the same on any machine) and a time limit (1 s), and a decision stops sooner, after at
least ``min_deals`` deals, once every runner-up is settled: clearly worse than the
expert's choice (``SETTLED_WORSE`` standard errors below it, or playing out identically)
or clearly better (``SETTLED_BETTER`` above), which is why its median decision takes
milliseconds. With ``racing``, a runner-up settled as worse is played no more while the
others go on, so the budget goes to the choices still in doubt (as Gin Rummy's search
does). A ``deadline`` handed to :meth:`SearchBot.choose` (a server's thinking budget)
stops it too, between two deals; with fewer than two deals played, the expert's choice
stands. ``SearchBot(candidates=3, playouts=240, belief=False, melds=False)`` is the
search as it was before issue 26: uniform deals, the meld phase left to the expert.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from umtali.games.api import Deadline
from umtali.games.umtali.bots.belief import Belief
from umtali.games.umtali.bots.discard_model import DiscardModel
from umtali.games.umtali.bots.evaluate import situation
from umtali.games.umtali.bots.expert import ExpertBot
from umtali.games.umtali.melds import SOLO_ACCEPTS, meld_accepts, meld_plans
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terms import Phase
from umtali.games.umtali.view import PlayerView, ViewError, determinize
from umtali.kernel.cards import mask_of
from umtali.kernel.paired import PairedMargins

__all__ = ["SearchBot"]

SETTLED_WORSE = 2.0
"""A runner-up whose mean margin is this many standard errors below zero is settled."""
MAX_PLIES = 16_000
"""The most moves a decision plays in its playouts. The 600 playouts of a decision early
in a hand play up to some 23,000 moves, and a move of a playout (the expert's choice from
a view, for both players) took 65 µs on average and up to 95 µs on this project's 2-core
machine on 2026-11-29 (23 µs on the faster machine of 2026-11-28): 16,000 keeps the
slowest decision near 1.5 s, under the 2 s bound, and cuts the playouts of about one
decision in twelve; most stop far sooner (docs/BOTS.md)."""
READING = 0.0
"""The temperature of the reading of his last discard (``SearchBot(reading=...)``), in
points; 0, the default, reads nothing more than the belief: at the model's own
temperature (:data:`~umtali.games.umtali.bots.discard_model.TEMPERATURE`) it made the
search no stronger against the expert (docs/BOTS.md)."""
LAST_HAND_STAKE = 30.0
"""In the last hand of a game (or a lone hand), what winning rather than losing the game
is worth, in points, on top of the hand's margin."""
SETTLED_BETTER = 3.0
"""A runner-up whose mean margin is this many standard errors above zero is settled."""


class SearchBot:
    """Determinized playouts with the expert policy; see the module docstring.

    Args:
        playouts: the most playouts per decision (over all candidates).
        max_plies: the most moves played in a decision's playouts (over all of them):
            a bound on its work that, unlike ``max_ms``, gives the same choice on any
            machine.
        max_ms: the most time per decision, in milliseconds.
        candidates: how many of the expert's choices to compare (its choice first).
        confidence: standard errors by which a runner-up must beat the expert's choice.
        min_deals: deals played before a decision may stop early.
        belief: deal the opponent's hidden cards from what his play says of them
            (:class:`~umtali.games.umtali.bots.belief.Belief`), not uniformly.
        reading: with ``belief``, read his last discard as the expert would have made
            it (:class:`~umtali.games.umtali.bots.discard_model.DiscardModel`): the
            model's temperature, in points; 0 reads nothing more.
        melds: search the meld phase too, where its plays can end in different hands.
        game_chances: before a game's last hand, value a playout by the chance of
            winning the game it leaves (mostly) rather than by its points (see
            :func:`_utility`); off by default, as its worth is not yet measured.
        racing: play a runner-up no more once it is clearly worse than the expert's
            choice, so the budget goes to the runners-up still in doubt.
        last_hand_stake: in a game's last hand, what turning the game's result is worth
            on top of the hand's margin, in points (:data:`LAST_HAND_STAKE`).
    """

    name = "search"

    def __init__(
        self,
        playouts: int = 600,
        max_ms: float = 1000.0,
        candidates: int = 6,
        confidence: float = 1.0,
        min_deals: int = 12,
        *,
        max_plies: int = MAX_PLIES,
        belief: bool = True,
        reading: float = READING,
        melds: bool = True,
        game_chances: bool = False,
        racing: bool = False,
        last_hand_stake: float = LAST_HAND_STAKE,
    ) -> None:
        if playouts < 1 or max_plies < 1 or max_ms <= 0 or candidates < 2 or reading < 0:
            raise ValueError(
                "the search bot needs at least one playout and one move to play in them,"
                " some time, and two candidates (and reads no discard at a negative"
                " temperature)"
            )
        if not last_hand_stake >= 0:
            raise ValueError(f"the last hand's stake is 0 points or more, not {last_hand_stake!r}")
        self.playouts = playouts
        self.max_plies = max_plies
        self.max_ms = max_ms
        self.candidates = candidates
        self.confidence = confidence
        self.min_deals = min_deals
        self.belief = belief
        self.reading = reading
        self.melds = melds
        self.game_chances = game_chances
        self.racing = racing
        self.last_hand_stake = last_hand_stake
        self.policy = ExpertBot()

    def choose(
        self, view: PlayerView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> Move:
        legal = view.legal
        if not legal:
            raise ValueError("the search bot was asked to move when it has no legal move")
        kinds = {m.kind for m in legal}
        plays = kinds & {MoveKind.MELD, MoveKind.SOLO}
        searchable = kinds & {MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO} or (
            MoveKind.DISCARD in kinds and not plays
        )
        if plays and self.melds and len(legal) > 1:
            candidates = self._play_candidates(view, rng)
        elif not searchable:
            return self.policy.choose(view, rng)
        else:
            candidates = self._candidates(view, _distinct(legal), rng)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, candidates, rng, deadline)

    def _candidates(self, view: PlayerView, moves: list[Move], rng: random.Random) -> list[Move]:
        """The expert's choice first, then its runners-up."""
        discards = [m for m in moves if m.kind is MoveKind.DISCARD and not m.face_down]
        if discards and len(discards) == len(moves):
            return self.policy.rank_discards(view, discards, situation(view))[: self.candidates]
        first = self.policy.choose(view, rng)
        return [first, *[m for m in moves if m != first]][: self.candidates]

    def _play_candidates(self, view: PlayerView, rng: random.Random) -> list[Move]:
        """In the meld phase, the expert's play first, then plays that lead elsewhere: one
        play of each different meld or card laid, and only where the meld phase can end
        in more than one hand (otherwise the order of the plays changes nothing)."""
        first = self.policy.choose(view, rng)
        open_mask = view.open_mask()
        if len(meld_plans(view.hand.mask, open_mask, view.rules.marriage_multiplier)) < 2:
            return [first]
        out = [first]
        seen = {_play_key(first, open_mask)}
        for m in view.legal:
            key = _play_key(m, open_mask)
            if key not in seen:
                seen.add(key)
                out.append(m)
        return out[: self.candidates]

    def _deal(self, view: PlayerView) -> Callable[[random.Random], HandState]:
        """How this decision deals the cards it cannot see: from the belief (and what his
        last discard says), or at random."""
        if self.belief and view.phase is not Phase.CHOOSE:
            try:
                belief = Belief.of(view)
            except ViewError:
                pass
            else:
                model = DiscardModel.of(view, self.reading) if self.reading else None
                chance = None if model is None else model.chance
                return lambda rng: belief.determinize(view, rng, chance=chance)
        return lambda rng: determinize(view, rng, undo=False)

    def _search(
        self,
        view: PlayerView,
        candidates: list[Move],
        rng: random.Random,
        due: Deadline | None,
    ) -> Move:
        deadline = time.perf_counter() + self.max_ms / 1000
        utility = _utility(view, self.game_chances, self.last_hand_stake)
        # Per runner-up, its score minus the expert's choice's deal by deal (a paired
        # comparison cancels the deal's luck). With ``racing``, a runner-up clearly worse
        # is played no more.
        runners_up = [PairedMargins() for _ in candidates]
        open_ = list(range(1, len(candidates)))
        deals = 0
        done = 0
        plies = [0]  # moves played in the playouts so far
        deal = self._deal(view)
        while (
            open_
            and done < self.playouts
            and plies[0] < self.max_plies
            and time.perf_counter() < deadline
            and (due is None or not due.passed())
        ):
            world = deal(rng)
            first = utility(self._playout(world.clone(), candidates[0], view, rng, plies))
            for i in open_:
                score = utility(self._playout(world.clone(), candidates[i], view, rng, plies))
                runners_up[i].add(score - first)
            deals += 1
            done += 1 + len(open_)
            if deals >= self.min_deals and deals % 4 == 0:
                if self.racing:
                    open_ = [i for i in open_ if not _worse(runners_up[i])]
                if all(_worse(runners_up[i]) or _better(runners_up[i]) for i in open_):
                    break  # more playouts are unlikely to change the choice
        best, best_margin = 0, 0.0
        for i in range(1, len(candidates)):
            if runners_up[i].deals >= 2:
                mean, error = runners_up[i].mean_and_error()
                if mean > best_margin and mean > self.confidence * error:
                    best, best_margin = i, mean
        return candidates[best]

    def _playout(
        self, state: HandState, move: Move, root: PlayerView, rng: random.Random, plies: list[int]
    ) -> float:
        """``move`` played out to the end of the hand on ``state``; its margin for the
        player of ``root``, the decision's view. Adds the moves played to ``plies[0]``.

        Both players see the game as the root does (its totals, the hands still to come):
        the expert plays the last hand of a game otherwise than the others (it chases when
        trailing, and may decline to go out), so a playout without them would have both
        players play every hand as if it ended the game."""
        start = len(state.history)
        state.push(move)
        policy = self.policy
        me, scores, hands_left = root.player, root.game_scores, root.hands_left
        while not state.is_over():
            actions = state.legal_actions()
            if len(actions) == 1:
                state.push(actions[0])
                continue
            p = state.player
            seen = PlayerView.of(state, p, scores, hands_left, with_history=False)
            state.push(policy.choose(seen, rng))
        plies[0] += len(state.history) - start
        outcome = state.outcome()
        assert outcome is not None
        return float(outcome.scores[me] - outcome.scores[1 - me])


HAND_SPREAD = 19.0
"""The standard deviation of one hand's margin between two good players, in points: 18.9
over 1,600 hands of the search against the expert (seeds 1013-1017, docs/BOTS.md). With
``SearchBot(game_chances=True)`` the hands still to come are taken to add a margin of
mean 0 and this spread each."""
POINTS_SHARE = 0.2
"""With ``game_chances``, the share of a playout's worth that stays its points, so that a
game all but decided still prefers more points to fewer."""


def _utility(
    view: PlayerView, game_chances: bool = False, stake: float = LAST_HAND_STAKE
) -> Callable[[float], float]:
    """How the bot values a playout's margin (its hand score minus the opponent's).

    Before the last hand of a game, points are what count; with ``game_chances`` the
    chance of winning the game counts instead (mostly), as the normal curve gives it
    from the lead after this hand and the hands to come (``HAND_SPREAD`` each): ahead,
    a sure small margin is worth more than a gamble on a larger one; behind, less. It is
    scaled so that in a level game a point is worth a point. In the last hand the game
    is won by the total, so a margin that turns the game's result weighs far more than
    the same points elsewhere: ``stake`` (:data:`LAST_HAND_STAKE` unless told) for each
    side of the win-or-lose line.

    >>> from umtali.games.umtali.state import HandState
    >>> from umtali.kernel.deck import seeded_deck
    >>> hand = HandState(seeded_deck(1), dealer=0)
    >>> ahead = _utility(PlayerView.of(hand, 0, (70, 30), 1), game_chances=True)
    >>> round(ahead(10) - ahead(0), 1), round(ahead(-40) - ahead(-50), 1)
    (2.5, 9.6)
    >>> _utility(PlayerView.of(hand, 0, (70, 30), 1))(10.0)
    10.0
    """
    me, other = view.player, 1 - view.player
    lead = view.game_scores[me] - view.game_scores[other]
    if view.hands_left > 0:
        if not game_chances:
            return float
        spread = HAND_SPREAD * math.sqrt(view.hands_left)
        # Φ's slope at 0 is 1/√(2π): so weighted, a point is worth a point when level.
        worth = (1 - POINTS_SHARE) * spread * math.sqrt(2 * math.pi)

        def chances(margin: float) -> float:
            won = 0.5 * (1 + math.erf((lead + margin) / (spread * math.sqrt(2))))
            return POINTS_SHARE * margin + worth * won

        return chances

    def last_hand(margin: float) -> float:
        final = lead + margin
        return margin + stake * ((final > 0) - (final < 0))

    return last_hand


def _worse(runner_up: PairedMargins) -> bool:
    """Whether a runner-up is settled as clearly worse than the expert's choice (or as
    playing out the same): ``SETTLED_WORSE`` standard errors below it."""
    return runner_up.clearly_below(0.0, SETTLED_WORSE)


def _better(runner_up: PairedMargins) -> bool:
    """Whether a runner-up is settled as clearly better than the expert's choice."""
    return runner_up.clearly_above(0.0, SETTLED_BETTER)


def _play_key(move: Move, open_mask: int) -> tuple[int, int]:
    """What a meld-phase play changes: the cards it lays and what the table accepts then
    (the same card played off another table card changes nothing more)."""
    mask = mask_of(move.cards)
    if move.kind is MoveKind.MELD:
        return mask, open_mask | meld_accepts(mask)
    if move.kind is MoveKind.SOLO:
        return mask, open_mask | SOLO_ACCEPTS[move.cards[0]]
    return mask, -1 - int(move.kind)


def _distinct(legal: tuple[Move, ...]) -> list[Move]:
    """The legal moves with solos that differ only in the card played off merged."""
    seen: set[tuple[MoveKind, tuple[int, ...]]] = set()
    out = []
    for m in legal:
        key = (m.kind, m.cards) if m.kind is MoveKind.SOLO else (m.kind, (m.action,))
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out
