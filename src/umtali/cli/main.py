"""The ``umtali`` command.

Subcommands: ``play`` (against the computer, or hot-seat), ``lesson N``, ``quiz``,
``demo``, ``replay FILE``, ``bench`` and ``arena A B``. Bad input never shows a traceback: the message says what
is wrong, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Final, NoReturn, TextIO, cast

from umtali import __version__
from umtali.cli.terminal import GuardedOutput, OutputLost, printable, tolerate_narrow_output
from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.rules import GIN_PRESETS, GinRules
from umtali.games.gin.session import DEFAULT_GIN_BOT
from umtali.games.umtali.bots import BOTS, DEFAULT_BOT
from umtali.games.umtali.describe import render_state
from umtali.games.umtali.rules import PRESETS, STANDARD, RuleSet
from umtali.games.umtali.session import PlaySession
from umtali.games.umtali.state import player_name
from umtali.kernel.cards import quoted
from umtali.kernel.files import SavePathError, check_save_path
from umtali.kernel.record import RecordError, load_any_file, save_file
from umtali.replaying import (
    AnyEvent,
    GameTotals,
    GinGameEnds,
    GinHandEnds,
    GinHandStops,
    GinMoved,
    GinTurnEnds,
    HandBegins,
    HandEnds,
    HandStops,
    Heading,
    Moved,
    PartyHandBegins,
    PartyTotals,
    TurnBegins,
    TurnEnds,
    any_match_events,
    hand_events,
)

__all__ = ["main"]


class UsageError(Exception):
    """A command-line value that cannot be used."""


def _print_events(
    events: Iterable[AnyEvent],
    out: TextIO,
    pause: Callable[[], bool] | None = None,
    labels: tuple[str, str] = (player_name(0), player_name(1)),
) -> bool:
    """Print a replay's events (:mod:`umtali.replaying`) of either game, the boards as
    text (Gin Rummy's with the players called ``labels``). ``pause`` is called after
    each turn, and after a hand that others follow; when it returns False the replay
    stops (and this returns False)."""
    from umtali.cli.gin_render import gin_replay_board, gin_summary_lines

    for event in events:
        if isinstance(event, Heading):
            print(event.text, file=out)
        elif isinstance(event, PartyHandBegins):
            # A party game's hands are each between two of its players: the boards
            # name them.
            print(f"\n== {event.title} ==", file=out)
            labels = event.names
        elif isinstance(event, PartyTotals):
            print(f"\n  {event.text}", file=out)
        elif isinstance(event, HandBegins):
            print(f"\n== {event.title} ==", file=out)
        elif isinstance(event, TurnBegins):
            print(event.title, file=out)
        elif isinstance(event, Moved):
            print(f"    {event.sentence}", file=out)
        elif isinstance(event, TurnEnds):
            print(render_state(event.state), file=out)
            if pause is not None and not pause():
                return False
        elif isinstance(event, HandEnds):
            print(render_state(event.state), file=out)
            print(f"\n{event.result}", file=out)
            if event.more and pause is not None and not pause():
                return False
        elif isinstance(event, HandStops):
            print("  (the hand is unfinished)", file=out)
            print(render_state(event.state), file=out)
        elif isinstance(event, GameTotals):
            print(f"\n  {event.text}", file=out)
        elif isinstance(event, GinMoved):
            print(f"    {event.sentence}", file=out)
        elif isinstance(event, GinTurnEnds):
            print(gin_replay_board(event.board, labels), file=out)
            if pause is not None and not pause():
                return False
        elif isinstance(event, GinHandEnds):
            print(gin_replay_board(event.board, labels), file=out)
            print("", *gin_summary_lines(event.summary), sep="\n", file=out)
            if event.more and pause is not None and not pause():
                return False
        elif isinstance(event, GinHandStops):
            print("  (the hand is unfinished)", file=out)
            print(gin_replay_board(event.board, labels), file=out)
        elif isinstance(event, GinGameEnds):
            print(f"\n  {event.text}", file=out)
        else:
            print(f"\n{event.text}", file=out)
    return True


def _stepper(out: TextIO) -> Callable[[], bool]:
    """A pause between turns: Enter goes on, q stops."""
    from umtali.cli.terminal import QUIT_WORDS, QuitRequested, Terminal

    term = Terminal(out)

    def pause() -> bool:
        while True:
            try:
                answer = term.ask("[Enter] next turn, q to stop> ").lower()
            except QuitRequested:
                return False
            if answer in ("", "n", "next"):
                return True
            if answer in QUIT_WORDS or answer == "stop":
                return False
            term.say("Press Enter for the next turn, or type q to stop.")

    return pause


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    try:
        match = load_any_file(args.file, parties=True)
    except RecordError as e:
        raise UsageError(f"cannot replay {args.file}: {e}") from None
    # A record's names are checked when it is read; shown escaped all the same, so that
    # no record can send control sequences to the terminal.
    names = tuple(printable(name) for name in match.players)
    pause = _stepper(out) if args.step else None
    if not _print_events(any_match_events(match, names), out, pause):
        print("Replay stopped.", file=out)
    return 0


def _demo(
    seed: int,
    save: str | None,
    out: TextIO,
    force: bool = False,
    step: bool = False,
    rules: RuleSet = STANDARD,
) -> int:
    if save:
        try:
            check_save_path(
                Path(save),
                force=force,
                overwrite_note="saving would write over it; give another file name, or add"
                " --force to replace it",
            )
        except SavePathError as e:
            raise UsageError(str(e)) from None
    # The record names the players as the screen does, so that its replay reads the same.
    session = PlaySession.between_bots(
        ("random", "random"),
        seed,
        kind="hand",
        players=(player_name(0), player_name(1)),
        rules=rules,
    )
    under = "" if rules.name == STANDARD.name else f", {rules.name} rules"
    print(f"A demo hand between two random players (seed {seed}{under}).", file=out)
    session.play_out()
    if save:
        # Saved before it is shown: the hand is whole already, and the last line shown
        # is then who won it, even when --step is stopped half-way.
        try:
            save_file(session.match, save)
        except OSError as e:
            raise UsageError(f"cannot save the record to {save}: {e.strerror}") from None
        print(f"Record saved to {save} (replay it with: umtali replay {save})", file=out)
    pause = _stepper(out) if step else None
    if not _print_events(hand_events(session.match.hands[0]), out, pause):
        print("Demo stopped.", file=out)
    return 0


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    return _demo(seed, args.save, out, force=args.force, step=args.step, rules=args.rules)


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from umtali.cli.play import PlayError, PlayOptions, run_play
    from umtali.cli.terminal import Terminal

    # (with --resume the record says which game: the resume refuses --variant itself)
    if args.variant is not None and args.game != "gin" and args.resume is None:
        raise UsageError(
            "--variant chooses a variant of Gin Rummy (standard or oklahoma): add --game gin"
        )
    if args.rules is not None and args.game == "gin":
        raise UsageError(
            "--rules chooses the rules of Umtali; Gin Rummy's are chosen with --variant"
            " (standard or oklahoma): leave --rules out"
        )

    options = PlayOptions(
        bot=args.bot,
        seed=args.seed,
        session=args.session,
        hotseat=args.hotseat,
        save=args.save,
        resume=args.resume,
        force=args.force,
        game=args.game,
        variant=args.variant,
        players=args.players,
        rules=args.rules,
    )
    try:
        return run_play(Terminal(out), options)
    except PlayError as e:
        raise UsageError(str(e)) from None


def cmd_lesson(args: argparse.Namespace, out: TextIO) -> int:
    from umtali.cli.lesson import run_lesson
    from umtali.cli.terminal import QuitRequested, Terminal

    if args.number not in (1, 2, 3, 4):
        raise UsageError(f"there are four lessons, 1 to 4; {args.number} is not one of them")
    try:
        return run_lesson(Terminal(out), args.number)
    except QuitRequested:
        print("Lesson stopped. Come back any time with: umtali lesson", args.number, file=out)
        return 0


def cmd_quiz(args: argparse.Namespace, out: TextIO) -> int:
    from umtali.cli.quiz import run_quiz
    from umtali.cli.terminal import QuitRequested, Terminal

    try:
        return run_quiz(Terminal(out))
    except QuitRequested:
        print("Quiz stopped.", file=out)
        return 0


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from umtali.sim.bench import pin_to_one_core, run_bench

    if args.peers:
        return _bench_peers(args, out)
    print(f"umtali {__version__} · uniform-random play · {pin_to_one_core()}", file=out)
    print(run_bench(args.seconds, args.seed).report(), file=out)
    return 0


def _bench_peers(args: argparse.Namespace, out: TextIO) -> int:
    from umtali.sim.bench import pin_to_one_core
    from umtali.sim.peers import OptionalEngine, compare_engines, load_engines, peer_report

    if args.block > args.seconds:
        raise UsageError(f"--block must be at most --seconds ({args.seconds}), not {args.block}")
    pinned = pin_to_one_core()
    # The environments of the rl layer are handed over: the sim layer may not import it.
    more: tuple[OptionalEngine, ...] = ()
    rl_missing: list[str] = []
    try:
        from umtali.rl.bench import ENGINES

        more = ENGINES
    except ImportError as e:
        rl_missing.append(f"the rl extra is not installed ({e}); pip install -e '.[rl]'")
    engines, missing = load_engines(args.seed, more=more)
    missing += rl_missing
    for note in missing:
        print(f"left out: {note}", file=sys.stderr)
    names = ", ".join(e.name for e in engines)
    print(f"interleaving {names} in blocks of {args.block} s ...", file=sys.stderr)
    tallies = compare_engines(engines, args.seconds, args.block, args.seed)
    print(peer_report(tallies, missing, pinned), file=out)
    return 0


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    import os

    from umtali.sim.arena import GAMES, ArenaError, report, run_arena
    from umtali.sim.plot import INSTALL_HINT
    from umtali.sim.results import (
        EarlierResultsError,
        ResultsError,
        prepare_results,
        write_results,
    )

    game = GAMES[args.game]
    if args.variant is not None and game.name != "gin":
        raise UsageError(
            "--variant chooses a variant of Gin Rummy (standard or oklahoma): add --game gin"
        )
    for level in (args.bot_a, args.bot_b):
        if level not in game.levels:
            raise UsageError(
                f"unknown bot level {level!r}; the{'' if game.name == 'umtali' else ' ' + game.title}"
                f" levels are: {', '.join(game.levels)}"
            )
    if args.rules is not None and game.name == "gin":
        raise UsageError(
            "--rules chooses the rules of Umtali; Gin Rummy's are chosen with --variant"
            " (standard or oklahoma): leave --rules out"
        )
    rules: RuleSet | GinRules = args.rules or STANDARD
    if game.name == "gin":
        rules = GIN_PRESETS[args.variant or "standard"]
    # A run under other rules than the standard ones is named after them too, so that
    # it never replaces the standard run of the same levels and seed.
    run_name = game.name if rules.name == "standard" else f"{game.name}-{rules.name}"
    if not 1 <= args.games <= 1_000_000:
        raise UsageError(f"--games must be from 1 to 1,000,000 deals, not {args.games}")
    jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    if not 1 <= jobs <= 1024:
        raise UsageError(f"--jobs must be from 1 to 1024, not {jobs}")
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address names a Ray cluster: add --backend ray")
    # Checked before the games, which may take hours.
    try:
        paths = prepare_results(
            Path(args.out), args.bot_a, args.bot_b, args.seed, replace=args.force, game=run_name
        )
    except EarlierResultsError as e:
        raise UsageError(
            f"{e}; add --force to replace the results, or give another --out folder or --seed"
        ) from None
    except ResultsError as e:
        raise UsageError(str(e)) from None

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    show = not args.quiet and sys.stderr.isatty()
    bar = Progress(
        TextColumn(f"{game.title}: {args.bot_a} vs {args.bot_b}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not show,
        transient=True,
    )
    task = bar.add_task("arena", total=2 * args.games)

    def advance(games: int) -> None:
        # Drawn from the first call on: the worker processes are forked by then, before
        # the bar's refresh thread exists.
        if not bar.live.is_started:
            bar.start()
        bar.advance(task, games)

    try:
        result = run_arena(
            args.bot_a,
            args.bot_b,
            args.games,
            seed=args.seed,
            jobs=jobs,
            rules=rules,
            progress=advance,
            backend=args.backend,
            address=args.address,
        )
    except ArenaError as e:
        print(f"umtali: {e}", file=sys.stderr)
        return 1
    finally:
        bar.stop()
    print(report(result), file=out)

    try:
        drawn = write_results(result, paths)
    except ResultsError as e:
        raise UsageError(str(e)) from None
    print(f"\nresults: {paths.json}", file=out)
    if drawn:
        print(f"plot:    {paths.png}", file=out)
    else:
        print(f"plot:    not drawn: matplotlib is not installed; {INSTALL_HINT}", file=out)
    return 0


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the browser server's API with uvicorn until Ctrl-C (needs the ``web`` extra)."""
    try:
        import uvicorn

        from umtali.web.app import HideSecrets, create_app
        from umtali.web.store import StoreError
    except ImportError as e:
        raise UsageError(
            f"'umtali serve' needs the web extra ({e.name} is missing): pip install -e '.[web]'"
        ) from None
    try:
        app = create_app(args.db, grace=args.grace)
    except StoreError as e:
        raise UsageError(str(e)) from None
    store = app.state.server.store
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"umtali: serving http://{host}:{args.port}/ (database {store.url}); Ctrl-C stops", file=out
    )
    # No access log: the paths of a seat's requests carry its secret.
    # uvicorn logs each WebSocket's path, which carries the seat's secret: cut it out.
    logging.getLogger("uvicorn.error").addFilter(HideSecrets())
    # A WebSocket message over 64 KiB closes the socket (the server reads 4 KiB at most).
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="info",
        access_log=False,
        ws_max_size=64 * 1024,
    )
    return 0


def _typed(text: str) -> str:
    """What was typed, as a message quotes it back: cut short, control characters escaped."""
    return printable(quoted(text, bare=True))


def _file_name(text: str) -> str:
    """An option naming a file: not empty, no NUL (the system cannot take one)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a file name is needed here, not an empty one")
    if "\0" in text:
        raise argparse.ArgumentTypeError("a file name cannot hold a NUL character")
    return text


def _port(text: str) -> int:
    """A TCP port to listen on: a whole number from 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"give a port from 1 to 65535, not {_typed(text)}")
    return port


def _seconds_between(low: float, high: float) -> Callable[[str], float]:
    """An option of seconds, from ``low`` to ``high`` (a tiny or endless run measures
    nothing, and ``nan`` is no length of time)."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{_typed(text)!r} is not a number of seconds"
            ) from None
        if not low <= value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(
                f"give from {low:g} to {high:g} seconds, not {_typed(text)}"
            )
        return value

    return seconds


_PRESET_NOTES: Final = {
    "standard": "the book's game, with the rulings R1-R11",
    "practical": "seed 003's looser game: ten cards and an upcard, melding when you"
    " like, any discard taken with the cards above it",
}
"""What each of Umtali's presets is, in a few words for the help (``RuleSet`` has no
description of its own). A preset added to :data:`umtali.games.umtali.rules.PRESETS` and not here is
offered all the same, by name."""


def _presets_told() -> str:
    """Every preset of :data:`umtali.games.umtali.rules.PRESETS`, each with what it is."""
    return "; ".join(
        f"{name} ({_PRESET_NOTES[name]})" if name in _PRESET_NOTES else name for name in PRESETS
    )


def _preset(text: str) -> RuleSet:
    """A rules option: the name of a preset of :data:`umtali.games.umtali.rules.PRESETS`."""
    try:
        return PRESETS[text]
    except KeyError:
        raise argparse.ArgumentTypeError(
            f"there are no rules called {_typed(text)!r}; the presets are {', '.join(PRESETS)}"
        ) from None


class _Parser(argparse.ArgumentParser):
    """argparse, whose messages quote what was typed shortened and escaped: a 5 MB
    argument or an escape sequence is not sent back whole to the terminal."""

    def error(self, message: str) -> NoReturn:
        super().error(printable(quoted(message, 300, bare=True)))


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="umtali",
        description="Umtali, the two-player rummy of colonial Rhodesia.",
    )
    parser.add_argument("--version", action="version", version=f"umtali {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play", help="play a game of Umtali (or of Gin Rummy) against the computer"
    )
    play.add_argument(
        "--game",
        choices=["umtali", "gin"],
        help="the game: umtali (default) or gin, Gin Rummy (--resume plays the record's game)",
    )
    play.add_argument(
        "--variant",
        choices=sorted(GIN_PRESETS),
        help="with --game gin: standard (to 100, the default) or oklahoma (the first upcard"
        " sets the knock limit, a spade doubles, to 150)",
    )
    play.add_argument(
        "--rules",
        metavar="NAME",
        type=_preset,
        help=f"the rules of Umtali: {_presets_told()} (default standard; --resume plays the"
        " record's)",
    )
    play.add_argument(
        "--bot",
        choices=list(BOTS),
        help=f"the computer's level (default {DEFAULT_BOT}: the strongest measured to decide"
        f" within a second; Gin Rummy's are {', '.join(GIN_BOTS)}, default {DEFAULT_GIN_BOT})",
    )
    play.add_argument("--session", action="store_true", help="play a session: first to win 2 games")
    play.add_argument(
        "--hotseat",
        action="store_true",
        help="two people at one terminal (with --players, a person in every seat)",
    )
    play.add_argument(
        "--players",
        type=int,
        choices=[2, 3, 4],
        help="with --game gin: 3 or 4 for three- or four-hand Gin Rummy (the computer"
        " fills the seats of the other players; default 2; --resume plays the record's)",
    )
    play.add_argument("--seed", type=int, help="deal reproducibly from this seed")
    play.add_argument(
        "--save",
        metavar="FILE",
        type=_file_name,
        help="keep the game record in FILE, a new file (saved after each hand)",
    )
    play.add_argument(
        "--force",
        action="store_true",
        help="let --save write over a file that already exists",
    )
    play.add_argument(
        "--resume",
        metavar="FILE",
        type=_file_name,
        help="continue a saved game (with its own seed, seats and level; --save may name"
        " another file to keep it in)",
    )
    play.set_defaults(run=cmd_play)

    demo = sub.add_parser("demo", help="a hand between two random players, turn by turn")
    demo.add_argument("--seed", type=int, help="deal reproducibly from this seed")
    demo.add_argument(
        "--rules",
        metavar="NAME",
        type=_preset,
        default=STANDARD,
        help=f"the rules: {_presets_told()} (default standard)",
    )
    demo.add_argument(
        "--save", metavar="FILE", type=_file_name, help="save the game record to FILE (a new file)"
    )
    demo.add_argument(
        "--force", action="store_true", help="let --save write over a file that already exists"
    )
    demo.add_argument(
        "--step", action="store_true", help="pause after every turn (Enter goes on, q stops)"
    )
    demo.set_defaults(run=cmd_demo)

    replay = sub.add_parser("replay", help="print a recorded game turn by turn")
    replay.add_argument("file", metavar="FILE", type=_file_name, help="a game record (JSON)")
    replay.add_argument(
        "--step", action="store_true", help="pause after every turn (Enter goes on, q stops)"
    )
    replay.set_defaults(run=cmd_replay)

    lesson = sub.add_parser("lesson", help="walk through one of the book's four lesson hands")
    lesson.add_argument("number", type=int, metavar="N", help="the lesson, 1 to 4")
    lesson.set_defaults(run=cmd_lesson)

    quiz = sub.add_parser("quiz", help="the book's twelve self-test questions, graded")
    quiz.set_defaults(run=cmd_quiz)

    bench = sub.add_parser("bench", help="measure the engine's speed on one core")
    bench.add_argument(
        "--seconds",
        type=_seconds_between(0.1, 3600),
        default=5.0,
        help="how long to run, 0.1 to 3600 (default 5)",
    )
    bench.add_argument("--seed", type=int, default=0, help="seed of the random play")
    bench.add_argument(
        "--peers",
        action="store_true",
        help="also run OpenSpiel's and RLCard's Gin Rummy, interleaved, and compare"
        " (pip install -e '.[bench]'); --seconds is then each engine's play time",
    )
    bench.add_argument(
        "--block",
        type=_seconds_between(0.05, 3600),
        default=0.5,
        help="with --peers: seconds of one engine's block before the next takes over, 0.05"
        " to --seconds (default 0.5)",
    )
    bench.set_defaults(run=cmd_bench)

    arena = sub.add_parser(
        "arena",
        help="play two bots against each other over duplicate deals, with figures",
        description="Play BOT_A against BOT_B over duplicate deals: each deal (a game of four"
        " hands) is played twice, with the seats swapped. Prints the figures and writes"
        " JSON results and a PNG plot of points per hand to --out.",
    )
    arena.add_argument(
        "bot_a",
        metavar="BOT_A",
        help=f"a bot level: {', '.join(BOTS)} (Gin Rummy: {', '.join(GIN_BOTS)})",
    )
    arena.add_argument("bot_b", metavar="BOT_B", help="another (or the same) bot level")
    arena.add_argument(
        "--games",
        type=int,
        default=100,
        metavar="N",
        help="deals to play, each twice with the seats swapped: 2N games (default 100)",
    )
    arena.add_argument(
        "--jobs",
        type=int,
        metavar="K",
        help="processes to play in (default: every core; 1 plays in this process)",
    )
    arena.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    arena.add_argument(
        "--out",
        default="arena-results",
        metavar="DIR",
        type=_file_name,
        help="folder for the JSON results and the PNG plot (default ./arena-results)",
    )
    arena.add_argument(
        "--force",
        action="store_true",
        help="write over the results of an earlier run with the same bots and seed",
    )
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.add_argument(
        "--backend",
        choices=["processes", "ray"],
        default="processes",
        help="where the deals are played: worker processes on this machine (default), or"
        " Ray tasks on a local Ray of --jobs CPUs or the cluster at --address (needs the"
        " ray extra); the results are the same",
    )
    arena.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: the Ray cluster to run on (auto, HOST:PORT or ray://HOST:10001);"
        " default: a local Ray",
    )
    arena.add_argument(
        "--game",
        choices=["umtali", "gin"],
        default="umtali",
        help="the game the bots play: umtali (default) or gin, Gin Rummy (a deal is then a"
        " game to 100)",
    )
    arena.add_argument(
        "--variant",
        choices=sorted(GIN_PRESETS),
        help="with --game gin: standard (the default) or oklahoma",
    )
    arena.add_argument(
        "--rules",
        metavar="NAME",
        type=_preset,
        help=f"the rules of Umtali: {_presets_told()} (default standard)",
    )
    arena.set_defaults(run=cmd_arena)

    serve = sub.add_parser("serve", help="run the browser server's API (needs the web extra)")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=_port, default=8000, help="port to listen on, 1 to 65535 (default 8000)"
    )
    serve.add_argument(
        "--db",
        metavar="URL",
        help="the database: sqlite:///FILE or postgresql://... (default $DATABASE_URL, else"
        " sqlite:///umtali.db)",
    )
    serve.add_argument(
        "--grace",
        type=_seconds_between(1, 86_400),
        default=90.0,
        metavar="SECONDS",
        help="how long a player may be away before the other may hand his seat to the"
        " computer, 1 to 86400 (default 90)",
    )
    serve.set_defaults(run=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; return the exit status."""
    if out is None:
        tolerate_narrow_output()
    # A closed pipe or a full disk under the output ends the command with a word on
    # standard error, never a traceback (``umtali play`` saves the game first).
    stream = cast(TextIO, GuardedOutput(out if out is not None else sys.stdout))
    parser = _parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace, TextIO], int] | None = getattr(args, "run", None)
    try:
        if run is None:
            parser.print_help(stream)
            return 0
        return run(args, stream)
    except UsageError as e:
        # Messages quote file names and records: escaped, they cannot drive the terminal.
        print(f"umtali: {printable(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\numtali: interrupted", file=sys.stderr)
        return 130
    except OutputLost as e:
        if not e.reader_gone:  # a reader that stops reading (| head) needs no word
            print(f"umtali: {e.reason}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
