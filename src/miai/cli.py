"""The `miai` command: one subcommand per job, each with its own `--help`.

Every subcommand is a pair of functions: `_add_NAME(subparsers)` declares its arguments and `_run_NAME(args)`
does the work and returns the exit code. Adding a subcommand means adding such a pair and one line in
`SUBCOMMANDS`. Exit codes: 0 success, 1 the job failed, 2 bad command-line arguments (one-line message).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from miai import __version__

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

Runner = Callable[[argparse.Namespace], int]
MAX_USERNAME = 64  # what the API takes as a username (the longest an account can have)


class _Parser(argparse.ArgumentParser):
    """Bad arguments: one line on stderr and exit code 2 (argparse would print the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _preset_keys() -> list[str]:
    from miai.core.go.presets import PRESETS

    return sorted(PRESETS)


# ---------------------------------------------------------------- miai version


def _add_version(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    subparsers.add_parser("version", help="print Miai's version", description="Print Miai's version.")


def _run_version(args: argparse.Namespace) -> int:
    print(f"miai {__version__}")
    return 0


# ---------------------------------------------------------------- miai gtp


def _add_gtp(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    parser = subparsers.add_parser(
        "gtp",
        help="play Go over GTP on stdin/stdout",
        description="Serve Miai's Go engine over the Go Text Protocol on standard input and output, so Miai "
        "plays in Sabaki, GoGui and against other engines.",
    )
    parser.add_argument(
        "--rules",
        default="chinese",
        choices=_preset_keys(),
        metavar="PRESET",
        help="rules preset (default: chinese; one of: %(choices)s)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the player's random choices")
    parser.add_argument(
        "--level",
        default="10",
        help="computer level 1..10, 'simple' for an instant player that reads one move ahead, or the name of "
        "an external engine configured in MIAI_EXTERNAL_ENGINES (default 10)",
    )
    parser.add_argument(
        "--time",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="longest think per move (default: the level's budget, or what time_settings allow)",
    )


def _run_gtp(args: argparse.Namespace) -> int:
    from miai.formats.gtp import run_gtp_loop
    from miai.formats.gtp.go_engine import build_go_engine

    if args.level == "simple":
        from miai.engines.simple import SimplePlayer

        player: Any = SimplePlayer(random.Random(args.seed))
    else:
        from miai.engines.levels import make_move_generator

        level: int | str = int(args.level) if args.level.isdigit() else args.level
        try:
            player = make_move_generator(level, args.time, args.seed)
        except ValueError as err:
            print(f"miai gtp: error: {err}", file=sys.stderr)
            return 2
    engine = build_go_engine(args.rules, player, _estimator())
    run_gtp_loop(engine, sys.stdin.buffer, sys.stdout.buffer)
    return 0


def _estimator() -> Any:
    """The dead-stone estimator for final_score / final_status_list, when it is installed."""
    try:
        from miai.engines.estimator.gtp import GtpEstimator
    except ImportError:
        return None
    return GtpEstimator()


# ---------------------------------------------------------------- miai match


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def _board_size(text: str) -> int:
    value = _positive(text)
    if not 2 <= value <= 25:
        raise argparse.ArgumentTypeError(f"board sizes are 2..25, not {value}")
    return value


def _komi(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _seconds(text: str) -> float:
    value = _komi(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _add_match(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    parser = subparsers.add_parser(
        "match",
        help="play games between two GTP engines",
        description="Play complete Go games between two GTP engines, refereed by Miai's rules core. "
        "Engine commands are split like a shell command line; {python} stands for this Python, so "
        "'{python} -m miai gtp' is Miai itself. Progress goes to stderr, the summary to stdout. "
        "Exit code 1 when any game ended by a fault (illegal move, protocol error, dead engine).",
    )
    parser.add_argument("--black", required=True, metavar="CMD", help="engine A, Black in the first game")
    parser.add_argument("--white", required=True, metavar="CMD", help="engine B, White in the first game")
    parser.add_argument("--size", type=_board_size, default=19, help="board size (default 19)")
    parser.add_argument("--games", type=_positive, default=1, help="number of games (default 1)")
    parser.add_argument("--komi", type=_komi, default=7.5, help="White's komi (default 7.5)")
    parser.add_argument(
        "--rules",
        default="chinese",
        choices=_preset_keys(),
        metavar="PRESET",
        help="ko and suicide rules of the referee (default: chinese; one of: %(choices)s)",
    )
    parser.add_argument("--alternate", action="store_true", help="swap colours after every game")
    parser.add_argument(
        "--sgf-dir", type=Path, default=None, metavar="DIR", help="write each game's SGF into DIR"
    )
    parser.add_argument(
        "--max-moves",
        type=_positive,
        default=None,
        metavar="M",
        help="end a game after M moves and count it (default: 3 x size x size)",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="longest wait for one engine answer (default 60)",
    )


def _run_match(args: argparse.Namespace) -> int:
    import shlex

    from miai.formats.gtp.match import MatchSettings, play_match

    for option in ("black", "white"):
        try:
            if not shlex.split(getattr(args, option)):
                raise ValueError("it is empty")
        except ValueError as err:
            print(f"miai match: error: --{option}: bad engine command ({err})", file=sys.stderr)
            return 2
    if args.sgf_dir is not None and args.sgf_dir.exists() and not args.sgf_dir.is_dir():
        print(f"miai match: error: --sgf-dir {args.sgf_dir} is not a directory", file=sys.stderr)
        return 2
    settings = MatchSettings(
        black=args.black,
        white=args.white,
        size=args.size,
        games=args.games,
        komi=args.komi,
        rules=args.rules,
        alternate=args.alternate,
        sgf_dir=args.sgf_dir,
        max_moves=args.max_moves,
        timeout=args.timeout,
    )

    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        report, _ = play_match(settings, progress)
    except OSError as err:
        print(f"miai match: error: {err}", file=sys.stderr)
        return 1
    print(report.summary())
    return 1 if report.faults else 0


# ---------------------------------------------------------------- miai serve


def _port(text: str) -> int:
    value = _positive(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"ports are 1..65535, not {value}")
    return value


def _add_serve(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="start the Miai server (SQLite in ./data unless a database URL is given)",
        description="Start the Miai web server. Every option can also be set by its environment variable "
        "(shown in brackets); options win over the environment. The database is created and migrated on "
        "start.",
    )
    parser.add_argument("--host", help="address to listen on [MIAI_HOST, default 127.0.0.1]")
    parser.add_argument("--port", type=_port, help="port to listen on [MIAI_PORT, default 8000]")
    parser.add_argument(
        "--data-dir", type=Path, help="folder of the embedded SQLite database [MIAI_DATA_DIR]"
    )
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="e.g. postgresql+asyncpg://user@host/miai [MIAI_DATABASE_URL, default SQLite in --data-dir]",
    )
    parser.add_argument("--redis-url", metavar="URL", help="Redis for realtime fan-out [MIAI_REDIS_URL]")
    parser.add_argument("--workers", type=_positive, default=1, help="server processes (needs --redis-url)")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])


def _run_serve(args: argparse.Namespace) -> int:
    import os

    from miai.server.main import serve
    from miai.server.settings import Settings

    # The environment carries the options to every worker process too.
    for option, variable in (
        ("host", "MIAI_HOST"),
        ("port", "MIAI_PORT"),
        ("data_dir", "MIAI_DATA_DIR"),
        ("database_url", "MIAI_DATABASE_URL"),
        ("redis_url", "MIAI_REDIS_URL"),
    ):
        value = getattr(args, option)
        if value is not None:
            os.environ[variable] = str(value)
    try:
        settings = Settings.from_env()
        settings.check()
    except ValueError as err:
        print(f"miai serve: error: {err}", file=sys.stderr)
        return 2
    print(
        f"Miai {__version__} on {settings.base_url} ({settings.effective_database_url.split('://')[0]})",
        file=sys.stderr,
        flush=True,
    )
    serve(settings, workers=args.workers, log_level=args.log_level)
    return 0


def _first_line(err: BaseException) -> str:
    """An error's first line: not SQLAlchemy's help link, nor a traceback."""
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def _configured_database_url(command: str) -> str | None:
    """The database the MIAI_* settings name; None, after saying why, when they are invalid (exit code 2)."""
    from miai.server.settings import Settings

    try:
        return Settings.from_env().effective_database_url
    except ValueError as err:
        print(f"miai {command}: error: {err}", file=sys.stderr)
        return None


def _database_failed(command: str, err: BaseException) -> int:
    """Say that the database could not be used; exit code 1."""
    print(f"miai {command}: error: cannot use the database: {_first_line(err)}", file=sys.stderr)
    return 1


# ---------------------------------------------------------------- miai worker

MAX_CONCURRENCY = 256  # one engine process each: far beyond any one host's cores


def _concurrency(text: str) -> int:
    value = _positive(text)
    if value > MAX_CONCURRENCY:
        raise argparse.ArgumentTypeError(f"at most {MAX_CONCURRENCY} jobs at a time, not {value}")
    return value


def _add_worker(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    parser = subparsers.add_parser(
        "worker",
        help="run engine jobs (computer moves, dead stones, territory) from the Redis queue",
        description="Take engine jobs from the Redis queue that servers with MIAI_ENGINE_QUEUE=redis submit "
        "to, and run them in this process's own engine pool. Settings come from the same MIAI_* variables "
        "as `miai serve` (the database, Redis and its prefix must be the servers'); options win over them. "
        "SIGTERM lets the current jobs finish, then stops.",
    )
    parser.add_argument(
        "--concurrency", type=_concurrency, default=1, help="jobs at a time (engine processes), 1..256"
    )
    parser.add_argument("--database-url", metavar="URL", help="the servers' database [MIAI_DATABASE_URL]")
    parser.add_argument(
        "--data-dir", type=Path, help="folder of the embedded SQLite database [MIAI_DATA_DIR]"
    )
    parser.add_argument("--redis-url", metavar="URL", help="the servers' Redis [MIAI_REDIS_URL]")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])


def _run_worker(args: argparse.Namespace) -> int:
    import logging

    from sqlalchemy.exc import SQLAlchemyError

    from miai.server.engine_jobs.worker import run_worker
    from miai.server.settings import Settings

    overrides = {
        name: value
        for name, value in (
            ("database_url", args.database_url),
            ("data_dir", args.data_dir),
            ("redis_url", args.redis_url),
        )
        if value is not None
    }
    try:
        settings = Settings.from_env(**overrides)
        settings.check()
    except ValueError as err:
        print(f"miai worker: error: {err}", file=sys.stderr)
        return 2
    if not settings.redis_url:
        print(
            "miai worker: error: MIAI_REDIS_URL (or --redis-url) is needed: jobs come from Redis",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    print(f"Miai {__version__} engine worker ({args.concurrency} at a time)", file=sys.stderr, flush=True)
    try:
        run_worker(settings, args.concurrency)
    except (OSError, SQLAlchemyError) as err:  # the database unusable at start (later failures are retried)
        print(f"miai worker: error: cannot start: {_first_line(err)}", file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------- miai score


def _add_score(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    from miai.engines.score_cli import add_score_parser

    add_score_parser(subparsers)


def _run_score(args: argparse.Namespace) -> int:
    from miai.engines.score_cli import score_command

    return score_command(args)


# ---------------------------------------------------------------- miai admin


def _add_admin(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    parser = subparsers.add_parser(
        "admin",
        help="grant, revoke or list the administrator role",
        description="Administrators review flagged games and correct scores. The role is stored with the "
        "account; this command changes it in the configured database (MIAI_DATABASE_URL, or SQLite in "
        "MIAI_DATA_DIR), migrating it first if needed. A running server sees the change at once. Exit code 1 "
        "when there is no such user or the database cannot be opened.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    actions.required = True
    for action, text in (("grant", "make NAME an administrator"), ("revoke", "take the role from NAME")):
        sub = actions.add_parser(action, help=text, description=f"{text[0].upper()}{text[1:]}.")
        sub.add_argument("name", metavar="NAME", help="the username (any case)")
    actions.add_parser(
        "list",
        help="print the administrators, one a line",
        description="Print the administrators' usernames, one a line.",
    )


def _run_admin(args: argparse.Namespace) -> int:
    import asyncio

    from sqlalchemy.exc import SQLAlchemyError

    from miai.server.identity.admins import UnknownUser, list_admins, set_admin
    from miai.server.settings import Settings
    from miai.server.text import clean_text

    try:
        settings = Settings.from_env()
        if args.action != "list":
            clean_text(args.name)  # argv may carry undecodable bytes as lone surrogates
            if not 1 <= len(args.name) <= MAX_USERNAME:
                raise ValueError(f"NAME: a username is 1..{MAX_USERNAME} characters, not {len(args.name)}")
    except ValueError as err:
        print(f"miai admin: error: {err}", file=sys.stderr)
        return 2
    url = settings.effective_database_url
    try:
        if args.action == "list":
            names = asyncio.run(list_admins(url))
            for name in names:
                print(name)
            if not names:
                print("no administrators yet (grant the role with: miai admin grant NAME)", file=sys.stderr)
            return 0
        change = asyncio.run(set_admin(url, args.name, admin=args.action == "grant"))
    except UnknownUser as err:
        print(f"miai admin: error: {err}", file=sys.stderr)
        return 1
    except (OSError, SQLAlchemyError) as err:
        return _database_failed("admin", err)
    state = "an administrator" if args.action == "grant" else "not an administrator"
    print(f"{change.username} is now {state}" if change.changed else f"{change.username} already was {state}")
    return 0


# ---------------------------------------------------------------- miai ratings


def _add_ratings(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    parser = subparsers.add_parser(
        "ratings",
        help="rebuild every rating from the rated games' results",
        description="Rebuild every user's rating of every kind from the rated games' results, replayed in "
        "the order they finished (after a change of the rating formula; corrected results are followed "
        "at once without it). Works on the configured database (MIAI_DATABASE_URL, or SQLite in "
        "MIAI_DATA_DIR) in one transaction. Exit code 1 when the database cannot be used.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    actions.required = True
    actions.add_parser(
        "recompute",
        help="rebuild every rating from history",
        description="Rebuild every rating from history.",
    )


def _run_ratings(args: argparse.Namespace) -> int:
    import asyncio
    from datetime import UTC, datetime

    from sqlalchemy.exc import SQLAlchemyError

    from miai.server.ratings.store import recompute_database

    url = _configured_database_url("ratings")
    if url is None:
        return 2
    try:
        replayed = asyncio.run(recompute_database(url, datetime.now(UTC)))
    except (OSError, SQLAlchemyError) as err:
        return _database_failed("ratings", err)
    for key, games in replayed.items():
        print(f"{key}: {games} rated games replayed")
    if not replayed:
        print("no rated games yet")
    return 0


# ---------------------------------------------------------------- miai mail


def _add_mail(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    from miai.server.notify.mail_cli import add_mail_parser

    add_mail_parser(subparsers)


def _run_mail(args: argparse.Namespace) -> int:
    from miai.server.notify.mail_cli import mail_command

    return mail_command(args)


# ---------------------------------------------------------------- miai migrate


def _add_migrate(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    subparsers.add_parser(
        "migrate",
        help="create or upgrade the database schema, then exit",
        description="Bring the configured database (MIAI_DATABASE_URL, or SQLite in MIAI_DATA_DIR) to the "
        "newest schema and exit: a deployment's one-off step before its server and worker processes start "
        "(they migrate on start too, and then find nothing to do). Safe while they run and from several "
        "places at once: migrations run one at a time. Exit code 1 when the database cannot be used.",
    )


def _run_migrate(args: argparse.Namespace) -> int:
    import asyncio

    from alembic.script import ScriptDirectory
    from sqlalchemy.exc import SQLAlchemyError

    from miai.server.storage.db import alembic_config, make_engine, migrate

    url = _configured_database_url("migrate")
    if url is None:
        return 2

    async def upgrade() -> None:
        engine = make_engine(url)
        try:
            await migrate(engine)
        finally:
            await engine.dispose()

    try:
        asyncio.run(upgrade())
    except (OSError, SQLAlchemyError) as err:
        return _database_failed("migrate", err)
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    print(f"the database schema is at the newest revision, {head}")
    return 0


# ---------------------------------------------------------------- miai bot


def _add_bot(subparsers: argparse._SubParsersAction[_Parser]) -> None:
    from miai.bot.command import add_arguments

    parser = subparsers.add_parser(
        "bot",
        help="connect a GTP engine to a bot account on a Miai server",
        description="Play on a Miai server as a bot account: accept the challenges the policy allows, "
        "decline the others with the reason, and play them with one GTP engine process per game "
        "(docs/bots.md).",
    )
    add_arguments(parser)


def _run_bot(args: argparse.Namespace) -> int:
    from miai.bot.command import run

    return run(args)


# ---------------------------------------------------------------- the parser

SUBCOMMANDS: dict[str, tuple[Callable[[argparse._SubParsersAction[_Parser]], None], Runner]] = {
    "serve": (_add_serve, _run_serve),
    "worker": (_add_worker, _run_worker),
    "gtp": (_add_gtp, _run_gtp),
    "match": (_add_match, _run_match),
    "bot": (_add_bot, _run_bot),
    "score": (_add_score, _run_score),
    "mail": (_add_mail, _run_mail),
    "admin": (_add_admin, _run_admin),
    "ratings": (_add_ratings, _run_ratings),
    "migrate": (_add_migrate, _run_migrate),
    "version": (_add_version, _run_version),
}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="miai", description="Miai: a server for Go with two or more colours.")
    parser.add_argument("--version", action="version", version=f"miai {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for name, (add, run) in SUBCOMMANDS.items():
        add(subparsers)
        subparsers.choices[name].set_defaults(run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and argument errors
        return exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 2
    run: Runner = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        print("miai: interrupted", file=sys.stderr)
        return 130
