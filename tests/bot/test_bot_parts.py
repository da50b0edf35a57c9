"""The bot's parts on hostile input: its command line, its policy, a server answering garbage and an engine
printing garbage."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from miai.bot.api import MAX_ANSWER, MiaiApi, ServerError
from miai.bot.command import add_arguments, policy_of
from miai.bot.connection import Bot
from miai.bot.engine import Engine, EngineFailed
from miai.bot.game import GameLoop, _time_left
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
    path.write_text(json.dumps({"sizes": [19], "rated": "no", "max_games": 2}))
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    common = ["--server", "http://x", "--token", "t", "--policy", str(path)]
    policy = policy_of(parser.parse_args([*common, "--", "e"]))
    assert (policy.sizes, policy.rated, policy.max_games) == (frozenset({19}), "no", 2)
    policy = policy_of(parser.parse_args([*common, "--sizes", "9,13", "--rated", "yes", "--", "e"]))
    assert (policy.sizes, policy.rated, policy.max_games) == (frozenset({9, 13}), "yes", 2)  # the flags win
    assert policy.clocks == Policy().clocks  # what neither says keeps its default
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


def logging_engine(tmp_path: Path, log: Path, answer: str) -> Engine:
    """A scripted GTP engine that writes every command it reads to `log` and prints `answer` (a Python
    expression of `line`) to each."""
    script = tmp_path / "engine.py"
    script.write_text(
        "import sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        f"    print({answer}, flush=True)\n"
        "    if line.startswith('quit'): break\n"
    )
    return Engine([sys.executable, str(script)], size=9, komi=6.5, timeout=10)


def test_the_engine_is_replayed_when_the_record_changes(tmp_path: Path) -> None:
    """After a reconnect the record may not continue what the engine has: it starts again from it."""
    log = tmp_path / "seen.txt"
    engine = logging_engine(tmp_path, log, "'= D4\\n' if line.startswith('genmove') else '=\\n'")
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


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"clock": "fischer", "main_time": "x"}, "main_time"),
        ({"main_time": "x"}, "main_time"),
        ({"size": [9]}, "size"),
        ({"size": "9"}, "size"),
        ({"size": True}, "size"),
        ({"size": 10**400}, "size"),
        ({"clock": ["a"]}, "clock"),
        ({"clock": {"kind": "none"}}, "clock"),
        ({"clock": "fischer", "main_time": math.nan}, "main_time"),
        ({"clock": "fischer", "main_time": math.inf}, "main_time"),
        ({"clock": "fischer", "main_time": -math.inf}, "main_time"),
        ({"clock": "fischer", "main_time": 10**400}, "main_time"),
        ({"clock": "fischer", "main_time": -5}, "main_time"),
        ({"preset": "dg\0o"}, "preset"),
        ({"preset": "\ud800"}, "preset"),
        ({"preset": ["dgo"]}, "preset"),
        ({"clock": "none\0"}, "clock"),
        ({"teams": "2"}, "teams"),
        ({"players_per_team": 1.0}, "players_per_team"),
        ({"handicap": [2]}, "handicap"),
        ({"handicap": 10**400}, "handicap"),
        ({"rated": "no"}, "rated"),
    ],
)
def test_challenge_options_of_a_wrong_type_are_declined_naming_the_option(
    options: dict[str, object], names: str
) -> None:
    policy = policy_from({"rules": ["dgo"]})
    refusal = policy.refusal("go", {**GO, **options}, 0)
    assert refusal == f"this bot cannot read the challenge's {names} option"


def test_a_kind_that_cannot_be_quoted_is_declined_without_quoting_it() -> None:
    assert Policy().refusal("g\0o", GO, 0) == "this bot plays Go only, not this kind"
    assert Policy().refusal("x" * 500, GO, 0) == "this bot plays Go only, not this kind"


class FakeServer:
    """The few API calls the bot makes, answered from a dict the test changes; every call recorded."""

    def __init__(self) -> None:
        self.games: list[dict[str, object]] = []
        self.challenges: list[dict[str, object]] = []
        self.game: dict[str, object] = {}
        self.failing: dict[str, int] = {}  # path: how many more calls to it answer 503
        self.calls: list[tuple[str, str, object]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path.removeprefix("/api/v1")
        body = json.loads(request.content) if request.content else None
        self.calls.append((request.method, path, body))
        if self.failing.get(path, 0) > 0:
            self.failing[path] -= 1
            return httpx.Response(503, json={"message": "try again"})
        if path == "/dashboard":
            return httpx.Response(200, json={"games": self.games, "challenges": self.challenges})
        if request.method == "GET" and path.startswith("/games/"):
            return httpx.Response(200, json=self.game)
        return httpx.Response(200, json={})

    def posted(self, path: str) -> list[object]:
        return [body for method, called, body in self.calls if method == "POST" and called == path]


def fake_bot(server: FakeServer, policy: Policy, log: list[str]) -> Bot:
    bot = Bot("http://miai.test", "t", ["engine"], policy, log.append, poll=0.05)
    bot.api = MiaiApi("http://miai.test", "t", transport=httpx.MockTransport(server))
    bot.me = 1
    return bot


class Exploding(Policy):
    """A policy with a bug on one challenge (size 13)."""

    def refusal(self, kind: str, options: Mapping[str, Any], busy: int) -> str | None:
        if options.get("size") == 13:
            raise RuntimeError("a bug")
        return super().refusal(kind, options, busy)


def test_a_challenge_the_bot_cannot_judge_is_declined_and_the_bot_goes_on() -> None:
    server, log = FakeServer(), list[str]()
    server.challenges = [
        {"id": 7, "kind": "go", "options": {**GO, "size": 13}},
        {"id": 8, "kind": "go", "options": {**GO, "size": [9]}},
        {"id": 9, "kind": ["go"], "options": "junk"},
    ]
    server.games = [{"id": 3, "status": ["active"], "kind": "go"}]
    bot = fake_bot(server, Exploding(), log)

    async def go() -> None:
        try:
            await bot.sync()
            await bot._on_message(json.dumps({"t": ["challenge"], "d": {"game_id": [1]}}))
            await bot._on_message(json.dumps({"t": {"x": 1}}))
        finally:
            await bot.api.close()

    asyncio.run(go())
    assert server.posted("/games/7/decline") == [{"reason": "this bot could not read the challenge"}]
    unread = "this bot cannot read the challenge's size option"
    assert server.posted("/games/8/decline") == [{"reason": unread}]
    assert server.posted("/games/9/decline") == [{"reason": "this bot plays Go only, not this kind"}]
    assert not bot.loops  # a game with a status that is not a word is not followed
    assert any("game 7: cannot judge the challenge (RuntimeError: a bug)" in line for line in log), log


def test_an_answer_the_server_did_not_take_is_sent_again_at_the_next_sync() -> None:
    server, log = FakeServer(), list[str]()
    server.challenges = [{"id": 7, "kind": "hex", "options": GO}]
    server.failing["/games/7/decline"] = 1
    bot = fake_bot(server, Policy(), log)

    async def go() -> None:
        try:
            await bot.sync()  # 503: not answered
            await bot.sync()  # answered
            await bot.sync()  # answered already: not again
            server.challenges = []
            await bot.sync()  # gone from the dashboard: forgotten
        finally:
            await bot.api.close()

    asyncio.run(go())
    reason = {"reason": "this bot plays Go only, not hex"}
    assert server.posted("/games/7/decline") == [reason, reason], server.calls
    assert not bot._answered  # bounded by the dashboard


def test_an_answer_the_server_refused_for_good_is_not_repeated() -> None:
    server, log = FakeServer(), list[str]()
    server.challenges = [{"id": 7, "kind": "hex", "options": GO}]
    bot = fake_bot(server, Policy(), log)

    def refuse(request: httpx.Request) -> httpx.Response:
        server.calls.append((request.method, request.url.path.removeprefix("/api/v1"), None))
        if request.url.path.endswith("/decline"):
            return httpx.Response(409, json={"message": "the challenge is withdrawn"})
        return httpx.Response(200, json={"games": [], "challenges": server.challenges})

    bot.api = MiaiApi("http://miai.test", "t", transport=httpx.MockTransport(refuse))

    async def go() -> None:
        try:
            await bot.sync()
            await bot.sync()
        finally:
            await bot.api.close()

    asyncio.run(go())
    assert len(server.posted("/games/7/decline")) == 1


class FailingLoop(GameLoop):
    async def _think(self, game: dict[str, Any], team: int) -> str:
        raise RuntimeError("a bug")


def test_a_game_loop_that_fails_resigns_its_game_only() -> None:
    server, log = FakeServer(), list[str]()
    server.game = {"id": 5, "status": "active", "options": GO, "to_move": {"team": 1, "user_id": 1}}

    async def go() -> None:
        api = MiaiApi("http://miai.test", "t", transport=httpx.MockTransport(server))
        try:
            await asyncio.wait_for(FailingLoop(api, 5, 1, ["engine"], log.append, poll=0.05).run(), 10)
        finally:
            await api.close()

    asyncio.run(go())
    assert server.posted("/games/5/resign") == [{}]
    assert any("game 5: the game loop failed (RuntimeError: a bug); resigning" in line for line in log), log


class Insisting(GameLoop):
    """An engine that always wants D4."""

    async def _think(self, game: dict[str, Any], team: int) -> str:
        return "D4"


def test_an_engine_insisting_on_a_refused_move_passes_at_the_games_version_every_second_refusal() -> None:
    game: dict[str, Any] = {
        "id": 5,
        "status": "active",
        "version": 12,
        "options": GO,
        "to_move": {"team": 1, "user_id": 1},
    }
    sent: list[tuple[str, object]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        if request.method == "GET":
            return httpx.Response(200, json=game)
        body = json.loads(request.content)
        sent.append((body["move"], body["version"]))
        if len(sent) >= 6:
            game["status"] = "finished"
        if body["move"] == "pass":  # the opponent has moved meanwhile: a stale version is refused
            return httpx.Response(409, json={"message": "the game has moved on"})
        return httpx.Response(422, json={"message": "illegal move"})

    async def go() -> None:
        api = MiaiApi("http://miai.test", "t", transport=httpx.MockTransport(answer))
        try:
            await asyncio.wait_for(Insisting(api, 5, 1, ["engine"], lambda _: None, poll=0.01).run(), 10)
        finally:
            await api.close()

    asyncio.run(go())
    assert sent == [("D4", 12), ("D4", 12), ("pass", 12)] * 2


def test_a_record_move_the_bot_cannot_read_fails_the_engine_and_autopass_is_a_pass(tmp_path: Path) -> None:
    log = tmp_path / "seen.txt"
    engine = logging_engine(tmp_path, log, "'=\\n'")
    try:
        engine.start(None)
        engine.catch_up([(1, "E5"), (2, "autopass"), (1, "PASS")])
        for garbage in ("banana", "resign", "", "Z1", "E5\0"):
            with pytest.raises(EngineFailed, match="cannot read"):
                engine.catch_up([(1, "E5"), (2, "autopass"), (1, "PASS"), (2, garbage)])
    finally:
        engine.close()
    sent = [line.strip() for line in log.read_text().splitlines()]
    assert sent[3:6] == ["play b E5", "play w pass", "play b pass"]
    assert not any("play w pass" in line for line in sent[6:]), sent


def test_a_huge_answer_is_refused_before_it_is_all_read() -> None:
    """The body is read in pieces and dropped past MAX_ANSWER, not held whole first."""
    produced = 0
    piece = b"x" * 65536

    async def endless() -> AsyncIterator[bytes]:
        nonlocal produced
        while produced < 4 * MAX_ANSWER:
            produced += len(piece)
            yield piece

    async def ask() -> None:
        transport = httpx.MockTransport(lambda _request: httpx.Response(200, content=endless()))
        api = MiaiApi("http://miai.test", "t", transport=transport)
        try:
            await api.dashboard()
        finally:
            await api.close()

    with pytest.raises(ServerError, match=f"larger than {MAX_ANSWER} bytes"):
        asyncio.run(ask())
    assert produced <= MAX_ANSWER + len(piece)


def test_json_nested_too_deep_is_a_server_error() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000

    async def ask() -> None:
        transport = httpx.MockTransport(lambda _request: httpx.Response(200, content=deep))
        api = MiaiApi("http://miai.test", "t", transport=transport)
        try:
            await api.dashboard()
        finally:
            await api.close()

    with pytest.raises(ServerError, match="not JSON"):
        asyncio.run(ask())


@pytest.mark.parametrize(
    ("started", "now"),
    [
        ("2026-03-01T12:00:00", "2026-03-01T12:00:10+00:00"),
        ("2026-03-01T12:00:00+00:00", "2026-03-01T12:00:10"),
        ("2026-03-01T13:00:00+01:00", "2026-03-01T12:00:10"),
        ("2026-03-01T12:00:00", "2026-03-01T12:00:10"),
    ],
)
def test_the_engine_is_told_the_time_left_whether_or_not_the_times_have_a_zone(
    started: str, now: str
) -> None:
    """A time without a zone is the server's UTC: 10 s of a 300 s main time are gone either way."""
    game = {
        "options": {**GO, "clock": "fischer", "main_time": 300, "increment": 10},
        "clocks": {"1": {"main": 300}},
        "turn_started_at": started,
        "now": now,
    }
    assert _time_left(game, 1) == (290.0, 0)
