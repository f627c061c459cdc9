"""The replay API (``POST /api/replay``, umtali.web.routers.learning) on every kind of record the
project writes: Umtali under the practical rules, Gin Rummy between two (standard and
Oklahoma), and three- and four-hand Gin Rummy. Each record is written by the library in
the test, sent as a file's bytes, and its steps and scores are checked against the
engine's and against what ``umtali replay`` prints for the same file."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from umtali.cli.main import main as umtali
from umtali.games.gin.match import GinMatch, GinPartyMatch
from umtali.games.gin.party import FourHandGame
from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.rules import GIN_PRESETS
from umtali.games.gin.session import GinPlaySession
from umtali.games.umtali.rules import PRACTICAL
from umtali.games.umtali.session import PlaySession
from umtali.kernel.cards import card_ascii, cards_of, display_key, parse_cards
from umtali.kernel.record import dumps, save_file
from umtali.web.routers import learning
from umtali.web.routers.learning import REPLAY_PATH


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(learning.router())
    with TestClient(app) as test_client:
        yield test_client


def _replayed(client: TestClient, match: object) -> dict[str, Any]:
    reply = client.post(REPLAY_PATH, content=dumps(match).encode())
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def _printed(match: object, tmp_path: Path) -> str:
    """What ``umtali replay`` prints for the record of ``match``."""
    path = tmp_path / "record.json"
    save_file(match, path)
    out = io.StringIO()
    assert umtali(["replay", str(path)], out=out) == 0
    return out.getvalue()


def _ascii(mask: int) -> list[str]:
    return [card_ascii(card) for card in sorted(cards_of(mask), key=display_key)]


def _sentences(data: dict[str, Any]) -> list[str]:
    return [line for hand in data["hands"] for step in hand["steps"] for line in step["sentences"]]


def _told_as_the_terminal_tells_it(data: dict[str, Any], printed: str) -> None:
    """Every heading, hand title, turn, move and result of the reply is printed by
    ``umtali replay``, in the same order."""
    lines = [data["heading"]]
    if data["seating"]:
        lines.append(data["seating"])
    for hand in data["hands"]:
        lines.append(f"== {hand['title']} ==")
        for step in hand["steps"]:
            if step["player"] is not None:
                lines.append(step["title"][0].lower() + step["title"][1:])
            lines += [f"    {sentence}" for sentence in step["sentences"]]
        if hand["result"] is not None:
            lines.append(hand["result"])
        if hand["totals"] is not None:
            lines.append(hand["totals"])
    # Only a game of Gin Rummy tells its end with the bonuses (its own key).
    if data.get("gin_result") is not None:
        lines.append(data["gin_result"])
    if data["end"] is not None:
        lines.append(data["end"])
    at = 0
    for line in lines:
        found = printed.find(line, at)
        assert found >= 0, f"not printed (after character {at}): {line!r}"
        at = found + len(line)


# -- Gin Rummy between two -----------------------------------------------------------------


def _knock_deck() -> list[int]:
    """A deal in which Bob (Player 2, who does not deal) takes the upcard and knocks at
    once. The deal alternates, Bob first; the 21st card is the upcard.

        Bob:  7♠ 8♠ 9♠ · K♣ K♦ K♥ · 2♥ 3♥ 4♥ · 5♣        upcard A♦
        Ann:  10♠ J♠ Q♠ · 6♦ 6♣ 6♠ · 5♥ 9♦ 4♣ 2♦
    """
    bob = parse_cards("7s 8s 9s Kc Kd Kh 2h 3h 4h 5c")
    ann = parse_cards("10s Js Qs 6d 6c 6s 5h 9d 4c 2d")
    upcard = parse_cards("Ad")
    dealt = set(bob + ann + upcard)
    return (
        [card for pair in zip(bob, ann, strict=True) for card in pair]
        + upcard
        + [card for card in range(52) if card not in dealt]
    )


def test_a_knock_is_stepped_through_and_scored_as_the_engine_counts_it(
    client: TestClient, tmp_path: Path
) -> None:
    match = GinMatch(first_dealer=0, players=("Ann", "Bob"))
    hand = match.new_hand(_knock_deck())
    hand.push_text("take")  # Bob takes A♦: 11 cards, deadwood A♦ and 5♣
    hand.push_text("knock 5c")  # and knocks, face down, with 1 (A♦)
    data = _replayed(client, match)
    assert data["game"] == "gin"
    assert data["heading"] == "Gin Rummy between Ann (Player 1) and Bob (Player 2), to 100"
    assert data["names"] == ["Ann", "Bob"]
    (told,) = data["hands"]
    assert told["title"] == "Hand 1 · Player 1 deals"
    assert told["dealer"] == 0
    assert told["names"] == ["Ann", "Bob"]
    deal, turn = told["steps"]
    assert (deal["title"], deal["player"], deal["sentences"]) == ("The deal", None, [])
    board = deal["board"]
    assert board["game"] == "gin"
    assert board["pile"] == ["Ad"]
    assert (board["stock"], board["knock_limit"], board["multiplier"]) == (31, 10, 1)
    # Both hands face up, each laid out in the melds that leave the least deadwood.
    bob = board["hands"][1]
    assert bob["melds"] == [["Kc", "Kd", "Kh"], ["2h", "3h", "4h"], ["7s", "8s", "9s"]]
    assert (bob["deadwood"], bob["deadwood_points"]) == (["5c"], 5)
    ann = board["hands"][0]
    assert (ann["deadwood"], ann["deadwood_points"]) == (["5h", "9d", "2d", "4c"], 20)
    assert turn["title"] == "Turn 1 · Player 2"
    assert turn["player"] == 1
    assert turn["sentences"] == [
        "Player 2 takes A♦ from the pile",
        "Player 2 knocks, discarding 5♣ face down",
    ]
    assert turn["board"]["pile"] == ["5c"]
    assert turn["board"]["hands"][1]["deadwood"] == ["Ad"]
    # Ann lays off 5♥ on 2♥ 3♥ 4♥ and 10♠ J♠ Q♠ on 7♠ 8♠ 9♠: 4♣ 2♦ 9♦ are left, 15.
    end = told["gin_end"]
    assert (end["how"], end["winner"], end["multiplier"]) == ("knock", 1, 1)
    ann_end, bob_end = end["sides"]
    assert ann_end["laid_off"] == ["Qs", "Js", "10s", "5h"]
    assert (ann_end["deadwood"], ann_end["deadwood_points"], ann_end["score"]) == (
        ["9d", "2d", "4c"],
        15,
        0,
    )
    assert bob_end["knocked"]
    assert ["7s", "8s", "9s", "10s", "Js", "Qs"] in bob_end["melds"]
    assert (bob_end["deadwood_points"], bob_end["score"]) == (1, 14)
    assert told["result"] == (
        "Player 2 knocks with 1 deadwood against Player 1's 15:"
        " Player 2 scores the difference: 14 points."
    )
    assert data["gin_sheet"] == {
        "hands": [[[0, 14], "knock"]],
        "totals": [0, 14],
        "target": 100,
        "result": None,
    }
    assert data["gin_result"] is None
    assert (
        data["end"]
        == "The game is unfinished after hand 1, with Bob (Player 2) to deal the next hand."
    )
    _told_as_the_terminal_tells_it(data, _printed(match, tmp_path))


@pytest.mark.parametrize("rules", ["standard", "oklahoma"])
def test_a_whole_game_of_gin_is_replayed_with_its_bonuses(
    client: TestClient, tmp_path: Path, rules: str
) -> None:
    session = GinPlaySession.between_bots(
        ("greedy", "expert"),
        "4/0",
        players=("Ann", "Bob"),
        rules=GIN_PRESETS[rules],
    )
    session.play_out()
    match = session.match
    data = _replayed(client, match)
    result = match.result()
    assert result is not None
    assert data["hands"][0]["steps"][0]["board"]["knock_limit"] == match.hands[0].knock_limit
    assert len(data["hands"]) == len(match.hands)
    for told, hand in zip(data["hands"], match.hands, strict=True):
        assert hand.outcome is not None
        # One step for the deal and one a turn; the last board is the hand as it ended.
        turns = 1 + sum(
            1 for i in range(1, len(hand.history)) if hand.history[i][0] != hand.history[i - 1][0]
        )
        assert len(told["steps"]) == 1 + turns
        last = told["steps"][-1]["board"]
        assert [side["cards"] for side in last["hands"]] == [_ascii(m) for m in hand.hands]
        assert last["stock"] == hand.stock_size()
        assert last["multiplier"] == hand.multiplier
        assert told["gin_end"]["how"] == hand.outcome.how
        assert [side["score"] for side in told["gin_end"]["sides"]] == list(hand.outcome.scores)
    sheet = data["gin_sheet"]
    assert sheet["totals"] == list(match.game.totals())
    assert sheet["target"] == (150 if rules == "oklahoma" else 100)
    assert sheet["result"]["final"] == list(result.final)
    assert sheet["result"]["line"] == list(result.line)
    assert sheet["result"]["game_bonus"] == result.game_bonus
    assert data["end"] == f"The game is over: won by {match.players[result.winner]}."
    assert data["gin_result"].startswith(f"{match.players[result.winner]} wins the game")
    _told_as_the_terminal_tells_it(data, _printed(match, tmp_path))


# -- three- and four-hand Gin Rummy -----------------------------------------------------------


def _party(levels: tuple[str, ...], seed: int) -> GinPartyMatch:
    party = GinPartySession.between_bots(levels, seed)
    while not party.is_over():
        for hand in party.deal():
            party.play_out(hand)
        party.count()
    return party.match


def test_three_hand_gin_shows_who_plays_whom_and_the_totals(
    client: TestClient, tmp_path: Path
) -> None:
    match = _party(("greedy", "random", "greedy"), 5)
    data = _replayed(client, match)
    assert data["names"] == list(match.players)
    assert data["heading"].startswith("Three-hand Gin Rummy between ")
    assert "sits out" in (data["seating"] or "")
    assert len(data["hands"]) == len(match.hands)
    for told, seated in zip(data["hands"], match.hands, strict=True):
        a, b = seated.table.players
        assert told["names"] == [match.players[a], match.players[b]]
        assert told["dealer"] == seated.table.dealer_seat
        assert "sits out" in told["title"]
        assert "Totals: " in (told["totals"] or "")
        assert seated.hand.outcome is not None
        assert [s["score"] for s in told["gin_end"]["sides"]] == list(seated.hand.outcome.scores)
        # The hand's moves name the two players at its table.
        assert told["steps"][1]["sentences"][0].startswith(told["names"][1 - told["dealer"]])
    assert data["gin_sheet"] is None
    final = match.game.totals()
    assert all(
        f"{name} {total}" in data["hands"][-1]["totals"]
        for name, total in zip(match.players, final, strict=True)
    )
    assert data["end"].startswith(match.players[final.index(max(final))])
    _told_as_the_terminal_tells_it(data, _printed(match, tmp_path))


def test_four_hand_gin_shows_both_tables_of_each_deal(client: TestClient, tmp_path: Path) -> None:
    match = _party(("greedy", "expert", "greedy", "expert"), 9)
    assert isinstance(match.game, FourHandGame)
    data = _replayed(client, match)
    assert data["heading"].startswith("Four-hand Gin Rummy between ")
    titles = [hand["title"] for hand in data["hands"]]
    assert titles[0].startswith("Hand 1 · deal 1, table 1: ")
    assert titles[1].startswith("Hand 2 · deal 1, table 2: ")
    # A deal's totals are told once both its tables are over, after the second.
    assert [hand["totals"] is not None for hand in data["hands"][:4]] == [False, True, False, True]
    for told, seated in zip(data["hands"], match.hands, strict=True):
        assert told["names"] == [match.players[p] for p in seated.table.players]
    _told_as_the_terminal_tells_it(data, _printed(match, tmp_path))


def test_an_unfinished_party_record_stops_where_it_stops(client: TestClient) -> None:
    party = GinPartySession.between_bots(("greedy", "random", "greedy"), 5)
    (hand,) = party.deal()
    for _ in range(5):
        hand.session.bot_move()
    data = _replayed(client, party.match)
    (told,) = data["hands"]
    assert told["stopped"]
    assert (told["gin_end"], told["result"]) == (None, None)
    assert data["end"].startswith("The game is unfinished: hand 1 stops at turn ")


# -- Umtali under the practical rules -------------------------------------------------------


def test_a_practical_game_of_umtali_is_replayed_as_the_terminal_replays_it(
    client: TestClient, tmp_path: Path
) -> None:
    session = PlaySession.between_bots(("greedy", "expert"), "3/0", kind="game", rules=PRACTICAL)
    session.play_out()
    data = _replayed(client, session.match)
    assert data["game"] == "umtali"
    assert data["heading"].endswith("rules: practical")
    deal, turn = data["hands"][0]["steps"][:2]
    # The deal: ten cards each and an upcard on the pile; then Player 2 (who does not
    # deal) begins turn 1 with a draw.
    assert (deal["title"], deal["sentences"]) == ("The deal", [])
    assert deal["board"]["game"] == "umtali"
    assert [len(hand) for hand in deal["board"]["hands"]] == [10, 10]
    assert len(deal["board"]["pile"]) == 1
    assert (turn["title"], turn["player"]) == ("Turn 1 · Player 2", 1)
    assert turn["sentences"][0].startswith("Player 2 ")
    for told, hand in zip(data["hands"], session.match.hands, strict=True):
        outcome = hand.outcome()
        assert outcome is not None
        assert [side["score"] for side in told["scores"]["sides"]] == list(outcome.scores)
    _told_as_the_terminal_tells_it(data, _printed(session.match, tmp_path))


# -- what is refused ---------------------------------------------------------------------


def test_a_changed_gin_record_gets_the_records_own_reason(client: TestClient) -> None:
    match = GinMatch(first_dealer=0, players=("Ann", "Bob"))
    hand = match.new_hand(_knock_deck())
    hand.push_text("take")
    data = json.loads(dumps(match))
    del data["digest"]
    data["hands"][0]["moves"] = ["take", "discard Ad"]
    reply = client.post(REPLAY_PATH, content=json.dumps(data).encode())
    assert reply.status_code == 422
    detail = reply.json()["detail"]
    assert detail.startswith("cannot replay this record: hand 1, move 2 'discard Ad'")
