"""``umtali play --game gin --players 3|4``: three- or four-hand Gin Rummy at the
terminal, one person against computers or every seat a person (hot-seat).

The game (who plays whom, the deals, the computers' moves, the totals and the words
between the hands) is a :class:`umtali.games.gin.party_session.GinPartySession`, kept in a
file as a game of two is (:class:`umtali.session.kept.KeptGame`): ``--save``, saved
after every hand, ``save`` at a prompt, saved on the way out, and ``--resume``.
Starting, resuming and stopping are :mod:`umtali.cli.play`'s, the same for every game.

Each hand is played on the two-player screen
(:class:`~umtali.games.gin.terminal.play.GinGame`), which shows each person only his own
view; a hand between two computers is not shown move by move, only its end. Before each
hand the screen says who plays whom, who deals and who sits out; after it, the hand's
end and the running totals (each player's in three-hand, each team's in four-hand).
"""

from __future__ import annotations

from rich.text import Text

from umtali.cli.kept import session_of
from umtali.cli.prompting import Pausing
from umtali.cli.terminal import Terminal, printable
from umtali.games.gin.party_session import GinPartySession, PartyHand
from umtali.games.gin.session import gin_variant
from umtali.games.gin.terminal.play import GinGame
from umtali.games.gin.terminal.render import gin_hand_summary
from umtali.kernel.english import subject
from umtali.session.kept import KeptGame

__all__ = ["PartyPlay", "party_name"]


def party_name(party: GinPartySession) -> str:
    """What is played: "three-hand Gin Rummy", "four-hand Oklahoma Gin"."""
    size = "three-hand" if party.size == 3 else "four-hand"
    return f"{size} {gin_variant(party.rules)}"


class PartyTable(GinGame):
    """One hand of a party game on the two-player screen: its title names the party
    game and the hand's number in it, ``score`` gives the running totals, and ``save``
    keeps the whole party game (``party``)."""

    def __init__(self, party: PartyPlay, hand: PartyHand) -> None:
        super().__init__(party.term, KeptGame(hand.session, None))
        self.party = party
        self.hand = hand

    def hand_title(self, dealer: bool = True) -> str:
        name = party_name(self.party.session)
        title = f"{name[:1].upper()}{name[1:]}, hand {self.hand.number}"
        title += f" (to {self.party.session.rules.game_target})"
        if dealer:
            names = self.names()
            title += f" · {subject(names[self.hand.table.dealer_seat], 'deals')}"
        return title

    def show_score(self) -> None:
        self.party.show_score()

    def save_and_play_on(self) -> None:
        self.party.save_and_play_on()


class PartyPlay(Pausing):
    """A :class:`GinPartySession` at a terminal, kept in a file (:class:`KeptGame`)."""

    score_told = "gives the totals"

    def __init__(self, term: Terminal, kept: KeptGame) -> None:
        super().__init__(term, kept)
        self.session = session_of(kept, GinPartySession)

    def introduce(self, seed: int | None, resumed: str | None) -> None:
        """The first lines: what is played and by whom (the seed only when the player
        gave it: it would reveal the deals), the draw for places or the teams; or which
        saved game is resumed."""
        party = self.session
        if resumed is not None:
            self.term.say(
                Text(f"Resuming the game of {party_name(party)} saved in {printable(resumed)}."),
                whole=True,
            )
            self._say(party.totals_sentence())
            return
        names = ", ".join(printable(name) for name in party.names[:-1])
        seed_text = f" Seed {seed}." if seed is not None else ""
        self.term.say(
            Text.assemble(
                f"A game of {party_name(party)} to {party.rules.game_target}: {names} and"
                f" {printable(party.names[-1])}.{seed_text} Type ",
                ("help", "bold"),
                " at any prompt.",
            )
        )
        self._say(party.draw_sentence())
        self._say(party.teams_sentence())

    def run(self) -> int:
        """Play deal after deal to the end of the game; the exit status, 0."""
        party = self.session
        while not party.is_over():
            self.play_deal()
            if not party.is_over():
                self.pause("Press Enter for the next hand")
        self.term.blank()
        self._say(party.result_sentence(), "bold")
        self.say_where_kept()
        return 0

    def play_deal(self) -> None:
        """Deal and play the next hand (three-hand) or deal (four-hand), or play on the
        one a saved game stopped in; then count it and save the game."""
        party = self.session
        hands = party.deal() if party.needs_deal() else party.under_way()
        self.term.blank()
        self._say(party.seating(hands), "bold")
        for hand in hands:
            if hand.session.to_move() is None:  # over already (a game resumed mid-deal)
                continue
            if not any(player in party.humans for player in hand.table.players):
                party.play_out(hand)
                continue
            if party.hotseat:  # the last person's cards leave the screen
                self.term.clear()
                self._say(party.seating(hands), "bold")
            table = PartyTable(self, hand)
            self.term.blank()
            self.term.say(Text(table.hand_title(), style="bold"))
            if hand.session.match.hands[0].history and not party.hotseat:
                # Resumed mid-hand: what the other did since the person's last move.
                person = next(p for p in hand.table.players if p in party.humans)
                table.tell_recap(hand.table.players.index(person))
            table.play_hand()
        party.count()
        # Saved before the hands' ends are printed: if printing fails, the game is kept.
        self.autosave()
        # The hands' ends are shown once all are played: a four-hand deal's two hands are
        # played at once, so a person learns how the other table went only afterwards.
        for hand in hands:
            names = tuple(printable(name) for name in hand.session.match.players)
            self.term.blank()
            self.term.say(Text(f"Hand {hand.number}: {names[0]} against {names[1]}", style="bold"))
            self.term.say(*gin_hand_summary(hand.session.summarize_hand((names[0], names[1]))))
        self._say(party.deal_sentence())
        self._say(party.totals_sentence(), "bold")

    def show_score(self) -> None:
        """``score``: the running totals."""
        self._say(self.session.totals_sentence())

    def _say(self, sentence: str | None, style: str = "") -> None:
        if sentence is not None:
            self.term.say(Text(printable(sentence), style=style))
