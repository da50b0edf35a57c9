"""The bot's parts on hostile input: its command line, its policy, a server answering garbage and an engine
printing garbage."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from miai.bot.api import MiaiApi, ServerError
from miai.bot.engine import Engine, EngineFailed
from miai.bot.policy import Policy, PolicyError, policy_from
from miai.cli import main

GO = {"size": 9, "teams": 2, "players_per_team": 1, "preset": "dgo", "handicap": 0, "clock": "none"}


@dataclass
class Ran:
    returncode: int
    stderr: str


def miai_bot(capsys: pytest.CaptureFixture[str], *args: str) -> Ran:
    """`miai bot ARGS` in this process (a fresh interpreter per case would cost seconds each)."""
    code = main(["bot", *args])
    return Ran(code, capsys.readouterr().err)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--server", "ftp://x", "--token", "t", "--", "gnugo"], "http:// or https://"),
        (["--server", "http://", "--token", "t", "--", "gnugo"], "http:// or https://"),
        (["--server", "http://a b", "--token", "t", "--", "gnugo"], "without spaces"),
        (["--server", "http://x:99999", "--token", "t", "--", "gnugo"], "port"),
        (["--server", "http://x?a=1", "--token", "t", "--", "gnugo"], "without ?query"),
        (["--server", "http://x", "--token", "", "--", "gnugo"], "--token"),
        (["--server", "http://x", "--token", "a b", "--", "gnugo"], "--token"),
        (["--server", "http://x", "--token", "t"], "engine command is missing"),
        (["--server", "http://x", "--token", "t", "--"], "engine command is missing"),
        (["--server", "http://x", "--token", "t", "--sizes", "9,x", "--", "e"], "sizes"),
        (["--server", "http://x", "--token", "t", "--sizes", "99", "--", "e"], "sizes"),
        (["--server", "http://x", "--token", "t", "--clocks", "hourglass", "--", "e"], "clocks"),
        (["--server", "http://x", "--token", "t", "--min-main-time", "nan", "--", "e"], "min_main_time"),
        (["--server", "http://x", "--token", "t", "--max-games", "0", "--", "e"], "max_games"),
        (["--server", "http://x", "--token", "t", "--policy", "/nonexistent/p.json", "--", "e"], "policy"),
    ],
)
def test_bad_command_lines_get_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    done = miai_bot(capsys, *args)
    assert done.returncode == 2, done
    assert says in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_missing_arguments_are_argparse_errors(capsys: pytest.CaptureFixture[str]) -> None:
    done = miai_bot(capsys, "--token", "t", "--", "gnugo")
    assert done.returncode == 2 and "--server" in done.stderr


def test_an_unreachable_server_stops_the_bot_with_exit_code_1(capsys: pytest.CaptureFixture[str]) -> None:
    done = miai_bot(capsys, "--server", "http://127.0.0.1:9", "--token", "t", "--", "gnugo")
    assert done.returncode == 1 and "cannot reach the server" in done.stderr, done.stderr


def test_a_policy_file_is_read_and_flags_win(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps({"sizes": [19], "rated": "no"}))
    done = miai_bot(
        capsys, "--server", "http://127.0.0.1:9", "--token", "t", "--policy", str(path), "--", "e"
    )
    assert done.returncode == 1  # got past the arguments
    path.write_text("[1, 2]")
    done = miai_bot(capsys, "--server", "http://x", "--token", "t", "--policy", str(path), "--", "e")
    assert done.returncode == 2 and "JSON object" in done.stderr
    path.write_text(json.dumps({"colour": "black"}))
    done = miai_bot(capsys, "--server", "http://x", "--token", "t", "--policy", str(path), "--", "e")
    assert done.returncode == 2 and "unknown policy option 'colour'" in done.stderr


def test_the_policy_says_why_it_declines() -> None:
    policy = policy_from({"sizes": "9,13", "rules": ["dgo"], "clocks": ["none", "fischer"], "rated": "no"})
    assert policy.refusal("go", GO, busy=0) is None
    assert policy.refusal("hex", GO, busy=0) == "this bot plays Go only, not hex"
    assert policy.refusal("go", {**GO, "size": 19}, 0) == "this bot plays on 9x9, 13x13, not 19x19"
    assert (
        policy.refusal("go", {**GO, "preset": "japanese"}, 0) == "this bot plays the rules dgo, not japanese"
    )
    assert policy.refusal("go", {**GO, "clock": "byoyomi"}, 0) == (
        "this bot plays with the clocks fischer, none, not byoyomi"
    )
    assert policy.refusal("go", {**GO, "rated": True}, 0) == "this bot plays unrated games only"
    assert policy.refusal("go", {**GO, "teams": 3}, 0) == "this bot plays two-player Go only"
    assert policy.refusal("go", {**GO, "handicap": 2}, 0) == "this bot plays even games only (no handicap)"
    assert Policy(max_games=1).refusal("go", GO, busy=1) == "this bot is busy (1 games at once)"
    timed = policy_from({"min_main_time": 60, "max_main_time": 600})
    assert timed.refusal("go", {**GO, "clock": "fischer", "main_time": 30}, 0) == (
        "this bot plays with a main time of 60..600 s"
    )
    with pytest.raises(PolicyError):
        policy_from({"min_main_time": 10, "max_main_time": 5})
    with pytest.raises(PolicyError):
        policy_from({"max_games": True})


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(200, content=b"<html>hello</html>"),
        httpx.Response(200, json=[1, 2, 3]),
        httpx.Response(200, json={"games": "many", "challenges": None}),
        httpx.Response(502, content=b"bad gateway"),
        httpx.Response(500, json={"message": "boom"}),
    ],
)
def test_a_server_answering_garbage_is_a_server_error(answer: httpx.Response) -> None:
    async def ask() -> None:
        api = MiaiApi("http://miai.test", "t", transport=httpx.MockTransport(lambda _request: answer))
        try:
            await api.dashboard()
        finally:
            await api.close()

    with pytest.raises(ServerError):
        asyncio.run(ask())


def test_garbage_in_a_dashboard_list_is_skipped() -> None:
    body = {"games": [{"id": 3}, "junk", {"id": "4"}, {"id": True}], "challenges": [None, {"id": 7}]}

    async def ask() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
        api = MiaiApi(
            "http://miai.test", "t", transport=httpx.MockTransport(lambda _r: httpx.Response(200, json=body))
        )
        try:
            return await api.dashboard()
        finally:
            await api.close()

    games, challenges = asyncio.run(ask())
    assert games == [{"id": 3}] and challenges == [{"id": 7}]


FAKE_ENGINE = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "genmove":
        print("= {answer}\\n", flush=True)
    elif word == "quit":
        print("=\\n", flush=True)
        break
    else:
        print("=\\n", flush=True)
"""


@pytest.mark.parametrize("answer", ["banana", "Z99", "I5", "\x01\x02"])
def test_an_engine_printing_garbage_fails_its_game(tmp_path: Path, answer: str) -> None:
    script = tmp_path / "engine.py"
    script.write_text(FAKE_ENGINE.replace("{answer}", answer))
    engine = Engine([sys.executable, str(script)], size=9, komi=6.5, timeout=10)
    try:
        engine.start(None)
        engine.catch_up([(1, "E5")])
        with pytest.raises(EngineFailed):
            engine.genmove(2)
    finally:
        engine.close()


def test_an_engine_that_cannot_start_fails() -> None:
    with pytest.raises(EngineFailed):
        Engine(["/nonexistent/engine"], size=9, komi=6.5)


def test_the_engine_is_replayed_when_the_record_changes(tmp_path: Path) -> None:
    """After a reconnect the record may not continue what the engine has: it starts again from it."""
    log = tmp_path / "seen.txt"
    script = tmp_path / "engine.py"
    script.write_text(
        "import sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    print('= D4\\n' if line.startswith('genmove') else '=\\n', flush=True)\n"
        "    if line.startswith('quit'): break\n"
    )
    engine = Engine([sys.executable, str(script)], size=9, komi=6.5, timeout=10)
    try:
        engine.start(None)
        engine.catch_up([(1, "E5")])
        assert engine.genmove(2) == "D4"
        engine.catch_up([(1, "E5"), (2, "D4"), (1, "pass")])  # continues: only the pass is new
        engine.catch_up([(1, "C3")])  # another record: from the start
    finally:
        engine.close()
    sent = [line.strip() for line in log.read_text().splitlines()]
    assert sent == [
        "boardsize 9",
        "clear_board",
        "komi 6.5",
        "play b E5",
        "genmove w",
        "play b pass",
        "clear_board",
        "play b C3",
        "quit",
    ]
