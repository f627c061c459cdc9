"""The learn layer's place and its content: it loads no terminal, the package has no
import cycle, and the content files are checked against their types as they load."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from umtali.games.umtali.learn import notes, quiz
from umtali.learn import content, reference
from umtali.learn.content import ContentError, Table

CONTENT = "umtali.games.umtali.learn:content"
HELP = f"{CONTENT}/help.toml"
GIN_HELP = "umtali.games.gin:help.toml"

SOURCE = Path(__file__).parent.parent / "src" / "umtali"


def test_importing_learn_loads_neither_rich_nor_the_cli() -> None:
    check = (
        "import umtali.learn, sys; assert 'rich' not in sys.modules"
        " and not any(m.startswith('umtali.cli') for m in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_whole_learn_layer_loads_no_terminal() -> None:
    # Every module of the layer, and every content file read, as a web server would.
    check = (
        "import sys, umtali.games.umtali.learn.lesson, umtali.games.umtali.learn.quiz, umtali.learn.reference as h;"
        " umtali.games.umtali.learn.quiz.build_questions(); list(umtali.games.umtali.learn.lesson.steps(4));"
        f" h.rules_summary({HELP!r}); h.play_help({HELP!r});"
        " assert 'rich' not in sys.modules"
        " and not any(m.startswith('umtali.cli') for m in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _imports() -> dict[str, set[str]]:
    """Each module of the package, with the package modules it imports when it loads
    (imports inside functions wait until they are called, so they make no cycle)."""
    graph: dict[str, set[str]] = {}
    for path in SOURCE.rglob("*.py"):
        name = ".".join(path.relative_to(SOURCE.parent).with_suffix("").parts)
        name = name.removesuffix(".__init__")
        graph[name] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("umtali"):
                graph[name].add(str(node.module))
            elif isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name.startswith("umtali")}
    return graph


def test_the_package_has_no_import_cycle() -> None:
    graph = _imports()
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> None:
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            assert imported not in path, " -> ".join([*path[path.index(imported) :], imported])
            if imported not in done:
                visit(imported)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            visit(module)


def test_the_learn_layer_imports_inward_only() -> None:
    for module, imported in _imports().items():
        if module.startswith("umtali.learn"):
            outward = {m for m in imported if m.startswith(("umtali.cli", "umtali.sim"))}
            assert not outward, (module, outward)


# -- the content checked as it loads ---------------------------------------------------------


def test_every_content_file_loads() -> None:
    assert len(notes.lesson_notes()) == 4
    assert len(quiz.build_questions()) == 12
    for help_file in (HELP, f"{CONTENT}/practical_help.toml", GIN_HELP):
        assert reference.rules_summary(help_file).rows
        assert reference.play_help(help_file).rows
    assert reference.rules_summary(GIN_HELP).title == "Gin Rummy in brief"


@pytest.mark.parametrize(
    ("data", "read", "message"),
    [
        ({"n": "2"}, lambda t: t.integer("n"), "f.toml: n: expected an integer, found '2'"),
        ({"n": True}, lambda t: t.integer("n"), "f.toml: n: expected an integer, found True"),
        ({}, lambda t: t.text("title"), "f.toml: title: missing text"),
        ({"a": ["x", 1]}, lambda t: t.texts("a"), "f.toml: a[1]: expected text, found 1"),
        ({"o": [["a"]]}, lambda t: t.pairs("o"), "f.toml: o[0]: expected a pair of texts"),
        ({"k": "x"}, lambda t: t.choice("k", ("a", "b")), "f.toml: k: 'x' is not one of a, b"),
        ({"t": {"x": 1}}, lambda t: t.table("t").only({"y"}), "f.toml: t.x: unknown key"),
        ({"q": [{"x": 1}]}, lambda t: t.tables("q")[0].text("x"), "f.toml: q[0].x: expected"),
    ],
)
def test_a_value_of_the_wrong_type_names_the_file_and_the_key(
    data: dict[str, object], read: object, message: str
) -> None:
    assert callable(read)
    with pytest.raises(ContentError) as caught:
        read(Table(data, "f.toml"))
    assert str(caught.value).startswith(message)


def test_a_missing_content_file_is_named() -> None:
    with pytest.raises(ContentError, match=r"^nothing\.toml: cannot be read"):
        content.load(f"{CONTENT}/nothing.toml")


def _lesson_one_with(change: dict[str, object]) -> Table:
    data = dict(content.load(f"{CONTENT}/lesson1.toml").data)
    data.update(change)
    return Table(data, "lesson1.toml")


def test_a_lesson_question_of_an_unknown_kind_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    original = content.load(f"{CONTENT}/lesson1.toml").tables("questions")[0].data
    broken = [dict(original, kind="riddle")]
    monkeypatch.setattr(notes, "load", lambda name: _lesson_one_with({"questions": broken}))
    with pytest.raises(ContentError, match=r"^lesson1\.toml: questions\[0\]\.kind: 'riddle'"):
        notes._notes(1)


def test_lesson_notes_must_have_a_note_for_every_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    turns = content.load(f"{CONTENT}/lesson1.toml").data["turns"]
    assert isinstance(turns, list)
    monkeypatch.setattr(notes, "load", lambda name: _lesson_one_with({"turns": turns[:3]}))
    with pytest.raises(ContentError, match=r"^lesson1\.toml: turns: the hand has 4 turns, not 3"):
        notes._notes(1)


def _quiz_with_question(index: int, **change: object) -> Table:
    data = dict(content.load(f"{CONTENT}/quiz.toml").data)
    questions = data["questions"]
    assert isinstance(questions, list)
    questions = [dict(q) for q in questions]
    questions[index].update(change)
    data["questions"] = questions
    return Table(data, "quiz.toml")


@pytest.mark.parametrize(
    ("index", "change", "message"),
    [
        (
            1,
            {"moves": ["meld 9♥ 8♥ 7♥", "discard 2♠", "draw", "take 2♠"]},
            "questions[1].moves[3]: ",
        ),
        (1, {"ask": "guess"}, "questions[1].ask: 'guess' is not one of plays, legal"),
        (1, {"tries": ["play 8♦ off 8♥"]}, "questions[1].tries: unknown key"),
        (3, {"column": "6c"}, "questions[3].column: no column on the opponent's side holds 6♣"),
        (3, {"table": {"opponent": ["heap 5c"]}}, "questions[3].table.opponent[0]: 'heap 5c'"),
        (0, {"show": ["empty", "deck"]}, "questions[0].show[1]: 'deck' is not one of"),
        (
            0,
            {"deal": {"dealer": "you", "dealer_hand": "Zz", "other_hand": ""}},
            "questions[0].deal: ",
        ),
    ],
)
def test_a_quiz_spec_that_does_not_fit_is_refused_at_load(
    monkeypatch: pytest.MonkeyPatch, index: int, change: dict[str, object], message: str
) -> None:
    monkeypatch.setattr(quiz, "_content", lambda: _quiz_with_question(index, **change))
    with pytest.raises(ContentError) as caught:
        quiz.build_questions()
    assert str(caught.value).startswith(f"quiz.toml: {message}"), caught.value


def test_help_text_with_an_unpaired_backquote_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    data = dict(content.load(f"{CONTENT}/help.toml").data)
    data["play"] = {"title": "type `moves", "rows": []}
    monkeypatch.setattr(reference, "load", lambda name: Table(data, "help.toml"))
    reference.play_help.cache_clear()
    try:
        with pytest.raises(ContentError, match=r"^help\.toml: play\.title: an odd number"):
            reference.play_help(HELP)
    finally:
        reference.play_help.cache_clear()
