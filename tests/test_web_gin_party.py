"""Three- and four-hand Gin Rummy in the browser's server, on an SQLite file and on a
real PostgreSQL: whole games against the computer (who fills every seat no person
holds, and plays whole hands between computers at once), friends by their links,
the record ``umtali replay`` reads, each hand's deck commitment, refusals that change
nothing, a restart and a ``kill -9`` that lose nothing, and what each seat is sent:
only its own hand, and of the others the public facts."""

from __future__ import annotations

import functools
import json
import random
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.servers import HTTP, running_server
from tests.test_web_api import app_on, cards_named, new_game, play, state_of, strings
from tests.test_web_gin import _symbol, gin_move, hidden_from
from tests.test_web_processes import play_through_kills
from tests.test_web_socket import Clock
from umtali.cli.main import main
from umtali.games.gin.match import GinPartyMatch
from umtali.games.gin.party import TEAMS, FourHandGame, ThreeHandGame
from umtali.games.gin.state import GinHand, GinMove
from umtali.kernel.cards import card_ascii, parse_cards
from umtali.kernel.record import load_any_file
from umtali.web.store import Store, deck_commitment

JSON = dict[str, Any]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(db_url, hint_level="greedy")) as opened:
        yield opened


def stored_party(db_url: str, game_id: int) -> GinPartyMatch:
    with Store.open(db_url) as store:
        match = store.load_match(game_id)
    assert isinstance(match, GinPartyMatch)
    return match


def play_out(client: TestClient, secrets: dict[int, str], rng: random.Random) -> dict[int, JSON]:
    """Play every person's seat to the end of the game, a move at a time by whichever
    seat is to move; each seat's state is read again after every move. While the game
    is on, some person always has a move: the computer never keeps anyone waiting."""
    states = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    while not all(state["over"] for state in states.values()):
        movers = [seat for seat, state in states.items() if state["your_turn"]]
        assert movers, states
        mover = movers[0]
        states[mover] = play(client, secrets[mover], gin_move(states[mover], rng))
        for seat, secret in secrets.items():
            if seat != mover:
                states[seat] = state_of(client, secret)
    return states


# -- games made -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_body", "complaint"),
    [
        ({"players": 3}, "three or four players play Gin Rummy only"),
        ({"game": "gin", "players": 5}, "Input should be 2, 3 or 4"),
        ({"game": "gin", "players": 3, "seat": 3}, "a game of 3 has seats 0 to 2"),
        ({"game": "gin", "players": 4, "seat": 1, "invite": [1]}, "other seats than yours (1)"),
        ({"game": "gin", "players": 4, "invite": [2, 2]}, "each once: some of [1, 2, 3]"),
        ({"game": "gin", "players": 3, "opponent": "person"}, "invite friends to its other"),
        ({"game": "gin", "invite": [1]}, "friends are invited to the seats of a party game"),
        ({"game": "gin", "seat": 2}, "a game of two has seats 0 and 1"),
    ],
)
def test_a_party_game_the_server_cannot_make_is_refused(
    client: TestClient, request_body: JSON, complaint: str
) -> None:
    reply = client.post("/api/games", json=request_body)
    assert reply.status_code == 422
    assert complaint in reply.text


@pytest.mark.parametrize(("players", "variant"), [(3, "standard"), (4, "oklahoma")])
def test_a_whole_party_game_against_the_computer(
    client: TestClient, db_url: str, tmp_path: Path, players: int, variant: str
) -> None:
    """One person at the last seat, the computer at every other: the game is played to
    its target, every hand is stored at its table and counted as the engine counts it,
    the record is the one ``umtali replay`` reads, and each deck is the one committed
    to at its deal."""
    created = new_game(
        client, game="gin", players=players, rules=variant, level="greedy", seat=players - 1
    )
    assert [seat["seat"] for seat in created["seats"]] == [players - 1]
    secret = created["seats"][0]["secret"]
    first = state_of(client, secret)
    party = first["party"]
    assert (first["game"], first["rules"], party["size"], party["you"]) == (
        "gin",
        variant,
        players,
        players - 1,
    )
    assert party["players"][players - 1] == "You"
    assert party["players"][0] == "Computer 1 (Casual)"
    assert party["kinds"] == ["computer"] * (players - 1) + ["person"]
    if players == 3:
        assert "drew" in party["draw"]
        assert party["teams"] is None
    else:
        assert party["draw"] is None
        assert party["teams"] == [list(team) for team in TEAMS]
        assert party["teams_sentence"] == (
            "Computer 1 (Casual) and Computer 3 (Casual) play as a team against you and"
            " Computer 2 (Casual); partners change opponents every deal."
        )
    final = play_out(client, {players - 1: secret}, random.Random(players))[players - 1]
    party = final["party"]
    assert party["over"]
    assert final["result"] == party["result"]
    assert " the game." in party["result"]
    match = stored_party(db_url, final["game_id"])
    assert match.is_over()
    assert match.rules.name == variant
    assert party["totals"] == list(match.game.totals())
    assert max(party["totals"]) >= party["target"] == (150 if variant == "oklahoma" else 100)
    assert party["final"] == list(match.game.result().final)
    # Every hand, the computers' among them, is told as it was stored and counted.
    assert [hand["number"] for hand in party["hands"]] == list(range(1, len(match.hands) + 1))
    for told, seated in zip(party["hands"], match.hands, strict=True):
        outcome = seated.hand.outcome
        assert outcome is not None
        assert told["players"] == list(seated.table.players)
        assert told["dealer"] == seated.table.dealer
        assert told["scores"] == list(outcome.scores)
        assert told["how"] == outcome.how
    if players == 3:
        assert isinstance(match.game, ThreeHandGame)
        assert len(match.game.outcomes) == len(match.hands)
    else:
        assert isinstance(match.game, FourHandGame)
        assert len(match.game.deals) * 2 == len(match.hands)
        # Every other hand was the computers' alone, played out without him.
        alone = [seated for seated in match.hands if players - 1 not in seated.table.players]
        assert len(alone) == len(match.game.deals)
    # The record, public now, is the stored game, and `umtali replay` reads it.
    record = client.get(f"/api/games/{final['game_id']}/record")
    assert record.status_code == 200
    path = tmp_path / "party.json"
    path.write_text(record.text)
    again = load_any_file(path)
    assert isinstance(again, GinPartyMatch)
    assert [s.hand.history for s in again.hands] == [s.hand.history for s in match.hands]
    assert main(["replay", str(path)]) == 0
    # Each hand's deck is the one committed to at its deal.
    for index, seated in enumerate(match.hands):
        verify = client.get(f"/api/games/{final['game_id']}/hands/{index}/verify").json()
        deck = parse_cards(" ".join(verify["deck"]))
        assert deck_commitment(bytes.fromhex(verify["salt"]), deck) == verify["commitment"]
        assert tuple(deck) == seated.hand.deck


def test_a_game_in_play_gives_its_players_the_hands_counted_only(client: TestClient) -> None:
    """While four-hand is played, a player's record holds the deals counted, both
    hands of each; the whole record waits for the end."""
    created = new_game(client, game="gin", players=4, level="greedy")
    secret = created["seats"][0]["secret"]
    state = state_of(client, secret)
    rng = random.Random(5)
    while len(state["party"]["hands"]) < 2 and not state["over"]:
        state = play(client, secret, gin_move(state, rng))
    record = client.get(f"/api/seat/{secret}/record").json()
    assert len(record["hands"]) == len(state["party"]["hands"])
    assert "seed" not in record["meta"]
    assert client.get(f"/api/games/{created['game_id']}/record").status_code == 403


# -- friends by link ----------------------------------------------------------------------------


def test_friends_play_three_hand_by_their_links_and_their_rematch(
    client: TestClient, db_url: str
) -> None:
    """Three people: each link is its own seat, each seat sees its own hand, the one
    who sits out is told so and may not move, and the game goes to its end."""
    created = new_game(client, game="gin", players=3, seat=1, invite=[2, 0], rules="standard")
    assert [seat["seat"] for seat in created["seats"]] == [1, 2, 0]
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    states = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    assert states[0]["party"]["players"] == ["You", "Player 2", "Player 3"]
    assert states[2]["party"]["players"] == ["Player 1", "Player 2", "You"]
    assert all(state["party"]["kinds"] == ["person"] * 3 for state in states.values())
    out = next(seat for seat, state in states.items() if state["party"]["sits_out"])
    assert states[out]["view"] is None  # no hand played yet: the public facts only
    assert states[out]["party"]["seating"].endswith("you sit out.")
    refused = client.post(f"/api/seat/{secrets[out]}/move", json={"move": "draw"})
    assert refused.status_code == 409
    assert refused.json()["reason"] == "You sit out this hand: you play again once it is over."
    assert client.get(f"/api/seat/{secrets[out]}/hint").status_code == 409
    assert state_of(client, secrets[out]) == states[out]
    players_at = [seat for seat in secrets if seat != out]
    for seat in players_at:
        assert "You" in states[seat]["names"]
        assert len(states[seat]["view"]["hand"]) == 10
    final = play_out(client, secrets, random.Random(8))
    assert len({state["version"] for state in final.values()}) == 1
    assert len({state["party"]["result"] for state in final.values()}) == 3  # each his own "you"
    match = stored_party(db_url, created["game_id"])
    assert match.is_over()
    assert match.meta["humans"] == [0, 1, 2]
    rematch = client.post(f"/api/seat/{secrets[2]}/rematch")
    assert rematch.status_code == 200
    again = state_of(client, rematch.json()["seats"][0]["secret"])
    assert (again["party"]["size"], again["party"]["you"], again["over"]) == (3, 2, False)
    assert state_of(client, secrets[0])["rematch"]["game_id"] == again["game_id"]


def test_four_hand_with_a_friend_and_two_computers(client: TestClient, db_url: str) -> None:
    """Partners by link (seats 0 and 2), the computer for the other team: both hands
    of a deal are played at once, and the other table's result is told only once both
    hands are over."""
    created = new_game(client, game="gin", players=4, invite=[2], level="greedy")
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    assert sorted(secrets) == [0, 2]
    states = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    assert states[0]["party"]["kinds"] == ["person", "computer", "person", "computer"]
    assert states[0]["party"]["teams_sentence"].startswith("You and Player 3 play as a team")
    assert states[0]["opponent"]["kind"] == "computer"
    rng = random.Random(3)
    while not states[0]["over"]:
        movers = [seat for seat, state in states.items() if state["your_turn"]]
        assert movers, states
        mover = rng.choice(movers)
        states[mover] = play(client, secrets[mover], gin_move(states[mover], rng))
        other = 2 - mover
        states[other] = state_of(client, secrets[other])
        hands_told = len(states[mover]["party"]["hands"])
        assert hands_told % 2 == 0  # whole deals only
        if states[mover]["view"]["outcome"] is not None and states[other]["your_turn"]:
            # His hand is over, his partner's is not: the deal waits, and so does he.
            assert states[mover]["legal"] == []
            refused = client.post(f"/api/seat/{secrets[mover]}/move", json={"move": "draw"})
            assert refused.json()["reason"].startswith("Your hand is over: the next deal")
    match = stored_party(db_url, created["game_id"])
    assert match.is_over()
    assert states[0]["party"]["final"] == states[2]["party"]["final"]


def test_an_away_friends_seat_is_handed_to_the_computer_and_reclaimed(db_url: str) -> None:
    """Four-hand, a friend at seat 1 (the first deal's opponent of seat 0) who does not
    come: once he has been away longer than the grace period, seat 0 hands his seat to
    the computer, which plays his hand on at once; he takes it back by his link."""
    clock = Clock()
    with TestClient(app_on(db_url, clock=clock, grace=90, hint_level="greedy")) as client:
        created = new_game(client, game="gin", players=4, invite=[1], level="greedy")
        secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
        mine = state_of(client, secrets[0])
        assert mine["opponent"]["kind"] == "person"
        assert not mine["opponent"]["can_hand_over"]
        early = client.post(f"/api/seat/{secrets[0]}/hand-over")
        assert early.status_code == 409
        assert "once Player 2 has been away 90 seconds" in early.json()["detail"]
        # His absence runs from the game's making, stamped by the store on the real
        # clock, which ran on past the test's while the server started (seconds on a
        # busy machine): the test's clock catches up before the grace is counted.
        clock.now = max(clock.now, datetime.now(UTC))
        clock.advance(91)
        assert state_of(client, secrets[0])["opponent"]["can_hand_over"]
        handed = client.post(f"/api/seat/{secrets[0]}/hand-over")
        assert handed.status_code == 200, handed.text
        state = handed.json()
        # The computer plays seat 1 at once: should it end the hand there (a knock on its
        # first turn), the next deal pairs seat 0 with another opponent, so seat 1's own
        # state is what says it was handed over.
        assert state["opponent"]["handed_over"] or state["opponent"]["kind"] == "computer"
        # Whoever was to move at the table, seat 0 now has a move, or its hand is over.
        assert state["your_turn"] or state["view"]["outcome"] is not None
        theirs = state_of(client, secrets[1])
        assert theirs["handed_over"]
        assert theirs["legal"] == []
        refused = client.post(f"/api/seat/{secrets[1]}/move", json={"move": "draw"})
        assert "reclaim it to play on" in refused.json()["reason"]
        rng = random.Random(6)
        for _ in range(6):
            if not state["your_turn"]:
                break
            state = play(client, secrets[0], gin_move(state, rng))
        back = client.post(f"/api/seat/{secrets[1]}/reclaim")
        assert back.status_code == 200
        assert not back.json()["handed_over"]
        final = play_out(client, secrets, rng)
    assert stored_party(db_url, created["game_id"]).is_over()
    assert final[0]["party"]["final"] == final[1]["party"]["final"]  # by team, for both
    assert not final[1]["handed_over"]


# -- refusals -------------------------------------------------------------------------------------


def test_a_refused_move_changes_nothing_and_why_and_hint_answer(client: TestClient) -> None:
    # Four-hand: every seat plays every deal, so the person has a hand from the start.
    secret = new_game(client, game="gin", players=4, level="greedy")["seats"][0]["secret"]
    state = state_of(client, secret)
    before = state
    held = set(state["view"]["hand"])
    absent = next(card_ascii(c) for c in range(52) if card_ascii(c) not in held)
    # Ten cards and no draw yet: a discard (of a card not held, even) is refused, and
    # so is what is no move at all.
    for move, reason in [
        (f"discard {absent}", "you must draw first" if "draw" in state["legal"] else "upcard"),
        ("knock", "is not a Gin Rummy move"),
        ("shuffle the deck", "is not a Gin Rummy move"),
    ]:
        reply = client.post(f"/api/seat/{secret}/move", json={"move": move})
        assert reply.status_code == 409, reply.text
        assert reason.lower() in reply.json()["reason"].lower()
        why = client.post(f"/api/seat/{secret}/why", json={"move": move}).json()
        assert why == {"legal": False, "reason": reply.json()["reason"], "rule": None}
    for body in ({"move": ""}, {"move": "draw", "extra": 1}, {"mov": "draw"}):
        assert client.post(f"/api/seat/{secret}/move", json=body).status_code == 422
    with client.websocket_connect(f"/ws/seat/{secret}") as socket:
        assert socket.receive_json()["version"] == state["version"]
        socket.send_text("not json")
        assert socket.receive_json()["type"] == "error"
        socket.send_json({"type": "move", "move": f"discard {absent}", "id": 4})
        refused = socket.receive_json()
        assert (refused["type"], refused["id"]) == ("refused", 4)
    hint = client.get(f"/api/seat/{secret}/hint").json()
    assert hint["move"] in state["legal"]
    assert hint["level"] == "greedy"
    assert client.post(f"/api/seat/{secret}/hand-over").status_code == 409
    assert state_of(client, secret) == before


# -- restarts -------------------------------------------------------------------------------------


def test_a_restarted_server_loses_nothing(db_url: str) -> None:
    rng = random.Random(9)
    with TestClient(app_on(db_url)) as client:
        secret = new_game(client, game="gin", players=4, level="greedy")["seats"][0]["secret"]
        state = state_of(client, secret)
        for _ in range(25):
            state = play(client, secret, gin_move(state, rng))
            if state["over"]:
                break
    with TestClient(app_on(db_url)) as client:
        assert state_of(client, secret) == state
        final = play_out(client, {0: secret}, rng)[0]
    with TestClient(app_on(db_url)) as client:
        assert state_of(client, secret) == final


def test_a_killed_server_resumes_a_party_game(db_url: str, tmp_path: Path) -> None:
    """``kill -9`` of ``umtali serve`` twice while two friends play three-hand with the
    computer, moves in flight over the socket and HTTP; started again on the same
    port, they come back by themselves and play on, and every acknowledged move is
    stored where it was told. (The moves around the kills, not the whole game.)"""
    with running_server(db_url, tmp_path) as server:
        created = HTTP.post(
            f"{server.url}/api/games",
            json={"game": "gin", "players": 3, "invite": [2], "level": "greedy"},
        ).json()
        # A game of Gin can be short: the second kill comes soon after the first.
        players = play_through_kills(server, created, (0, 2), choose=gin_move, first=4, every=6)
        match = stored_party(db_url, created["game_id"])
        for player in players:
            for hand_index, move_index, move in player.accepted:
                action = match.hands[hand_index].hand.history[move_index][1]
                assert GinMove.of_action(action).text() == move
            # What the restarted server shows is what is stored: the hand this seat
            # plays, or last played while it sits one out (none yet: no view).
            state = HTTP.get(f"{server.url}/api/seat/{player.secret}").json()
            if state["view"] is not None:
                hand = match.hands[state["hand_index"]].hand
                assert len(state["view"]["history"]) == len(hand.history)


# -- secrecy --------------------------------------------------------------------------------------


@functools.cache
def _hidden_at(match: GinPartyMatch, hand_index: int, player: int, moves: int) -> frozenset[int]:
    """The cards the party's ``player`` may not know at hand ``hand_index`` after its
    first ``moves`` moves, worked out from the stored hand (not from any view)."""
    seated = match.hands[hand_index]
    assert player in seated.table.players
    truth = seated.hand
    hand = GinHand(truth.deck, truth.dealer, truth.rules)
    for _player, action in truth.history[:moves]:
        hand.push(GinMove.of_action(action))
    return frozenset(hidden_from(hand, seated.table.players.index(player)))


def _hidden(match: GinPartyMatch, state: JSON) -> frozenset[int] | None:
    """The cards the state's seat may not know, at the moment of ``state``: at the hand
    it plays (or last played), as far as its view's history goes (the stock, the other
    hand while in play, the other's knock discard); ``None`` when it has played no hand
    (it may then be told no card at all)."""
    if state["view"] is None:
        return None
    return _hidden_at(match, state["hand_index"], state["seat"], len(state["view"]["history"]))


def _scan(match: GinPartyMatch, state: JSON, payload: Any) -> bool:
    """Check one message sent with ``state``: the cards drawn for places are public;
    every other card named must be one the seat may know. Whether it named any."""
    if isinstance(payload, dict) and payload.get("type") == "state":
        party = payload["party"]
        if party["draw"] is not None:
            assert isinstance(match.game, ThreeHandGame)
            drawn = {card_ascii(card) for card in match.game.drawn}
            assert cards_named(party["draw"]) == {parse_cards(n)[0] for n in drawn}
        # The end of the last hand this seat played speaks of that hand as it ended.
        ended = payload["gin"] and payload["gin"]["hand_end"]
        if ended:
            moves = len(match.hands[ended["hand_index"]].hand.history)
            then = {
                "seat": state["seat"],
                "hand_index": ended["hand_index"],
                "view": {"history": [None] * moves},
            }
            _scan(match, then, [ended, payload["previous"]])
            payload = {**payload, "gin": {**payload["gin"], "hand_end": None}}
        payload = {**payload, "party": {**party, "draw": None}, "previous": None}
    text = "\n".join(strings(payload))
    found = cards_named(text)
    hidden = _hidden(match, state)
    if hidden is None:
        assert not found, (state["seat"], text)
        return False
    leaked = found & hidden
    assert not leaked, (
        f"seat {state['seat']}, hand {state['hand_index']}: "
        f"{' '.join(card_ascii(c) for c in leaked)} sent: {text}"
    )
    return bool(found)


def test_no_seat_of_a_party_game_is_sent_a_card_it_may_not_see(tmp_path: Path) -> None:
    """Every message (states over HTTP and over the socket, move answers, refusals,
    questions, hints) sent to each seat in 8 complete party games: three- and four-hand,
    standard and Oklahoma, against the computer and with friends. No card of another
    hand, of the stock or of a face-down knock is ever named; a seat that has played no
    hand yet is told no card but the draw for places."""
    rng = random.Random(24)
    sent: list[tuple[int, JSON, Any]] = []
    requests: list[JSON] = []
    for i in range(8):
        players = 3 + i % 2
        invite = [] if i % 3 else [seat for seat in range(1, players) if rng.random() < 0.6]
        requests.append(
            {
                "game": "gin",
                "players": players,
                "rules": "oklahoma" if i % 4 == 1 else "standard",
                "level": "greedy",
                "seat": 0,
                "invite": invite,
            }
        )
    # What is sent does not depend on the database, nor on whether a commit reaches the
    # disk: the file is in memory (/dev/shm), as the other scans' are.
    memory = Path("/dev/shm")
    folder = tempfile.TemporaryDirectory(dir=memory if memory.is_dir() else tmp_path)
    url = f"sqlite:///{Path(folder.name) / 'scan.db'}"
    with folder, TestClient(app_on(url, hint_level="greedy")) as client:
        games = []
        for request in requests:
            created = new_game(client, **request)
            games.append(created["game_id"])
            secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
            watched = rng.choice(list(secrets))
            with client.websocket_connect(f"/ws/seat/{secrets[watched]}") as socket:
                states = {seat: state_of(client, secret) for seat, secret in secrets.items()}
                for state in states.values():
                    sent.append((created["game_id"], state, state))
                while not states[0]["over"]:
                    movers = [seat for seat, state in states.items() if state["your_turn"]]
                    assert movers, states
                    mover = rng.choice(movers)
                    secret = secrets[mover]
                    if rng.random() < 0.05:
                        hint = client.get(f"/api/seat/{secret}/hint").json()
                        sent.append((created["game_id"], states[mover], hint))
                        # A question and a refusal: he named the card, the rest is scanned.
                        card = rng.randrange(52)
                        asked = {"move": f"discard {card_ascii(card)}"}
                        answers = [client.post(f"/api/seat/{secret}/why", json=asked)]
                        if asked["move"] not in states[mover]["legal"]:
                            answers.append(client.post(f"/api/seat/{secret}/move", json=asked))
                            assert answers[-1].status_code == 409
                        for answer in answers:
                            text = answer.text.replace(card_ascii(card), "?")
                            text = text.replace(_symbol(card), "?")
                            sent.append((created["game_id"], states[mover], text))
                    reply = client.post(
                        f"/api/seat/{secret}/move", json={"move": gin_move(states[mover], rng)}
                    ).json()
                    states[mover] = reply["state"]
                    sent.append((created["game_id"], reply["state"], reply["state"]))
                    # The move's sentence tells the moment it was played.
                    played = {
                        "seat": mover,
                        "hand_index": reply["hand_index"],
                        "view": {"history": [None] * (reply["move_index"] + 1)},
                    }
                    sent.append((created["game_id"], played, reply["sentence"]))
                    for seat, other in secrets.items():
                        if seat != mover:
                            states[seat] = state_of(client, other)
                            sent.append((created["game_id"], states[seat], states[seat]))
                    # The socket's states, read up to the version now stored.
                    version = states[watched]["version"]
                    while True:
                        pushed = socket.receive_json()
                        sent.append((created["game_id"], pushed, pushed))
                        if pushed["version"] >= version:
                            break
        with Store.open(url) as store:
            matches = {game_id: store.load_match(game_id) for game_id in games}
    named = 0
    for game_id, state, payload in sent:
        match = matches[game_id]
        assert isinstance(match, GinPartyMatch)
        assert match.is_over()
        named += _scan(match, state, json.loads(json.dumps(payload)))
    assert len(sent) > 1000
    assert named > len(sent) // 2  # the scan sees cards: the seat's own, the pile
