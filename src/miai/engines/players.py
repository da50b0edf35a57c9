"""One computer player per game: held between moves by the process that runs its searches.

A server game asks for one move at a time (`choose(MoveRequest)`); the player that answers stays in this
process's `PlayerCache`, keyed by (game, seat), so the next move of the same game reuses its search tree,
keeps counting hopeless searches towards resigning, keeps its dynamic komi, and an external GTP engine
(GNU Go, KataGo, ...) keeps one process for the whole game. `release(game)` closes the game's players
(external engines' processes end); the cache also closes the least recently used players beyond its
capacity and those idle for too long.

Each answer carries a memo (`MoveChoice.memo`, JSON-able): whoever stores it and sends it back with a later
request lets a player made in another process (after a restart, on another worker) carry on resigning and
giving dynamic komi as this one would have. A held player takes a memo only when it is newer than its own
knowledge of the game; a malformed memo is ignored.

Amazons, Hex and Tanbo have no state worth keeping between moves here: their generic search restarts from
each position (its tree cannot follow a state rebuilt in another process), so the cache holds a stateless
chooser for them.
"""

from __future__ import annotations

import atexit
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from miai.core.go import GoState
from miai.engines.game_search import GameSearcher
from miai.engines.go_player import GoPlayer
from miai.engines.levels import DefaultTime, check_level, make_move_generator, style
from miai.engines.record import decode_state, encode_move
from miai.engines.searchers import choose_move_any_game, searcher_for

CAPACITY = 64  # players held at most by one process
IDLE_SECONDS = 30 * 60.0  # a player unused this long is closed
MAX_SECONDS = 24 * 3600.0  # longest think time a request may ask for
MAX_SEED = 2**63


@dataclass(frozen=True)
class MoveRequest:
    """One move to choose for a computer seat of a game (picklable)."""

    game: int | None  # the game this player follows; None: a one-off search without per-game state
    seat: int  # the computer's user id in that game (several computers may share one game)
    state: Any  # Go: miai.engines.record.encode_state(state); other kinds: pool.portable(state)
    level: int | str  # 1..10, or an external engine's name or level
    seed: int
    seconds: float | None
    memo: dict[str, Any] | None = None  # the player's saved state, to restore it where it is not held


@dataclass(frozen=True)
class MoveChoice:
    move: Any  # Go: record text (record.encode_move); other kinds: the move object
    memo: dict[str, Any] | None  # JSON-able: restores this game's player in another process


class Seat(Protocol):
    """A computer player of one game, as the cache holds it."""

    def move(self, state: Any, seconds: float | None, seed: int) -> Any: ...
    def memo(self) -> dict[str, Any] | None: ...
    def restore(self, memo: object, state: Any) -> bool: ...
    def close(self) -> None: ...
    def stats(self) -> dict[str, Any]: ...


class GoSeat:
    """Miai's Go engine or an external GTP engine, kept for one game."""

    def __init__(self, level: int | str, seconds: float | None, seed: int) -> None:
        self.level = level
        self.seconds = seconds
        self.player = make_move_generator(level, seconds, seed)

    def move(self, state: GoState, seconds: float | None, seed: int) -> str:
        if seconds != self.seconds:
            self._retime(seconds)
        return encode_move(self.player(state, state.to_move, seconds))

    def _retime(self, seconds: float | None) -> None:
        """Another time per move than the player was made for: keep the player (its tree, its memo)."""
        if isinstance(self.player, GoPlayer) and isinstance(self.level, int):
            self.player.style = style(self.level, seconds)
        elif isinstance(self.player, DefaultTime) and seconds is not None:
            self.player.seconds = seconds
        self.seconds = seconds

    def memo(self) -> dict[str, Any] | None:
        return self.player.memo() if isinstance(self.player, GoPlayer) else None

    def restore(self, memo: object, state: GoState) -> bool:
        return isinstance(self.player, GoPlayer) and self.player.restore(memo, state)

    def close(self) -> None:
        close: Callable[[], None] | None = getattr(self.player, "close", None)
        if close is not None:
            close()

    def stats(self) -> dict[str, Any]:
        if isinstance(self.player, GoPlayer):
            last = self.player.last
            return {"engine": "miai", "reused": last.reused if last is not None else 0}
        return {"engine": "external"}


class AnyGameSeat:
    """Other kinds than Go: the game's compiled searcher (its tree kept between moves) when it has one,
    else the generic stateless search."""

    def __init__(self, level: int | str) -> None:
        if isinstance(level, str) and level.strip().isdigit():
            level = int(level.strip())
        if isinstance(level, bool) or not isinstance(level, int):
            raise ValueError(f"levels for this game are 1..10, not {level!r}")
        self.level = level
        self.searcher: GameSearcher | None = None
        self.checked = False

    def move(self, state: Any, seconds: float | None, seed: int) -> Any:
        if not self.checked:
            self.checked = True
            self.searcher = searcher_for(state)
        if self.searcher is None:
            return choose_move_any_game(state, self.level, seed, seconds)
        check_level(self.level)
        return self.searcher.move(state, self.level, seconds, seed)

    def memo(self) -> dict[str, Any] | None:
        return None

    def restore(self, memo: object, state: Any) -> bool:
        return False

    def close(self) -> None:
        if self.searcher is not None:
            self.searcher.close()

    def stats(self) -> dict[str, Any]:
        return {"engine": "generic" if self.searcher is None else "compiled"}


Spec = tuple[str, int | str]  # what a player was made for: its game's kind and its level


@dataclass
class _Entry:
    spec: Spec
    seat: Seat
    used: float
    moves: int = 0
    busy: bool = False


class PlayerCache:
    """The players of one process by (game, seat): least recently used first out beyond `capacity`,
    and closed after `idle` seconds without a move. Thread-safe; closing happens outside the lock."""

    def __init__(
        self, capacity: int = CAPACITY, idle: float = IDLE_SECONDS, now: Callable[[], float] = time.monotonic
    ) -> None:
        if capacity < 1 or not idle > 0:
            raise ValueError("a player cache needs room for one player and a positive idle time")
        self.capacity = capacity
        self.idle = idle
        self.now = now
        self._entries: OrderedDict[tuple[int, int], _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: tuple[int, int], spec: Spec, make: Callable[[], Seat]) -> _Entry:
        """The player for `key` made for `spec` (a new one if it is missing or was made for another spec),
        marked busy until `give_back`."""
        closing: list[Seat] = []
        try:
            with self._lock:
                closing += self._expired()
                entry = self._entries.get(key)
                if entry is not None and entry.busy:
                    raise RuntimeError(f"the player of game {key[0]}, seat {key[1]} is already thinking")
                if entry is not None and entry.spec != spec:
                    closing.append(self._entries.pop(key).seat)  # another level or kind: start afresh
                    entry = None
                if entry is None:
                    entry = _Entry(spec, make(), self.now())
                    self._entries[key] = entry
                self._entries.move_to_end(key)
                entry.busy = True
                entry.used = self.now()
                while len(self._entries) > self.capacity:
                    oldest = next((k for k, e in self._entries.items() if not e.busy), None)
                    if oldest is None:
                        break
                    closing.append(self._entries.pop(oldest).seat)
        finally:
            _close_all(closing)
        return entry

    def give_back(self, entry: _Entry, served: bool) -> None:
        with self._lock:
            entry.busy = False
            entry.used = self.now()
            entry.moves += served

    def release(self, game: int) -> int:
        """Close and forget every player of `game`; returns how many there were."""
        with self._lock:
            keys = [k for k in self._entries if k[0] == game]
            closing = [self._entries.pop(k).seat for k in keys]
        _close_all(closing)
        return len(closing)

    def sweep(self) -> int:
        """Close the players idle for too long; returns how many."""
        with self._lock:
            closing = self._expired()
        _close_all(closing)
        return len(closing)

    def clear(self) -> int:
        with self._lock:
            closing = [e.seat for e in self._entries.values()]
            self._entries.clear()
        _close_all(closing)
        return len(closing)

    def held(self) -> list[dict[str, Any]]:
        """What is held, least recently used first: game, seat, kind, level, moves served, idle seconds,
        and the player's own figures (`reused`: visits its last search inherited from the one before)."""
        now = self.now()
        with self._lock:
            return [
                {
                    "game": game,
                    "seat": seat,
                    "kind": entry.spec[0],
                    "level": entry.spec[1],
                    "moves": entry.moves,
                    "idle": now - entry.used,
                    **entry.seat.stats(),
                }
                for (game, seat), entry in self._entries.items()
            ]

    def _expired(self) -> list[Seat]:
        limit = self.now() - self.idle
        keys = [k for k, e in self._entries.items() if not e.busy and e.used <= limit]
        return [self._entries.pop(k).seat for k in keys]


def _close_all(seats: list[Seat]) -> None:
    for seat in seats:
        try:
            seat.close()
        except Exception:  # one engine failing to quit must not keep the others open
            continue


# ----------------------------------------------------------------- the process's players

_cache = PlayerCache()
_sweeper: threading.Thread | None = None
_sweeper_lock = threading.Lock()


def cache() -> PlayerCache:
    return _cache


def _start_sweeper() -> None:
    """Close idle players even when no request comes (a worker whose games all went quiet)."""
    global _sweeper
    with _sweeper_lock:
        if _sweeper is not None:
            return

        def loop() -> None:
            while True:
                time.sleep(min(60.0, _cache.idle / 2))
                _cache.sweep()

        _sweeper = threading.Thread(target=loop, name="miai-player-sweeper", daemon=True)
        _sweeper.start()
        atexit.register(_cache.clear)  # external engines quit with the process


def choose(request: MoveRequest) -> MoveChoice:
    """The move of `request.seat` in `request.game`, by the player this process holds for it (made on
    first use; restored from `request.memo` when that is newer). Raises ValueError on a bad request."""
    _check(request)
    go = isinstance(request.state, dict)
    state = decode_state(request.state) if go else request.state
    level = request.level.strip() if isinstance(request.level, str) else request.level
    if isinstance(level, str) and level.isdigit():
        level = int(level)
    kind = "go" if go else f"{type(state).__module__}.{type(state).__qualname__}"

    def make() -> Seat:
        return GoSeat(level, request.seconds, request.seed) if go else AnyGameSeat(level)

    if request.game is None:
        seat = make()
        try:
            return MoveChoice(seat.move(state, request.seconds, request.seed), None)
        finally:
            seat.close()
    _start_sweeper()
    entry = _cache.take((request.game, request.seat), (kind, level), make)
    served = False
    try:
        if request.memo is not None:
            entry.seat.restore(request.memo, state)
        move = entry.seat.move(state, request.seconds, request.seed)
        served = True
        return MoveChoice(move, entry.seat.memo())
    finally:
        _cache.give_back(entry, served)


def release(game: int) -> int:
    """Close and forget the players of `game` (its external engines' processes end); returns how many."""
    if isinstance(game, bool) or not isinstance(game, int):
        raise ValueError(f"a game is identified by a whole number, not {game!r}")
    return _cache.release(game)


def held() -> list[dict[str, Any]]:
    """The players this process holds (see `PlayerCache.held`)."""
    return _cache.held()


def _check(request: MoveRequest) -> None:
    def whole(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not isinstance(request, MoveRequest):
        raise ValueError(f"expected a MoveRequest, not {type(request).__name__}")
    if request.game is not None and not whole(request.game):
        raise ValueError(f"a game is identified by a whole number, not {request.game!r}")
    if not whole(request.seat):
        raise ValueError(f"a seat is a user id, not {request.seat!r}")
    if not (whole(request.seed) and 0 <= request.seed < MAX_SEED):
        raise ValueError(f"a seed is a whole number from 0 to 2**63-1, not {request.seed!r}")
    level = request.level
    if (
        isinstance(level, bool)
        or not isinstance(level, int | str)
        or (isinstance(level, str) and len(level) > 100)
    ):
        raise ValueError(f"a level is 1..10 or an external engine's name or level, not {level!r}")
    seconds = request.seconds
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS)
    ):
        raise ValueError(f"the time per move must be a positive number of seconds, not {seconds!r}")
