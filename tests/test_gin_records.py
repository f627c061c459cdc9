"""Gin Rummy in the one record format: ``"game": "gin"``, the same envelope, digest and
checks as Umtali's, each hand replayed through ``GinHand`` on load; three- and four-hand
games with their places and each hand's table, replayed through ``umtali.games.gin.party``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_gin import gin_deck
from umtali.games.gin.match import GinMatch, GinPartyMatch
from umtali.games.gin.party import FourHandGame, ThreeHandGame
from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.rules import GIN, OKLAHOMA
from umtali.games.gin.session import GinPlaySession
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.record import load_file, loads
from umtali.kernel.cards import parse_cards
from umtali.kernel.record import (
    RecordError,
    dumps,
    load_any_bytes,
    load_any_file,
    loads_any,
    record_digest,
    record_of,
    save_file,
)


def gin_out_in_one() -> GinMatch:
    """One hand, the dealer (Bob) dealing:

        Ann (non-dealer): A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ K♦     upcard 10♠
        Bob (dealer):     J♥ Q♥ K♥ 5♣ 6♦ 7♥ 8♣ 9♦ 2♣ J♦

    Ann takes 10♠ and knocks with K♦: A♠ to 10♠ is one sequence, gin. Bob's deadwood,
    J♥ Q♥ K♥ laid, is 5 + 6 + 7 + 8 + 9 + 2 + 10 = 47: Ann scores 25 + 47 = 72.
    """
    match = GinMatch(players=("Ann", "Bob"), first_dealer=1)
    hand = match.new_hand(
        gin_deck("As 2s 3s 4s 5s 6s 7s 8s 9s Kd", "Jh Qh Kh 5c 6d 7h 8c 9d 2c Jd", "10s")
    )
    hand.push_text("take")
    hand.push_text("knock Kd")
    return match


def test_a_hand_of_gin_round_trips_with_its_scores() -> None:
    match = gin_out_in_one()
    data = record_of(match)
    assert data["game"] == "gin"
    assert "match" not in data
    assert data["rules"]["preset"] == "standard"
    assert data["hands"] == [
        {
            "dealer": 1,
            "deck": data["hands"][0]["deck"],
            "moves": ["take", "knock Kd"],
            "scores": [72, 0],
        }
    ]
    again = loads_any(dumps(match))
    assert isinstance(again, GinMatch)
    assert again.players == ("Ann", "Bob")
    assert again.hands[0].outcome is not None
    assert again.hands[0].outcome.how == "gin"
    assert again.game.totals() == (72, 0)


def test_whole_games_between_bots_round_trip_both_variants(tmp_path: Path) -> None:
    for rules, seed in ((GIN, "a/0"), (OKLAHOMA, "b/0")):
        session = GinPlaySession.between_bots(("expert", "greedy"), seed, rules=rules)
        session.play_out()
        path = tmp_path / f"{rules.name}.json"
        save_file(session.match, path)
        again = load_any_file(path)
        assert isinstance(again, GinMatch)
        assert again.rules == rules
        assert again.is_over()
        assert [h.history for h in again.hands] == [h.history for h in session.match.hands]
        assert again.game.result() == session.match.game.result()
        assert load_any_bytes(path.read_bytes()).rules == rules


def test_an_umtali_record_still_loads_through_both_readers() -> None:
    match = Match(kind="hand", players=("Ann", "Bob"))
    text = dumps(match)
    assert "game" not in json.loads(text)  # old records have no "game": it means Umtali
    assert isinstance(loads(text), Match)
    assert isinstance(loads_any(text), Match)


def test_the_umtali_readers_refuse_a_gin_record_and_say_what_it_is(tmp_path: Path) -> None:
    path = tmp_path / "gin.json"
    save_file(gin_out_in_one(), path)
    with pytest.raises(RecordError, match="it is a record of Gin Rummy, not of Umtali"):
        load_file(path)


def tampered(change: Any, keep_digest: bool = True) -> str:
    data = json.loads(dumps(gin_out_in_one()))
    change(data)
    if not keep_digest:
        del data["digest"]
    return json.dumps(data)


def test_an_edited_gin_record_is_refused_by_its_digest() -> None:
    def cheat(data: dict[str, Any]) -> None:
        data["hands"][0]["scores"] = [99, 0]

    with pytest.raises(RecordError, match="changed after it was saved"):
        loads_any(tampered(cheat))


def test_an_illegal_move_names_the_hand_and_the_move() -> None:
    # Ann took 10♠ from the pile: she may not throw it back in the same turn.
    def throw_back(data: dict[str, Any]) -> None:
        data["hands"][0]["moves"] = ["take", "discard 10s"]
        del data["hands"][0]["scores"]

    with pytest.raises(RecordError, match=r"hand 1, move 2 'discard 10s': discard 10s is not"):
        loads_any(tampered(throw_back, keep_digest=False))


def test_text_that_is_no_gin_move_is_named() -> None:
    def umtali_move(data: dict[str, Any]) -> None:
        data["hands"][0]["moves"] = ["meld As 2s 3s"]
        del data["hands"][0]["scores"]

    with pytest.raises(
        RecordError, match=r"hand 1, move 1 'meld As 2s 3s': .*not a Gin Rummy move"
    ):
        loads_any(tampered(umtali_move, keep_digest=False))


def test_a_changed_score_is_caught_by_the_replay() -> None:
    def cheat(data: dict[str, Any]) -> None:
        data["hands"][0]["scores"] = [99, 0]

    with pytest.raises(RecordError, match=r"says \[99, 0\] but the moves score \[72, 0\]"):
        loads_any(tampered(cheat, keep_digest=False))


def test_the_wrong_dealer_is_caught() -> None:
    def dealer(data: dict[str, Any]) -> None:
        data["hands"][0]["dealer"] = 0

    with pytest.raises(RecordError, match=r"player 1 deals \(ruling G\)"):
        loads_any(tampered(dealer, keep_digest=False))


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"preset": "texas"}, "'texas' is no Gin Rummy preset; the presets are oklahoma, standard"),
        ({"preset": "standard", "knock_limit": 11}, "knock_limit must be an int from 0 to 10"),
        ({"preset": "standard", "knock_limit": True}, "knock_limit must be an int"),
        ({"preset": "standard", "hands_per_game": 4}, "unknown rule option 'hands_per_game'"),
        ({"preset": "oklahoma", "oklahoma": "yes"}, "oklahoma is true or false"),
    ],
)
def test_bad_gin_rules_are_refused(rules: dict[str, Any], message: str) -> None:
    def change(data: dict[str, Any]) -> None:
        data["rules"] = rules

    with pytest.raises(RecordError, match=f"rules: {message}"):
        loads_any(tampered(change, keep_digest=False))


def test_options_override_the_preset() -> None:
    def house(data: dict[str, Any]) -> None:
        data["rules"] = {"preset": "standard", "game_target": 50}

    match = loads_any(tampered(house, keep_digest=False))
    assert isinstance(match, GinMatch)
    assert match.rules.game_target == 50
    assert match.rules.knock_limit == 10


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(game="poker"), "'game' must be one of umtali, gin"),
        (lambda d: d.update(match="session"), "unknown key 'match'"),
        (lambda d: d.update(first_dealer=2), "'first_dealer' must be 0 or 1"),
        (lambda d: d.update(players=["Ann"]), "a match has two players"),
        (lambda d: d["hands"][0].update(deck=d["hands"][0]["deck"][:51]), "a deck has 52 cards"),
    ],
)
def test_malformed_gin_records_are_refused(change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads_any(tampered(change, keep_digest=False))


def test_a_hand_after_the_game_is_over_is_refused() -> None:
    session = GinPlaySession.between_bots(("greedy", "greedy"), "over/0")
    session.play_out()
    data = json.loads(dumps(session.match))
    data["hands"].append(data["hands"][-1])
    del data["digest"]
    with pytest.raises(RecordError, match=f"hand {len(data['hands'])} is recorded after the game"):
        loads_any(json.dumps(data))


def test_an_unfinished_hand_loads_and_plays_on() -> None:
    match = GinMatch(players=("Ann", "Bob"), first_dealer=1)
    hand = match.new_hand(
        gin_deck("As 2s 3s 4s 5s 6s 7s 8s 9s Kd", "Jh Qh Kh 5c 6d 7h 8c 9d 2c Jd", "10s")
    )
    hand.push_text("pass")
    again = loads_any(dumps(match))
    assert isinstance(again, GinMatch)
    assert again.current is not None
    assert again.current.to_move() == 1  # Bob, the dealer, is offered the upcard next
    again.current.push_text("take")


def test_old_records_keep_their_digests() -> None:
    # Pinned before three- and four-hand records existed: records of two keep both
    # their text and their digest, so every file saved before still loads as it was.
    # (Pinned again when Gin's rules gained the option line_bonus_to_all, which every
    # record now names; a record without it still loads, tests/test_old_records.py.)
    assert record_digest(record_of(gin_out_in_one())) == (
        "sha256:a0f82c050a4c7065166aa336955ae25773d5121e8032e54ccbf3a03be2e7e8e1"
    )
    game = Match(kind="game", first_dealer=1)
    for lesson in LESSONS:
        lesson.replay(game.new_hand(lesson.deck()))
    # (Pinned again when Umtali's rules gained the option discard_taken_to_go_out, which
    # every record now names; a record without it still loads, tests/test_options.py.)
    assert record_digest(record_of(game)) == (
        "sha256:40f694d2cadc28f92689e281d872d394cec96d033656b6b63742118442e05550"
    )


# -- three- and four-hand ------------------------------------------------------------------

# Two hands of ten that make gin with the upcard: the holder of GIN takes 10♠ and knocks
# with K♦ (A♠ to 10♠ is one sequence). The other holds OTHER: J♥ Q♥ K♥ laid, his deadwood
# is 5 + 6 + 7 + 8 + 9 + 2 + 10 = 47, so gin scores 25 + 47 = 72.
GIN_TEN = "As 2s 3s 4s 5s 6s 7s 8s 9s Kd"
OTHER = "Jh Qh Kh 5c 6d 7h 8c 9d 2c Jd"


def three_hand_in_three() -> GinPartyMatch:
    """Three-hand between Ann (player 0), Bob (1) and Cy (2), who drew 4♥, K♣ and 9♠:
    Bob drew highest and plays alone, Cy is on deck, Ann plays for the team.

    Hand 1, Bob alone against Ann, who deals: Bob goes gin, 72 to Bob.
    Hand 2, the lone winner stays; the deal crosses, so Bob deals: Ann goes gin, 72
    to the team, Ann and Cy both.
    Hand 3, Bob lost: Cy plays alone against Bob, who deals again (the deal crosses to
    the team's seat, now Bob's); Ann goes on deck. Cy goes gin: 72, and 144 in all.

    Totals 72, 72, 144: Cy wins. Line bonuses 25 (Ann), 25 (Bob), 50 (Cy), and 100 for
    the game to Cy: 97, 97, 294.
    """
    ann, bob, cy = parse_cards("4h Kc 9s")
    match = GinPartyMatch(ThreeHandGame(drawn=(ann, bob, cy)), players=("Ann", "Bob", "Cy"))
    for winner_at_seat in (0, 1, 0):
        table = match.next_table()
        # The deck deals the non-dealer first; in each of these hands he is the winner,
        # first offered the upcard.
        assert table.dealer_seat != winner_at_seat
        hand = match.deal_next(gin_deck(GIN_TEN, OTHER, "10s")).hand
        hand.push_text("take")
        hand.push_text("knock Kd")
        match.count()
    return match


def test_three_hand_round_trips_with_its_places_and_tables() -> None:
    match = three_hand_in_three()
    assert match.is_over()
    assert match.game.totals() == (72, 72, 144)
    data = record_of(match)
    assert data["party"] == {"size": 3, "drawn": ["4h", "Kc", "9s"]}
    assert "first_dealer" not in data  # the draw says who deals first
    assert [(h["seats"], h["dealer"], h["scores"]) for h in data["hands"]] == [
        ([1, 0], 0, [72, 0]),
        ([1, 0], 1, [0, 72]),
        ([2, 1], 1, [72, 0]),
    ]
    again = loads_any(dumps(match))
    assert isinstance(again, GinPartyMatch)
    assert again.players == ("Ann", "Bob", "Cy")
    assert again.is_over()
    assert isinstance(again.game, ThreeHandGame)
    assert again.game.result().final == (72, 72, 294)  # the line bonus is the winner's
    assert [s.hand.history for s in again.hands] == [s.hand.history for s in match.hands]


def test_every_reader_takes_a_party_record_and_umtali_s_refuses_it_by_name() -> None:
    text = dumps(three_hand_in_three())
    assert isinstance(loads_any(text), GinPartyMatch)
    assert isinstance(loads_any(text, game="gin"), GinPartyMatch)
    with pytest.raises(RecordError, match="it is a record of Gin Rummy, not of Umtali"):
        loads(text)


def party_tampered(change: Any, keep_digest: bool = False) -> str:
    data = json.loads(dumps(three_hand_in_three()))
    change(data)
    if not keep_digest:
        del data["digest"]
    return json.dumps(data)


def test_an_edited_party_record_is_refused_by_its_digest() -> None:
    def more_points(data: dict[str, Any]) -> None:
        data["hands"][2]["scores"] = [99, 0]

    with pytest.raises(RecordError, match="changed after it was saved"):
        loads_any(party_tampered(more_points, keep_digest=True))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # Hand 2: Bob won hand 1 alone, so he stays; Cy may not take his seat.
        (
            lambda d: d["hands"][1].update(seats=[2, 0]),
            r"hand 2: the record seats players \[2, 0\] at it, but player 1 plays alone"
            r" against player 0, player 2 on deck: a lone winner stays",
        ),
        # Hand 3: Bob lost his seat to Cy, who was on deck.
        (
            lambda d: d["hands"][2].update(seats=[1, 0]),
            r"hand 3: the record seats players \[1, 0\] at it, but player 2 plays alone"
            r" against player 1, player 0 on deck",
        ),
        (lambda d: d["hands"][0].update(dealer=1), r"hand 1: .*so player 0 deals \(ruling G\)"),
        (lambda d: d["hands"][0].update(seats=[1.0, 0]), "'seats' are the numbers of the two"),
        (lambda d: d["hands"][0].pop("seats"), "hand 1 has no 'seats'"),
        (lambda d: d["party"].update(drawn=["4h", "4h", "9s"]), "three different cards drawn"),
        (lambda d: d["party"].update(size=4), "a game of 4 players has 4 names, not 3"),
        (lambda d: d["party"].update(size=2), "a game of two has no 'party'"),
        (lambda d: d.update(first_dealer=0), "both a 'party' and a 'first_dealer'"),
        (lambda d: d["hands"].append(d["hands"][-1]), "hand 4 is recorded after the game"),
        (
            lambda d: d["hands"][1].update(scores=[72, 0]),
            r"hand 2: the record says \[72, 0\] but the moves score \[0, 72\]",
        ),
    ],
)
def test_a_tampered_party_record_names_what_is_wrong(change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads_any(party_tampered(change))


def test_four_hand_round_trips_and_keeps_each_deal_whole(tmp_path: Path) -> None:
    party = GinPartySession.between_bots(("greedy", "expert", "greedy", "expert"), 9)
    while not party.is_over():
        for hand in party.deal():
            party.play_out(hand)
        party.count()
    path = tmp_path / "four.json"
    save_file(party.match, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(party.party_game, FourHandGame)
    assert data["party"] == {"size": 4, "first_dealing_team": party.party_game.first_dealers}
    # Deal 1: 0 plays 1 and 2 plays 3; deal 2: 0 plays 3 and 2 plays 1.
    assert [h["seats"] for h in data["hands"][:4]] == [[0, 1], [2, 3], [0, 3], [2, 1]]
    again = load_any_file(path)
    assert isinstance(again, GinPartyMatch)
    assert isinstance(again.game, FourHandGame)
    assert again.game.totals() == party.party_game.totals()
    assert again.game.result() == party.match.game.result()

    # Swapping the two tables of deal 2 puts each player against his partner's opponent.
    data["hands"][2], data["hands"][3] = data["hands"][3], data["hands"][2]
    del data["digest"]
    with pytest.raises(RecordError, match=r"hand 3: .*partners change opponents every deal"):
        loads_any(json.dumps(data))
    data["hands"] = data["hands"][:3]
    with pytest.raises(RecordError, match="ends after hand 3, the first of deal 2"):
        loads_any(json.dumps(data))
