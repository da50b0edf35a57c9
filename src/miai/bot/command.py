"""`miai bot --server URL --token TOKEN [policy] -- ENGINE COMMAND...`: arguments checked, then the bot runs
until it is stopped (Ctrl-C, SIGTERM) or can no longer go on (exit code 1)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from miai.bot.connection import Bot, BotStopped
from miai.bot.policy import Policy, PolicyError, policy_from, read_policy_file

MAX_TOKEN = 256


class BadArguments(ValueError):
    """A command line the bot cannot run with: one line saying why (exit code 2)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server", required=True, metavar="URL", help="the Miai server, e.g. https://miai.example"
    )
    parser.add_argument(
        "--token", required=True, help="an API token of the bot account (POST /api/v1/me/tokens)"
    )
    parser.add_argument("--policy", type=Path, metavar="FILE", help="a JSON file of the policy options below")
    parser.add_argument("--sizes", help="board sizes accepted, e.g. 9,13,19 (default: 9,13,19)")
    parser.add_argument("--rules", help="rules presets accepted, e.g. chinese,dgo (default: any)")
    parser.add_argument("--clocks", help="clocks accepted: none,fischer,byoyomi (default: all)")
    parser.add_argument("--min-main-time", help="least main time in seconds for a game with a clock")
    parser.add_argument("--max-main-time", help="most main time in seconds for a game with a clock")
    parser.add_argument(
        "--rated", choices=["yes", "no", "any"], help="rated games only, unrated only, or any"
    )
    parser.add_argument("--max-games", type=int, help="games at once (default 4); more are declined")
    parser.add_argument("--poll", type=float, default=5.0, help=argparse.SUPPRESS)
    parser.add_argument(
        "engine", nargs=argparse.REMAINDER, metavar="-- ENGINE COMMAND", help="the GTP engine to run per game"
    )


def checked_server(url: str) -> str:
    if not url.isprintable() or any(c.isspace() for c in url):
        raise BadArguments("--server: a URL without spaces or control characters")
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise BadArguments(f"--server: an http:// or https:// address, not {url[:80]!r}")
    if parts.query or parts.fragment:
        raise BadArguments("--server: the server's address only, without ?query or #fragment")
    try:
        parts.port  # noqa: B018 (raises for a port that is not a number)
    except ValueError:
        raise BadArguments("--server: the port must be a number 0..65535") from None
    return url.rstrip("/")


def checked_token(token: str) -> str:
    if not token or len(token) > MAX_TOKEN or not token.isascii() or not token.isprintable() or " " in token:
        raise BadArguments("--token: the API token, as POST /api/v1/me/tokens gave it")
    return token


def checked_engine(words: list[str]) -> list[str]:
    if words and words[0] == "--":
        words = words[1:]
    if not words or not words[0].strip():
        raise BadArguments("the engine command is missing: miai bot ... -- ENGINE COMMAND")
    if any("\0" in w for w in words):
        raise BadArguments("the engine command has a NUL character")
    return words


def policy_of(args: argparse.Namespace) -> Policy:
    settings: dict[str, Any] = read_policy_file(args.policy) if args.policy is not None else {}
    flags = {
        "sizes": args.sizes,
        "rules": args.rules,
        "clocks": args.clocks,
        "min_main_time": args.min_main_time,
        "max_main_time": args.max_main_time,
        "rated": args.rated,
        "max_games": args.max_games,
    }
    settings.update({k: v for k, v in flags.items() if v is not None})  # flags win over the file
    return policy_from(settings)


def log_line(text: str) -> None:
    print(f"miai bot: {text}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    try:
        server = checked_server(args.server)
        token = checked_token(args.token)
        engine = checked_engine(list(args.engine))
        policy = policy_of(args)
        if not 0.05 <= args.poll <= 600:
            raise BadArguments("--poll: 0.05..600 seconds")
    except (BadArguments, PolicyError) as err:
        print(f"miai bot: error: {err}", file=sys.stderr)
        return 2
    bot = Bot(server, token, engine, policy, log_line, poll=args.poll)
    try:
        asyncio.run(_until_stopped(bot))
    except BotStopped as err:
        log_line(f"stopped: {err}")
        return 1
    return 0


async def _until_stopped(bot: Bot) -> None:
    """Run the bot; SIGTERM and SIGINT end it cleanly (its engines closed)."""
    task = asyncio.create_task(bot.run())
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
            loop.add_signal_handler(sig, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await task
