"""`miai bot` against a real server on loopback (issue #19, "Must show"): bots backed by GNU Go and by
`miai gtp --level 1` accept a challenge and play a whole 9x9 game; an engine killed mid-game makes the bot
resign and stay connected; a challenge outside the policy is declined with its reason."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from miai.formats.gtp.gnugo import find_gnugo
from tests.bot.support import Account, account, challenge, play_simply, running_bot
from tests.conftest import need
from tests.web.support import miai_server

MIAI_GTP = [sys.executable, "-m", "miai", "gtp", "--level", "1"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with miai_server(tmp_path_factory.mktemp("bot-server")) as base:
        yield base


@pytest.fixture
def accounts(server: str) -> Iterator[Callable[..., Account]]:
    """New accounts on the server; their HTTP clients closed afterwards."""
    made: list[Account] = []

    def make(prefix: str, bot: bool = False) -> Account:
        made.append(account(server, prefix, bot))
        return made[-1]

    yield make
    for player in made:
        player.api.close()


def gnugo_command() -> list[str]:
    path = find_gnugo()
    need(path is not None, "GNU Go not installed")
    assert path is not None
    return [path, "--mode", "gtp", "--level", "1"]


def _a_complete_game(
    server: str, tmp_path: Path, accounts: Callable[..., Account], engine: list[str]
) -> None:
    person, bot = accounts("person"), accounts("bot", bot=True)
    with running_bot(tmp_path, server, bot.token, engine) as process:
        game_id = challenge(person, bot, clock="fischer", main_time=300, increment=10)
        process.wait_for(rf"game {game_id}: accepted the challenge of {person.name}")
        game = play_simply(person, game_id)
        assert game["status"] == "finished", game
        assert game["result"], game
        bot_moves = [m for m in game["moves"] if m["user_id"] == bot.user_id]
        assert any(m["move"] != "pass" for m in bot_moves), game["moves"]  # the engine played stones
        assert game["moves"][-1]["move"] == "pass" and game["moves"][-2]["move"] == "pass"  # ended by passes
        assert "resign" not in {m["move"] for m in game["moves"]}
        process.wait_for(rf"game {game_id}: over: finished")


@pytest.mark.gnugo
def test_a_gnugo_bot_plays_a_whole_game(
    server: str, tmp_path: Path, accounts: Callable[..., Account]
) -> None:
    _a_complete_game(server, tmp_path, accounts, gnugo_command())


def test_a_miai_gtp_bot_plays_a_whole_game(
    server: str, tmp_path: Path, accounts: Callable[..., Account]
) -> None:
    _a_complete_game(server, tmp_path, accounts, MIAI_GTP)


@pytest.mark.gnugo
def test_a_dead_engine_resigns_its_game_and_the_bot_plays_on(
    server: str, tmp_path: Path, accounts: Callable[..., Account]
) -> None:
    person, bot = accounts("person"), accounts("bot", bot=True)
    with running_bot(tmp_path, server, bot.token, gnugo_command()) as process:
        first = challenge(person, bot, team=1)  # the person is Black: moves first
        process.wait_for(rf"game {first}: accepted")
        person.ok(f"/games/{first}/confirm")
        person.ok(f"/games/{first}/moves", {"move": "E5"})
        pid = int(process.wait_for(rf"game {first}: engine started \(pid (\d+)\)").group(1))
        # The engine has played its first move; kill it before its next one.
        _wait_for_turn(person, first)
        os.kill(pid, signal.SIGKILL)
        person.ok(f"/games/{first}/moves", {"move": _free_point(person, first)})
        process.wait_for(rf"game {first}: engine failed .*; resigning")
        game = person.game(first)
        assert game["status"] == "finished" and game["moves"][-1]["move"] == "resign", game
        assert game["moves"][-1]["user_id"] == bot.user_id
        # Still connected: the next challenge is accepted and played with a fresh engine.
        second = challenge(person, bot, team=1)
        process.wait_for(rf"game {second}: accepted")
        person.ok(f"/games/{second}/confirm")
        person.ok(f"/games/{second}/moves", {"move": "E5"})
        fresh = int(process.wait_for(rf"game {second}: engine started \(pid (\d+)\)").group(1))
        assert fresh != pid
        _wait_for_turn(person, second)
        assert process.process.poll() is None


def _free_point(person: Account, game_id: int) -> str:
    taken = {m["move"] for m in person.game(game_id)["moves"]}
    return next(point for point in ("C3", "G7", "C7", "G3", "B2", "H8") if point not in taken)


def _wait_for_turn(person: Account, game_id: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        game = person.game(game_id)
        if game["to_move"].get("user_id") == person.user_id:
            return
        time.sleep(0.1)
    raise AssertionError(f"the bot did not move in game {game_id}")


def test_a_challenge_outside_the_policy_is_declined_with_its_reason(
    server: str, tmp_path: Path, accounts: Callable[..., Account]
) -> None:
    person, bot = accounts("person"), accounts("bot", bot=True)
    with running_bot(tmp_path, server, bot.token, MIAI_GTP, "--sizes", "9", "--clocks", "none") as process:
        too_big = challenge(person, bot, size=13)
        process.wait_for(rf"game {too_big}: declined")
        seen = person.game(too_big)
        assert seen["status"] == "cancelled"
        assert seen["cancelled"] == {"reason": "declined", "message": "this bot plays on 9x9, not 13x13"}
        clocked = challenge(person, bot, clock="byoyomi", main_time=60, periods=3, period_time=10)
        process.wait_for(rf"game {clocked}: declined")
        message = person.game(clocked)["cancelled"]["message"]
        assert message == "this bot plays with the clocks none, not byoyomi"
        fine = challenge(person, bot)
        process.wait_for(rf"game {fine}: accepted")
        assert person.game(fine)["status"] == "confirming"


def test_a_restarted_bot_picks_up_its_game_where_it_was(
    server: str, tmp_path: Path, accounts: Callable[..., Account]
) -> None:
    """Resync: the bot finds the games under way from the dashboard when it (re)connects."""
    person, bot = accounts("person"), accounts("bot", bot=True)
    with running_bot(tmp_path, server, bot.token, MIAI_GTP) as process:
        game_id = challenge(person, bot, team=1)
        process.wait_for(rf"game {game_id}: accepted")
        person.ok(f"/games/{game_id}/confirm")
        person.ok(f"/games/{game_id}/moves", {"move": "E5"})
        _wait_for_turn(person, game_id)
    person.ok(f"/games/{game_id}/moves", {"move": _free_point(person, game_id)})  # the bot is away
    with running_bot(tmp_path, server, bot.token, MIAI_GTP) as process:
        process.wait_for(rf"game {game_id}: engine started")
        _wait_for_turn(person, game_id)
        game = person.game(game_id)
        assert game["status"] == "active" and len(game["moves"]) == 4, game["moves"]
        assert game["moves"][-1]["user_id"] == bot.user_id
