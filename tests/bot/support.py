"""A Miai server on loopback, accounts made through its API, and `miai bot` run as its owner would."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import REPO

SWITCH = {"confirm": "irreversible"}


@dataclass
class Account:
    api: httpx.Client
    name: str
    user_id: int
    token: str

    def ok(self, path: str, body: Any = None) -> Any:
        answer = self.api.post(path, json=body)
        assert answer.status_code < 300, answer.text
        return answer.json()

    def game(self, game_id: int) -> dict[str, Any]:
        answer = self.api.get(f"/games/{game_id}")
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data


def account(base: str, prefix: str, bot: bool = False) -> Account:
    """A new account (a unique name) with an API token; marked as a bot with `bot`."""
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    web = httpx.Client(base_url=f"{base}/api/v1", timeout=30)
    made = web.post("/accounts", json={"username": name, "password": "correct horse", "email": None})
    assert made.status_code == 201, made.text
    token = web.post("/me/tokens", json={"name": "bot"}, headers={"x-csrf-token": made.json()["csrf_token"]})
    assert token.status_code == 201, token.text
    web.close()
    api = httpx.Client(
        base_url=f"{base}/api/v1", timeout=30, headers={"authorization": f"Bearer {token.json()['token']}"}
    )
    player = Account(api, name, made.json()["user"]["id"], token.json()["token"])
    if bot:
        player.ok("/me/bot", SWITCH)
    return player


class BotProcess:
    """`python -m miai bot ...`, its stderr in a file the test reads."""

    def __init__(self, log: Path, process: subprocess.Popen[bytes]) -> None:
        self.log = log
        self.process = process

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout: float = 30.0, after: int = 0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.text(), after)
            if found is not None:
                return found
            if self.process.poll() is not None:
                raise AssertionError(f"the bot exited ({self.process.returncode}):\n{self.text()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern!r} in the bot's log within {timeout} s:\n{self.text()}")
            time.sleep(0.1)


def bot_command(base: str, token: str, engine: Sequence[str], *policy: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "miai",
        "bot",
        "--server",
        base,
        "--token",
        token,
        "--poll",
        "0.5",
        *policy,
        "--",
        *engine,
    ]


@contextmanager
def running_bot(
    tmp: Path, base: str, token: str, engine: Sequence[str], *policy: str
) -> Iterator[BotProcess]:
    log = tmp / f"bot-{uuid.uuid4().hex[:6]}.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            bot_command(base, token, engine, *policy),
            stdout=subprocess.DEVNULL,
            stderr=sink,
            env={**__import__("os").environ, "PYTHONPATH": str(REPO / "src")},
        )
    bot = BotProcess(log, process)
    try:
        bot.wait_for("connected")
        yield bot
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def challenge(player: Account, bot: Account, **options: Any) -> int:
    made = player.ok("/games", {"challenge": bot.name, "size": 9, **options})
    return int(made["id"])


OPENING = ("C3", "G7", "C7", "G3", "E5")


def play_simply(player: Account, game_id: int, timeout: float = 150.0) -> dict[str, Any]:
    """Confirm, play the `OPENING` stones that are still free, then pass at every turn until the game
    ends; the finished game."""
    stones = list(OPENING)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = player.game(game_id)
        if game["status"] in {"finished", "cancelled"}:
            return game
        if game["status"] == "confirming":
            mine = next(p for p in game["players"] if p["user_id"] == player.user_id)
            if not mine["confirmed"]:
                player.ok(f"/games/{game_id}/confirm")
        elif game["status"] == "active" and game["to_move"].get("user_id") == player.user_id:
            while stones:  # a stone on a taken point is refused: the next one
                stone = stones.pop(0)
                played = player.api.post(f"/games/{game_id}/moves", json={"move": stone})
                if played.status_code == 200:
                    break
            else:
                player.api.post(f"/games/{game_id}/moves", json={"move": "pass", "version": game["version"]})
            continue
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not end within {timeout} s: {player.game(game_id)}")
