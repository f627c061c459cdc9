"""The ``umtali`` command's options, one function a subcommand. The games, their levels,
variants and numbers of players are the registry's (:mod:`umtali.games`), so a game
registered there is offered here with no edit.
"""

from __future__ import annotations

import argparse
from typing import TypeAlias

from umtali import __version__, games
from umtali.cli.arena import cmd_arena
from umtali.cli.bench import cmd_bench
from umtali.cli.choosing import (
    all_levels,
    all_seat_counts,
    either,
    game_option,
    games_told,
    levels_told,
    seats_told,
    variants_told,
)
from umtali.cli.learning import cmd_lesson, cmd_quiz, teachings
from umtali.cli.play import cmd_play
from umtali.cli.puzzles import cmd_generate, cmd_puzzles
from umtali.cli.replay import cmd_demo, cmd_replay
from umtali.cli.review import cmd_review
from umtali.cli.serve import cmd_serve
from umtali.cli.usage import (
    Parser,
    add_setting,
    file_name,
    port,
    proxy_addresses,
    seconds_between,
    whole_between,
)
from umtali.learn.puzzles import GAP
from umtali.learn.review import MOST_PLAYOUTS
from umtali.web.transport import BOUNDS as LIMIT_BOUNDS
from umtali.web.transport import ServerLimits

__all__ = ["build_parser"]

Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"

_STEP = "pause after every turn (Enter goes on, q stops)"


def _game_options(parser: argparse.ArgumentParser, what: str, resumed: str = "") -> None:
    """``--game``, ``--variant`` and its other name ``--rules``; ``what`` the game is,
    ``resumed`` what ``--resume`` does to them."""
    parser.add_argument(
        "--game", metavar="NAME", type=game_option, help=f"{what}: {games_told()}{resumed}"
    )
    parser.add_argument(
        "--variant",
        metavar="NAME",
        help=f"the game's rules: {variants_told()} (default: the game's first{resumed})",
    )
    parser.add_argument("--rules", metavar="NAME", help="another name for --variant")


def _add_play(sub: Subparsers) -> None:
    titles = either([spec.title for spec in games.games()])
    play = sub.add_parser("play", help=f"play a game against the computer: {titles}")
    _game_options(play, "the game", "; --resume plays the record's")
    play.add_argument("--bot", choices=all_levels(), help=f"the computer's level: {levels_told()}")
    sessions = [spec.name for spec in games.games() if "session" in spec.lengths]
    play.add_argument(
        "--session",
        action="store_true",
        help=f"play a session, a match of several games (where the game has one: {either(sessions)})",
    )
    play.add_argument(
        "--hotseat",
        action="store_true",
        help="two people at one terminal (with --players, a person in every seat)",
    )
    play.add_argument(
        "--players",
        type=int,
        choices=all_seat_counts(),
        help=f"how many play: {seats_told()} (the first the default; the computer fills the"
        " seats of the other players; --resume plays the record's)",
    )
    play.add_argument("--seed", type=int, help="deal reproducibly from this seed")
    play.add_argument(
        "--save",
        metavar="FILE",
        type=file_name,
        help="keep the game record in FILE, a new file (saved after each hand)",
    )
    play.add_argument(
        "--force", action="store_true", help="let --save write over a file that already exists"
    )
    play.add_argument(
        "--resume",
        metavar="FILE",
        type=file_name,
        help="continue a saved game (with its own game, seed, seats and level; --save may"
        " name another file to keep it in)",
    )
    play.set_defaults(run=cmd_play)


def _add_demo(sub: Subparsers) -> None:
    demo = sub.add_parser("demo", help="a hand between two random players, turn by turn")
    _game_options(demo, "the game")
    demo.add_argument("--seed", type=int, help="deal reproducibly from this seed")
    demo.add_argument(
        "--save", metavar="FILE", type=file_name, help="save the game record to FILE (a new file)"
    )
    demo.add_argument(
        "--force", action="store_true", help="let --save write over a file that already exists"
    )
    demo.add_argument("--step", action="store_true", help=_STEP)
    demo.set_defaults(run=cmd_demo)


def _add_replay(sub: Subparsers) -> None:
    replay = sub.add_parser("replay", help="print a recorded game turn by turn")
    replay.add_argument("file", metavar="FILE", type=file_name, help="a game record (JSON)")
    replay.add_argument("--step", action="store_true", help=_STEP)
    replay.set_defaults(run=cmd_replay)


def _add_review(sub: Subparsers) -> None:
    review = sub.add_parser(
        "review", help="review your play in a recorded game: where you lost points"
    )
    review.add_argument("file", metavar="FILE", type=file_name, help="a game record (JSON)")
    review.add_argument(
        "--hand", type=whole_between(1, 10_000), help="review this hand only (1 = the first)"
    )
    review.add_argument(
        "--player",
        type=whole_between(1, 4),
        help="review this player's play (1 = the first; default: the first person)",
    )
    review.add_argument(
        "--playouts",
        type=whole_between(8, MOST_PLAYOUTS),
        default=800,
        help="playouts a decision, over all its alternatives (default: 800)",
    )
    review.add_argument(
        "--seed", type=whole_between(0, 2**63), default=0, help="the playouts' seed (default: 0)"
    )
    review.add_argument(
        "--seconds",
        type=seconds_between(0.01, 3600),
        help="the most time a decision may take (default: no limit, the same review on any"
        " machine)",
    )
    review.set_defaults(run=cmd_review)


def _add_learning(sub: Subparsers) -> None:
    taught = teachings()
    names = either([spec.name for spec, _ in taught])
    lessons = "; ".join(f"{teaching.lessons_told} ({spec.name})" for spec, teaching in taught)
    quizzes = "; ".join(f"{teaching.quiz_told} ({spec.name})" for spec, teaching in taught)
    lesson = sub.add_parser("lesson", help=f"walk through {lessons}")
    lesson.add_argument("number", type=int, metavar="N", help="the lesson, from 1")
    quiz = sub.add_parser("quiz", help=quizzes)
    for parser, what, run in ((lesson, "lesson", cmd_lesson), (quiz, "quiz", cmd_quiz)):
        parser.add_argument(
            "--game",
            metavar="NAME",
            type=game_option,
            help=f"the game whose {what} it is: {names} (default {games.DEFAULT_GAME})",
        )
        parser.set_defaults(run=run)


def _add_puzzles(sub: Subparsers) -> None:
    puzzles = sub.add_parser(
        "puzzles", help="positions from computer games where one move is clearly best: find it"
    )
    game_help = f"the game whose puzzles they are (default {games.DEFAULT_GAME})"
    puzzles.add_argument("--game", metavar="NAME", type=game_option, help=game_help)
    puzzles.add_argument("--puzzle", type=whole_between(1, 100_000), help="this puzzle only")
    puzzles.add_argument(
        "--seed", type=whole_between(0, 2**63), help="the order of the puzzles (default: random)"
    )
    puzzles.set_defaults(run=cmd_puzzles)
    actions = puzzles.add_subparsers(dest="action", metavar="ACTION")
    make = actions.add_parser(
        "generate", help="make puzzles: play computer games and keep the clear positions"
    )
    make.add_argument("--game", metavar="NAME", type=game_option, help=game_help)
    make.add_argument("--out", required=True, type=file_name, help="the file to write (JSON)")
    make.add_argument(
        "--games", type=whole_between(1, 100_000), default=400, help="games to play (default 400)"
    )
    make.add_argument(
        "--count", type=whole_between(1, 10_000), default=60, help="puzzles to keep (default 60)"
    )
    make.add_argument(
        "--seed", type=whole_between(0, 2**62), default=0, help="the games' seed (default 0)"
    )
    make.add_argument(
        "--screen",
        type=whole_between(8, MOST_PLAYOUTS),
        default=80,
        help="playouts a decision's first weighing takes (default 80)",
    )
    make.add_argument(
        "--check",
        type=whole_between(8, MOST_PLAYOUTS),
        default=800,
        help="playouts a kept position is weighed again with (default 800)",
    )
    make.add_argument(
        "--gap",
        type=seconds_between(0.1, 100, "points"),
        default=GAP,
        help=f"points the best move must win more than the next (default {GAP:g})",
    )
    make.add_argument(
        "--jobs",
        type=whole_between(1, 64),
        default=1,
        help="processes sharing the games (default 1); the puzzles are the same for any number",
    )
    make.add_argument("--verbose", action="store_true", help="say how far it has got")
    make.set_defaults(run=cmd_generate)


def _add_bench(sub: Subparsers) -> None:
    bench = sub.add_parser("bench", help="measure the engine's speed on one core")
    bench.add_argument(
        "--seconds",
        type=seconds_between(0.1, 3600),
        default=5.0,
        help="how long to run, 0.1 to 3600 (default 5)",
    )
    bench.add_argument("--seed", type=int, default=0, help="seed of the random play")
    bench.add_argument(
        "--game",
        metavar="NAME",
        type=game_option,
        help=f"the game whose engine is timed (default {games.DEFAULT_GAME}; not with --peers)",
    )
    bench.add_argument(
        "--peers",
        action="store_true",
        help="also run OpenSpiel's and RLCard's Gin Rummy, interleaved, and compare"
        " (pip install -e '.[bench]'); --seconds is then each engine's play time",
    )
    bench.add_argument(
        "--block",
        type=seconds_between(0.05, 3600),
        default=0.5,
        help="with --peers: seconds of one engine's block before the next takes over, 0.05"
        " to --seconds (default 0.5)",
    )
    bench.set_defaults(run=cmd_bench)


def _add_arena(sub: Subparsers) -> None:
    arena = sub.add_parser(
        "arena",
        help="play two bots against each other over duplicate deals, with figures",
        description="Play BOT_A against BOT_B over duplicate deals: each deal (a game) is"
        " played twice, with the seats swapped. Prints the figures and writes JSON results"
        " and a PNG plot of points per hand to --out. A bot is a level or an outside"
        " policy, named by its entry point (package.module:make_bot, a callable that"
        " returns a bot like the game's own; docs/RESEARCH.md, 'Submit a policy'). A run"
        " keeps its finished deals as it plays: run the same command again after a stop"
        " (Ctrl-C, a reboot) and it goes on where it stopped, with the same results.",
    )
    arena.add_argument(
        "bot_a",
        metavar="BOT_A",
        help=f"a bot level ({levels_told()}), or an outside policy: package.module:make_bot",
    )
    arena.add_argument(
        "bot_b",
        metavar="BOT_B",
        nargs="?",
        help="another (or the same) bot level or policy, or levels joined by commas, played"
        " in turn (default: every level of the game, in turn)",
    )
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
        type=file_name,
        help="folder for the JSON results and the PNG plot (default ./arena-results)",
    )
    arena.add_argument(
        "--force",
        action="store_true",
        help="write over the results of an earlier run with the same bots and seed, and"
        " start over a run of theirs that stopped (without it, the run goes on from the"
        " deals the stopped run kept in its .partial.jsonl beside the results)",
    )
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.add_argument(
        "--single-hands",
        action="store_true",
        help="play single hands, not games: each deal is one hand, played from both seats"
        " (points per hand without a game's bonuses; Umtali, and Gin Rummy for two)",
    )
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
    _game_options(arena, "the game the bots play")
    arena.set_defaults(run=cmd_arena)


def _add_serve(sub: Subparsers) -> None:
    serve = sub.add_parser("serve", help="run the browser server's API (needs the web extra)")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=port, default=8000, help="port to listen on, 1 to 65535 (default 8000)"
    )
    serve.add_argument(
        "--db",
        metavar="URL",
        help="the database: sqlite:///FILE or postgresql://... (default $DATABASE_URL, else"
        " sqlite:///umtali.db)",
    )
    serve.add_argument(
        "--grace",
        type=seconds_between(1, 86_400),
        default=90.0,
        metavar="SECONDS",
        help="how long a player may be away before the other may hand his seat to the"
        " computer, 1 to 86400 (default 90)",
    )
    serve.add_argument(
        "--api-docs",
        action="store_true",
        help="serve the API's documentation pages /docs and /redoc, for development (they"
        " load scripts from a public CDN, which the pages' security policy blocks)",
    )
    _limit_options(serve)
    _capacity_options(serve)
    serve.add_argument(
        "--workers",
        type=whole_between(1, 64),
        default=1,
        metavar="N",
        help="server processes sharing the port (default 1); more than one needs a"
        " PostgreSQL database, whose notices keep their games in step",
    )
    serve.add_argument(
        "--trusted-proxies",
        type=proxy_addresses,
        default="127.0.0.1",
        metavar="ADDRESSES",
        help="the reverse proxies whose X-Forwarded-For names the client (counted for"
        " --games-per-minute): addresses or networks, comma-separated, or * for any"
        " (default 127.0.0.1)",
    )
    serve.set_defaults(run=cmd_serve)


def _limit_options(serve: argparse.ArgumentParser) -> None:
    """``umtali serve``'s options for the transport's limits (docs/WEB.md, "Limits"),
    each bounded as :class:`umtali.web.transport.ServerLimits` bounds it, and each given
    by its environment variable when it is not typed (:func:`add_setting`)."""
    options = [
        ("--max-header-bytes", "header_bytes", "BYTES", "the most a request's headers may take"),
        (
            "--header-timeout",
            "header_seconds",
            "SECONDS",
            "seconds a connection has to send a request's whole headers before it is closed",
        ),
        (
            "--body-timeout",
            "body_seconds",
            "SECONDS",
            "seconds a request has to send its whole body, once its headers are in, before"
            " it is answered 408 and closed",
        ),
        ("--keep-alive", "keep_alive_seconds", "SECONDS", "seconds an idle connection stays open"),
        (
            "--max-connections",
            "max_connections",
            "N",
            "connections and requests served at once; a request over it is answered 503",
        ),
        ("--ping-interval", "ping_seconds", "SECONDS", "seconds between WebSocket pings"),
        (
            "--ping-timeout",
            "ping_timeout_seconds",
            "SECONDS",
            "seconds a WebSocket client has to answer a ping",
        ),
        (
            "--sockets-per-seat",
            "sockets_per_seat",
            "N",
            "WebSockets one seat may hold open at once",
        ),
    ]
    defaults = ServerLimits()
    for flag, name, metavar, what in options:
        low, high = LIMIT_BOUNDS[name]
        if metavar == "SECONDS":
            check, told = seconds_between(low, high), f"{low:g} to {high:g}"
        else:
            check, told = whole_between(int(low), int(high)), f"{int(low):,} to {int(high):,}"
        add_setting(serve, flag, check, getattr(defaults, name), metavar, f"{what}, {told}")


def _capacity_options(serve: argparse.ArgumentParser) -> None:
    """``umtali serve``'s options for the limits on games and memory (docs/WEB.md,
    "Limits: games and memory"), each given by its environment variable when it is not
    typed (:func:`add_setting`)."""
    add_setting(
        serve,
        "--games-per-minute",
        whole_between(1, 1_000_000),
        20,
        "N",
        "new games one client address may make in a minute",
    )
    add_setting(
        serve,
        "--games-in-play",
        whole_between(1, 1_000_000),
        2_000,
        "N",
        "games in play the server holds in memory before it refuses new ones",
    )
    add_setting(
        serve,
        "--idle-minutes",
        seconds_between(0.01, 10_080, "minutes"),
        30.0,
        "MINUTES",
        "a game untouched this long leaves memory, read again from the database when next"
        " asked for",
    )
    add_setting(
        serve,
        "--bot-seconds",
        seconds_between(0.001, 600),
        1.0,
        "SECONDS",
        "the computer's thinking time for one move, 0.001 to 600; while games wait for the"
        " computer's threads each gets less, down to 0.05 s",
    )
    add_setting(
        serve,
        "--open-per-address",
        whole_between(1, 1_000),
        2,
        "N",
        "tables one client address may have open to anyone, waiting for players, at once",
    )
    add_setting(
        serve,
        "--open-tables",
        whole_between(1, 10_000),
        200,
        "N",
        "tables open to anyone waiting for players in all (the home page lists them)",
    )
    add_setting(
        serve,
        "--open-wait-minutes",
        seconds_between(0.01, 1_440, "minutes"),
        10.0,
        "MINUTES",
        "how long an open table waits for someone to sit down; then it leaves the list and"
        " its opener may play the computer instead",
    )


def build_parser() -> argparse.ArgumentParser:
    """The ``umtali`` command's parser: each subcommand sets ``run``, its function."""
    titles = either([spec.title for spec in games.games()], "and")
    parser = Parser(prog="umtali", description=f"Card games at the terminal: {titles}.")
    parser.add_argument("--version", action="version", version=f"umtali {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in (
        _add_play,
        _add_demo,
        _add_replay,
        _add_review,
        _add_learning,
        _add_puzzles,
        _add_bench,
        _add_arena,
    ):
        add(sub)
    _add_serve(sub)
    return parser
