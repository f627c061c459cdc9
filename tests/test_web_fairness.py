"""The deal's commitment as docs/WEB.md describes it ("Fairness"): its worked example, run
as written, prints the hash it shows; that hash is the store's own commitment to the
example's salt and deck; and the same recipe, fed a real finished hand's reveal, gives the
commitment the seat was shown at the deal. So the description cannot drift from the code.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from fastapi.testclient import TestClient

from tests.test_web_api import app_on, new_game, play, state_of
from umtali import games
from umtali.kernel.cards import parse_card
from umtali.web.store import Store, deck_commitment, deck_text

DOC = Path(__file__).resolve().parents[1] / "docs" / "WEB.md"


def fairness_section() -> str:
    """The "Fairness" section of docs/WEB.md, to the next heading of its level."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### Fairness\n")
    end = text.index("\n### ", start + 1)
    return text[start:end]


def block(language: str) -> str:
    """The first fenced block of ``language`` in the section."""
    found = re.search(rf"```{language}\n(.*?)```", fairness_section(), re.DOTALL)
    assert found, f"docs/WEB.md's Fairness section has no {language} block"
    return found.group(1)


def recipe() -> str:
    return block("python")


def printed() -> str:
    """What the doc says the recipe prints."""
    return block("text").strip()


def run(code: str) -> str:
    """What ``code`` prints, run as a reader would run it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/WEB.md", "exec"), {})
    return out.getvalue().strip()


SALT = re.compile(r'bytes\.fromhex\("([0-9a-f]*)"\)')
DECK = re.compile(r'^deck = "([^"]*)"$', re.MULTILINE)


def literals(code: str) -> tuple[bytes, str]:
    """The salt and the deck text the recipe hashes."""
    salt, deck = SALT.search(code), DECK.search(code)
    assert salt, "the recipe names its salt as a literal"
    assert deck, "the recipe names its deck as a literal"
    return bytes.fromhex(salt.group(1)), deck.group(1)


def with_reveal(code: str, salt: str, deck: list[str]) -> str:
    """The recipe with a reveal's salt (hex, as the reply gives it) and deck put in."""
    code = SALT.sub(lambda _: f'bytes.fromhex("{salt}")', code, count=1)
    return DECK.sub(lambda _: f'deck = "{" ".join(deck)}"', code, count=1)


def test_the_worked_example_prints_the_hash_the_doc_shows() -> None:
    assert re.fullmatch(r"[0-9a-f]{64}", printed())
    assert run(recipe()) == printed()


def test_the_worked_example_is_the_store_s_own_commitment(tmp_path: Path) -> None:
    salt, text = literals(recipe())
    assert len(salt) == 32  # the salt's bytes, hex-decoded: not its 64 hex characters
    cards = [parse_card(name) for name in text.split(" ")]
    assert deck_text(cards) == text
    assert deck_commitment(salt, cards) == printed()
    with Store.open(f"sqlite:///{tmp_path / 'umtali.db'}") as store:
        session = games.get("umtali").maker().new(seed=1, humans={0}, seats=2, length="hand")
        new = store.create_game(session.match, seats=(0,))
        assert store.start_hand(new.game_id, 0, cards, salt=salt) == printed()
        assert store.commitment(new.game_id, 0).commitment == printed()


def test_the_recipe_checks_a_real_hand_against_the_seal_shown_at_its_deal(tmp_path: Path) -> None:
    with TestClient(app_on(f"sqlite:///{tmp_path / 'umtali.db'}")) as client:
        secret = new_game(client, level="random", kind="hand")["seats"][0]["secret"]
        state = state_of(client, secret)
        sealed = state["commitment"]  # as the seat was shown it at the deal
        game_id = state["game_id"]
        early = client.get(f"/api/games/{game_id}/hands/0/verify").json()
        assert early["salt"] is None  # nothing before the hand ends
        assert early["deck"] is None
        while not state["over"]:
            state = play(client, secret, state["legal"][0])
        reveal = client.get(f"/api/games/{game_id}/hands/0/verify").json()
    assert reveal["over"]
    assert len(reveal["deck"]) == 52
    assert run(with_reveal(recipe(), reveal["salt"], reveal["deck"])) == sealed
    # Hashing the salt's hex characters instead of its bytes, the mistake the doc warns of,
    # does not give the seal.
    wrong = with_reveal(recipe(), reveal["salt"].encode("ascii").hex(), reveal["deck"])
    assert run(wrong) != sealed
