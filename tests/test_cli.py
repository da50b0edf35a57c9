"""The `miai` command line: help for every subcommand, one-line errors with exit code 2, `miai gtp` as a
real subprocess, a short `miai match`, and `miai admin` on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from miai import __version__
from miai.cli import SUBCOMMANDS, build_parser, main

REPO = Path(__file__).resolve().parent.parent


def test_every_subcommand_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    top = capsys.readouterr().out
    for name in SUBCOMMANDS:
        assert name in top
        assert main([name, "--help"]) == 0
        text = capsys.readouterr().out
        assert text.startswith(f"usage: miai {name}")
    assert {"gtp", "match", "version"} <= set(SUBCOMMANDS)


def test_build_parser_knows_the_subcommands() -> None:
    args = build_parser().parse_args(["gtp", "--rules", "japanese", "--seed", "4"])
    assert (args.command, args.rules, args.seed) == ("gtp", "japanese", 4)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version"]) == 0
    assert capsys.readouterr().out == f"miai {__version__}\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required: COMMAND"),
        (["serve-nothing"], "invalid choice"),
        (["gtp", "--rules", "klingon"], "invalid choice: 'klingon'"),
        (["gtp", "--seed", "x"], "invalid int value"),
        (["match", "--white", "a"], "the following arguments are required: --black"),
        (["match", "--black", "a", "--white", "b", "--size", "30"], "board sizes are 2..25, not 30"),
        (["match", "--black", "a", "--white", "b", "--games", "0"], "expected at least 1, got 0"),
        (["match", "--black", "a", "--white", "b", "--komi", "lots"], "expected a number"),
        (["match", "--black", "a", "--white", "b", "--komi", "nan"], "expected a finite number"),
        (["match", "--black", "a", "--white", "b", "--timeout", "-1"], "a positive number of seconds"),
        (["match", "--black", "a", "--white", "b", "--max-moves", "many"], "expected a whole number"),
        (["match", "--black", "'a", "--white", "b"], "--black: bad engine command"),
        (["match", "--black", " ", "--white", "b"], "--black: bad engine command (it is empty)"),
        (["worker", "--concurrency", "99999999"], "at most 256 jobs at a time, not 99999999"),
        (["worker", "--concurrency", "0"], "expected at least 1, got 0"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_code_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "error:" in lines[0] and message in lines[0]


def test_sgf_dir_must_be_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "file"
    file.write_text("")
    assert main(["match", "--black", "a", "--white", "b", "--sgf-dir", str(file)]) == 2
    assert "is not a directory" in capsys.readouterr().err


def run_miai(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "miai", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        check=False,
    )


def test_miai_gtp_as_a_subprocess() -> None:
    script = "1 name\n2 boardsize 9\nplay b e5\n3 genmove w\nlist_stones black\nfoo\nquit\n"
    done = run_miai("gtp", "--level", "simple", "--seed", "1", stdin=script)
    assert done.returncode == 0, done.stderr
    answers = done.stdout.split("\n\n")
    assert answers[0] == "=1 Miai"
    assert answers[1] == "=2 "
    assert answers[2] == "= "
    assert answers[3].startswith("=3 ") and answers[3] != "=3 E5"
    assert answers[4] == "= E5"
    assert answers[5] == "? unknown command"
    assert answers[6] == "= "


def test_miai_gtp_rules_option() -> None:
    done = run_miai("gtp", "--rules", "japanese", stdin="boardsize 5\nkomi 0\nplay b c3\nfinal_score\n")
    assert done.stdout.split("\n\n")[3] == "= B+24.0"  # territory scoring: the stone itself is no point


def test_miai_match_on_a_small_board(tmp_path: Path) -> None:
    engine = "{python} -m miai gtp --level simple --seed 3"
    done = run_miai(
        "match",
        "--black",
        engine,
        "--white",
        engine,
        "--size",
        "5",
        "--games",
        "2",
        "--komi",
        "0.5",
        "--alternate",
        "--sgf-dir",
        str(tmp_path),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "game 1/2" in done.stderr and "game 2/2" in done.stderr
    assert done.stdout.startswith("2 games on 5x5, komi 0.5")
    assert "faults: 0" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-001.sgf", "game-002.sgf"]


def test_miai_match_reports_faults_with_exit_code_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--black", "/no/such/engine", "--white", "/no/such/engine", "--size", "5"]) == 1
    captured = capsys.readouterr()
    assert "faults: 1" in captured.out
    assert "cannot start engine" in captured.out


# ---------------------------------------------------------------- miai admin (against SQLite and PostgreSQL)


@pytest.fixture(params=["sqlite", "postgres"])
def admin_database(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A fresh database the `miai admin` command finds through MIAI_DATABASE_URL, as an operator sets it."""
    from tests.server.conftest import fresh_database

    with fresh_database(request.param, tmp_path) as url:
        monkeypatch.setenv("MIAI_DATABASE_URL", url)
        yield url


def _add_people(url: str) -> None:
    from datetime import UTC, datetime

    from miai.server.storage.db import make_engine, migrate, sessions
    from miai.server.storage.models import User

    async def add() -> None:
        engine = make_engine(url)
        try:
            await migrate(engine)
            async with sessions(engine)() as db:
                now = datetime.now(UTC)
                db.add(User(username="Ada", password_hash="!", settings={}, created_at=now))
                bot = User(username="computer-1", password_hash="!", is_bot=True, settings={}, created_at=now)
                db.add(bot)
                await db.commit()
        finally:
            await engine.dispose()

    asyncio.run(add())


def test_miai_admin_grants_lists_and_revokes_the_role(
    admin_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["admin", "list"]) == 0  # a fresh database: migrated first, nobody is an administrator
    assert capsys.readouterr().out == ""
    _add_people(admin_database)
    assert main(["admin", "grant", "ada"]) == 0  # the name in any case
    assert capsys.readouterr().out == "Ada is now an administrator\n"
    assert main(["admin", "grant", "ADA"]) == 0
    assert capsys.readouterr().out == "Ada already was an administrator\n"
    assert main(["admin", "list"]) == 0
    assert capsys.readouterr().out == "Ada\n"
    assert main(["admin", "revoke", "Ada"]) == 0
    assert capsys.readouterr().out == "Ada is now not an administrator\n"
    assert main(["admin", "list"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no administrators" in captured.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["admin", "grant", "nobody"], "miai admin: error: there is no user 'nobody'\n"),
        (["admin", "revoke", "nobody"], "miai admin: error: there is no user 'nobody'\n"),
        (["admin", "grant", "-1"], "miai admin: error: there is no user '-1'\n"),
        (
            ["admin", "grant", "computer-1"],
            "miai admin: error: 'computer-1' is a computer account, not a person\n",
        ),
    ],
)
def test_miai_admin_refuses_unknown_users_with_exit_code_1(
    admin_database: str, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _add_people(admin_database)
    assert main(argv) == 1
    assert capsys.readouterr().err == message
    assert main(["admin", "list"]) == 0
    assert capsys.readouterr().out == ""


def test_miai_admin_needs_an_action_and_a_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["admin"]) == 2
    assert "the following arguments are required: ACTION" in capsys.readouterr().err
    assert main(["admin", "grant"]) == 2
    assert "the following arguments are required: NAME" in capsys.readouterr().err


# ---------------------------------------------------------------- hostile arguments (miai admin, miai mail)


def one_error_line(captured: pytest.CaptureFixture[str], message: str) -> None:
    """One short line on stderr with `message`, nothing on stdout, no traceback."""
    out, err = captured.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and "error:" in lines[0] and message in lines[0], err
    assert len(lines[0]) < 300, err  # what was typed is quoted cut short


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["admin", "grant", "a\x00b"], "control character U+0000 at position 1"),
        (["admin", "revoke", "\udcff"], "a lone surrogate (U+DCFF) at position 0"),  # byte 0xff in argv
        (["admin", "grant", ""], "a username is 1..64 characters, not 0"),
        (["admin", "grant", "x" * 100_000], "a username is 1..64 characters, not 100000"),
        (["mail", "retry", "-5"], "a mail id is a whole number 1..2147483647, not '-5'"),
        (["mail", "retry", "0"], "a mail id is 1..2147483647, not '0'"),
        (["mail", "retry", str(2**31)], "a mail id is 1..2147483647, not '2147483648'"),
        (["mail", "retry", "9" * 5000], "a mail id is 1..2147483647, not '999"),
        (["mail", "retry", "\u0663"], "a mail id is a whole number"),  # int() would read it as 3
        (["mail", "retry", "1_0"], "a mail id is a whole number"),
        (["mail", "retry", "1\x00"], "not '1\\x00'"),
        (["mail", "retry", "\udcff"], "not '\\udcff'"),
        (["mail", "list", "--limit", "-1"], "the limit is a whole number 1..10000, not '-1'"),
        (["mail", "list", "--limit", "10001"], "the limit is 1..10000, not '10001'"),
        (["mail", "list", "--limit", "nan"], "the limit is a whole number 1..10000, not 'nan'"),
        (["mail", "list", "--data-dir", "a\x00b"], "--data-dir: control character U+0000"),
        (["mail", "list", "--data-dir", "\udcff"], "--data-dir: a lone surrogate (U+DCFF)"),
        (["mail", "list", "--database-url", "mysql://db/miai"], "sqlite+aiosqlite:///PATH or postgresql"),
        (["mail", "list", "--database-url", "postgresql+asyncpg://db:99999/miai"], "port 99999 is not"),
        (["mail", "retry", "--database-url", "x" * 100_000, "1"], "not a database URL"),
    ],
)
def test_hostile_arguments_get_one_line_and_exit_code_2(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MIAI_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("MIAI_DATABASE_URL", raising=False)
    assert main(argv) == 2
    one_error_line(capsys, message)
    assert list(tmp_path.iterdir()) == []  # refused before any database was opened or made


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("MIAI_DATABASE_URL", "postgresql+asyncpg://db:99999999/miai", "port 99999999 is not 1..65535"),
        ("MIAI_DATABASE_URL", "mysql://db/miai", "Miai uses sqlite+aiosqlite:///PATH"),
    ],
)
def test_miai_admin_refuses_a_database_it_cannot_use_in_one_line(
    variable: str,
    value: str,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(variable, value)
    assert main(["admin", "list"]) == 2
    one_error_line(capsys, message)


@pytest.fixture
def broken_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The configured database: a SQLite file that is no database."""
    (tmp_path / "miai.db").write_text("not a database")
    monkeypatch.setenv("MIAI_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("MIAI_DATABASE_URL", raising=False)


@pytest.mark.usefixtures("broken_database")
def test_miai_admin_names_an_unreachable_database_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["admin", "list"]) == 1
    one_error_line(capsys, "cannot use the database: (sqlite3.DatabaseError) file is not a database")


@pytest.mark.parametrize(
    "argv",
    [
        ["admin", "grant", b"\xff\xfe"],
        ["mail", "retry", b"\xff"],
        ["mail", "list", "--data-dir", b"data-\xff"],
        ["mail", "retry", "--database-url", b"sqlite+aiosqlite:///\xff.db", "1"],
    ],
)
def test_undecodable_bytes_in_argv_are_refused_without_a_traceback(
    argv: list[str | bytes], tmp_path: Path
) -> None:
    """Bytes that are no UTF-8 reach Python as lone surrogates: a real process must refuse them cleanly."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MIAI_")}
    env["MIAI_DATA_DIR"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "miai", *argv], capture_output=True, env=env, cwd=REPO, timeout=60, check=False
    )
    err = done.stderr.decode("utf-8", "backslashreplace")
    assert done.returncode == 2, err
    assert "Traceback" not in err and len(err.splitlines()) == 1 and "error:" in err, err
    assert done.stdout == b""


@pytest.mark.usefixtures("broken_database")
def test_miai_worker_names_a_database_it_cannot_use_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MIAI_REDIS_URL", "redis://127.0.0.1:6379/0")  # not reached: the database fails first
    monkeypatch.setenv("MIAI_REDIS_PREFIX", f"test-cli-{uuid.uuid4().hex[:12]}")
    assert main(["worker"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err, err
    *_, last = err.splitlines()
    assert last.startswith("miai worker: error: cannot start: (sqlite3.DatabaseError) file is not a database")


# ---------------------------------------------------------------- miai migrate (SQLite and PostgreSQL)


def test_miai_migrate_brings_a_fresh_database_to_the_newest_schema_and_can_run_again(
    admin_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from alembic.script import ScriptDirectory

    from miai.server.storage.db import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    for _ in range(2):  # the second run finds nothing to do
        assert main(["migrate"]) == 0
        assert capsys.readouterr().out == f"the database schema is at the newest revision, {head}\n"
    _add_people(admin_database)  # the schema is whole: accounts can be stored
    assert main(["admin", "grant", "Ada"]) == 0


@pytest.mark.usefixtures("broken_database")
def test_miai_migrate_names_a_database_it_cannot_use_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate"]) == 1
    one_error_line(capsys, "cannot use the database: (sqlite3.DatabaseError) file is not a database")
    monkeypatch.setenv("MIAI_DATABASE_URL", "mysql://db/miai")
    assert main(["migrate"]) == 2
    one_error_line(capsys, "Miai uses sqlite+aiosqlite:///PATH")
