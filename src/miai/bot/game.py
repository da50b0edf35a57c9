"""Plays one game: waits for the bot's turn, keeps its own engine in step, sends the engine's moves.

Each game has its own engine process, started at the bot's first turn. The game loop reads the game
from the server every time it is woken (a websocket ping) or after `poll` seconds, so a missed ping or a
reconnect costs at most one poll, and a game already under way after a restart simply carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from miai.bot.api import MiaiApi, ServerError
from miai.bot.engine import Clock, Engine, EngineFailed

OVER = frozenset({"finished", "cancelled"})
GONE = frozenset({401, 403, 404})  # the game is not ours to play (any more)


class GameLoop:
    def __init__(
        self,
        api: MiaiApi,
        game_id: int,
        me: int,
        argv: Sequence[str],
        log: Callable[[str], None],
        poll: float = 5.0,
    ) -> None:
        self.api = api
        self.game_id = game_id
        self.me = me
        self.argv = list(argv)
        self.log = log
        self.poll = poll
        self.wake = asyncio.Event()
        self.engine: Engine | None = None

    def say(self, text: str) -> None:
        self.log(f"game {self.game_id}: {text}")

    async def run(self) -> None:
        try:
            await self._play()
        except Exception as err:  # a bug or an answer nobody foresaw: this game is lost, not the bot
            await self._engine_died(f"{type(err).__name__}: {err}", what="the game loop failed")
        finally:
            if self.engine is not None:
                await asyncio.to_thread(self.engine.close)
                self.engine = None

    async def _sleep(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), timeout=self.poll)
        self.wake.clear()

    async def _play(self) -> None:
        refused_moves = 0
        while True:
            try:
                game = await self.api.game(self.game_id)
            except ServerError as err:
                self.say(f"cannot read the game: {err}")
                if err.status in GONE:
                    return
                await self._sleep()
                continue
            status = game["status"]
            if status in OVER:
                self.say(f"over: {status} {_result_text(game.get('result'))}")
                return
            to_move: dict[str, Any] = game["to_move"] if isinstance(game.get("to_move"), dict) else {}
            team = to_move.get("team")
            if status != "active" or to_move.get("user_id") != self.me or not isinstance(team, int):
                await self._sleep()
                continue
            try:
                move = await self._think(game, team)
            except EngineFailed as err:
                await self._engine_died(str(err))
                return
            version = game.get("version") if isinstance(game.get("version"), int) else None
            try:
                if move == "resign":
                    self.say("the engine resigns")
                    await self.api.resign(self.game_id)
                    continue
                await self.api.move(self.game_id, move, version)
                refused_moves = 0
            except ServerError as err:
                self.say(f"move {move} refused: {err}")
                if self.engine is not None:
                    self.engine.undo_last()
                refused_moves += 1
                if err.status == 422 and refused_moves >= 2:  # the engine insists on an illegal move
                    refused_moves = 0
                    with contextlib.suppress(ServerError):  # at this version only: never a later turn's
                        await self.api.move(self.game_id, "pass", version)
                await self._sleep()

    async def _think(self, game: dict[str, Any], team: int) -> str:
        """The engine's move for this position (its engine started at the bot's first turn)."""
        if self.engine is None:
            self.engine = await asyncio.to_thread(self._start_engine, game)
        engine = self.engine
        moves = _moves_of(game)
        await asyncio.to_thread(engine.catch_up, moves)
        left = _time_left(game, team)
        if left is not None:
            await asyncio.to_thread(engine.time_left, team, *left)
        return await asyncio.to_thread(engine.genmove, team)

    def _start_engine(self, game: dict[str, Any]) -> Engine:
        options = game["options"]
        size = options.get("size")
        if not isinstance(size, int) or not 2 <= size <= 25:
            raise EngineFailed(f"a board size the bot cannot play: {size!r}")
        engine = Engine(self.argv, size, _komi(game))
        self.say(f"engine started (pid {engine.pid})")
        try:
            engine.start(_clock(options))
        except EngineFailed:
            engine.close()
            raise
        return engine

    async def _engine_died(self, why: str, what: str = "engine failed") -> None:
        """Resign this game (the engine or the loop cannot go on); the next game starts a fresh engine."""
        self.say(f"{what} ({why}); resigning")
        if self.engine is not None:
            await asyncio.to_thread(self.engine.close)
            self.engine = None
        try:
            await self.api.resign(self.game_id)
        except ServerError as err:
            self.say(f"could not resign: {err}")


def _moves_of(game: dict[str, Any]) -> list[tuple[int, str]]:
    moves = game.get("moves")
    if not isinstance(moves, list):
        raise EngineFailed("the game's record has no moves list")
    record = []
    for m in moves:
        if (
            not isinstance(m, dict)
            or not isinstance(m.get("team"), int)
            or not isinstance(m.get("move"), str)
        ):
            continue  # an agreed draw has no team; nothing for the board
        record.append((m["team"], m["move"]))
    return record


def _komi(game: dict[str, Any]) -> float:
    """White's komi less Black's, as GTP's one number (the server keeps one per colour)."""
    rules = game.get("rules") if isinstance(game.get("rules"), dict) else {}
    komi = rules.get("komi") if rules else None
    if isinstance(komi, list) and len(komi) == 2 and all(isinstance(k, int | float) for k in komi):
        value = float(komi[1]) - float(komi[0])
        if -100 <= value <= 100:
            return value
    return 0.0


def _clock(options: dict[str, Any]) -> Clock | None:
    kind = options.get("clock")
    main = _number(options.get("main_time"))
    if kind == "fischer":  # GTP has no increments: a Canadian period of one stone is the nearest
        return Clock(main, _number(options.get("increment")), 1)
    if kind == "byoyomi":
        return Clock(main, _number(options.get("period_time")), 1)
    return None


def _time_left(game: dict[str, Any], team: int) -> tuple[float, int] | None:
    """(seconds, stones) for GTP's time_left: the main time still on the clock, else one period."""
    options = game["options"]
    if _clock(options) is None:
        return None
    clocks = game.get("clocks") if isinstance(game.get("clocks"), dict) else {}
    mine = clocks.get(str(team)) if clocks else None
    if not isinstance(mine, dict):
        return None
    main = _number(mine.get("main")) - _elapsed(game)
    if main > 0:
        return main, 0
    period = _number(options.get("period_time") or options.get("increment"))
    return period, 1


def _elapsed(game: dict[str, Any]) -> float:
    """Seconds since the turn started, by the server's own clock (`now`); 0 when either is unreadable."""
    started = _instant(game.get("turn_started_at"))
    now = _instant(game.get("now"))
    if started is None or now is None:
        return 0.0
    return max(0.0, (now - started).total_seconds())


def _instant(value: Any) -> datetime | None:
    """An ISO 8601 time; one without a zone is UTC (the server's), so naive and aware ones subtract."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    number = float(value)
    return number if 0 <= number <= 1e9 else 0.0


def _result_text(result: Any) -> str:
    if isinstance(result, dict):
        return str(result.get("text") or result.get("winner") or "")[:80]
    return ""
