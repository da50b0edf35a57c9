"""`miai mail`: the operator's view of the e-mail outbox, run against the server's database.

`miai mail list [--failed | --pending | --sent] [--limit N]` shows mail newest first (default: pending and
failed) with attempts, the last error and when it is tried next; `miai mail retry ID... | --all-failed`
makes failed or pending mail due now with a new day of retries (a running server sends it on its next
round). The database comes from MIAI_DATABASE_URL / MIAI_DATA_DIR or `--database-url` / `--data-dir`, as
for `miai serve`; the command never creates or migrates it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from miai.server.notify import review

__all__ = ["add_mail_parser", "mail_command"]


MAX_ID = 2**31 - 1  # ids are INTEGER columns
MAX_LIMIT = 10_000


def _shown(text: str) -> str:
    """An argument as it is quoted in an error: escaped (NUL, lone surrogates) and cut short."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def _whole_number(text: str, what: str, high: int) -> int:
    """`text` as a number 1..high; ASCII digits only (int() would also read "٣", "1_000" or " 7")."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{what} is a whole number 1..{high}, not {_shown(text)}")
    value = int(text) if len(text) <= len(str(high)) else high + 1  # no 5000-digit conversion
    if not 1 <= value <= high:
        raise argparse.ArgumentTypeError(f"{what} is 1..{high}, not {_shown(text)}")
    return value


def _mail_id(text: str) -> int:
    return _whole_number(text, "a mail id", MAX_ID)


def _limit(text: str) -> int:
    return _whole_number(text, "the limit", MAX_LIMIT)


def add_mail_parser(subparsers: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "mail",
        help="see pending and failed e-mail and retry it",
        description="The e-mail outbox: mail waiting to be sent, mail that failed for good, and retrying it.",
    )
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--database-url", metavar="URL", help="[MIAI_DATABASE_URL, default SQLite in --data-dir]"
    )
    database.add_argument("--data-dir", type=Path, help="folder of the SQLite database [MIAI_DATA_DIR]")
    actions = parser.add_subparsers(dest="mail_action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    listing = actions.add_parser(
        "list", parents=[database], help="list mail, newest first (default: pending and failed)"
    )
    which = listing.add_mutually_exclusive_group()
    for state in ("failed", "pending", "sent"):
        which.add_argument(
            f"--{state}", dest="state", action="store_const", const=state, help=f"only {state} mail"
        )
    listing.add_argument(
        "--limit", type=_limit, default=100, help=f"at most this many mails, 1..{MAX_LIMIT} (default 100)"
    )
    retry = actions.add_parser("retry", parents=[database], help="send failed or pending mail again now")
    retry.add_argument("ids", type=_mail_id, nargs="*", metavar="ID", help="mail ids (see `miai mail list`)")
    retry.add_argument("--all-failed", action="store_true", help="every mail that failed for good")
    return parser


def mail_command(args: argparse.Namespace) -> int:
    if args.mail_action == "retry" and bool(args.ids) == bool(args.all_failed):
        print("miai mail retry: error: give mail ids or --all-failed (one of the two)", file=sys.stderr)
        return 2
    from sqlalchemy.exc import SQLAlchemyError

    from miai.server.settings import Settings
    from miai.server.text import clean_text

    overrides = {
        name: getattr(args, name) for name in ("database_url", "data_dir") if getattr(args, name) is not None
    }
    try:
        for name, value in overrides.items():
            try:
                clean_text(str(value))  # argv may carry undecodable bytes as lone surrogates
            except ValueError as err:
                raise ValueError(f"--{name.replace('_', '-')}: {err}") from None
        settings = Settings.from_env(**overrides)
        return asyncio.run(_run(settings.effective_database_url, args))
    except ValueError as err:
        print(f"miai mail: error: {err}", file=sys.stderr)
        return 2
    except (OSError, SQLAlchemyError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(
            f"miai mail: error: cannot read the outbox ({reason}); has `miai serve` run on this database?",
            file=sys.stderr,
        )
        return 1


async def _run(url: str, args: argparse.Namespace) -> int:
    from miai.server.storage.db import make_engine, sessions

    if url.startswith("sqlite") and not Path(url.split("///", 1)[-1]).exists():
        raise OSError(f"no database at {url.split('///', 1)[-1]}")
    engine = make_engine(url)
    try:
        async with sessions(engine)() as db:
            if args.mail_action == "list":
                states = review.WAITING if args.state is None else (args.state,)
                _print(await review.listing(db, states, args.limit))
                return 0
            ids = await review.retry(db, None if args.all_failed else args.ids)
    finally:
        await engine.dispose()
    missing = sorted(set(args.ids) - set(ids))
    print(f"{len(ids)} mail(s) will be sent again on the server's next outbox round")
    if missing:
        print(f"not retried (unknown or already sent): {', '.join(map(str, missing))}", file=sys.stderr)
        return 1
    return 0


def _print(mails: list[dict[str, Any]]) -> None:
    if not mails:
        print("no mail")
        return
    for mail in mails:
        state = mail["state"]
        when = {
            "pending": f"next {mail['next_attempt_at'] or 'now'}",
            "failed": f"failed {mail['failed_at']}",
            "sent": f"sent {mail['sent_at']}",
        }[state]
        print(
            f"{mail['id']:>8}  {state:<7}  {mail['kind'] or '-':<14}  {mail['to']}  "
            f"attempts {mail['attempts']}  {when}"
        )
        print(f"          {mail['subject']}")
        if mail["last_error"]:
            print(f"          last error: {mail['last_error']}")
