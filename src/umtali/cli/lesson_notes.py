"""Our commentary on the four lesson hands, and the questions put to the learner, as data.

The cards, the moves and the scores live in :mod:`umtali.lessons`; this module holds only
words: for every turn of every lesson, what happens and why, and the questions asked at
chosen moments. The wording is ours throughout (the strategic points come from the rule
book, the sentences do not). Nothing here decides what is legal or what scores: the
lesson command asks the engine, and uses these notes only to explain.

A question names the moment it is asked and the kind of answer it wants; the kind tells
:mod:`umtali.cli.lesson` how to grade it against the engine.

>>> [len(notes.turns) for notes in LESSON_NOTES]
[4, 5, 3, 7]
>>> all(len(notes.questions) >= 3 for notes in LESSON_NOTES)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "LESSON_NOTES",
    "LessonNotes",
    "Moment",
    "Question",
    "QuestionKind",
    "TurnNote",
]

Moment = Literal["start", "after_draw", "before_end", "after_turn", "end"]
"""When a question is asked:

- ``start``: before the turn's first move (before the draw);
- ``after_draw``: after the draw (on the opening turn: once the cards are dealt);
- ``before_end``: before the turn's last move (the discard, the pair, the forfeit);
- ``after_turn``: once the turn is over;
- ``end``: when the hand is over.
"""

QuestionKind = Literal[
    "plays",
    "best_plays",
    "overlapped",
    "discard",
    "may_take",
    "may_take_two",
    "may_discard",
    "safe_discard",
    "should",
    "choice",
    "forfeit",
    "meld_choice",
    "table_points",
    "hand_score",
    "game_score",
]
"""What a question asks, and so how it is graded:

- ``plays``: the cards the player to move must play in this meld phase (the engine's meld
  plans; any plan the rules allow is right);
- ``best_plays``: the same, for the plan that scores the most;
- ``overlapped``: which of the cards played go into overlapped columns ("none" allowed);
- ``discard``: the card to discard, a judgement the book makes (``book``); the engine
  checks the card may be discarded and what the opponent could do with it;
- ``may_take`` / ``may_take_two`` / ``may_discard``: yes or no, decided by the engine's
  legal moves, explained by the engine's reason when the answer is no;
- ``safe_discard``: yes or no for discarding ``card``: the engine looks whether the
  opponent could then take the top two discards;
- ``should``: yes or no, a judgement the book makes (``book``);
- ``choice``: one of ``options``, the book's answer is ``book``;
- ``forfeit``: a ``choice`` about the end of the hand, whose explanation the engine
  completes by playing the rest of the hand;
- ``meld_choice``: which of ``options`` (each a meld, in card text) to lay; the right one
  is the one after which the engine lets the player go out;
- ``table_points``: the points the player to move has on the table now;
- ``hand_score``: both scores of the hand, Player 1 first;
- ``game_score``: both game totals after this hand, Player 1 first.
"""


@dataclass(frozen=True)
class Question:
    """A question put to the learner.

    Attributes:
        turn: the turn it belongs to (1 = the opening turn); ``0`` for an ``end`` question.
        moment: when in that turn it is asked.
        kind: what it asks (see :data:`QuestionKind`).
        prompt: the question, as the learner reads it.
        why: our explanation, shown after the answer whether it was right or wrong.
        book: the book's answer for judgement questions: a card (``"Ah"``), ``"yes"`` or
            ``"no"``, or an option key.
        card: for ``safe_discard``, the card in question.
        options: for ``choice``, ``forfeit`` and ``meld_choice``: (key, text) pairs.
    """

    turn: int
    moment: Moment
    kind: QuestionKind
    prompt: str
    why: str = ""
    book: str = ""
    card: str = ""
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TurnNote:
    """Our commentary on one turn.

    Attributes:
        before: the situation as the turn begins.
        after: what the moves showed, one point a line.
    """

    before: str
    after: tuple[str, ...]


@dataclass(frozen=True)
class LessonNotes:
    """Everything we say about one lesson hand.

    Attributes:
        number: the lesson (1 to 4), as in :data:`umtali.lessons.LESSONS`.
        title: a short title.
        intro: what the lesson is about, before the deal.
        turns: one note per turn of the hand, in order.
        questions: the questions, in the order they are asked.
        summary: the lesson's main points, shown at the end.
    """

    number: int
    title: str
    intro: str
    turns: tuple[TurnNote, ...]
    questions: tuple[Question, ...]
    summary: tuple[str, ...]


Q = Question
N = TurnNote

LESSON_NOTES: Final = (
    LessonNotes(
        number=1,
        title="Laying cards down, Jacks, building on the table, going out",
        intro=(
            "This first hand shows the basic rhythm of a turn: draw a card, put down every"
            " card you are able to, then throw one card away. Player 2 is the dealer and has"
            " kept the eleventh card for himself, which means he starts, and on this first"
            " turn he does not draw. Both hands lie open here so that you can follow every"
            " decision; in a real game you would only ever see your own."
        ),
        turns=(
            N(
                before=(
                    "The opening turn. Player 2 holds eleven cards and skips the draw. Before"
                    " he may discard he has to put down everything the rules let him put down."
                ),
                after=(
                    "K♠ K♥ K♣ are three cards of one rank: a group. They go down as a single"
                    " column, each card partly covering the one below it.",
                    "3♥ 2♥ A♥ run in order in one suit, so they form a sequence. The ace only"
                    " ever counts low. In the column the highest card sits on top.",
                    "No other card of his can go down, so he ends the turn by throwing 5♥"
                    " face up beside the stock. That card starts the discard pile.",
                ),
            ),
            N(
                before=(
                    "Player 1 may start his turn with the 5♥ from the pile or with the unseen"
                    " top card of the stock. The 5♥ would make three fives with his 5♠ and 5♣,"
                    " but his 5♠ is also the low end of 7♠ 6♠ 5♠, and one card can go into only"
                    " one meld: with the 5♥ or without it, he lays one three-card meld. He"
                    " leaves it and draws from the stock."
                ),
                after=(
                    "A Jack can always be put down in the meld phase, after the turn's draw"
                    " or on the opening turn, which has none; but only by itself: it never"
                    " joins a group or a sequence. So J♠ and J♦ each go down alone.",
                    "A card lying alone on the table (a solo card) accepts the card just above"
                    " or just below it in its suit, and any card of its rank. Q♦ sits right"
                    " above J♦, so it goes down too, as a single card beside the Jack.",
                    "7♠ 6♠ 5♠ is a sequence and goes down as one overlapped column.",
                    "He cannot use 10♥ 10♣ 5♣ 4♣ yet, and throws away 6♥. Keep an eye on"
                    " that card.",
                ),
            ),
            N(
                before=(
                    "The pile now shows 6♥ lying on 5♥. A player may pick up the top two"
                    " discards together, but only if he puts both of them down during that"
                    " same turn."
                ),
                after=(
                    "With his own 7♥, the two hearts make 7♥ 6♥ 5♥, so taking both was"
                    " allowed, and both went straight into a sequence.",
                    "10♦ sits just below Player 1's J♦. You may build on your opponent's"
                    " cards; the new card still goes on your own side and counts for you.",
                    "He is left with 9♠ 9♣. Two cards of a rank cannot normally go down, but"
                    " a pair may be laid as the very last play, when it empties the hand. No"
                    " card is left over, so there is nothing to discard.",
                    "Player 2 is out. That does not end the hand at once: Player 1 gets one"
                    " last turn to get rid of his own cards.",
                ),
            ),
            N(
                before=(
                    "Player 1's last turn. The pile is empty (Player 2 took both cards), so"
                    " he must draw from the stock."
                ),
                after=(
                    "4♥ extends Player 2's 7♥ 6♥ 5♥ at the low end. It goes down on Player"
                    " 1's side as a single card and scores for him.",
                    "A solo card, once down, takes further cards in its turn: 4♣ goes beside"
                    " 4♥ (same rank), and 5♣ beside 4♣ (next in the suit).",
                    "10♥ and 10♣ share a rank with Player 2's 10♦, so each goes down by"
                    " itself beside it.",
                    "His hand is empty: he has gone out as well, so no card is handed over.",
                ),
            ),
        ),
        questions=(
            Q(
                turn=1,
                moment="after_draw",
                kind="plays",
                prompt=(
                    "Player 2 opens. Which of his eleven cards must he put down before discarding?"
                ),
                why=(
                    "On an empty table only melds and Jacks can go down. He has no Jack, so"
                    " it is the three Kings and the three low hearts; once they are down, his"
                    " other cards still fit nothing."
                ),
            ),
            Q(
                turn=2,
                moment="after_draw",
                kind="plays",
                prompt="Player 1 has drawn 4♣. Which cards can he put down this turn?",
                why=(
                    "Jacks always go down. Once J♦ is on the table, Q♦ can follow it. The"
                    " spades make a sequence. The tens, 6♥, 5♣ and 4♣ have nothing to build on"
                    " yet."
                ),
            ),
            Q(
                turn=3,
                moment="start",
                kind="may_take_two",
                prompt="The pile shows 6♥ on top of 5♥. May Player 2 pick up both cards?",
                why=(
                    "Two cards may come off the pile together only when both are played in"
                    " the same turn. With 7♥ in hand they make a sequence at once."
                ),
            ),
            Q(
                turn=4,
                moment="start",
                kind="may_take",
                prompt="Player 1's last turn: can he take a card from the discard pile?",
                why=(
                    "Player 2 emptied the pile by taking two cards and went out with a pair,"
                    " so he threw nothing. The stock is the only place left to draw from."
                ),
            ),
            Q(
                turn=0,
                moment="end",
                kind="hand_score",
                prompt=(
                    "Score the hand. Kings, Queens, Jacks and tens are worth 5 points, every"
                    " other card 1, a marriage twice its face value."
                ),
                why=(
                    "Each side scores exactly the cards lying in front of it; cards played"
                    " off the opponent's cards count for the player who laid them."
                ),
            ),
        ),
        summary=(
            "A turn is: draw (except the very first turn), put down everything you can,"
            " then discard, unless your hand is already empty.",
            "Melds (groups, sequences, marriages) go down as overlapped columns, the highest"
            " card on top.",
            "Jacks are always playable, and always alone.",
            "Cards on the table, yours or your opponent's, take more cards, played alone: a"
            " solo card takes its rank or the next card up or down in its suit, a group or a"
            " pair only its rank, a sequence only the next card at either end, and a marriage"
            " nothing. What you add scores for you.",
            "When one player goes out, the other gets exactly one more turn.",
        ),
    ),
    LessonNotes(
        number=2,
        title="Marriages, building on the opponent's cards, the face-down discard",
        intro=(
            "Player 1 won the first hand, so the deal is his. Like every dealer in these"
            " lessons he keeps the eleventh card and plays first. This hand is about what is"
            " playable and what is not, and about the cards you can add to your opponent's"
            " side."
        ),
        turns=(
            N(
                before="Player 1 opens with eleven cards and no draw.",
                after=(
                    "K♦ Q♦ are a King and Queen of one suit: a marriage. It goes down"
                    " overlapped, and both of its cards count double, so it is worth 20 points.",
                    "A marriage is closed: nobody can ever add a card to it.",
                    "Nothing else can go down: his other cards make no meld, and the marriage,"
                    " the only thing on the table, takes nothing. He throws away 3♠.",
                ),
            ),
            N(
                before=(
                    "Player 2 could take the 3♠, but it does nothing for him; he draws from the"
                    " stock and gets 4♦, which does nothing either."
                ),
                after=(
                    "J♣ goes down alone, as Jacks do, and Q♣ follows as the next club up.",
                    "4♥ 3♥ 2♥ is a sequence: one overlapped column.",
                    "He throws back the 4♦ he just drew.",
                ),
            ),
            N(
                before=(
                    "Player 1 passes on the 4♦ and draws 4♣ from the stock. That card is"
                    " exactly what his 5♣ and 3♣ were waiting for."
                ),
                after=(
                    "5♣ 4♣ 3♣ go down together as a sequence.",
                    "10♣ is the club just below Player 2's J♣, so it can be added there; it"
                    " sits on Player 1's side.",
                    "Now his own 10♣ is on the table, 10♦ can join it (same rank).",
                    "Q♠ shares a rank with Player 2's Q♣, so it goes down too.",
                    "9♠ 8♠ are two cards of a run with no third, so they stay. He throws 4♠.",
                ),
            ),
            N(
                before=("Player 2 has five cards: A♠ 9♦ 8♦ 8♣ 2♣. He draws K♠ from the stock."),
                after=(
                    "K♠ is the next spade above Player 1's Q♠.",
                    "9♦ steps down from Player 1's 10♦, 8♦ steps down from 9♦, and 8♣ joins"
                    " 8♦ by rank: each card put down opened the way for the next.",
                    "2♣ extends Player 1's 5♣ 4♣ 3♣ at the bottom.",
                    "Only A♠ is left. Throwing his last card takes him out, and because it is"
                    " his final discard he may lay it face down, so Player 1 cannot pick it up.",
                ),
            ),
            N(
                before=(
                    "Player 1 gets one more turn. With the pile's top card face down, he has to"
                    " draw from the stock: 7♥."
                ),
                after=(
                    "9♠ goes beside Player 2's 9♦ (same rank).",
                    "8♠ then goes down too: it could hang off his own 9♠ or match either of"
                    " Player 2's eights. Which card it is added to changes nothing in the score.",
                    "His last card, 7♥, goes on the pile, and that discard takes him out as well.",
                ),
            ),
        ),
        questions=(
            Q(
                turn=1,
                moment="after_draw",
                kind="plays",
                prompt="Player 1 opens. Which cards can he put down?",
                why=(
                    "Only the King and Queen of diamonds. Q♠ has no King with it, the tens"
                    " and low cards make no group or sequence, and the table is still empty."
                ),
            ),
            Q(
                turn=1,
                moment="before_end",
                kind="table_points",
                prompt="How many points does Player 1 have on the table now?",
                why="A marriage scores its two cards twice over: (5 + 5) × 2.",
            ),
            Q(
                turn=3,
                moment="after_draw",
                kind="plays",
                prompt="Player 1 drew 4♣. Which cards does he put down this turn?",
                why=(
                    "The new 4♣ completes a club sequence. Player 2's J♣ and Q♣ give his 10♣"
                    " and Q♠ a place, and once 10♣ lies on the table, 10♦ can join it."
                ),
            ),
            Q(
                turn=5,
                moment="start",
                kind="may_take",
                prompt=(
                    "Player 2 went out by throwing A♠ face down. Can Player 1 pick that card up"
                    " on his last turn?"
                ),
                why=(
                    "A card lying face down cannot be drawn. That is the point of the"
                    " face-down final discard: it leaves the opponent only the blind stock."
                ),
            ),
            Q(
                turn=0,
                moment="end",
                kind="hand_score",
                prompt="Score the hand, Player 1 first.",
                why=(
                    "Remember the marriage counts double, and every card added to the"
                    " opponent's columns scores for whoever laid it."
                ),
            ),
        ),
        summary=(
            "A King and Queen of one suit make a marriage: 20 points, and closed to additions.",
            "Cards you build on your opponent's columns go on your side and count for you.",
            "One card put down can make the next one playable: always look again.",
            "Going out with a discard, you may lay that last card face down, so the other"
            " player must draw blind.",
        ),
    ),
    LessonNotes(
        number=3,
        title="Three Jacks, two marriages, going out with a pair, forfeited cards",
        intro=(
            "Player 1 deals again and keeps the eleventh card. Watch the Jacks, which never"
            " go down overlapped, a player who goes out with a pair after a face-down"
            " discard, and what becomes of cards still held when the hand ends."
        ),
        turns=(
            N(
                before="Player 1 opens with eleven cards and no draw.",
                after=(
                    "He holds three Jacks. Three of a rank would normally make a group, but"
                    " Jacks never go into overlapped columns, so each is laid alone.",
                    "Q♥ is the heart just above J♥, so it goes down beside it; Q♣ then"
                    " joins Q♥ by rank. A single card on the table is a base for more cards.",
                    "Nothing went down overlapped this turn. 10♣ 9♣ need a third club and"
                    " cannot use a Jack. He throws away 4♠.",
                ),
            ),
            N(
                before="Player 2 ignores the 4♠ and draws Q♦, the Queen his K♦ was missing.",
                after=(
                    "K♠ Q♠ and K♦ Q♦ are two marriages: 40 points in four cards.",
                    "10♦ sits just below Player 1's J♦.",
                    "3♣ could go into a group with 3♠ 3♦ or into a sequence with 5♣ 4♣. He"
                    " chooses the sequence 5♣ 4♣ 3♣.",
                    "That leaves 3♠ 3♦ 2♦: he throws 2♦ face down and lays 3♠ 3♦ as a pair,"
                    " which takes him out.",
                ),
            ),
            N(
                before=(
                    "Player 1's last turn. The top discard is face down, so he draws from the"
                    " stock: 4♥."
                ),
                after=(
                    "10♣ joins Player 2's 10♦ by rank; 9♣ steps down from 10♣; 9♠ joins 9♣"
                    " by rank.",
                    "2♣ extends Player 2's 5♣ 4♣ 3♣ at the bottom.",
                    "7♠ and 4♥ fit nowhere. He cannot go out, and on this last turn a discard"
                    " is allowed only as part of going out. So he keeps both, and they are"
                    " handed to Player 2, who scores them.",
                ),
            ),
        ),
        questions=(
            Q(
                turn=1,
                moment="after_draw",
                kind="plays",
                prompt="Player 1 opens. Which of his cards can he put down?",
                why=(
                    "Jacks always go down, and each Jack then opens the way for the cards"
                    " next to it: Q♥ off J♥, and after it Q♣ off Q♥."
                ),
            ),
            Q(
                turn=1,
                moment="after_draw",
                kind="overlapped",
                prompt="And which of those cards go down overlapped? (Answer 'none' if none.)",
                why=(
                    "None. Jacks are never overlapped, even three of them, and a card added"
                    " to a card already on the table always goes down alone."
                ),
            ),
            Q(
                turn=2,
                moment="after_draw",
                kind="meld_choice",
                prompt=(
                    "3♣ fits two melds: the sequence 5♣ 4♣ 3♣ or the group 3♠ 3♦ 3♣. Which"
                    " should Player 2 lay?"
                ),
                why=(
                    "Both score the same 3 points. The difference is what stays in his hand:"
                    " only one choice leaves a pair he can go out with."
                ),
                options=(("sequence", "5c 4c 3c"), ("group", "3s 3d 3c")),
            ),
            Q(
                turn=3,
                moment="start",
                kind="forfeit",
                prompt=(
                    "Player 2 is out. Suppose Player 1 still holds cards he cannot use when this"
                    " last turn ends. What becomes of them?"
                ),
                why=(
                    "On the last turn there is no discarding to tidy up: a discard is allowed"
                    " only as part of going out. Whatever is left goes to the player who"
                    " went out."
                ),
                book="b",
                options=(
                    ("a", "He discards one card, as on any turn, and keeps the rest."),
                    ("b", "The cards left in his hand go to Player 2 and score for him."),
                    ("c", "The cards left in his hand score for nobody."),
                ),
            ),
            Q(
                turn=0,
                moment="end",
                kind="hand_score",
                prompt="Score the hand, Player 1 first. Don't forget the cards handed over.",
                why=(
                    "Player 2's table holds two marriages. The two cards Player 1 could not"
                    " play count for Player 2 at face value."
                ),
            ),
        ),
        summary=(
            "Jacks never go into an overlapped column, however many you hold.",
            "When a card could go into two melds you choose; think about what it leaves in"
            " your hand.",
            "A pair may be laid only to go out, if need be after discarding one last card.",
            "On the last turn you may not discard unless it takes you out; cards you are left"
            " holding score for the player who went out.",
        ),
    ),
    LessonNotes(
        number=4,
        title="Thinking ahead: discards, the score, the last hand of a game",
        intro=(
            "Hand four closes the game. Player 2 won hand 3 and deals; he keeps the eleventh"
            " card. Going in, Player 1 leads by 104 to 102. This time we look at the choices"
            " behind the moves: what to throw away, and when a card on the pile is worth"
            " taking."
        ),
        turns=(
            N(
                before=(
                    "Player 2 opens with eleven cards, and not one of them can go down. All he"
                    " can do is choose a discard."
                ),
                after=(
                    "He throws A♥. It belongs to nothing: no pair, no near-sequence, and it is"
                    " worth only 1 point.",
                ),
            ),
            N(
                before=(
                    "A♥ is exactly what Player 1 needs: he holds A♠ and A♦. He takes it from"
                    " the pile."
                ),
                after=(
                    "A♠ A♥ A♦ go down as a group.",
                    "He holds K♣ and three Queens. Q♣ can marry K♣ or join Q♠ Q♦ in a group,"
                    " not both. The marriage is worth 20, the group of Queens 15, so he lays"
                    " the marriage.",
                    "He throws 3♦.",
                ),
            ),
            N(
                before=(
                    "Player 1 has laid 23 points and holds just five cards; Player 2 has"
                    " laid nothing. The 3♦ on the pile would give him a group"
                    " of threes."
                ),
                after=(
                    "He takes the 3♦ and lays 3♠ 3♦ 3♣: three points.",
                    "Is that the wise play? The game is nearly even, Player 1 is racing"
                    " ahead, and three points will not close the gap. A card from the stock"
                    " could have been one of the four Jacks, none of which has shown up yet,"
                    " or the Q♥ that would marry his K♥. A seasoned player would draw from the"
                    " stock here.",
                    "He throws 4♦.",
                ),
            ),
            N(
                before="Player 1 leaves the 4♦ and draws J♠ from the stock.",
                after=(
                    "J♠ goes down alone; 10♠ hangs below it and Q♠ above it, each by itself;"
                    " Q♦ then joins Q♠ by rank.",
                    "He has 4♣ and 2♣ left and must throw one. With 4♦ on top of the pile, a"
                    " second four would let his opponent pick up both fours together if he can"
                    " use them. So he keeps the 4♣ and throws 2♣.",
                ),
            ),
            N(
                before="Player 2 draws J♥ and lays it.",
                after=(
                    "J♥ goes down alone.",
                    "Normally 2♠ would be his discard: it is the loosest card he has. But 2♣"
                    " is on top of the pile and Player 1 holds a single card. A second two"
                    " would let Player 1 take both twos, throw his 4♣ and go out with the pair.",
                    "So he breaks up his sixes instead and throws 6♦.",
                ),
            ),
            N(
                before="Player 1 draws 3♥ from the stock.",
                after=(
                    "3♥ joins Player 2's group of threes by rank.",
                    "His last card, 4♣, goes on the pile face down: he is out, and Player 2"
                    " must draw blind.",
                ),
            ),
            N(
                before="Player 2's last turn. He draws 7♦ from the stock.",
                after=(
                    "None of his seven cards can go down, and on this turn a discard is allowed"
                    " only as part of going out.",
                    "All seven cards go to Player 1, who scores them.",
                ),
            ),
        ),
        questions=(
            Q(
                turn=1,
                moment="after_draw",
                kind="plays",
                prompt="Player 2 opens. Which of his cards can he put down? ('none' if none)",
                why=(
                    "He has no three of a rank, no three in a row of one suit, no King with"
                    " its Queen, no Jack, and the table is empty."
                ),
            ),
            Q(
                turn=1,
                moment="before_end",
                kind="discard",
                prompt="Player 2 has to throw something. Which card is the best one to let go?",
                book="Ah",
                why=(
                    "Throw the card that helps you least and your opponent least. His King"
                    " could hand Player 1 a marriage. The threes, sixes and nines are pairs,"
                    " one card short of a group. 3♠ 2♠, 6♣ 5♣ and 6♦ 4♦ are each one card short"
                    " of a small sequence. A♥ is part of nothing."
                ),
            ),
            Q(
                turn=2,
                moment="after_draw",
                kind="best_plays",
                prompt=(
                    "Player 1 took A♥. Which cards should he put down to score the most this turn?"
                ),
                why=(
                    "The aces make a group. Q♣ is needed both for the marriage with K♣ and for"
                    " a group of Queens; the marriage scores 20, the group 15."
                ),
            ),
            Q(
                turn=3,
                moment="start",
                kind="should",
                prompt="Is picking up the 3♦ a good idea for Player 2?",
                book="no",
                why=(
                    "The book's view: no. It is the last hand and the game is close, but"
                    " Player 1 has 23 points laid. Three points from the threes change"
                    " little; a card from the stock might be a Jack (none has been seen) or"
                    " the Q♥ for his K♥. In the game, Player 2 took it anyway."
                ),
            ),
            Q(
                turn=4,
                moment="before_end",
                kind="discard",
                prompt="Player 1 holds 4♣ and 2♣, and 4♦ is the top discard. Which does he throw?",
                book="2c",
                why=(
                    "Don't put a card on top of its twin: two fours on the pile could be picked"
                    " up together by an opponent able to use them both."
                ),
            ),
            Q(
                turn=5,
                moment="before_end",
                kind="safe_discard",
                card="2s",
                prompt=(
                    "Player 2 would usually throw his 2♠. Is that safe here, with 2♣ on the pile"
                    " and Player 1 down to one card?"
                ),
                why=(
                    "Check what your discard gives the other player together with the card"
                    " beneath it. Player 2 throws 6♦ instead."
                ),
            ),
            Q(
                turn=7,
                moment="before_end",
                kind="may_discard",
                prompt=(
                    "Player 2 cannot put down any of his seven cards. May he at least discard"
                    " one of them?"
                ),
                why=(
                    "On the last turn a discard is allowed only if it takes you out. Every card"
                    " still in hand goes to the player who went out."
                ),
            ),
            Q(
                turn=0,
                moment="end",
                kind="hand_score",
                prompt="Score the hand, Player 1 first.",
                why=(
                    "Player 1's marriage counts double, and Player 2's seven stranded cards are"
                    " added to Player 1's score at face value."
                ),
            ),
            Q(
                turn=0,
                moment="end",
                kind="game_score",
                prompt=(
                    "The game is over after four hands. What are the final totals, Player 1"
                    " first? (After hand 3 it stood at 104 to 102.)"
                ),
                why="A game is four hands; the totals of the four hand scores decide it.",
            ),
        ),
        summary=(
            "A King or Queen on the pile may complete your opponent's marriage: part with them"
            " last.",
            "Keep pairs and near-sequences; throw the card that belongs to nothing.",
            "Never put a card on the pile that pairs or runs with the card under it: the"
            " top two can be taken together.",
            "Watch the score and your opponent's hand size: a few safe points can cost you the"
            " chance of the bigger ones you need.",
            "Keeping the eleventh card means the dealer moves first, so even if his opponent"
            " goes out at once he still gets a second turn.",
        ),
    ),
)
